package push

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
)

// Brownfield devices (issue 10): every platform starts from a realistic
// existing configuration (testdata/brownfield/<device>.<ext>, in the form
// `fabricgen lab up --running-config` reads) and gets its platform's
// current template golden (platformCases). The plan may show only what fabricgen manages,
// apply converges, the second plan is empty, everything fabricgen does not
// manage is byte-identical afterwards, and configuration that conflicts
// with the intent is taken over: shown in the plan as removed or replaced,
// and gone after apply.

// brownfieldCase is one platform's existing device.
type brownfieldCase struct {
	pc platformCase
	// notInPlan are strings of the existing configuration that fabricgen
	// does not manage: none may appear in the plan's diff.
	notInPlan []string
	// hostManaged reports the keys of a host's state dump ("netdev X >
	// key value") that the rendered script sets.
	hostManaged func(path []string) bool
	// takeover checks that the plan shows the configuration that
	// conflicts with the intent as removed or replaced ("-" lines of the
	// diff) and that the device no longer has it after apply.
	takeover func(t *testing.T, diff string, before, after string)
	// takenOver reports an existing line that the issue says the intent
	// takes over although today's dialect does not manage it (it is
	// left out of the byte-identical comparison).
	takenOver func(path []string) bool
}

// legacyGoldenDir holds the clos-400g template goldens the brownfield
// corpus (testdata/brownfield/<device>) was written for.
const legacyGoldenDir = "../templates/testdata/golden/clos-400g"

// brownfieldDevices are the brownfield corpus's devices: the clos-400g
// device each file was written for, its render and a host's ports.
var brownfieldDevices = map[schema.Platform]struct {
	device, golden string
	ports          []string
}{
	aristaEOS: {"leaf1", "leaf1.cfg", nil}, ciscoNXOS: {"leaf2", "leaf2.cfg", nil},
	juniperJunos: {"spine1", "spine1.set", nil}, nvidiaCumulus: {"leaf4", "leaf4.nvue", nil},
	sonicOS: {"leaf3", "leaf3.json", nil}, nvidiaMLNX: {"nic01", "nic01.sh", []string{"ens1f0np0"}},
	linuxDCB: {"nic02", "nic02.sh", []string{"enp65s0f0np0"}},
}

// brownfieldCase0 is platform p's brownfield device, its render the
// clos-400g golden.
func brownfieldCase0(t testing.TB, p schema.Platform) platformCase {
	t.Helper()
	pc := caseWhere(t, "platform "+string(p), func(pc platformCase) bool { return pc.dev.platform == p })
	b := brownfieldDevices[p]
	pc.dev.name, pc.dev.ports, pc.dev.driver = b.device, b.ports, ""
	pc.dev.rendered = readFile(t, filepath.Join(legacyGoldenDir, b.golden))
	return pc
}

func brownfieldCases(t *testing.T) []brownfieldCase {
	pcs := map[schema.Platform]platformCase{}
	for p := range brownfieldDevices {
		pcs[p] = brownfieldCase0(t, p)
	}
	return []brownfieldCase{
		{pc: pcs[aristaEOS],
			notInPlan: []string{"router bgp", "neighbor SPINES", "snmp-server", "username", "ntp server", "logging", "qos profile QP-STORAGE",
				"bandwidth percent 60", "description gpu-a01", "ip address 10.0.1.0/31", "Ethernet9/1", "banner", "daemon TerminAttr"},
			takeover:  eosTakeover,
			takenOver: eosServiceProfile(pcs[aristaEOS].dev.rendered)},
		{pc: pcs[ciscoNXOS],
			notInPlan: []string{"router bgp", "template peer", "snmp-server", "username", "ntp server", "logging", "policy-map type network-qos JUMBO-NQ",
				"policy-map type qos PM-STORAGE-IN", "class-map type qos match-any CM-STORAGE", "description gpu-b01", "Ethernet1/9", "vrf context"},
			takeover: nxosTakeover},
		{pc: pcs[juniperJunos],
			notInPlan: []string{"protocols bgp", "system login", "system syslog", "snmp", "routing-options", "policy-options",
				"description", "family inet address", "routing-instances", "group TENANT"},
			takeover: sectionTakeover("set class-of-service ", pcs[juniperJunos].dev.rendered)},
		{pc: pcs[nvidiaCumulus],
			notInPlan: []string{"router bgp", "system aaa", "service ntp", "service syslog", "acl MGMT-IN", "description", "ip address"},
			takeover:  sectionTakeover("nv set qos ", pcs[nvidiaCumulus].dev.rendered)},
		{pc: pcs[sonicOS],
			notInPlan: []string{"BGP_NEIGHBOR", "DEVICE_METADATA|localhost|hostname", "DEVICE_METADATA|localhost|bgp_asn", "NTP_SERVER", "SYSLOG_SERVER", "LOOPBACK_INTERFACE", "MGMT_INTERFACE",
				"PORT_QOS_MAP|Ethernet64|", "QUEUE|Ethernet64|", "PORT|Ethernet0|lanes", "PORT|Ethernet0|alias", "DSCP_TO_TC_MAP|AZURE", "VRF|", "Vrf_storage"},
			takeover:  sonicTakeover,
			takenOver: sonicPortKeys(t, pcs[sonicOS].dev.rendered)},
		{pc: pcs[nvidiaMLNX],
			notInPlan: []string{"cable", "ratelimit", "maxrate"},
			hostManaged: hostKeys("ens1f0np0", "mtu", "trust", "pfc", "dscp-prio", "prio-tc", "tsa", "tc-bw", "pause",
				"pfc-prevention-tout", "default_roce_tos", "ecn", "roce-mode"),
			takeover: hostTakeover("ens1f0np0", "trust dscp", "pfc 0,0,0,1,0,0,0,0", "tc-bw 50,0,0,50,0,0,0,0")},
		{pc: pcs[linuxDCB],
			notInPlan: []string{"maxrate"},
			hostManaged: hostKeys("enp65s0f0np0", "mtu", "trust", "pfc", "dscp-prio", "prio-tc", "tsa", "tc-bw", "pause",
				"pfc-prevention-tout", "default_roce_tos", "module", "configfs"),
			takeover: hostTakeover("enp65s0f0np0", "trust dscp", "pfc 0,0,0,1,0,0,0,0", "tc-bw 50,0,0,50,0,0,0,0")},
	}
}

// brownfieldFile reads the existing configuration of a device.
func brownfieldFile(t *testing.T, dev testDevice) string {
	t.Helper()
	return seatBrownfield(t, dev.platform)
}

// seatBrownfield reads the existing configuration of platform p's seat in
// the shared clos fabric (platforms/<folder>/testdata/push/brownfield.<ext>).
func seatBrownfield(t *testing.T, p schema.Platform) string {
	t.Helper()
	for _, fx := range platformtest.All(repoRoot) {
		if fx.Platform.Name == p {
			_, text, err := fx.ClosBrownfield()
			if err != nil {
				t.Fatal(err)
			}
			return text
		}
	}
	t.Fatalf("no platform %s in the registry", p)
	return ""
}

func newBrownfieldRig(t *testing.T, d testDevice, running string) *rig {
	t.Helper()
	d.running = running
	r := newRig(t, d)
	r.opts.Parallelism = 1
	return r
}

// TestBrownfieldRoundTrip: the lab loads every brownfield file and prints
// it back byte for byte (NX-OS: but for the times in its header); a host's
// file is replayed, and its state printed as commands replays to the same
// state.
func TestBrownfieldRoundTrip(t *testing.T) {
	for _, bc := range brownfieldCases(t) {
		dev := bc.pc.dev
		t.Run(string(dev.platform), func(t *testing.T) {
			text := brownfieldFile(t, dev)
			start := func(running string) *lab.Device {
				l, err := lab.Start(context.Background(), []lab.DeviceSpec{{Name: dev.name, Platform: dev.platform, Username: "admin",
					Password: testSecret, Ports: dev.ports, RunningConfig: running}}, lab.Options{Dir: t.TempDir()})
				if err != nil {
					t.Fatalf("lab.Start: %v", err)
				}
				t.Cleanup(func() { _ = l.Close() })
				return l.Device(dev.name)
			}
			d := start(text)
			if platforms.IsHost(dev.platform) {
				again := start(d.Export())
				if a, b := d.RunningConfig(), again.RunningConfig(); a != b {
					t.Fatalf("replaying the host's export gives another state:\n%s", config.Unified("file", "export", a, b).Text)
				}
				return
			}
			if got, want := stripHeaderTimes(d.Export()), stripHeaderTimes(text); got != want {
				t.Errorf("the lab does not print the file back:\n%s", config.Unified("file", "export", want, got).Text)
			}
		})
	}
}

var reHeaderTime = regexp.MustCompile(`(?m)^!(Time:|Running configuration last done at:).*\n`)

func stripHeaderTimes(s string) string { return reHeaderTime.ReplaceAllString(s, "") }

// TestBrownfieldTakeover plans and applies each platform's render onto its
// brownfield device.
func TestBrownfieldTakeover(t *testing.T) {
	for _, bc := range brownfieldCases(t) {
		dev := bc.pc.dev
		t.Run(string(dev.platform), func(t *testing.T) {
			r := newBrownfieldRig(t, dev, brownfieldFile(t, dev))
			d := r.lab.Device(dev.name)
			dl, err := platforms.Dialect(dev.platform)
			if err != nil {
				t.Fatal(err)
			}
			before := brownfieldState(d, dev.platform)
			keep := unmanaged(t, bc, dl, before)
			if len(keep) == 0 {
				t.Fatal("the brownfield configuration has no unmanaged lines: the test would prove nothing")
			}

			p := r.plan()
			pd := p.Devices[0]
			if pd.Status != planfile.StatusChange {
				t.Fatalf("first plan: status %s (%s), want change", pd.Status, pd.Error)
			}
			checkPlanManagedOnly(t, bc, dl, pd.Diff.Text, keep)

			res := r.apply(p, t.TempDir())
			if res[0].Status != StatusApplied {
				t.Fatalf("apply: %s: %s", res[0].Status, res[0].Reason)
			}
			p2 := r.plan()
			if d2 := p2.Devices[0]; d2.Status != planfile.StatusUnchanged || d2.Diff.Text != "" {
				t.Errorf("second plan: status %s (%s), diff:\n%s", d2.Status, d2.Error, d2.Diff.Text)
			}
			after := brownfieldState(d, dev.platform)
			if got := unmanaged(t, bc, dl, after); strings.Join(got, "\n") != strings.Join(keep, "\n") {
				t.Errorf("lines fabricgen does not manage changed:\n%s",
					config.Unified("before", "after", strings.Join(keep, "\n")+"\n", strings.Join(got, "\n")+"\n").Text)
			}

			// Issue 10: conflicting configuration is taken over by default.
			// EOS (service-profile on rendered interfaces) and SONiC (the
			// rendered ports' QUEUE, BUFFER_PG and PORT_QOS_MAP keys) need
			// push's takeover; the other platforms already manage the
			// conflicting sections.
			t.Run("takeover", func(t *testing.T) { bc.takeover(t, pd.Diff.Text, before, after) })
		})
	}
}

// brownfieldState is the device's configuration in the form compared:
// the exported form for switches (Junos as set statements), the NIC state
// dump for hosts.
func brownfieldState(d *lab.Device, p schema.Platform) string {
	if platforms.IsHost(p) {
		return d.RunningConfig()
	}
	// NX-OS heads its running config with "!Time: <now>": the clock, not
	// the configuration.
	lines := strings.Split(d.Export(), "\n")
	kept := lines[:0]
	for _, l := range lines {
		if !strings.HasPrefix(l, "!Time: ") {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}

// unmanaged lists, in order, the lines of a device's configuration that
// fabricgen does not manage for this render (qualified by their parents,
// "interface Ethernet1/1 > description ..."), per docs/push.md: lines of no
// managed section; named objects the render does not define (and whose
// name is not fabricgen's); interfaces the render does not mention, and in
// those it does, the lines other than the managed children. Lines the
// issue says the intent takes over are left out.
func unmanaged(t *testing.T, bc brownfieldCase, dl *dialect.Dialect, text string) []string {
	t.Helper()
	switch {
	case dl.Host:
		var out []string
		for _, l := range qualified(config.Parse(text, dl).Nodes, nil) {
			if !bc.hostManaged(strings.Split(l, " > ")) {
				out = append(out, l)
			}
		}
		return out
	case dl.ConfigDB:
		return unmanagedDB(t, bc, text)
	}
	rendered := config.Parse(bc.pc.dev.rendered, dl)
	names, headers := map[int]map[string]bool{}, map[string]bool{}
	for _, n := range rendered.Nodes {
		i, name := sectionOf(n.Line, dl)
		if i < 0 {
			continue
		}
		if names[i] == nil {
			names[i] = map[string]bool{}
		}
		names[i][name] = true
		headers[n.Line] = true
	}
	var out []string
	emit := func(ns []*config.Node, parents []string) {
		for _, l := range qualified(ns, parents) {
			if bc.takenOver == nil || !bc.takenOver(strings.Split(l, " > ")) {
				out = append(out, l)
			}
		}
	}
	for _, n := range config.Parse(text, dl).Nodes {
		i, name := sectionOf(n.Line, dl)
		if i < 0 {
			emit([]*config.Node{n}, nil)
			continue
		}
		s := dl.Sections[i]
		switch {
		case s.Named && !names[i][name] && (dl.OwnedNames == nil || !dl.OwnedNames.MatchString(name)):
			emit([]*config.Node{n}, nil)
		case s.Shared && !headers[n.Line]:
			emit([]*config.Node{n}, nil)
		case s.Shared:
			emit([]*config.Node{{Line: n.Line}}, nil)
			for _, c := range n.Children {
				if !matchesAny(c.Line, s.Children) {
					emit([]*config.Node{c}, []string{n.Line})
				}
			}
		}
	}
	return out
}

func sectionOf(line string, dl *dialect.Dialect) (int, string) {
	for i, s := range dl.Sections {
		if m := s.Match.FindStringSubmatch(line); m != nil {
			if len(m) > 1 {
				return i, m[1]
			}
			return i, ""
		}
	}
	return -1, ""
}

func matchesAny(line string, res []*regexp.Regexp) bool {
	for _, re := range res {
		if re.MatchString(line) {
			return true
		}
	}
	return false
}

// qualified flattens nodes into lines prefixed by their parents.
func qualified(ns []*config.Node, parents []string) []string {
	var out []string
	for _, n := range ns {
		path := append(append([]string(nil), parents...), n.Line)
		out = append(out, strings.Join(path, " > "))
		out = append(out, qualified(n.Children, path)...)
	}
	return out
}

// sonicOwned are the tables whose rendered keys fabricgen owns whole
// (docs/push.md).
var sonicOwned = map[string]bool{"DSCP_TO_TC_MAP": true, "DOT1P_TO_TC_MAP": true, "TC_TO_QUEUE_MAP": true,
	"TC_TO_PRIORITY_GROUP_MAP": true, "MAP_PFC_PRIORITY_TO_QUEUE": true, "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP": true,
	"TC_TO_DSCP_MAP": true, "WRED_PROFILE": true, "SCHEDULER": true}

// dbFields flattens CONFIG_DB JSON into sorted "TABLE|key|field = value"
// lines ("TABLE|key" for an entry without fields).
func dbFields(t *testing.T, text string) map[string]string {
	t.Helper()
	var db map[string]map[string]map[string]any
	if err := json.Unmarshal([]byte(text), &db); err != nil {
		t.Fatalf("CONFIG_DB: %v", err)
	}
	out := map[string]string{}
	for tb, keys := range db {
		for k, fs := range keys {
			if len(fs) == 0 {
				out[tb+"|"+k] = ""
			}
			for f, v := range fs {
				out[tb+"|"+k+"|"+f] = fmt.Sprint(v)
			}
		}
	}
	return out
}

func unmanagedDB(t *testing.T, bc brownfieldCase, text string) []string {
	rendered := dbFields(t, bc.pc.dev.rendered)
	renderedKeys := map[string]bool{}
	for f := range rendered {
		p := strings.Split(f, "|")
		renderedKeys[strings.Join(p[:len(p)-1], "|")] = true
	}
	var out []string
	for f, v := range dbFields(t, text) {
		p := strings.Split(f, "|")
		if _, ours := rendered[f]; ours || sonicOwned[p[0]] && renderedKeys[strings.Join(p[:len(p)-1], "|")] {
			continue
		}
		if bc.takenOver != nil && bc.takenOver(p) {
			continue
		}
		out = append(out, f+" = "+v)
	}
	sort.Strings(out)
	return out
}

// checkPlanManagedOnly: no line fabricgen does not manage appears in the
// plan, by the device's qualified lines and by the case's spot checks.
func checkPlanManagedOnly(t *testing.T, bc brownfieldCase, dl *dialect.Dialect, diff string, keep []string) {
	t.Helper()
	for _, s := range bc.notInPlan {
		if strings.Contains(diff, s) {
			t.Errorf("the plan shows %q, which fabricgen does not manage", s)
		}
	}
	changed := map[string]bool{}
	for _, l := range strings.Split(diff, "\n") {
		if (strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+")) && !strings.HasPrefix(l, "---") && !strings.HasPrefix(l, "+++") {
			changed[strings.TrimSpace(l[1:])] = true
		}
	}
	for _, k := range keep {
		// A top-level unmanaged line (a SONiC field) must never be a
		// changed line; a nested one may share its text with a managed
		// line elsewhere (a qos profile's "no priority" and an
		// interface tx-queue's), so nested lines are left to the
		// qualified comparison after apply.
		if !dl.Host && !strings.Contains(k, " > ") && changed[k] {
			t.Errorf("the plan changes %q, which fabricgen does not manage", k)
		}
	}
}

// eosServiceProfile reports `service-profile` lines of the interfaces the
// render configures: the intent's tx-queue settings conflict with a QoS
// profile's, so the intent takes them over (issue 10).
func eosServiceProfile(rendered string) func([]string) bool {
	ifs := renderedInterfaces(rendered, `^interface (\S+)$`)
	return func(p []string) bool {
		return len(p) == 2 && ifs[strings.TrimPrefix(p[0], "interface ")] && strings.HasPrefix(p[1], "service-profile ")
	}
}

func renderedInterfaces(rendered, pattern string) map[string]bool {
	re := regexp.MustCompile(pattern)
	out := map[string]bool{}
	for _, l := range strings.Split(rendered, "\n") {
		if m := re.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			out[m[1]] = true
		}
	}
	return out
}

func eosTakeover(t *testing.T, diff, before, after string) {
	if !regexp.MustCompile(`(?m)^-\s+service-profile QP-STORAGE$`).MatchString(diff) {
		t.Errorf("the plan does not show the QoS profile's service-profile removed from the interfaces the intent configures")
	}
	tree := config.Parse(after, mustDialect(aristaEOS))
	for _, n := range tree.Nodes {
		for _, c := range n.Children {
			if c.Line != "service-profile QP-STORAGE" {
				continue
			}
			if n.Line != "interface Ethernet9/1" {
				t.Errorf("%s still has %q after apply", n.Line, c.Line)
			}
		}
	}
	if !strings.Contains(after, "interface Ethernet9/1\n") || !strings.Contains(after, "\nqos profile QP-STORAGE\n") {
		t.Errorf("the QoS profile or the interface the intent does not configure is gone")
	}
}

func nxosTakeover(t *testing.T, diff, before, after string) {
	for _, want := range []string{"-  service-policy type network-qos JUMBO-NQ", "-  service-policy type queuing output default-8q-out-policy",
		"-  service-policy type qos input default-in-policy", "+  service-policy type network-qos FABRICGEN-NQ"} {
		if !strings.Contains(diff, want+"\n") {
			t.Errorf("the plan does not show %q", want)
		}
	}
	sys := systemQoS(after)
	if want := []string{"service-policy type network-qos FABRICGEN-NQ", "service-policy type queuing output FABRICGEN-OUT"}; strings.Join(sys, "\n") != strings.Join(want, "\n") {
		t.Errorf("system qos after apply: %q, want %q", sys, want)
	}
	if !strings.Contains(after, "\npolicy-map type network-qos JUMBO-NQ\n") {
		t.Errorf("the customer's network-qos policy definition is gone")
	}
}

func systemQoS(text string) []string {
	var out []string
	for _, n := range config.Parse(text, mustDialect(ciscoNXOS)).Nodes {
		if n.Line == "system qos" {
			for _, c := range n.Children {
				out = append(out, c.Line)
			}
		}
	}
	return out
}

// sectionTakeover: every existing line of the section (set-form
// platforms) the render does not have is shown removed and is gone after
// apply.
func sectionTakeover(prefix, rendered string) func(t *testing.T, diff, before, after string) {
	ours := map[string]bool{}
	for _, l := range strings.Split(rendered, "\n") {
		ours[strings.TrimSpace(l)] = true
	}
	return func(t *testing.T, diff, before, after string) {
		n := 0
		for _, l := range strings.Split(before, "\n") {
			if !strings.HasPrefix(l, prefix) || ours[l] {
				continue
			}
			n++
			if !strings.Contains(diff, "\n-"+l+"\n") {
				t.Errorf("the plan does not show the existing %q removed", l)
			}
			if strings.Contains(after, l+"\n") {
				t.Errorf("%q is still there after apply", l)
			}
		}
		if n == 0 {
			t.Errorf("the brownfield configuration has no %s... lines to take over", prefix)
		}
	}
}

// sonicPortTables are the per-port tables whose keys of a rendered port
// the intent takes over (issue 10: "a SONiC port bound to AZURE maps, its
// queues and buffers"), and PFC_WD, whose rendered ports' entries are
// fabricgen's whole (docs/push.md, internal/push/config portTable).
var sonicPortTables = map[string]bool{"QUEUE": true, "BUFFER_PG": true, "PORT_QOS_MAP": true, "PFC_WD": true}

func sonicPortKeys(t *testing.T, rendered string) func([]string) bool {
	ports := map[string]bool{}
	var db map[string]map[string]any
	if err := json.Unmarshal([]byte(rendered), &db); err != nil {
		t.Fatalf("rendered CONFIG_DB: %v", err)
	}
	for p := range db["PORT"] {
		ports[p] = true
	}
	return func(p []string) bool { return len(p) >= 2 && sonicPortTables[p[0]] && ports[p[1]] }
}

func sonicTakeover(t *testing.T, diff, before, after string) {
	var rendered map[string]map[string]any
	var db, old map[string]map[string]map[string]any
	for _, x := range []struct {
		text string
		v    any
	}{{brownfieldCase0(t, sonicOS).dev.rendered, &rendered}, {after, &db}, {before, &old}} {
		if err := json.Unmarshal([]byte(x.text), x.v); err != nil {
			t.Fatal(err)
		}
	}
	// The stock objects a rendered port must no longer use: the AZURE
	// maps, the AZURE_LOSSLESS WRED profile and the stock schedulers.
	// Buffers are taken over only where the render has buffers of its
	// own for the port (an intent buffer block): without one, the stock
	// lossless PG keeps the headroom the lossless priority needs.
	stock := regexp.MustCompile(`^(AZURE|AZURE_LOSSLESS|scheduler\.\d+|pg_lossless_\w+)$`)
	for table := range sonicPortTables {
		if _, renders := rendered[table]; table == "BUFFER_PG" && !renders {
			continue
		}
		for key, fields := range old[table] {
			port, _, _ := strings.Cut(key, "|")
			_, ours := rendered["PORT"][port]
			if _, rendersKey := rendered[table][key]; !ours && !rendersKey {
				if fmt.Sprint(db[table][key]) != fmt.Sprint(fields) {
					t.Errorf("%s|%s of a port the intent does not configure changed", table, key)
				}
				continue
			}
			for f, v := range fields {
				if !stock.MatchString(fmt.Sprint(v)) {
					continue
				}
				line := fmt.Sprintf("%s|%s|%s = %v", table, key, f, v)
				if !strings.Contains(diff, "\n-"+line+"\n") {
					t.Errorf("the plan does not show %s removed or replaced", line)
				}
				if now, ok := db[table][key][f]; ok && fmt.Sprint(now) == fmt.Sprint(v) {
					t.Errorf("%s is still there after apply", line)
				}
			}
		}
	}
	if _, ok := db["DSCP_TO_TC_MAP"]["AZURE"]; !ok {
		t.Errorf("the stock AZURE map is gone, but ports the intent does not configure still use it")
	}
}

// hostKeys: on netdev dev, the keys the rendered script sets; on any
// other netdev nothing; "module" and "configfs" lines are managed when
// listed.
func hostKeys(dev string, keys ...string) func([]string) bool {
	set := map[string]bool{}
	for _, k := range keys {
		set[k] = true
	}
	return func(p []string) bool {
		key := strings.Fields(p[len(p)-1])[0]
		if len(p) == 1 {
			return set[key]
		}
		return p[0] == "netdev "+dev && set[key]
	}
}

func hostTakeover(dev string, want ...string) func(t *testing.T, diff, before, after string) {
	return func(t *testing.T, diff, before, after string) {
		lines := map[string]bool{}
		for _, l := range qualified(config.Parse(after, mustDialect(nvidiaMLNX)).Nodes, nil) {
			lines[l] = true
		}
		for _, w := range want {
			if !lines["netdev "+dev+" > "+w] {
				t.Errorf("after apply %s does not have %q", dev, w)
			}
		}
		if diff == "" {
			t.Errorf("the plan shows no change to the NIC's hand-made state")
		}
	}
}

func mustDialect(p schema.Platform) *dialect.Dialect {
	d, err := platforms.Dialect(p)
	if err != nil {
		panic(err)
	}
	return d
}

// TestBrownfieldECNChange is issue 10's report on a brownfield EOS leaf:
// after the first apply, one ECN threshold changes (150 KB to 200 KB). The
// plan replaces only the random-detect line of each tx-queue 3, apply
// converges (the lab removed every tx-queue line sharing a rule identity
// with the removed one, so verify failed), the second plan is empty, and
// each tx-queue 3 keeps "no priority" and "bandwidth percent 50".
func TestBrownfieldECNChange(t *testing.T) {
	pc := brownfieldCase0(t, aristaEOS)
	r := newBrownfieldRig(t, pc.dev, brownfieldFile(t, pc.dev))
	if res := r.apply(r.plan(), t.TempDir()); res[0].Status != StatusApplied {
		t.Fatalf("first apply: %s: %s", res[0].Status, res[0].Reason)
	}
	const old, new = "random-detect ecn minimum-threshold 150000 bytes", "random-detect ecn minimum-threshold 200000 bytes"
	if !strings.Contains(pc.dev.rendered, old) {
		t.Fatalf("the arista_eos golden render has no %q", old)
	}
	r.inputs[0].Rendered = []byte(strings.ReplaceAll(pc.dev.rendered, old, new))
	p := r.plan()
	for _, l := range strings.Split(p.Devices[0].Diff.Text, "\n") {
		if (strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+")) && !strings.HasPrefix(l, "---") && !strings.HasPrefix(l, "+++") &&
			!strings.Contains(l, "random-detect ecn minimum-threshold") {
			t.Errorf("the plan changes more than the threshold: %q", l)
		}
	}
	res := r.apply(p, t.TempDir())
	if res[0].Status != StatusApplied {
		t.Fatalf("apply of the threshold change: %s: %s", res[0].Status, res[0].Reason)
	}
	if d := r.plan().Devices[0]; d.Status != planfile.StatusUnchanged {
		t.Errorf("second plan: %s:\n%s", d.Status, d.Diff.Text)
	}
	running := r.lab.Device(pc.dev.name).RunningConfig()
	for _, n := range config.Parse(running, mustDialect(aristaEOS)).Nodes {
		for _, q := range n.Children {
			if q.Line != "tx-queue 3" || !strings.HasPrefix(n.Line, "interface ") {
				continue
			}
			var lines []string
			for _, c := range q.Children {
				lines = append(lines, c.Line)
			}
			if got := strings.Join(lines, "\n"); got != "no priority\nbandwidth percent 50\n"+new+" maximum-threshold 1500000 bytes max-mark-probability 100" {
				t.Errorf("%s tx-queue 3 is now:\n%s", n.Line, got)
			}
		}
	}
}

// TestNoTakeover: with --no-takeover, a brownfield device whose change
// would remove or replace lines fabricgen did not create is reported by
// plan (naming the lines) and refused by apply, untouched; once fabricgen
// applied it, its own lines are no takeover.
func TestNoTakeover(t *testing.T) {
	for _, bc := range brownfieldCases(t) {
		dev := bc.pc.dev
		t.Run(string(dev.platform), func(t *testing.T) {
			r := newBrownfieldRig(t, dev, brownfieldFile(t, dev))
			ldev := r.lab.Device(dev.name)
			before := ldev.RunningConfig()
			r.opts.NoTakeover = true
			p := r.plan()
			d := p.Devices[0]
			if d.Status != planfile.StatusError || !strings.Contains(d.Error, "--no-takeover") || !strings.Contains(d.Error, "fabricgen did not create") {
				t.Fatalf("plan --no-takeover: %s (%s)", d.Status, d.Error)
			}
			// apply of a plan made without the flag, with the flag:
			// refused, nothing sent.
			r.opts.NoTakeover = false
			p = r.plan()
			if len(p.Devices[0].Takeover) == 0 {
				t.Fatal("the plan lists no takeover lines")
			}
			opts := r.applyOpts()
			opts.NoTakeover = true
			res, err := Apply(context.Background(), p, r.f, r.inputs, opts)
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Status != StatusRefused {
				t.Fatalf("apply --no-takeover: %s (%s)", res[0].Status, res[0].Reason)
			}
			dl, _ := platforms.Dialect(dev.platform)
			sameConfig(t, dl, "a refused device changed", before, ldev.RunningConfig())
			// Taken over once, the device's lines are fabricgen's: a
			// second change with --no-takeover goes through.
			if res := r.apply(r.plan(), t.TempDir()); res[0].Status != StatusApplied {
				t.Fatalf("apply: %s (%s)", res[0].Status, res[0].Reason)
			}
			r.opts.NoTakeover = true
			if d := r.plan().Devices[0]; d.Status != planfile.StatusUnchanged || len(d.Takeover) != 0 {
				t.Errorf("plan --no-takeover after the takeover: %s (%s) %v", d.Status, d.Error, d.Takeover)
			}
		})
	}
}

// TestNoTakeoverFactory: a device fresh from the factory holds nobody's
// configuration, so --no-takeover plans and applies it on every platform.
// A host's MTU 1500, trust pcp or "vendor" TSAs and a SONiC port's MTU
// 9100 or 5m cable length are the factory's values: before, every host
// and a factory SONiC switch were refused ("would remove or replace 10
// line(s) fabricgen did not create: ens1f0np0 mtu = 1500; …").
//
// A CONFIG_DB port's speed is its hardware's: the lab's factory ports are
// 400G, and a render of another speed (the fixture's 100G and 25G ports)
// changes a setting the factory made, which --no-takeover rightly
// refuses; those ports are rendered at the factory speed here.
var reDBSpeed = regexp.MustCompile(`"speed": "\d+"`)

func TestNoTakeoverFactory(t *testing.T) {
	for _, pc := range platformCases(t) {
		t.Run(string(pc.dev.platform), func(t *testing.T) {
			if pc.dialect().ConfigDB {
				pc.dev.rendered = reDBSpeed.ReplaceAllString(pc.dev.rendered, `"speed": "400000"`)
			}
			r := newRig(t, pc.dev)
			r.opts.NoTakeover = true
			p := r.plan()
			if d := p.Devices[0]; d.Status != planfile.StatusChange || len(d.Takeover) != 0 {
				t.Fatalf("plan --no-takeover of a factory device: %s (%s) takeover %q", d.Status, d.Error, d.Takeover)
			}
			opts := r.applyOpts()
			opts.NoTakeover = true
			res, err := Apply(context.Background(), p, r.f, r.inputs, opts)
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Status != StatusApplied {
				t.Fatalf("apply --no-takeover of a factory device: %s (%s)", res[0].Status, res[0].Reason)
			}
		})
	}
	// A value that is not the factory's is still a takeover: the same
	// host with an MTU someone set.
	for _, pc := range casesWhere(t, "a host", func(pc platformCase) bool { return pc.pl.Spec.Host }) {
		t.Run(string(pc.dev.platform)+"/mtu-set", func(t *testing.T) {
			port := pc.dev.ports[0]
			r := newRig(t, pc.dev)
			if err := r.lab.Device(pc.dev.name).ConfigureOutOfBand([]string{"ip link set dev " + port + " mtu 9000"}); err != nil {
				t.Fatal(err)
			}
			r.opts.NoTakeover = true
			if d := r.plan().Devices[0]; d.Status != planfile.StatusError || !strings.Contains(d.Error, port+" mtu = 9000") {
				t.Errorf("plan --no-takeover of a host with MTU 9000: %s (%s), want refused naming it", d.Status, d.Error)
			}
		})
	}
}
