package snapshot

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/schema"
)

// eosZeroDSCP is an out-of-band policy on an Arista switch that rewrites
// RoCE (UDP 4791) to DSCP 0 while keeping it in traffic class 3 there:
// the seed's core switch, as configuration.
func eosZeroDSCP(ports []string) []string {
	lines := []string{"ip access-list ROCE-ZERO", "   10 permit udp any any eq 4791",
		"class-map type qos match-any ROCE-ZERO", "   match ip access-group ROCE-ZERO",
		"policy-map type quality-of-service ROCE-ZERO", "   class ROCE-ZERO", "      set dscp 0", "      set traffic-class 3"}
	for _, p := range ports {
		lines = append(lines, "interface "+p, "   service-policy type qos input ROCE-ZERO")
	}
	return lines
}

// want is a finding a case must produce: its rule, and text its summary holds.
type want struct {
	rule, text string
}

func (w want) String() string { return w.rule + " " + w.text }

// opticalHostLink makes nic02's host link an optical one (the example's
// host links are 3 m DACs, which have no optics): the hosts' `ethtool -m`
// is then judged too.
func opticalHostLink(f *schema.Fabric) {
	for _, l := range f.Links {
		if l.A != nil && l.A.Device != nil && l.A.Device.Name == "nic02" {
			l.Media = schema.Value[string]{V: "fiber", Set: true}
		}
	}
}

// TestChecksOnTheLab runs every check against the lab serving
// examples/clos-400g (all seven platforms) with the intent applied: a
// healthy fabric has no finding at or above warning, and each fault (or
// out-of-band change) produces its check's finding, once per cause, which
// the healthy run did not have.
func TestChecksOnTheLab(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 38-device lab")
	}
	fl := startFabricLab(t, "clos-400g", opticalHostLink)
	healthy, _, after := fl.check(t, 10*time.Second)
	for _, f := range healthy {
		if f.Severity >= schema.SevWarning {
			t.Errorf("healthy lab: %s %s: %s", f.Severity, f.Rule, f.Summary)
		}
	}
	for _, rule := range []string{"CHK005", "CHK006", "CHK012"} {
		if !hasNotEvaluated(healthy, rule) {
			t.Errorf("healthy lab: no \"not evaluated\" info for %s on a platform that does not expose its signal", rule)
		}
	}
	// Every platform's queue bytes are read (Cumulus through its QoS
	// counters), so RoCE's class is followed over every hop.
	for _, f := range healthy {
		if f.Rule == "CHK014" {
			t.Errorf("healthy lab: %s", f.Summary)
		}
		if strings.Contains(f.Summary, "optical link end") {
			t.Errorf("healthy lab: an optical end without readings: %s", f.Summary)
		}
	}
	// DAC ends report no optics, in each platform's way, and nothing
	// judges optics there.
	for _, dev := range []string{"nic01", "leaf1", "leaf2", "leaf3", "leaf4"} {
		d := after.Device(dev)
		pp := d.Port(fl.f.Device(dev).Ports[0].Name)
		for k := range pp.Gauges {
			if fam, _ := check.SplitKey(k); fam == check.RxPower {
				t.Errorf("%s:%s is on a DAC but reports receive power", dev, pp.Name)
			}
		}
	}
	if !after.Device("nic01").Ports[0].Copper || !after.Device("leaf4").Port("swp1").Copper || !after.Device("leaf2").Port("Ethernet1/1").Copper {
		t.Error("the hosts, NX-OS and Cumulus do not say their DAC is copper")
	}
	var dirty lab.Fault
	if err := dirty.Set("dirty-optic=Ethernet1/1"); err != nil {
		t.Fatal(err)
	}
	if err := fl.lab.Device("leaf1").CheckFault(dirty); err == nil || !strings.Contains(err.Error(), "passive copper") {
		t.Errorf("a dirty optic on a DAC port is taken: %v", err)
	}
	spine2Ports := []string{}
	for _, p := range fl.f.Device("spine2").Ports {
		spine2Ports = append(spine2Ports, p.Name)
	}
	cases := []struct {
		name    string
		faults  map[string][]string
		oob     map[string][]string
		between func()
		want    []want
		// once are rules that must report exactly one finding (one
		// cause, one finding); not are rules that must report none.
		once, not []string
		// fix is text the first finding of want[0]'s rule must advise;
		// src a command want[0]'s finding must name in its evidence.
		fix, src string
	}{
		// Faults on different devices and ports that do not interact
		// share one run.
		{name: "optics, FEC, flaps, speed and a QP", faults: map[string][]string{"leaf1": {"weak-laser=Ethernet2/1"}, "leaf2": {"hot-optic=Ethernet1/31"},
			"spine1": {"low-voltage=et-0/0/0"}, "leaf3": {"bad-cable=Ethernet0"}, "leaf4": {"flap=swp1"}, "spine2": {"speed-down=Ethernet1/1"}, "nic03": {"qp-error=0x14"}},
			want: []want{{"CHK007", "CRC (FCS) errors rose by 400 at leaf3:Ethernet0"}, {"CHK002", "leaf1:Ethernet2/1 transmits -10.5 dBm"}, {"CHK001", "nic02:enp65s0f0np0 receives -1"},
				{"CHK003", "leaf2:Ethernet1/31 runs at 74.0 °C"}, {"CHK004", "spine1:et-0/0/0 is supplied 3.050 V"},
				{"CHK005", "uncorrectable FEC codewords rose by 400 at leaf3:Ethernet0"}, {"CHK006", "pre-FEC bit error ratio"},
				{"CHK020", "retransmit RoCE"}, {"CHK008", "link-down events rose by 2 at leaf4:swp1"}, {"CHK009", "runs at 200G, but the intent says 400G"},
				{"CHK019", "syndrome 0x14: remote operation error"}},
			once: []string{"CHK005", "CHK006", "CHK007", "CHK008", "CHK009"}, fix: "Reseat the copper cable"},
		{name: "dirty optic", faults: map[string][]string{"leaf1": {"dirty-optic=Ethernet31/1"}},
			want: []want{{"CHK010", "leaf1:Ethernet31/1 receives -18"}, {"CHK020", "retransmit RoCE"}},
			once: []string{"CHK010"}, not: []string{"CHK001", "CHK005", "CHK006", "CHK007"}, fix: "Clean the fibre connector"},
		{name: "pauses on a lossy priority", oob: map[string][]string{"nic01": {"mlnx_qos -i ens1f0np0 --pfc 1,0,0,1,0,0,0,0"}},
			faults: map[string][]string{"nic01": {"pause-storm=ens1f0np0"}},
			want:   []want{{"CHK011", "priority 0, which the intent keeps lossy"}, {"CHK016", "PFC is on for priorities 0,3"}}, once: []string{"CHK011"}},
		{name: "a NIC storms", faults: map[string][]string{"nic05": {"pause-storm=ens1f0np0"}},
			want: []want{{"CHK012", "pause storm on queue 3 and the queue has not recovered; the pauses come from nic05"}, {"CHK015", "leaf1:Ethernet5/1 dropped"}},
			once: []string{"CHK012"}, not: []string{"CHK013"}},
		{name: "a switch storms toward a NIC and a spine", faults: map[string][]string{"leaf1": {"pause-storm=Ethernet1/1", "pause-storm=Ethernet31/1"}},
			want: []want{{"CHK012", "leaf1:Ethernet1/1 sends PFC pause frames on priority 3 continuously"}, {"CHK012", "leaf1:Ethernet31/1 sends PFC pause frames on priority 3 continuously"}},
			not:  []string{"CHK013"}},
		{name: "pauses without ECN", faults: map[string][]string{"spine2": {"congest=pauses"}}, want: []want{{"CHK013", "spine2 sent"}}, not: []string{"CHK012"}},
		// Two spines carry equal ECMP shares: counters cannot tell which
		// rewrote, and the one finding says so (TestSeedCoreSwitch pins a
		// single core).
		{name: "hidden DSCP rewrite on a spine", faults: map[string][]string{"spine1": {"remark=0"}},
			want: []want{{"CHK014", "arrives at leaf1, leaf2, leaf3 and leaf4 in another class than it left spine1 or spine2"}}, once: []string{"CHK014"}},
		{name: "hidden DSCP rewrite on a leaf", faults: map[string][]string{"leaf1": {"remark=0"}},
			want: []want{{"CHK014", "leaves leaf1 in its class toward 10 devices (nic01"}}, once: []string{"CHK014"}},
		{name: "hidden DSCP rewrite on the Cumulus leaf", faults: map[string][]string{"leaf4": {"remark=0"}},
			want: []want{{"CHK014", "leaves leaf4 in its class toward 10 devices (nic25"}}, once: []string{"CHK014"}, src: "nv show interface swp1 counters qos -o json"},
		{name: "DSCP rewrite in the running config", oob: map[string][]string{"spine2": eosZeroDSCP(spine2Ports)},
			want: []want{{"CHK014", "leaves spine2 in its class toward 4 devices (leaf1, leaf2, leaf3 and leaf4)"}}, once: []string{"CHK014"}},
		{name: "drops in a lossless class", faults: map[string][]string{"spine2": {"congest=drops"}}, want: []want{{"CHK015", "spine2:Ethernet1/1 and 3 more ports"}}},
		{name: "DSCP map changed by hand", oob: map[string][]string{"leaf1": {"qos map dscp 26 to traffic-class 0"}},
			want: []want{{"CHK016", "DSCP 26 (roce) maps to priority 0, the intent says 3"}}},
		{name: "DCQCN turned off on a host by hand", oob: map[string][]string{"nic17": {"echo 0 > /sys/class/net/ens1f0np0/ecn/roce_np/enable/3",
			"echo 0 > /sys/class/net/ens1f0np0/ecn/roce_rp/enable/3"}}, faults: map[string][]string{"spine2": {"congest=marks"}},
			want: []want{{"CHK016", "the DCQCN notification point (CNPs for ECN marks) is off on priority 3"}, {"CHK016", "reaction point (rate control on CNPs) is off on priority 3"}, {"CHK017", "nic17:ens1f0np0 received"}},
			src:  "cat /sys/class/net/ens1f0np0/ecn/roce_np/enable/3 /sys/class/net/ens1f0np0/ecn/roce_rp/enable/3"},
		{name: "NP off", faults: map[string][]string{"spine2": {"congest=marks"}, "nic17": {"np-off"}}, want: []want{{"CHK017", "nic17:ens1f0np0 received"}}, not: []string{"CHK016"}},
		{name: "CNP dropped", faults: map[string][]string{"spine2": {"congest=marks"}, "leaf1": {"cnp-unmapped"}}, want: []want{{"CHK018", "the CNPs die at leaf1"}}},
		{name: "counters cleared", between: func() { fl.lab.Device("leaf2").ClearCounters() }, want: []want{{"CHK021", "leaf2: counters went down"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for dev, lines := range c.oob {
				if err := fl.lab.Device(dev).ConfigureOutOfBand(lines); err != nil {
					t.Fatal(err)
				}
			}
			for dev, settings := range c.faults {
				var f lab.Fault
				for _, s := range settings {
					if err := f.Set(s); err != nil {
						t.Fatal(err)
					}
				}
				if err := fl.lab.Device(dev).CheckFault(f); err != nil {
					t.Fatal(err)
				}
				fl.lab.Device(dev).SetFault(f)
			}
			var fs []check.Finding
			if c.between != nil {
				before, _ := Take(t.Context(), fl.f.Devices, fl.opts)
				fl.lab.Clock().Advance(10 * time.Second)
				c.between()
				after, _ := Take(t.Context(), fl.f.Devices, fl.opts)
				var err error
				if fs, err = check.Evaluate(fl.f, before, after, check.Options{}); err != nil {
					t.Fatal(err)
				}
			} else {
				fs, _, _ = fl.check(t, 10*time.Second)
			}
			for _, w := range c.want {
				if hasFinding(healthy, w) {
					t.Errorf("%s is reported on the healthy lab too", w)
				}
				if !hasFinding(fs, w) {
					t.Errorf("no %s; got:\n%s", w, summaries(fs))
				}
			}
			for _, rule := range c.once {
				if n := countRule(fs, rule); n != 1 {
					t.Errorf("%s: %d findings for one cause, want 1:\n%s", rule, n, summaries(fs))
				}
			}
			for _, rule := range c.not {
				if n := countRule(fs, rule); n != 0 {
					t.Errorf("%s: %d wrong findings:\n%s", rule, n, summaries(fs))
				}
			}
			if c.src != "" {
				named := false
				for _, f := range fs {
					for _, e := range f.Evidence {
						if f.Rule == c.want[0].rule && e.Source == c.src {
							named = true
						}
					}
				}
				if !named {
					t.Errorf("no %s evidence read with `%s`", c.want[0].rule, c.src)
				}
			}
			if c.fix != "" {
				for _, f := range fs {
					if f.Rule == c.want[0].rule && f.Severity >= schema.SevWarning && !strings.Contains(f.Fix, c.fix) {
						t.Errorf("%s advises %q, want %q", f.Rule, f.Fix, c.fix)
					}
				}
			}
			for _, f := range fs {
				for _, e := range f.Evidence {
					if f.Severity >= schema.SevWarning && e.Source == "" && !strings.HasSuffix(e.Metric, "_total") && e.Metric != "other_class_bytes_gained" {
						t.Errorf("%s %s: evidence %s:%s %s names no command", f.Rule, f.Summary, e.Device, e.Port, e.Metric)
					}
				}
			}
			for dev := range c.faults {
				fl.lab.Device(dev).ClearFault()
			}
			if len(c.oob) > 0 {
				fl.apply(t)
			}
		})
	}
	t.Run("healthy again", func(t *testing.T) {
		fs, _, _ := fl.check(t, 10*time.Second)
		for _, f := range fs {
			if f.Severity >= schema.SevWarning {
				t.Errorf("after clearing every fault: %s %s: %s", f.Severity, f.Rule, f.Summary)
			}
		}
	})
	t.Run("data-plane faults survive apply", func(t *testing.T) {
		var f lab.Fault
		if err := f.Set("dirty-optic=Ethernet31/1"); err != nil {
			t.Fatal(err)
		}
		fl.lab.Device("leaf1").SetFault(f)
		defer fl.lab.Device("leaf1").ClearFault()
		if err := fl.lab.Device("leaf1").ConfigureOutOfBand([]string{"qos map dscp 26 to traffic-class 0"}); err != nil {
			t.Fatal(err)
		}
		fl.apply(t)
		fs, _, _ := fl.check(t, 10*time.Second)
		if !hasFinding(fs, want{"CHK010", "leaf1:Ethernet31/1"}) {
			t.Errorf("the dirty optic is gone after apply:\n%s", summaries(fs))
		}
		if hasFinding(fs, want{"CHK016", "leaf1"}) {
			t.Errorf("apply did not repair the configuration:\n%s", summaries(fs))
		}
	})
}

// countRule is the number of findings of a rule at warning or above.
func countRule(fs []check.Finding, rule string) int {
	n := 0
	for _, f := range fs {
		if f.Rule == rule && f.Severity >= schema.SevWarning {
			n++
		}
	}
	return n
}

func hasFinding(fs []check.Finding, w want) bool {
	for _, f := range fs {
		if f.Rule == w.rule && f.Severity > schema.SevInfo == (w.rule != "CHK021") && strings.Contains(f.Summary, w.text) {
			return true
		}
	}
	return false
}

func hasNotEvaluated(fs []check.Finding, rule string) bool {
	for _, f := range fs {
		if f.Rule == rule && f.Severity == schema.SevInfo && strings.Contains(f.Summary, "not evaluated") {
			return true
		}
	}
	return false
}

func summaries(fs []check.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "  %s %s: %s\n", f.Severity, f.Rule, f.Summary)
	}
	return b.String()
}

// TestSeedCoreSwitch is the seed's second case on its own topology
// (examples/ai-training-2subnet: two GPU subnets routed through one core
// switch, every hop classifying UDP 4791 by ACL). The core stops applying
// its RoCE policy (a hand edit), so RoCE crosses it in the default class,
// and check pins it to the core. A hidden DSCP rewrite on the core's
// egress, by contrast, is repaired by the next hop's ACL, as the intent
// means it to be: no finding.
func TestSeedCoreSwitch(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a lab")
	}
	fl := startFabricLab(t, "ai-training-2subnet")
	fs, _, _ := fl.check(t, 10*time.Second)
	for _, f := range fs {
		if f.Severity >= schema.SevWarning {
			t.Errorf("healthy: %s %s: %s", f.Severity, f.Rule, f.Summary)
		}
	}
	var f lab.Fault
	if err := f.Set("remark=0"); err != nil {
		t.Fatal(err)
	}
	fl.lab.Device("core1").SetFault(f)
	fs, _, _ = fl.check(t, 10*time.Second)
	for _, f := range fs {
		if f.Rule == "CHK014" && f.Severity >= schema.SevWarning {
			t.Errorf("a rewrite the next hop's ACL repairs is reported: %s", f.Summary)
		}
	}
	fl.lab.Device("core1").ClearFault()
	var lines []string
	for _, p := range fl.f.Device("core1").Ports {
		lines = append(lines, "interface "+p.Name, "   no service-policy type qos input PM-roce-mark", "   no qos trust")
	}
	if err := fl.lab.Device("core1").ConfigureOutOfBand(lines); err != nil {
		t.Fatal(err)
	}
	fs, _, _ = fl.check(t, 10*time.Second)
	for _, w := range []want{{"CHK014", "leaves core1 in another class: core1 classifies RoCE's DSCP 46"}, {"CHK016", "trusts none, the intent says dscp"}} {
		if !hasFinding(fs, w) {
			t.Errorf("no %s:\n%s", w, summaries(fs))
		}
	}
}
