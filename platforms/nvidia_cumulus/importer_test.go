package nvidiacumulus_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/platformtest"
	nvidiacumulus "github.com/fabricgen/fabricgen/platforms/nvidia_cumulus"
	"github.com/fabricgen/fabricgen/schema"
)

// importCfg imports text with the platform's importer.
func importCfg(t testing.TB, name, text string) (*importer.Device, error) {
	t.Helper()
	return nvidiacumulus.Platform().Import(context.Background(), name, []byte(text))
}

// mustImport imports text and fails the test on an error.
func mustImport(t *testing.T, name, text string) *importer.Device {
	t.Helper()
	d, err := importCfg(t, name, text)
	if err != nil {
		t.Fatalf("import %s: %v", name, err)
	}
	return d
}

// TestImportGoldens imports the fixture's golden renders and compares the
// Device's QoS facts, ports and ACLs with the resolved intent they were
// rendered from: every fact of the table must match.
func TestImportGoldens(t *testing.T) {
	fx := platformtest.Of(filepath.Join("..", ".."), nvidiacumulus.Platform())
	fab, err := fx.Load()
	if err != nil {
		t.Fatal(err)
	}
	devs := fx.Devices(fab)
	if len(devs) == 0 {
		t.Fatal("the fixture has no nvidia_cumulus device")
	}
	for _, sd := range devs {
		t.Run(sd.Name, func(t *testing.T) {
			path := fx.Golden(sd.Name)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			d := mustImport(t, path, string(data))
			want, got := intentFacts(fab, sd), deviceFacts(d)
			keys := map[string]bool{}
			for k := range want {
				keys[k] = true
			}
			for k := range got {
				keys[k] = true
			}
			var ks []string
			for k := range keys {
				ks = append(ks, k)
			}
			sort.Strings(ks)
			for _, k := range ks {
				if want[k] != got[k] {
					t.Errorf("%s: imported %q, intent %q", k, got[k], want[k])
				}
			}
			if len(ks) < 40 {
				t.Errorf("only %d facts compared: the table lost its rows", len(ks))
			}
			// Everything comes back: nothing is reported.
			for _, l := range d.Unmapped {
				t.Errorf("unmapped %d %q: %s", l.Line, l.Text, l.Why)
			}
			if d.Fabric != fab.Name {
				t.Errorf("fabric %q, want %q (the render header's)", d.Fabric, fab.Name)
			}
			if d.Name != sd.Name {
				t.Errorf("name %q, want %q (the render header's)", d.Name, sd.Name)
			}
			if sd.OSVersion.Set && d.OSVersion != sd.OSVersion.V.Raw || !sd.OSVersion.Set && d.OSVersion != "" {
				t.Errorf("os version %q, intent %q (set %v)", d.OSVersion, sd.OSVersion.V.Raw, sd.OSVersion.Set)
			}
		})
	}
}

// intentFacts lists the facts of a resolved device that a Cumulus render
// carries.
func intentFacts(fab *schema.Fabric, d *schema.Device) map[string]string {
	m := map[string]string{}
	q := d.Ports[0].QoS
	m["trust"] = string(q.Trust.V)
	var dscp, queue []string
	for i := range 64 {
		dscp = append(dscp, fmt.Sprint(q.DSCP[i].V))
	}
	for i := range 8 {
		queue = append(queue, fmt.Sprint(q.Queue[i].V))
	}
	m["dscp"], m["queue"] = strings.Join(dscp, ","), strings.Join(queue, ",")
	m["pfc"] = fmt.Sprint(q.Lossless.List())
	cable := 0.0
	for _, p := range d.Ports {
		cable = max(cable, math.Ceil(p.Cable().V))
	}
	m["cable metres (the longest; NVUE has one for the profile)"] = fmt.Sprint(cable)
	for i, qu := range q.Queues {
		if s := string(qu.Sched.V); s != "" {
			m[fmt.Sprintf("queue %d sched", i)] = s
		}
		if qu.Weight.V > 0 {
			m[fmt.Sprintf("queue %d weight", i)] = fmt.Sprint(qu.Weight.V)
		}
		if e := qu.ECN.V; e != nil {
			m[fmt.Sprintf("queue %d ecn", i)] = fmt.Sprint(e.Min.V, e.Max.V, e.Probability.V, e.Mark.V)
		}
	}
	if w := q.Watchdog.V; w != nil {
		ms := func(v schema.Value[time.Duration]) int64 { return v.V.Milliseconds() }
		m["watchdog"] = fmt.Sprint(w.Name, " ", ms(w.Detection), " ", ms(w.PollInterval), " ", ms(w.Restoration), " ", w.Action.V)
	}
	for _, p := range d.Ports {
		k := "port " + p.Name + " "
		m[k+"description"] = p.Description
		if p.IP.Set {
			m[k+"ip"] = p.IP.V.String()
		}
		m[k+"routed"] = fmt.Sprint(p.IP.Set || p.Routed.V)
		m[k+"mtu"] = fmt.Sprint(p.QoS.MTU.V)
		m[k+"speed"] = fmt.Sprint(p.Speed.V)
		m[k+"fec"] = p.FEC.V
		m[k+"acl"] = fmt.Sprint(aclNames(p.ACLIn), aclNames(p.ACLOut))
	}
	for _, a := range fab.ACLs {
		if !deviceBinds(d, a.Name) {
			continue
		}
		for _, r := range a.Rules {
			k := fmt.Sprintf("acl %s rule %d", a.Name, r.Seq)
			m[k] = ruleFact(string(r.Action.V), r.Protocol.V, prefix(r.SrcPrefix), prefix(r.DstPrefix),
				portRanges(r.SrcPorts.V), portRanges(r.DstPorts.V), r.DSCP.V, r.SetDSCP.V)
			fam := r.Family
			if fam == "any" {
				fam = "ipv4" // an NVUE ACL is ipv6 when any rule is
				for _, o := range a.Rules {
					if o.Family == "ipv6" {
						fam = "ipv6"
					}
				}
			}
			m[k+" family"] = fam
		}
	}
	return m
}

// deviceFacts lists the same facts of an imported Device.
func deviceFacts(d *importer.Device) map[string]string {
	m := map[string]string{}
	q := d.Default
	if q == nil {
		return m
	}
	m["trust"] = q.Trust
	var dscp, queue []string
	for i := range 64 {
		dscp = append(dscp, fmt.Sprint(q.DSCP[i]))
	}
	for i := range 8 {
		queue = append(queue, fmt.Sprint(q.Queue[i]))
	}
	m["dscp"], m["queue"] = strings.Join(dscp, ","), strings.Join(queue, ",")
	m["pfc"] = fmt.Sprint(q.PFC)
	cable := 0.0
	for _, p := range d.Ports {
		cable = max(cable, p.CableM)
	}
	m["cable metres (the longest; NVUE has one for the profile)"] = fmt.Sprint(cable)
	for i, qu := range q.Queues {
		if qu.Sched != "" {
			m[fmt.Sprintf("queue %d sched", i)] = qu.Sched
		}
		if qu.Weight != nil {
			m[fmt.Sprintf("queue %d weight", i)] = fmt.Sprint(*qu.Weight)
		}
		if e := qu.ECN; e != nil {
			m[fmt.Sprintf("queue %d ecn", i)] = fmt.Sprint(e.MinBytes, e.MaxBytes, e.Probability, e.Mark)
		}
	}
	if w := q.Watchdog; w != nil {
		m["watchdog"] = fmt.Sprint(w.Name, " ", w.DetectionMS, " ", w.PollMS, " ", w.RestorationMS, " ", w.Action)
	}
	for _, p := range d.Ports {
		k := "port " + p.Name + " "
		m[k+"description"] = p.Description
		if p.IP != "" {
			m[k+"ip"] = p.IP
		}
		m[k+"routed"] = fmt.Sprint(p.Routed)
		m[k+"mtu"] = fmt.Sprint(p.MTU)
		m[k+"speed"] = fmt.Sprint(p.Speed)
		m[k+"fec"] = p.FEC
		m[k+"acl"] = fmt.Sprint(nonNil(p.ACLIn), nonNil(p.ACLOut))
	}
	for _, a := range d.ACLs {
		for _, r := range a.Rules {
			k := fmt.Sprintf("acl %s rule %d", a.Name, r.Seq)
			set := -1
			if r.SetDSCP != nil {
				set = *r.SetDSCP
			}
			m[k] = ruleFact(r.Action, r.Protocol, r.SrcPrefix, r.DstPrefix, r.SrcPorts, r.DstPorts, r.DSCP, set)
			m[k+" family"] = r.Family
		}
	}
	return m
}

func ruleFact(action, proto, src, dst string, sp, dp [][2]int, dscp []int, set int) string {
	return fmt.Sprint(action, " ", proto, " ", src, " ", dst, " ", sp, " ", dp, " ", nonNilInts(dscp), " ", set)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilInts(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

func aclNames(as []*schema.ACL) []string {
	out := []string{}
	for _, a := range as {
		out = append(out, a.Name)
	}
	return out
}

func deviceBinds(d *schema.Device, acl string) bool {
	for _, p := range d.Ports {
		if slices.Contains(aclNames(p.ACLIn), acl) || slices.Contains(aclNames(p.ACLOut), acl) {
			return true
		}
	}
	return false
}

func prefix(v schema.Value[netip.Prefix]) string {
	if !v.Set {
		return ""
	}
	return v.V.String()
}

func portRanges(rs []schema.PortRange) [][2]int {
	var out [][2]int
	for _, r := range rs {
		for p := r.From; p <= r.To; p++ {
			out = append(out, [2]int{p, p})
		}
	}
	return out
}

// unmappedAt lists a device's unmapped lines as "LINE why-prefix".
func unmappedAt(d *importer.Device) []string {
	var out []string
	for _, l := range d.Unmapped {
		why, _, _ := strings.Cut(l.Why, ":")
		out = append(out, fmt.Sprintf("%d %s", l.Line, why))
	}
	return out
}

// handWritten is a Cumulus configuration in NVIDIA's own syntax (the
// user guide's Quality of Service examples) with what fabricgen does not
// render: port groups, a remark map, a shaper, link pause, buffer
// tuning, the RoCE profile, PFC in one direction, an ACL match on
// something the intent cannot say.
const handWritten = `nv set system hostname leaf07
nv set qos mapping default-global trust l3
nv set qos mapping default-global dscp 22 switch-priority 4
nv set qos egress-queue-mapping default-global switch-priority 2 traffic-class 7
nv set qos remark default-global rewrite l3
nv set qos remark default-global switch-priority 0 dscp 22
nv set qos traffic-pool default-lossless memory-percent 50
nv set qos traffic-pool default-lossy memory-percent 50
nv set qos pfc default-global switch-priority 3
nv set qos pfc default-global tx enable
nv set qos pfc default-global rx disable
nv set qos pfc default-global cable-length 50
nv set qos pfc default-global xoff-threshold 1500
nv set qos congestion-control default-global traffic-class 4,5,7 min-threshold 40000
nv set qos congestion-control default-global traffic-class 4,5,7 max-threshold 200000
nv set qos congestion-control default-global traffic-class 4,5,7 red enable
nv set qos congestion-control default-global traffic-class 0 ecn disable
nv set qos egress-scheduler default-global traffic-class 2,6 mode dwrr
nv set qos egress-scheduler default-global traffic-class 2,6 bw-percent 30
nv set qos egress-scheduler default-global traffic-class 0,1,5,7 mode strict
nv set qos egress-shaper shaper1 traffic-class 2 max-rate 500
nv set interface swp1,swp2,swp3,swp5 qos egress-shaper profile shaper1
nv set qos link-pause my_pause_ports tx enable
nv set interface swp6 qos link-pause profile my_pause_ports
nv set qos mapping customer1 trust l2
nv set interface swp1-4,swp6 qos mapping profile customer1
nv set qos advance-buffer-config default-global ingress-lossless-buffer shared-alpha alpha_2
nv set qos roce mode lossless
nv set qos pfc-watchdog polling-interval 200
nv set qos pfc-watchdog robustness 5
nv set interface swp1 qos pfc-watchdog
nv set interface swp1 link mtu 9216
nv set interface swp1 link mtu 9000
nv set interface lo qos pfc-watchdog
nv set acl cp type ipv4
nv set acl cp rule 10 match ip protocol tcp
nv set acl cp rule 10 match ip tcp-flags syn
nv set acl cp rule 10 action deny
nv set acl cp rule 20 match ip dscp af13
nv set acl cp rule 20 action permit
nv set interface swp2 acl cp inbound
nv set qos egress-scheduler default-global traffic-class 3 mode dwrr
nv set qos congestion-control default-global traffic-class 1 ecn enable
`

// TestImportUnmapped proves that what fabricgen does not render is
// reported with its line number, and the rest is read.
func TestImportUnmapped(t *testing.T) {
	d := mustImport(t, "leaf07.cfg", handWritten)
	want := []string{
		"5 an egress 802.1p/DSCP remark map", "6 an egress 802.1p/DSCP remark map",
		"11 PFC in one direction only",
		"21 an egress shaper", "22 an egress shaper", "23 802.3x link pause", "24 802.3x link pause",
		"25 a QoS port group (profile other than default-global)", "26 a QoS port group (profile other than default-global)",
		"27 an advanced buffer setting", "28 NVIDIA's RoCE profile (qos roce)",
		"34 QoS or an ACL on an interface that is not a switch port (swpN, swpNsM)",
		"37 an ACL match or action the intent cannot say; the rule is left out of the imported ACL",
		// swp2..swp6 have no watchdog while swp1 has: reported at their first line.
		"22 the port has no PFC watchdog while other ports do",
		"42 DWRR without a bw-percent from 1 to 100",
	}
	got := unmappedAt(d)
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("unmapped lacks %q; got:\n%s", w, strings.Join(got, "\n"))
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			t.Errorf("unexpected unmapped %q", g)
		}
	}
	if d.Name != "leaf07" {
		t.Errorf("name %q", d.Name)
	}
	q := d.Default
	if q == nil {
		t.Fatal("no default QoS")
	}
	checks := []struct {
		what      string
		got, want any
	}{
		{"trust", q.Trust, "dscp"},
		{"dscp 22 (set)", q.DSCP[22], 4},
		{"dscp 46 (Cumulus default d/8)", q.DSCP[46], 5},
		{"queue of sp 2", q.Queue[2], 7},
		{"queue of sp 3 (default)", q.Queue[3], 3},
		{"pfc", fmt.Sprint(q.PFC, q.PFCSet), "[3] true"},
		{"tc 4 red", fmt.Sprint(*q.Queues[4].ECN), fmt.Sprint(importer.ECN{MinBytes: 40000, MaxBytes: 200000, Probability: 100, Mark: true})},
		{"tc 0 ecn off", q.Queues[0].ECNOff, true},
		{"tc 0 strict", q.Queues[0].Sched, "strict"},
		{"tc 2 dwrr 30", fmt.Sprintf("%s %d", q.Queues[2].Sched, *q.Queues[2].Weight), "dwrr 30"},
		{"watchdog", fmt.Sprint(*q.Watchdog), fmt.Sprint(importer.Watchdog{DetectionMS: 1000, PollMS: 200, Action: "drop"})},
		{"swp1 mtu (the later line)", d.Ports[0].MTU, 9000},
		{"twice", len(d.Twice), 1},
		{"cable length on every port (default-global covers them all)", fmt.Sprint(d.Ports[0].CableM, d.Ports[len(d.Ports)-1].CableM), "50 50"},
		{"xoff threshold", fmt.Sprint(q.Buffer.XOFF, q.Buffer.Headroom), "1500 0"},
		{"acl rules kept", len(d.ACLs[0].Rules), 1},
		{"acl dscp name af13", fmt.Sprint(d.ACLs[0].Rules[0].DSCP), "[14]"},
		{"tc 3 dwrr without bw: no scheduler", q.Queues[3] == nil, true},
		{"tc 1 ecn alone: the documented defaults", fmt.Sprint(*q.Queues[1].ECN), fmt.Sprint(importer.ECN{MinBytes: 150000, MaxBytes: 1500000, Probability: 100, Mark: true})},
	}
	for _, c := range checks {
		if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}
	if len(d.Twice) == 1 && d.Twice[0].Line != 33 {
		t.Errorf("twice at line %d, want 33", d.Twice[0].Line)
	}
}

// TestImportForms reads the same configuration as nv set lines and as
// NVUE YAML (ranges, lists, {} leaves, quoted words, nv unset) and
// expects the same device.
func TestImportForms(t *testing.T) {
	const cmds = `nv set system hostname 'spine 1'
nv set interface swp1-2,swp4 link mtu 9216
nv set interface swp1 description 'uplink "a" $(x) ${y}'
nv set interface swp1-3 type swp
nv set interface swp2 ipv4 address 10.0.0.1/31
nv set qos mapping default-global trust l3
nv set system message pre-login '####
#  a banner, its quote open over lines
####'
nv set qos pfc default-global switch-priority 3,4
nv unset interface swp4
nv set interface swp3 link speed 100G
`
	const yml = `- header:
    model: SN5600
    version: Cumulus Linux 5.15.0
- set:
    system:
      hostname: spine 1
    interface:
      swp1-2,swp4:
        link:
          mtu: 9216
      swp1:
        description: uplink "a" $(x) ${y}
      swp1-3:
        type: swp
      swp2:
        ipv4:
          address:
            10.0.0.1/31: {}
      swp3:
        link:
          speed: 100G
    qos:
      mapping:
        default-global:
          trust: l3
      pfc:
        default-global:
          switch-priority:
            '3': {}
            '4': {}
- unset:
    interface:
      swp4: {}
`
	a, b := mustImport(t, "a.cfg", cmds), mustImport(t, "b.yaml", yml)
	for _, d := range []*importer.Device{a, b} {
		var ports []string
		for _, p := range d.Ports {
			ports = append(ports, fmt.Sprintf("%s/%d/%q/%s/%d", p.Name, p.MTU, p.Description, p.IP, p.Speed))
		}
		got := fmt.Sprint(d.Name, " ", d.Default.Trust, " ", d.Default.PFC, " ", ports)
		const want = `spine 1 dscp [3 4] [swp1/9216/"uplink \"a\" $(x) ${y}"//0 swp2/9216/""/10.0.0.1/31/0 swp3/0/""//100000000000]`
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", d.Src.File, got, want)
		}
	}
	if b.OSVersion != "5.15.0" || b.Model != "SN5600" {
		t.Errorf("yaml header: os %q model %q", b.OSVersion, b.Model)
	}
	if a.OSVersion != "5.15" {
		t.Errorf("nv set lines with ipv4 address and no header: os %q, want 5.15 (the first release with those words)", a.OSVersion)
	}
	if d := mustImport(t, "old.cfg", "nv set interface swp1 ip address 10.0.0.1/31\n"); d.OSVersion != "" {
		t.Errorf("ip address and no header: os %q, want none", d.OSVersion)
	}
}

// TestImportHostile feeds input no switch would print: each gives a clean
// import or an *importer.Error at a line, never a panic or a hang.
func TestImportHostile(t *testing.T) {
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	deepMap := "- set:\n" + func() string {
		var b strings.Builder
		for i := range 300 {
			b.WriteString(strings.Repeat(" ", 4+2*i) + "k:\n")
		}
		return b.String()
	}()
	bomb := "- set:\n    a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for i := range 12 {
		n := fmt.Sprintf("b%d", i)
		bomb += fmt.Sprintf("    %s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", n, n, prev, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = n
	}
	big := strings.Repeat("nv set interface swp1 description 'x'\n", 50<<20/38)
	cases := []struct {
		name, text string
		line       int    // the error's line; 0: a clean import
		msg        string // in the error
	}{
		{"binary", "nv set system hostname a\n\x00\x01\x02\xff", 2, "binary data"},
		{"invalid utf-8", "nv set interface swp1 description '\xff\xfe'\n", 1, "binary data"},
		{"2 MB line", "nv set system hostname a\nnv set interface swp1 description '" + strings.Repeat("x", 2<<20) + "'\n", 0, ""},
		{"5 MB line", "nv set system hostname a\n" + strings.Repeat("y", 5<<20) + "\n", 2, "more than"},
		{"unterminated quote", "nv set system hostname a\nnv set interface swp1 description 'open\n", 2, "unterminated single quote"},
		{"unterminated double quote", "nv set interface swp1 description \"open\n", 1, "unterminated double quote"},
		{"yaml nested 10000 deep (flow)", "- set: " + deep + "\n", 1, "YAML"},
		{"yaml nested 300 deep (block)", deepMap, 0, "nested more than"},
		{"yaml alias bomb", bomb, 0, "alias"},
		{"yaml unterminated flow", "- set: {interface: {swp1: {link: {mtu: 9216}\n", 1, "YAML"},
		{"not a config", "hello\nworld\n", 1, "not an NVUE command"},
		{"shell in description", "nv set interface swp1 description \"$(rm -rf /) ${HOME} `id`\"\n", 0, ""},
		{"terminal escapes in description", "nv set interface swp1 description $'\x1b[31mred\x1b]0;title\x07'\n", 0, ""},
		{"huge range", "nv set interface swp1-99999999 link mtu 9000\n", 0, ""},
		{"empty", "", 0, ""},
		{"17 MB YAML", "- set:\n    system:\n      hostname: a\n" + strings.Repeat("# pad\n", 17<<20/6), 0, "nv config show -o commands"},
		{"50 MB config", big, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			done := make(chan struct{})
			var d *importer.Device
			var err error
			go func() {
				defer close(done)
				d, err = importCfg(t, "hostile.cfg", c.text)
			}()
			select {
			case <-done:
			case <-time.After(60 * time.Second):
				t.Fatal("import hangs")
			}
			if c.msg == "" {
				if err != nil {
					t.Fatalf("want a clean import, got %v", err)
				}
				for _, p := range d.Ports {
					_ = importer.Clean(p.Description)
				}
				return
			}
			var ie *importer.Error
			if !errors.As(err, &ie) {
				t.Fatalf("want an *importer.Error, got %T %v", err, err)
			}
			if !strings.Contains(ie.Msg, c.msg) || c.line != 0 && ie.Line != c.line {
				t.Errorf("error %v, want line %d with %q", ie, c.line, c.msg)
			}
			if strings.ContainsAny(ie.Error(), "\x00\x1b\x07") {
				t.Errorf("error echoes control characters: %q", ie.Error())
			}
		})
	}
}

// FuzzImport feeds arbitrary bytes to the importer: no panic, and every
// error is an *importer.Error.
func FuzzImport(f *testing.F) {
	f.Add([]byte(handWritten))
	f.Add([]byte("- set:\n    interface:\n      swp1-2,4:\n        link:\n          mtu: 9216\n"))
	f.Add([]byte("nv set interface swp1 description 'a\nnv unset qos\n"))
	f.Add([]byte("- header: {version: Cumulus Linux 5.9.2}\n- set: &a {x: *a}\n"))
	// Every "qos" word with nothing after it: a short command once
	// sliced past its end (CI's fuzzing found "nv set qos mapping").
	for _, w := range []string{"mapping", "egress-queue-mapping", "pfc", "congestion-control",
		"egress-scheduler", "traffic-pool", "pfc-watchdog", "remark", "roce"} {
		f.Add([]byte("nv set qos " + w + "\n"))
		f.Add([]byte("nv set qos " + w + " default-global\n"))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := nvidiacumulus.Platform().Import(context.Background(), "fuzz.cfg", data)
		if err != nil {
			var ie *importer.Error
			if !errors.As(err, &ie) {
				t.Fatalf("error %T %v is not an *importer.Error", err, err)
			}
			return
		}
		if d == nil {
			t.Fatal("nil device without an error")
		}
	})
}

// TestImportPublic imports a public NVUE configuration someone else
// wrote (testdata/import/SOURCE.md says where from and its licence).
func TestImportPublic(t *testing.T) {
	path := filepath.Join("testdata", "import", "oxidized-msn2010-5.9.2.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := mustImport(t, path, string(data))
	var names []string
	desc := map[string]string{}
	for _, p := range d.Ports {
		names = append(names, p.Name)
		desc[p.Name] = p.Description
	}
	checks := []struct {
		what      string
		got, want any
	}{
		{"name", d.Name, "spine1-nyc2"},
		{"os version", d.OSVersion, "5.9.2"},
		{"model", d.Model, "MSN2010"},
		{"ports", len(d.Ports), 22},
		{"first port (the config's order)", names[0], "swp19"},
		{"swp5 description (swp1-18)", desc["swp5"], "UNUSED 25G PORTS"},
		{"swp21 description", desc["swp21"], "100G Link to leaf1"},
		{"no QoS", d.Default == nil, true},
		{"nothing unmapped", len(d.Unmapped), 0},
		{"nothing twice", len(d.Twice), 0},
	}
	for _, c := range checks {
		if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}
}

// TestImportDefaultMaps: a trust mode without map lines, or a partial map,
// is Cumulus's default map for the rest ("Trust DSCP", "Trust 802.1p",
// "Egress Queues" of the Quality of Service guide).
func TestImportDefaultMaps(t *testing.T) {
	cases := []struct {
		name, text string
		want       string // trust dscp[46] dscp[22] pcp[3] queue[5]
	}{
		{"trust l3", "nv set qos mapping default-global trust l3\n", "dscp 5 2 - 5"},
		{"trust l3, dscp 22", "nv set qos mapping default-global trust l3\nnv set qos mapping default-global dscp 22 switch-priority 4\n", "dscp 5 4 - 5"},
		{"trust l2", "nv set qos mapping default-global trust l2\n", "pcp - - 3 5"},
		{"trust both, pcp 3", "nv set qos mapping default-global trust both\nnv set qos mapping default-global pcp 3 switch-priority 1\n", "both 5 2 1 5"},
		{"trust port", "nv set qos mapping default-global trust port\nnv set qos mapping default-global port-default-sp 3\n", "none - - - 5"},
		{"queue map only", "nv set qos egress-queue-mapping default-global switch-priority 5 traffic-class 7\n", " - - - 7"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := mustImport(t, "maps.cfg", c.text).Default
			if q == nil {
				t.Fatal("no default QoS")
			}
			at := func(m map[int]int, k int) string {
				if m == nil {
					return "-"
				}
				return fmt.Sprint(m[k])
			}
			got := strings.Join([]string{q.Trust, at(q.DSCP, 46), at(q.DSCP, 22), at(q.PCP, 3), at(q.Queue, 5)}, " ")
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestImportPFCKnobsWithoutPFC: a cable length or buffer threshold on a
// PFC profile with no priorities does nothing fabricgen can render, and
// is reported.
func TestImportPFCKnobsWithoutPFC(t *testing.T) {
	d := mustImport(t, "nopfc.cfg", "nv set interface swp1 link mtu 9216\nnv set qos pfc default-global cable-length 10\nnv set qos pfc default-global port-buffer 25000\n")
	if got, want := unmappedAt(d), []string{"2 a PFC cable length or port-buffer/xoff/xon threshold without PFC priorities", "3 a PFC cable length or port-buffer/xoff/xon threshold without PFC priorities"}; !slices.Equal(got, want) {
		t.Errorf("unmapped %q, want %q", got, want)
	}
	if d.Ports[0].CableM != 0 || d.Default != nil {
		t.Errorf("cable %v default %+v, want none", d.Ports[0].CableM, d.Default)
	}
}

// TestImportYAMLLines: in the YAML form, what is reported carries the
// line of its last key and the nv set command it spells.
func TestImportYAMLLines(t *testing.T) {
	const yml = `- set:
    qos:
      mapping:
        default-global:
          trust: l3
      remark:
        default-global:
          rewrite: l3
      egress-scheduler:
        default-global:
          traffic-class:
            '3':
              mode: dwrr
              bw-percent: 50
    interface:
      lo:
        qos:
          pfc-watchdog: {}
`
	d := mustImport(t, "leaf.yaml", yml)
	var got []string
	for _, l := range d.Unmapped {
		got = append(got, fmt.Sprintf("%d %s", l.Line, l.Text))
	}
	want := []string{"8 nv set qos remark default-global rewrite l3", "18 nv set interface lo qos pfc-watchdog"}
	if !slices.Equal(got, want) {
		t.Errorf("unmapped %q, want %q", got, want)
	}
	if q := d.Default.Queues[3]; q == nil || q.Sched != "dwrr" || *q.Weight != 50 {
		t.Errorf("queue 3 %+v, want dwrr 50", q)
	}
	if len(d.Default.Src) == 0 || d.Default.Src[0].From != 5 {
		t.Errorf("qos spans %+v, want the first at line 5", d.Default.Src)
	}
}
