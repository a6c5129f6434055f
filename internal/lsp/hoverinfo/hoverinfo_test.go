package hoverinfo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fabricgen/fabricgen/internal/golden"
	"github.com/fabricgen/fabricgen/internal/mdtable"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

const hint = "go test ./internal/lsp/hoverinfo -update"

var (
	loadMu sync.Mutex
	loaded = map[string]*schema.Fabric{}
)

// load loads an example directory once per test binary.
func load(t testing.TB, dir string, vars map[string]string) *schema.Fabric {
	t.Helper()
	key := fmt.Sprint(dir, vars)
	loadMu.Lock()
	defer loadMu.Unlock()
	if f := loaded[key]; f != nil {
		return f
	}
	f, ds := schema.Load(dir, schema.Options{Vars: vars, Platforms: platforms.Catalog()})
	if ds.HasErrors() {
		t.Fatalf("load %s: %v", dir, ds)
	}
	loaded[key] = f
	return f
}

// checkMarkdown fails on table rows with the wrong cell count and on
// output that is not bounded.
func checkMarkdown(t *testing.T, what, md string) {
	t.Helper()
	if ps := mdtable.Check(md); len(ps) > 0 {
		t.Errorf("%s: table rows with the wrong cell count: %v\n%s", what, ps, md)
	}
	if n := strings.Count(md, "\n"); n > 200 {
		t.Errorf("%s: %d lines, want at most 200", what, n)
	}
}

// firstOfKind is the first device of kind k whose platform is plat ("" any).
func firstOfKind(f *schema.Fabric, k schema.Kind, plat string) *schema.Device {
	for _, d := range f.Devices {
		if d.Kind.V == k && (plat == "" || string(d.Platform.V) == plat) {
			return d
		}
	}
	return nil
}

// blockOf lists the devices declared by d's block, in fabric order.
func blockOf(f *schema.Fabric, d *schema.Device) []*schema.Device {
	var out []*schema.Device
	for _, x := range f.Devices {
		if x.Range == d.Range {
			out = append(out, x)
		}
	}
	return out
}

// allReferences is the Reference hover of every named object of f.
func allReferences(t *testing.T, f *schema.Fabric) string {
	t.Helper()
	type kn struct{ kind, name string }
	var refs []kn
	for _, p := range f.Policies {
		refs = append(refs, kn{"qos_policy", p.Name})
	}
	for _, c := range f.Classes {
		refs = append(refs, kn{"traffic_class", c.Name})
	}
	for _, e := range f.ECNProfiles {
		refs = append(refs, kn{"ecn_profile", e.Name})
	}
	for _, w := range f.Watchdogs {
		refs = append(refs, kn{"pfc_watchdog", w.Name})
	}
	for _, a := range f.ACLs {
		refs = append(refs, kn{"acl", a.Name})
	}
	for _, s := range f.Subnets {
		refs = append(refs, kn{"subnet", s.Name})
	}
	for _, p := range f.Partitions {
		refs = append(refs, kn{"partition", p.Name})
	}
	for _, k := range schema.Kinds() {
		if f.RolePolicies[k] != nil {
			refs = append(refs, kn{"role", string(k)})
		}
	}
	var b strings.Builder
	for _, r := range refs {
		md, ok := Reference(f, r.kind, r.name)
		if !ok {
			t.Errorf("Reference(%s, %s): not found", r.kind, r.name)
			continue
		}
		checkMarkdown(t, r.kind+"."+r.name, md)
		b.WriteString("<!-- " + r.kind + " " + r.name + " -->\n" + md + "\n")
	}
	return b.String()
}

func TestGoldenClos(t *testing.T) {
	f := load(t, "../../../examples/clos-400g", nil)
	const file = "devices.fab.hcl"
	var cases []struct{ name, md string }
	add := func(name, md string) {
		if md == "" {
			t.Errorf("%s: empty hover", name)
		}
		checkMarkdown(t, name, md)
		cases = append(cases, struct{ name, md string }{name, md})
	}
	for _, plat := range []string{"arista_eos", "cisco_nxos", "sonic", "nvidia_cumulus"} {
		d := firstOfKind(f, schema.KindLeaf, plat)
		if d == nil {
			t.Fatalf("no %s leaf in clos-400g", plat)
		}
		add("device-leaf-"+plat, Device(d, file))
		add("port-leaf-"+plat, Port(d.Ports[0], file))
	}
	sp := firstOfKind(f, schema.KindSpine, "")
	add("device-spine", Device(sp, file))
	add("port-spine", Port(sp.Ports[0], file))
	for _, plat := range []string{"nvidia_mlnx", "linux_dcb"} {
		d := firstOfKind(f, schema.KindNIC, plat)
		if d == nil {
			t.Fatalf("no %s NIC in clos-400g", plat)
		}
		add("device-nic-"+plat, Device(d, file))
		add("port-nic-"+plat, Port(d.Ports[0], file))
	}
	add("devices-leaf-block", Devices(blockOf(f, firstOfKind(f, schema.KindLeaf, "")), file))
	add("devices-nic-block", Devices(blockOf(f, firstOfKind(f, schema.KindNIC, "")), file))
	for _, c := range cases {
		golden.Check(t, filepath.Join("testdata", "clos-400g-"+c.name+".golden"), []byte(c.md), hint)
	}

	// What the goldens must say, checked here so a wrong -update fails too.
	leaf := firstOfKind(f, schema.KindLeaf, "arista_eos")
	p := Port(leaf.Ports[0], file)
	for _, want := range []string{
		"| trust | dscp | `qos_policy.fabric`, qos.fab.hcl line 61 |",
		"| DSCP 26 → priority | 3 | `traffic_class.roce`, qos.fab.hcl line 43 |",
		"| lossless (PFC) | 3 | `qos_policy.fabric`, qos.fab.hcl line 64 |",
		"| MTU | 9214 | `qos_policy.fabric`, qos.fab.hcl line 66 |",
		"to `nic01:ens1f0np0`",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("leaf port hover lacks %q:\n%s", want, p)
		}
	}
	nic := Port(firstOfKind(f, schema.KindNIC, "").Ports[0], file)
	if !strings.Contains(nic, "| MTU | 4200 | `qos_policy.host`, qos.fab.hcl line 72 |") {
		t.Errorf("NIC port hover does not take MTU from the nic role's policy:\n%s", nic)
	}
	// Sources in the hover's own file say "line N" without the file.
	if p := Port(leaf.Ports[0], "qos.fab.hcl"); !strings.Contains(p, "| trust | dscp | `qos_policy.fabric`, line 61 |") {
		t.Errorf("a source in the hovered file names its file:\n%s", p)
	}
}

func TestGoldenReferences(t *testing.T) {
	for _, ex := range []string{"clos-400g", "roce-storage", "ai-training-2subnet", "ib-cluster"} {
		t.Run(ex, func(t *testing.T) {
			f := load(t, "../../../examples/"+ex, nil)
			golden.Check(t, filepath.Join("testdata", "references-"+ex+".golden"), []byte(allReferences(t, f)), hint)
		})
	}
	f := load(t, "../../../examples/clos-400g", nil)
	md, ok := Reference(f, "qos_policy", "fabric")
	if !ok || !strings.Contains(md, "attached to 80 ports on 38 devices (leaf1–leaf4, nic01–nic32, spine1–spine2)") {
		t.Errorf("policy reach wrong:\n%s", md)
	}
	md, _ = Reference(f, "qos_policy", "host")
	if !strings.Contains(md, "attached to 32 ports on 32 devices (nic01–nic32)") {
		t.Errorf("role policy reach wrong:\n%s", md)
	}
	for _, c := range []struct{ kind, name string }{
		{"qos_policy", "nope"}, {"traffic_class", "nope"}, {"ecn_profile", "nope"}, {"pfc_watchdog", "nope"},
		{"acl", "nope"}, {"subnet", "nope"}, {"partition", "nope"}, {"role", "router"}, {"device", "leaf1"}, {"", ""},
		{"qos_policy", "roce"}, // a class's name under the wrong kind
	} {
		if md, ok := Reference(f, c.kind, c.name); ok || md != "" {
			t.Errorf("Reference(%q, %q) = %q, %v; want not found", c.kind, c.name, md, ok)
		}
	}
	if _, ok := Reference(nil, "qos_policy", "fabric"); ok {
		t.Error("Reference on a nil fabric found something")
	}
}

func TestGoldenBroken(t *testing.T) {
	dirs, err := os.ReadDir("../../../examples/broken")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, de := range dirs {
		if !de.IsDir() {
			continue
		}
		n++
		t.Run(de.Name(), func(t *testing.T) {
			f := load(t, "../../../examples/broken/"+de.Name(), nil)
			var b strings.Builder
			b.WriteString(allReferences(t, f))
			for _, k := range []schema.Kind{schema.KindNIC, schema.KindLeaf, schema.KindSpine, schema.KindSuperspine, schema.KindCore} {
				if d := firstOfKind(f, k, ""); d != nil {
					md := Device(d, "")
					checkMarkdown(t, d.Name, md)
					b.WriteString("<!-- device " + d.Name + " -->\n" + md + "\n")
				}
			}
			golden.Check(t, filepath.Join("testdata", "broken-"+de.Name()+".golden"), []byte(b.String()), hint)
		})
	}
	if n == 0 {
		t.Fatal("no broken examples")
	}
	// core-zeroes-dscp: one port trusts none, and its hover says so with
	// the policy that set it.
	f := load(t, "../../../examples/broken/core-zeroes-dscp", nil)
	found := false
	for _, d := range f.Devices {
		for _, p := range d.Ports {
			if p.QoS != nil && p.QoS.Trust.V == schema.TrustNone {
				found = true
				md := Port(p, "")
				if !strings.Contains(md, "| trust | none | `qos_policy.") || !strings.Contains(md, "| every packet → priority | 0 (trust none) |") || strings.Contains(md, "| DSCP 26 → priority") {
					t.Errorf("port %s trusts none, hover says:\n%s", p.ID(), md)
				}
			}
		}
	}
	if !found {
		t.Error("core-zeroes-dscp: no port trusts none")
	}
}

func TestGoldenInfiniBand(t *testing.T) {
	f := load(t, "../../../examples/ib-cluster", nil)
	var b strings.Builder
	for _, k := range []schema.Kind{schema.KindNIC, schema.KindSubnetManager, schema.KindLeaf, schema.KindSpine} {
		d := firstOfKind(f, k, "")
		if d == nil {
			continue
		}
		for _, md := range []string{Device(d, ""), Port(d.Ports[0], "")} {
			checkMarkdown(t, d.Name, md)
			for _, eth := range []string{"DSCP", "PFC", "trust", "priority", "ECN", "watchdog"} {
				if strings.Contains(md, eth) {
					t.Errorf("InfiniBand hover of %s shows the Ethernet-only %q:\n%s", d.Name, eth, md)
				}
			}
			if !strings.Contains(md, "SL ") || !strings.Contains(md, "→ VL") {
				t.Errorf("InfiniBand hover of %s lacks SL → VL:\n%s", d.Name, md)
			}
			b.WriteString(md + "\n")
		}
	}
	golden.Check(t, filepath.Join("testdata", "ib-cluster-devices.golden"), []byte(b.String()), hint)
}

// provenanceFabric has trust set at three levels (fabric, device, port)
// and blocks declared out of order across two files, so that a wrong
// containment test (header-only ranges, nearest header before the value)
// names the wrong block.
var provenanceFabric = map[string]string{
	"a.fab.hcl": `fabric "prov" {
  qos_policy = qos_policy.base
}

qos_policy "edge" {
  trust = "dscp"
}

traffic_class "roce" {
  role     = "roce"
  dscp     = [26]
  priority = 3
  queue    = 3
  lossless = true
}

qos_policy "base" {
  trust            = "pcp"
  classes          = [traffic_class.roce, traffic_class.other]
  default_priority = 1
  mtu              = 9100

  queue "3" {
    scheduler = "dwrr"
    weight    = 60
  }
}

traffic_class "other" {
  role     = "default"
  dscp     = [0]
  priority = 0
  queue    = 0
}

qos_policy "dev" {
  trust = "both"
}
`,
	"b.fab.hcl": `device "leaf1" {
  kind       = "leaf"
  platform   = "arista_eos"
  qos_policy = qos_policy.dev

  port "Ethernet1/1" {
    speed       = "100G"
    qos_policy  = qos_policy.edge
    description = "*c* _d_ ` + "`e`" + ` <f> [g](h)"
  }

  port "Ethernet2/1" {
    speed = "100G"
    mtu   = 9000
  }

  port "Ethernet3/1" {
    speed = "100G"
  }
}

device "leaf2" {
  kind       = "leaf"
  platform   = "arista_eos"
  qos_policy = qos_policy.base

  port "Ethernet1/1" {
    speed = "100G"
  }
}
`,
}

func writeFabric(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for n, s := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestProvenance(t *testing.T) {
	dir := writeFabric(t, provenanceFabric)
	f, ds := schema.Load(dir, schema.Options{Platforms: platforms.Catalog()})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	d := f.Device("leaf1")
	cases := []struct {
		port string
		want []string
		not  []string
	}{
		{"Ethernet1/1", []string{
			"| trust | dscp | `qos_policy.edge`, a.fab.hcl line 6 |", // the port's policy wins
			"| MTU | 9100 | `qos_policy.base`, a.fab.hcl line 21 |",  // only the fabric's sets it
			"| DSCP 26 → priority | 3 | `traffic_class.roce`, a.fab.hcl line 11 |",
			"| DSCP 0 → priority | 0 | `traffic_class.other`, a.fab.hcl line 31 |",
			"| other DSCPs → priority | 1 | `qos_policy.base`, a.fab.hcl line 20 |",
			"| queue 3 | dwrr 60 % | `qos_policy.base`, a.fab.hcl line 24, 25 |",
			"| lossless (PFC) | 3 | `traffic_class.roce`, a.fab.hcl line 14 |",
			"policies: `base` → `dev` (device) → `edge` (port)",
			`description: \*c\* \_d\_ \` + "`e\\`" + ` \<f\> \[g\](h)`,
		}, []string{"`qos_policy.dev`, a.fab.hcl line 37"}},
		{"Ethernet2/1", []string{
			"| trust | both | `qos_policy.dev`, a.fab.hcl line 37 |", // the device's policy beats the fabric's
			"| MTU | 9000 | port `leaf1:Ethernet2/1`, line 14 |",     // the port's own mtu, in the hovered file
		}, []string{"qos_policy.edge"}},
		{"Ethernet3/1", []string{
			"| trust | both | `qos_policy.dev`, a.fab.hcl line 37 |",
			"| MTU | 9100 | `qos_policy.base`, a.fab.hcl line 21 |",
			"| PFC watchdog | — | default |",
		}, nil},
	}
	for _, c := range cases {
		p := d.Port(c.port)
		if p == nil {
			t.Fatalf("no port %s", c.port)
		}
		md := Port(p, filepath.Join(dir, "b.fab.hcl"))
		checkMarkdown(t, c.port, md)
		for _, w := range c.want {
			if !strings.Contains(md, w) {
				t.Errorf("%s: hover lacks %q:\n%s", c.port, w, md)
			}
		}
		for _, w := range c.not {
			if strings.Contains(md, w) {
				t.Errorf("%s: hover has %q:\n%s", c.port, w, md)
			}
		}
	}
	// The fabric's policy attached again at the device: the chain names
	// it twice, only the second as the device's.
	if md := Port(f.Device("leaf2").Ports[0], ""); !strings.Contains(md, "policies: `base` → `base` (device)\n") {
		t.Errorf("leaf2: policy chain wrong:\n%s", md)
	}
	dev := Device(d, filepath.Join(dir, "b.fab.hcl"))
	checkMarkdown(t, "leaf1", dev)
	if got := strings.Count(dev, "| trust |"); got != 3 {
		t.Errorf("device hover has %d port groups, want 3 (one per distinct PortQoS):\n%s", got, dev)
	}
	md, _ := Reference(f, "qos_policy", "dev")
	if !strings.Contains(md, "attached to 3 ports on 1 device (`leaf1`)") {
		t.Errorf("dev policy reach:\n%s", md)
	}
	md, _ = Reference(f, "qos_policy", "edge")
	if !strings.Contains(md, "attached to 1 port on 1 device (`leaf1`)") {
		t.Errorf("edge policy reach:\n%s", md)
	}
}

// TestScopeContainment checks the containment rule directly: a value is
// attributed to the block whose known extent holds it, never to the
// nearest header before it, and a value outside every block names no block.
func TestScopeContainment(t *testing.T) {
	rng := func(l1, c1, l2, c2 int32) schema.Range {
		return schema.Range{Filename: "x.fab.hcl", Start: schema.Pos{Line: l1, Column: c1}, End: schema.Pos{Line: l2, Column: c2}}
	}
	a := newBlock("A", rng(1, 1, 1, 10))
	a.grow(rng(3, 3, 3, 20))
	a.grow(withFile(rng(1, 1, 400, 1), "other.fab.hcl")) // other file: ignored
	b := newBlock("B", rng(10, 1, 10, 10))
	b.grow(rng(12, 3, 12, 20))
	inner := newBlock("inner", rng(11, 3, 11, 20)) // a nested block (port in device)
	inner.grow(rng(11, 5, 11, 30))
	s := scope{b, a, inner}
	for _, c := range []struct {
		r    schema.Range
		want string
	}{
		{rng(3, 3, 3, 20), "A, line 3"},
		{rng(1, 1, 1, 10), "A, line 1"},        // the header itself (a default with Src at the block)
		{rng(12, 3, 12, 20), "B, line 12"},     // after B's header
		{rng(11, 5, 11, 30), "inner, line 11"}, // innermost wins
		{rng(5, 1, 5, 9), "line 5"},            // between blocks: no block claims it
		{rng(13, 1, 13, 2), "line 13"},         // after B's known extent
		{withFile(rng(3, 3, 3, 20), "y.fab.hcl"), "y.fab.hcl line 3"},
	} {
		if got := s.at(c.r, "x.fab.hcl"); got != c.want {
			t.Errorf("at(%v) = %q, want %q", c.r, got, c.want)
		}
	}
	if got := s.from(rng(3, 3, 3, 20), false, "x.fab.hcl"); got != "default" {
		t.Errorf("unset value: %q, want default", got)
	}
}

func withFile(r schema.Range, n string) schema.Range { r.Filename = n; return r }

// hostileFabric is a model built in Go, bypassing the loader's name
// checks (a language server may hover a fabric whose names the loader
// would refuse, or a model from elsewhere): every name and text carries
// Markdown and table syntax, a line break and control characters.
func hostileFabric() *schema.Fabric {
	const evil = "x|y`z`*b*_i_<img src=x>[l](u)\n# h\x1b[2J\u202e"
	src := func(l int32) schema.Range {
		return schema.Range{Filename: "h|`x`.fab.hcl", Start: schema.Pos{Line: l, Column: 1}, End: schema.Pos{Line: l, Column: 9}}
	}
	ecn := &schema.ECNProfile{Name: evil + "ecn", Range: src(1), Min: schema.Value[int64]{V: 1000, Set: true, Src: src(2)}, Max: schema.Value[int64]{V: 2000, Set: true, Src: src(2)}}
	wd := &schema.Watchdog{Name: evil + "wd", Range: src(3), Action: schema.Value[schema.WatchdogAction]{V: schema.WatchdogAction(evil), Set: true, Src: src(4)}}
	tc := &schema.TrafficClass{Name: evil + "tc", Range: src(5), Role: schema.ClassRole(evil), RoleRange: src(6), DSCP: []int{26}, DSCPRange: src(7),
		Priority: schema.Value[int]{V: 3, Set: true, Src: src(8)}, Queue: schema.Value[int]{V: 3, Set: true, Src: src(9)},
		Lossless: schema.Value[bool]{V: true, Set: true, Src: src(10)}, ECN: ecn, ECNRange: src(11),
		Sched: schema.Value[schema.SchedMode]{V: schema.SchedMode(evil), Set: true, Src: src(12)}}
	pol := &schema.QoSPolicy{Name: evil + "pol", Range: src(20), Classes: []*schema.TrafficClass{tc}, ClassesRange: src(21),
		Trust:    schema.Value[schema.Trust]{V: schema.Trust(evil), Set: true, Src: src(22)},
		Watchdog: schema.Value[*schema.Watchdog]{V: wd, Set: true, Src: src(23)},
		Queues:   map[int]*schema.QueueSpec{3: {Queue: 3, Range: src(24), ECN: schema.Value[*schema.ECNProfile]{V: ecn, Set: true, Src: src(25)}}}}
	acl := &schema.ACL{Name: evil + "acl", Range: src(30), Rules: []*schema.ACLRule{{Seq: 10, Range: src(31),
		Protocol: schema.Value[string]{V: evil, Set: true, Src: src(32)}, Action: schema.Value[schema.ACLAction]{V: schema.ACLAction(evil), Set: true, Src: src(33)}}}}
	dev := &schema.Device{Name: evil + "dev", Range: src(40), Kind: schema.Value[schema.Kind]{V: schema.KindLeaf, Set: true},
		Platform: schema.Value[schema.Platform]{V: schema.Platform(evil), Set: true}, MgmtAddress: schema.Value[string]{V: evil, Set: true},
		OSVersion: schema.Value[schema.Version]{V: schema.Version{Raw: evil}}, Policy: pol}
	q := &schema.PortQoS{Policies: []*schema.QoSPolicy{pol}, Trust: pol.Trust, Watchdog: pol.Watchdog, Lossless: schema.PrioSetOf(3)}
	for i := range q.Queue {
		q.Queue[i] = schema.Value[int]{V: i}
	}
	q.DSCP[26] = schema.Value[int]{V: 3, Set: true, Src: tc.DSCPRange}
	q.Queues[3].ECN = pol.Queues[3].ECN
	q.Queues[3].Sched = tc.Sched
	for i := range 3 {
		p := &schema.Port{Name: fmt.Sprintf("%s%d", evil, i), Range: src(int32(41 + i)), Device: dev, Description: evil, QoS: q,
			FEC: schema.Value[string]{V: evil, Set: true}, ACLIn: []*schema.ACL{acl}, ACLInRange: src(int32(50 + i))}
		dev.Ports = append(dev.Ports, p)
	}
	f := &schema.Fabric{Name: evil, Classes: []*schema.TrafficClass{tc}, ECNProfiles: []*schema.ECNProfile{ecn},
		Watchdogs: []*schema.Watchdog{wd}, Policies: []*schema.QoSPolicy{pol}, ACLs: []*schema.ACL{acl}, Devices: []*schema.Device{dev}}
	f.Reindex()
	return f
}

func TestHostileNames(t *testing.T) {
	// The loader refuses Markdown in names (letters, digits, "_" and "-"
	// only), so hostile names reach hover only through models built
	// elsewhere; descriptions are free text and do reach it.
	dir := writeFabric(t, map[string]string{"a.fab.hcl": "traffic_class \"a|b`c`\" {\n  priority = 1\n}\n"})
	if _, ds := schema.Load(dir, schema.Options{Platforms: platforms.Catalog()}); !ds.HasErrors() {
		t.Error("the loader accepted a class named a|b`c`; hover's escaping is then the only defence")
	}
	f := hostileFabric()
	d := f.Devices[0]
	outs := map[string]string{
		"Port":    Port(d.Ports[0], "h.fab.hcl"),
		"Device":  Device(d, "h.fab.hcl"),
		"Devices": Devices([]*schema.Device{d, d}, "h.fab.hcl"),
	}
	for _, k := range []string{"qos_policy", "traffic_class", "ecn_profile", "pfc_watchdog", "acl"} {
		short := map[string]string{"qos_policy": "pol", "traffic_class": "tc", "ecn_profile": "ecn", "pfc_watchdog": "wd", "acl": "acl"}[k]
		md, ok := Reference(f, k, f.Name+short)
		if !ok {
			t.Fatalf("Reference(%s) not found", k)
		}
		outs[k] = md
	}
	for what, md := range outs {
		checkMarkdown(t, what, md)
		for _, bad := range []string{"<img", "\n# h", "\x1b", "\u202e", "x|y", "*b*", "_i_", "[l](u)", "`z`"} {
			if unescaped(md, bad) {
				t.Errorf("%s: hostile text %q reaches the Markdown unescaped:\n%s", what, bad, md)
			}
		}
		for _, l := range strings.Split(md, "\n") {
			if strings.HasPrefix(l, "# ") {
				t.Errorf("%s: a name started a heading: %q", what, l)
			}
		}
	}
}

// unescaped reports whether s occurs in md without a backslash before it.
func unescaped(md, s string) bool {
	for i := 0; ; {
		j := strings.Index(md[i:], s)
		if j < 0 {
			return false
		}
		if k := i + j; k == 0 || md[k-1] != '\\' {
			return true
		}
		i += j + 1
	}
}

// FuzzEscape checks that any text, escaped, stays inside one table cell
// and one line, and that a code span is only used for plain names.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "a|b", "`x`", "a\\|b", "<b>", "x\ny", "\x1b[2J", "é|\u202e", "Ethernet1/1", "host[\"nic01\"]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, cell := range []string{esc(s), code(s)} {
			if strings.ContainsAny(cell, "\n\r") {
				t.Fatalf("%q escaped to %q, which breaks the line", s, cell)
			}
			md := "| a | b |\n|---|---|\n| " + cell + " | x |\n"
			if ps := mdtable.Check(md); len(ps) > 0 {
				t.Fatalf("%q escaped to %q splits the cell: %v", s, cell, ps)
			}
		}
		if c := code(s); strings.HasPrefix(c, "`") && strings.Count(c, "`") != 2 {
			t.Fatalf("code(%q) = %q", s, c)
		}
	})
}

// TestReachOnePass checks that reach asks about each distinct PortQoS
// once, whatever the number of ports sharing it.
func TestReachOnePass(t *testing.T) {
	f := load(t, "../../../examples/clos-400g", nil)
	distinct := map[*schema.PortQoS]bool{}
	ports := 0
	for _, d := range f.Devices {
		for _, p := range d.Ports {
			distinct[p.QoS] = true
			ports++
		}
	}
	calls := 0
	r := reach(f, func(*schema.PortQoS) bool { calls++; return true }, nil)
	if calls != len(distinct) {
		t.Errorf("byQoS called %d times for %d distinct PortQoS", calls, len(distinct))
	}
	if r.ports != ports || r.devices != len(f.Devices) {
		t.Errorf("reach counted %d ports on %d devices, want %d on %d", r.ports, r.devices, ports, len(f.Devices))
	}
	if len(distinct) >= ports {
		t.Fatalf("clos-400g has %d PortQoS for %d ports: the memo proves nothing", len(distinct), ports)
	}
}

// TestBounded checks the caps: a device with many distinct port QoS
// shows four groups, and a block of many instances folds its names.
func TestBounded(t *testing.T) {
	f := hostileFabric()
	d := f.Devices[0]
	var devs []*schema.Device
	for i := range 500 {
		x := *d
		x.Name = fmt.Sprintf("n%d", i*2) // every other number: 250 runs (every 2nd)
		if i%3 == 0 {
			x.Name = fmt.Sprintf("m%d-z", i)
		}
		devs = append(devs, &x)
	}
	md := Devices(devs, "")
	checkMarkdown(t, "devices", md)
	first := strings.SplitN(md, "\n", 2)[0]
	if !strings.HasPrefix(first, "500 instances: ") || !strings.Contains(first, "…") || len(first) > 2000 {
		t.Errorf("instance list not bounded: %q", first)
	}
	big := &schema.Device{Name: "big"}
	for i := range 20 {
		q := *d.Ports[0].QoS
		q.MTU = schema.Value[int]{V: 1500 + i, Set: true}
		big.Ports = append(big.Ports, &schema.Port{Name: fmt.Sprintf("p%d", i), Device: big, QoS: &q})
	}
	md = Device(big, "")
	checkMarkdown(t, "big", md)
	if got := strings.Count(md, "| trust |"); got != maxGroups {
		t.Errorf("%d groups rendered, want %d", got, maxGroups)
	}
	if !strings.Contains(md, "and 16 more groups") {
		t.Errorf("no \"and 16 more groups\":\n%s", md)
	}
}

// BenchmarkReference is the reach of the fabric policy and the RoCE
// class on examples/scale at 64 leaves.
func BenchmarkReference(b *testing.B) {
	f := load(b, "../../../examples/scale", map[string]string{"leaves": "64"})
	pol := f.Policies[0].Name
	var cls string
	if c := f.ClassByRole(schema.RoleRoCE); c != nil {
		cls = c.Name
	}
	ports := 0
	for _, d := range f.Devices {
		ports += len(d.Ports)
	}
	for b.Loop() {
		if _, ok := Reference(f, "qos_policy", pol); !ok {
			b.Fatal("policy not found")
		}
		if cls != "" {
			if _, ok := Reference(f, "traffic_class", cls); !ok {
				b.Fatal("class not found")
			}
		}
	}
	b.ReportMetric(float64(len(f.Devices)), "devices")
	b.ReportMetric(float64(ports), "ports")
}

// TestEveryExample renders every device, port, device block and
// reference of every example: valid tables, bounded, deterministic.
func TestEveryExample(t *testing.T) {
	dirs := []string{"clos-400g", "roce-storage", "ai-training-2subnet", "ib-cluster", "releases"}
	broken, err := os.ReadDir("../../../examples/broken")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range broken {
		dirs = append(dirs, "broken/"+b.Name())
	}
	dirs = append(dirs, "scale")
	for _, dir := range dirs {
		t.Run(dir, func(t *testing.T) {
			var vars map[string]string
			if dir == "scale" {
				vars = map[string]string{"spines": "2", "leaves": "4", "nics_per_leaf": "4"}
			}
			f := load(t, "../../../examples/"+dir, vars)
			refs := allReferences(t, f)
			if again := allReferences(t, f); again != refs {
				t.Error("references differ between two calls")
			}
			blocks := map[schema.Range][]*schema.Device{}
			for _, d := range f.Devices {
				blocks[d.Range] = append(blocks[d.Range], d)
				md := Device(d, "")
				checkMarkdown(t, d.Name, md)
				if Device(d, "") != md {
					t.Errorf("%s: Device differs between two calls", d.Name)
				}
				for _, p := range d.Ports {
					md := Port(p, "")
					checkMarkdown(t, p.ID(), md)
					if Port(p, "") != md {
						t.Errorf("%s: Port differs between two calls", p.ID())
					}
					if strings.Contains(md, "| trust |") == f.InfiniBand() {
						t.Errorf("%s: trust row on InfiniBand %v:\n%s", p.ID(), f.InfiniBand(), md)
					}
				}
			}
			for _, devs := range blocks {
				checkMarkdown(t, devs[0].Name+" block", Devices(devs, ""))
			}
		})
	}
	if Port(nil, "") != "" || Device(nil, "") != "" || Devices(nil, "") != "" {
		t.Error("nil input gives a hover")
	}
}
