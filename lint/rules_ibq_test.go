package lint

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// ibFabric is a clean InfiniBand fabric built in Go (the loader's
// InfiniBand decoding is another change): two spines, two leaves, four
// GPU hosts and a storage host, two subnet managers with one sm block
// each, four classes (default SL0, strict mgmt SL1, storage SL2, compute
// SL3) and three partitions. Every IBQ rule passes on it.
func ibFabric() *schema.Fabric {
	x := &fixture{line: 1000}
	f := &schema.Fabric{Name: "ib", Range: x.rng(), Files: map[string][]byte{},
		LinkLayer: schema.Value[schema.LinkLayer]{V: schema.LinkInfiniBand, Set: true, Src: x.rng()}}
	ibClass := func(name string, role schema.ClassRole, sl, weight int, strict bool) *schema.TrafficClass {
		c := &schema.TrafficClass{Name: name, Range: x.rng(), Role: role, RoleRange: x.rng(), SL: iv(x, sl)}
		c.VL = schema.Value[int]{V: sl, Src: c.SL.Src}
		if strict {
			c.Sched = schema.Value[schema.SchedMode]{V: schema.SchedStrict, Set: true, Src: x.rng()}
		} else {
			c.Sched = schema.Value[schema.SchedMode]{V: schema.SchedDWRR, Set: true, Src: x.rng()}
			c.Weight = iv(x, weight)
		}
		return c
	}
	f.Classes = []*schema.TrafficClass{
		ibClass("compute", schema.RoleRoCE, 3, 50, false),
		ibClass("default", schema.RoleDefault, 0, 25, false),
		ibClass("mgmt", schema.RoleControl, 1, 0, true),
		ibClass("storage", schema.RoleBulk, 2, 25, false),
	}
	guid := uint64(0x0002c90300a00100)
	dev := func(name string, kind schema.Kind, plat schema.Platform) *schema.Device {
		d := x.device(name, kind, plat)
		if kind.Tier() > 0 {
			guid++
			d.GUID = schema.Value[uint64]{V: guid, Set: true, Src: x.rng()}
		}
		return d
	}
	hca := func(d *schema.Device) *schema.Port {
		pt := &schema.Port{Name: "ib0", Range: x.rng(), Device: d, MTU: iv(x, 4096)}
		guid++
		pt.GUID = schema.Value[uint64]{V: guid, Set: true, Src: x.rng()}
		d.Ports = append(d.Ports, pt)
		return pt
	}
	swPort := func(d *schema.Device) *schema.Port {
		pt := &schema.Port{Name: fmt.Sprint(len(d.Ports) + 1), Range: x.rng(), Device: d, MTU: iv(x, 4096)}
		d.Ports = append(d.Ports, pt)
		return pt
	}
	leaves := []*schema.Device{dev("leaf1", schema.KindLeaf, "ib_switch"), dev("leaf2", schema.KindLeaf, "ib_switch")}
	spines := []*schema.Device{dev("spine1", schema.KindSpine, "ib_switch"), dev("spine2", schema.KindSpine, "ib_switch")}
	var hosts []*schema.Device
	for i, name := range []string{"gpu01", "gpu02", "gpu03", "gpu04", "stor01"} {
		n := dev(name, schema.KindNIC, "nvidia_mlnx")
		sl := 3
		if name == "stor01" {
			sl = 2
		}
		n.RDMA = &schema.RDMA{Range: x.rng(), SL: iv(x, sl)}
		x.link(f, "host["+name+"]", hca(n), swPort(leaves[i%2]), 3)
		hosts = append(hosts, n)
	}
	var sms []*schema.Device
	for i, name := range []string{"sm01", "sm02"} {
		d := dev(name, schema.KindSubnetManager, "opensm")
		d.SM = &schema.SubnetManager{Range: x.rng(),
			RoutingEngine: schema.Value[[]string]{V: []string{"ftree"}, Set: true, Src: x.rng()},
			MaxOpVLs:      iv(x, 4), HighLimit: iv(x, 4), Priority: iv(x, 15-i)}
		x.link(f, "sm["+name+"]", hca(d), swPort(leaves[i]), 3)
		sms = append(sms, d)
	}
	for _, l := range leaves {
		for _, s := range spines {
			x.link(f, "fabric["+l.Name+"-"+s.Name+"]", swPort(l), swPort(s), 30)
		}
	}
	f.Devices = append(append(append(append(f.Devices, hosts...), leaves...), spines...), sms...)
	sortDevices(f)
	part := func(name string, pkey int, members []*schema.Device) *schema.Partition {
		return &schema.Partition{Name: name, Range: x.rng(), PKey: iv(x, pkey), Members: members, MembersRange: x.rng()}
	}
	def := part("Default", 0x7fff, nil)
	def.Default = bv(x, true)
	compute := part("compute", 0x8001, slices.Clone(hosts[:4]))
	compute.Membership = schema.Value[schema.Membership]{V: schema.MemberFull, Set: true, Src: x.rng()}
	compute.IPoIB, compute.MTU, compute.SL = bv(x, true), iv(x, 4096), iv(x, 3)
	storage := part("storage", 0x8002, slices.Clone(hosts[:4]))
	storage.Membership = schema.Value[schema.Membership]{V: schema.MemberLimited, Set: true, Src: x.rng()}
	storage.FullMembers, storage.FullMembersRange = slices.Clone(hosts[4:]), x.rng()
	storage.SL = iv(x, 2)
	f.Partitions = []*schema.Partition{def, compute, storage}
	f.Reindex()
	return f
}

func TestIBFabricClean(t *testing.T) {
	fs, err := Run(context.Background(), ibFabric(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		t.Errorf("unexpected %s %s at %v: %s", f.Rule, f.Severity, f.Subject, f.Summary)
	}
}

func class(f *schema.Fabric, name string) *schema.TrafficClass {
	c := f.Class(name)
	if c == nil {
		panic("ib fixture has no class " + name)
	}
	return c
}

func partition(f *schema.Fabric, name string) *schema.Partition {
	for _, p := range f.Partitions {
		if p.Name == name {
			return p
		}
	}
	panic("ib fixture has no partition " + name)
}

// at is a fresh source range for a value an edit sets.
func at(line int32) schema.Range {
	return schema.Range{Filename: "edit.fab.hcl", Start: schema.Pos{Line: line, Column: 3}, End: schema.Pos{Line: line, Column: 9}}
}

func setInt(v *schema.Value[int], n int, line int32) schema.Range {
	*v = schema.Value[int]{V: n, Set: true, Src: at(line)}
	return v.Src
}

// TestIBQRules edits the clean InfiniBand fabric and expects the rule's
// finding, with its severity and message, at the line to change; the
// pass cases are near misses that must stay silent. Other IBQ rules may
// report too only where a case lists them.
func TestIBQRules(t *testing.T) {
	for _, c := range ibqCases() {
		t.Run(c.rule+"/"+c.name, func(t *testing.T) { c.check(t) })
	}
}

// TestIBQRulesCovered: every IBQ rule has a failing and a passing case.
func TestIBQRulesCovered(t *testing.T) {
	fail, pass := map[string]bool{}, map[string]bool{}
	for _, c := range ibqCases() {
		if c.sev < 0 {
			pass[c.rule] = true
		} else {
			fail[c.rule] = true
		}
	}
	for _, r := range Rules() {
		if r.AppliesTo(schema.LinkInfiniBand) && r.ID != "SUP001" && r.ID != ValidationRule && (!fail[r.ID] || !pass[r.ID]) {
			t.Errorf("rule %s needs a failing and a passing case in ibqCases (fail %v, pass %v)", r.ID, fail[r.ID], pass[r.ID])
		}
	}
}

// ibqCase is one edit of the clean InfiniBand fabric and the finding it
// must (or, with sev -1, must not) produce.
type ibqCase struct {
	name, rule string
	sev        schema.Severity // 0: the rule's default; -1: a near miss
	msg        string          // a substring of the summary
	also       []string        // other rules the edit triggers
	edit       func(f *schema.Fabric) schema.Range
}

func ibqCases() []ibqCase {
	sm := func(f *schema.Fabric, n string) *schema.SubnetManager { return f.Device(n).SM }
	return []ibqCase{
		// IBQ001
		{"vl beyond max_op_vls", "IBQ001", 0, "masks it to VL1", nil, func(f *schema.Fabric) schema.Range {
			return setInt(&class(f, "compute").VL, 9, 1)
		}},
		{"vl 15", "IBQ001", 0, "VL15, which drops", nil, func(f *schema.Fabric) schema.Range {
			return setInt(&class(f, "compute").VL, 15, 1)
		}},
		{"max_op_vls lowered under the classes", "IBQ001", 0, "beyond the 2 operational VLs", []string{"IBQ001"}, func(f *schema.Fabric) schema.Range {
			setInt(&sm(f, "sm01").MaxOpVLs, 2, 1)
			setInt(&sm(f, "sm02").MaxOpVLs, 2, 2)
			return class(f, "compute").SL.Src
		}},
		{"pass: vl 7 with max_op_vls 4", "IBQ001", -1, "", nil, func(f *schema.Fabric) schema.Range {
			return setInt(&class(f, "compute").VL, 7, 1)
		}},
		// IBQ002
		{"zero weight", "IBQ002", 0, "weight 0 in both", nil, func(f *schema.Fabric) schema.Range {
			return setInt(&class(f, "storage").Weight, 0, 1)
		}},
		{"pass: zero low weight but strict", "IBQ002", -1, "", nil, func(f *schema.Fabric) schema.Range {
			c := class(f, "storage")
			c.Weight = schema.Value[int]{}
			c.Sched = schema.Value[schema.SchedMode]{V: schema.SchedStrict, Set: true, Src: at(1)}
			return schema.Range{}
		}},
		// IBQ003
		{"weights of one VL overflow", "IBQ003", 0, "weight is 320", []string{"IBQ004"}, func(f *schema.Fabric) schema.Range {
			setInt(&class(f, "storage").VL, 3, 1)
			setInt(&class(f, "storage").Weight, 75, 2)
			return class(f, "storage").Weight.Src
		}},
		{"pass: two classes fill one VL to 192", "IBQ003", -1, "", nil, func(f *schema.Fabric) schema.Range {
			setInt(&class(f, "storage").VL, 3, 1)
			setInt(&class(f, "compute").Weight, 50, 2)
			return schema.Range{}
		}},
		// IBQ004
		{"weight not a multiple of 64", "IBQ004", 0, "not a whole number of 4 KB packets", nil, func(f *schema.Fabric) schema.Range {
			return setInt(&class(f, "storage").Weight, 30, 1)
		}},
		{"pass: same weight at MTU 2048", "IBQ004", -1, "", []string{"IBQ014"}, func(f *schema.Fabric) schema.Range {
			setInt(&class(f, "storage").Weight, 30, 1)
			for _, d := range f.Devices {
				for _, p := range d.Ports {
					p.MTU.V = 2048
				}
			}
			partition(f, "compute").MTU.V = 2048
			return schema.Range{}
		}},
		// IBQ005
		{"high_limit 255", "IBQ005", 0, "high_limit 255", []string{"IBQ015"}, func(f *schema.Fabric) schema.Range {
			return setInt(&sm(f, "sm01").HighLimit, 255, 1)
		}},
		{"pass: high_limit 254", "IBQ005", -1, "", []string{"IBQ015"}, func(f *schema.Fabric) schema.Range {
			return setInt(&sm(f, "sm01").HighLimit, 254, 1)
		}},
		// IBQ006
		{"two classes on one SL, different VLs", "IBQ006", 0, "VL4 is never used", []string{"IBQ002", "IBQ007", "IBQ011"}, func(f *schema.Fabric) schema.Range {
			c := class(f, "storage")
			setInt(&c.SL, 3, 1)
			return setInt(&c.VL, 4, 2)
		}},
		{"torus-2QoS while classes pin VLs", "IBQ006", 0, "programs its own SL2VL", []string{"IBQ010", "IBQ015"}, func(f *schema.Fabric) schema.Range {
			setInt(&class(f, "storage").VL, 2, 1)
			s := sm(f, "sm01")
			s.RoutingEngine = schema.Value[[]string]{V: []string{"torus-2QoS"}, Set: true, Src: at(2)}
			return s.RoutingEngine.Src
		}},
		{"pass: two classes on one SL and VL", "IBQ006", -1, "", []string{"IBQ007", "IBQ011"}, func(f *schema.Fabric) schema.Range {
			c := class(f, "storage")
			setInt(&c.SL, 3, 1)
			setInt(&c.VL, 3, 2)
			return schema.Range{}
		}},
		// IBQ007
		{"partition sl no class names", "IBQ007", 0, "no traffic_class names", nil, func(f *schema.Fabric) schema.Range {
			return setInt(&partition(f, "compute").SL, 5, 1)
		}},
		{"members all use another class's SL", "IBQ007", 0, "all its members use SL 3 (traffic_class \"compute\")", nil, func(f *schema.Fabric) schema.Range {
			return setInt(&partition(f, "compute").SL, 2, 1)
		}},
		{"pass: one member on the partition's SL", "IBQ007", -1, "", nil, func(f *schema.Fabric) schema.Range {
			p := partition(f, "compute")
			setInt(&p.SL, 2, 1)
			p.Members = append(p.Members, f.Device("stor01"))
			return schema.Range{}
		}},
		{"pass: partition without sl", "IBQ007", -1, "", nil, func(f *schema.Fabric) schema.Range {
			partition(f, "compute").SL = schema.Value[int]{}
			return schema.Range{}
		}},
		// IBQ008
		{"no default class", "IBQ008", 0, "no DEFAULT qos-level", nil, func(f *schema.Fabric) schema.Range {
			c := class(f, "default")
			c.Role = schema.RoleBulk
			return class(f, "default").RoleRange // SL 0 is the first class
		}},
		{"sl 16", "IBQ008", 0, "sl 16", []string{"IBQ007", "IBQ011"}, func(f *schema.Fabric) schema.Range {
			return setInt(&class(f, "storage").SL, 16, 1)
		}},
		{"partition without members", "IBQ008", 0, "has no members", nil, func(f *schema.Fabric) schema.Range {
			p := partition(f, "compute")
			p.Members = nil
			return p.MembersRange
		}},
		{"pass: default partition without members", "IBQ008", -1, "", nil, func(f *schema.Fabric) schema.Range {
			partition(f, "Default").Members = nil
			return schema.Range{}
		}},
		// IBQ009
		{"dfsssp while classes pin SLs", "IBQ009", 0, "routes with dfsssp", []string{"IBQ015"}, func(f *schema.Fabric) schema.Range {
			s := sm(f, "sm01")
			s.RoutingEngine = schema.Value[[]string]{V: []string{"dfsssp"}, Set: true, Src: at(1)}
			return s.RoutingEngine.Src
		}},
		{"pass: updn", "IBQ009", -1, "", []string{"IBQ015"}, func(f *schema.Fabric) schema.Range {
			sm(f, "sm01").RoutingEngine.V = []string{"updn"}
			return schema.Range{}
		}},
		// IBQ010
		{"updn without roots", "IBQ010", 0, "no spine has a guid", []string{"IBQ015"}, func(f *schema.Fabric) schema.Range {
			sm(f, "sm01").RoutingEngine.V = []string{"updn"}
			f.Device("spine1").GUID = schema.Value[uint64]{}
			f.Device("spine2").GUID = schema.Value[uint64]{}
			return sm(f, "sm01").RoutingEngine.Src
		}},
		{"ftree with a host on a spine", "IBQ010", 0, "host gpu01 is linked to spine spine1", []string{"IBQ010"}, func(f *schema.Fabric) schema.Range {
			l := f.Links[0]
			l.B.Device = f.Device("spine1")
			return sm(f, "sm01").RoutingEngine.Src
		}},
		{"ftree with a leaf-leaf link", "IBQ010", 0, "of the same tier", []string{"IBQ010"}, func(f *schema.Fabric) schema.Range {
			x := &fixture{line: 5000}
			a := &schema.Port{Name: "30", Range: x.rng(), Device: f.Device("leaf1")}
			b := &schema.Port{Name: "30", Range: x.rng(), Device: f.Device("leaf2")}
			a.Device.Ports, b.Device.Ports = append(a.Device.Ports, a), append(b.Device.Ports, b)
			x.link(f, "peer", a, b, 1)
			return sm(f, "sm01").RoutingEngine.Src
		}},
		{"ftree without spines", "IBQ010", 0, "no switch above the leaves", []string{"IBQ010"}, func(f *schema.Fabric) schema.Range {
			var links []*schema.Link
			for _, l := range f.Links {
				if !strings.HasPrefix(l.Name, "fabric[") {
					links = append(links, l)
				}
			}
			f.Links = links
			var devs []*schema.Device
			for _, d := range f.Devices {
				if d.Kind.V != schema.KindSpine {
					devs = append(devs, d)
				}
			}
			f.Devices = devs
			return sm(f, "sm01").RoutingEngine.Src
		}},
		{"ftree with a leaf under one spine", "IBQ010", 0, "leaf leaf1 has 2 spine(s) above it and leaf leaf2 1", []string{"IBQ010"}, func(f *schema.Fabric) schema.Range {
			var links []*schema.Link
			for _, l := range f.Links {
				if l.Name != "fabric[leaf2-spine2]" {
					links = append(links, l)
				}
			}
			f.Links = links
			return sm(f, "sm01").RoutingEngine.Src
		}},
		{"allow_fallback", "IBQ010", schema.SevWarning, "allows fallback", []string{"IBQ015"}, func(f *schema.Fabric) schema.Range {
			s := sm(f, "sm01")
			s.AllowFallback = schema.Value[bool]{V: true, Set: true, Src: at(1)}
			return s.AllowFallback.Src
		}},
		{"pass: updn with spine roots", "IBQ010", -1, "", []string{"IBQ015"}, func(f *schema.Fabric) schema.Range {
			sm(f, "sm01").RoutingEngine.V = []string{"updn"}
			return schema.Range{}
		}},
		// IBQ011
		{"nic without rdma sl", "IBQ011", 0, "NCCL sends on SL 0", nil, func(f *schema.Fabric) schema.Range {
			d := f.Device("gpu02")
			d.RDMA.SL = schema.Value[int]{}
			return d.RDMA.Range
		}},
		{"nic sl no class names", "IBQ011", 0, "use SL 6", []string{"IBQ007"}, func(f *schema.Fabric) schema.Range {
			return setInt(&f.Device("gpu02").RDMA.SL, 6, 1)
		}},
		{"pass: nic on the default class", "IBQ011", -1, "", nil, func(f *schema.Fabric) schema.Range {
			setInt(&f.Device("gpu02").RDMA.SL, 0, 1)
			return schema.Range{}
		}},
		// IBQ012
		{"all members limited", "IBQ012", 0, "only limited members", []string{"IBQ007"}, func(f *schema.Fabric) schema.Range {
			p := partition(f, "storage")
			p.FullMembers = nil
			return p.Membership.Src
		}},
		{"storage host limited", "IBQ012", schema.SevWarning, "storage host(s) stor01", nil, func(f *schema.Fabric) schema.Range {
			p := partition(f, "storage")
			p.Members = append(p.Members, p.FullMembers...)
			p.FullMembers = []*schema.Device{f.Device("gpu01")}
			return p.FullMembersRange
		}},
		{"no default partition", "IBQ012", schema.SevWarning, "no partition has default", nil, func(f *schema.Fabric) schema.Range {
			f.Partitions = f.Partitions[1:]
			return f.Range
		}},
		{"pass: limited members with a full one", "IBQ012", -1, "", nil, func(f *schema.Fabric) schema.Range {
			p := partition(f, "storage")
			p.Members = append(p.Members, f.Device("stor01"))
			return schema.Range{}
		}},
		// IBQ013
		{"pkeys equal without bit 15", "IBQ013", 0, "is partition \"compute\"'s (0x8001) without the membership bit", nil, func(f *schema.Fabric) schema.Range {
			p := partition(f, "storage")
			p.PKey.V = 0x0001
			return p.PKey.Src
		}},
		{"pass: distinct pkeys", "IBQ013", -1, "", nil, func(f *schema.Fabric) schema.Range {
			partition(f, "storage").PKey.V = 0x0003
			return schema.Range{}
		}},
		// IBQ014
		{"ipoib partition at the 2048 default", "IBQ014", 0, "IPoIB gets 2044 bytes", nil, func(f *schema.Fabric) schema.Range {
			p := partition(f, "compute")
			p.MTU = schema.Value[int]{}
			return p.IPoIB.Src
		}},
		{"ipoib on the Default partition, all end ports", "IBQ014", 0, "IPoIB partition \"Default\" has no mtu (OpenSM's default 2048)", nil, func(f *schema.Fabric) schema.Range {
			p := partition(f, "Default")
			p.IPoIB = schema.Value[bool]{V: true, Set: true, Src: at(1)}
			return p.IPoIB.Src
		}},
		{"pass: no ipoib", "IBQ014", -1, "", nil, func(f *schema.Fabric) schema.Range {
			p := partition(f, "compute")
			p.MTU, p.IPoIB = schema.Value[int]{}, schema.Value[bool]{}
			return schema.Range{}
		}},
		// IBQ015
		{"standby with another max_op_vls", "IBQ015", 0, "sm02 has max_op_vls 5 but sm01 has 4", nil, func(f *schema.Fabric) schema.Range {
			s := sm(f, "sm02")
			s.MaxOpVLs = schema.Value[int]{}
			return s.Range
		}},
		{"standby with another engine", "IBQ015", 0, "routing_engine updn", nil, func(f *schema.Fabric) schema.Range {
			s := sm(f, "sm02")
			s.RoutingEngine.V = []string{"updn"}
			return s.RoutingEngine.Src
		}},
		{"pass: priorities differ", "IBQ015", -1, "", nil, func(f *schema.Fabric) schema.Range {
			setInt(&sm(f, "sm02").Priority, 0, 1)
			return schema.Range{}
		}},
	}
}

func (c ibqCase) check(t *testing.T) {
	t.Helper()
	f := ibFabric()
	want := c.edit(f)
	f.Reindex()
	fs, err := Run(context.Background(), f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []Finding
	for _, fd := range fs {
		switch {
		case fd.Rule == c.rule:
			got = append(got, fd)
		case !slices.Contains(c.also, fd.Rule):
			t.Errorf("unexpected %s at %v: %s", fd.Rule, fd.Subject, fd.Summary)
		}
	}
	if c.sev < 0 {
		for _, fd := range got {
			t.Errorf("near miss reported %s at %v: %s", fd.Rule, fd.Subject, fd.Summary)
		}
		return
	}
	if len(got) == 0 {
		t.Fatalf("no %s finding", c.rule)
	}
	for _, fd := range got {
		if fd.Subject != nil && *fd.Subject == want && strings.Contains(fd.Summary, c.msg) {
			sev := c.sev
			if sev == 0 {
				sev = Lookup(c.rule).Severity
			}
			if fd.Severity != sev {
				t.Errorf("%s severity %s, want %s", c.rule, fd.Severity, sev)
			}
			return
		}
	}
	for _, fd := range got {
		t.Logf("%s at %v: %s", fd.Rule, fd.Subject, fd.Summary)
	}
	t.Errorf("no %s finding at %v saying %q", c.rule, want, c.msg)
}

// brokenIB is the InfiniBand fabric with a mistake for every IBQ rule and
// Ethernet mistakes a RoCE rule would report (a RoCE class that is not
// lossless, no ECN, no PFC anywhere).
func brokenIB() *schema.Fabric {
	f := ibFabric()
	setInt(&class(f, "compute").VL, 9, 1)
	setInt(&class(f, "storage").Weight, 30, 2)
	partition(f, "storage").FullMembers = nil
	partition(f, "storage").PKey.V = 0x0001
	f.Device("gpu02").RDMA.SL = schema.Value[int]{}
	f.Reindex()
	return f
}

// TestLinkLayersApart: the runner runs only the fabric's link layer's
// rules. Each rule of the other link layer would report on the fabric if
// it ran (so the test can fail), and through Run none does.
func TestLinkLayersApart(t *testing.T) {
	for _, c := range []struct {
		name    string
		fabric  func() *schema.Fabric
		foreign func(id string) bool
	}{
		{"infiniband", brokenIB, func(id string) bool { return !strings.HasPrefix(id, "IBQ") && id != "SUP001" }},
		{"ethernet", baseFabric, func(id string) bool { return strings.HasPrefix(id, "IBQ") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := c.fabric()
			// The foreign rules, run directly, have something to say.
			would := 0
			for _, r := range Rules() {
				if !c.foreign(r.ID) || r.Path || strings.HasPrefix(r.ID, "PLT") {
					continue
				}
				p := &Pass{Fabric: f, Rule: r, qosGroups: func() []qosGroup { return buildGroups(f, linked) },
					report: func(Finding, *Alike) { would++ }}
				func() {
					defer func() { _ = recover() }() // a foreign rule may not cope with the fabric at all
					r.Run(p)
				}()
			}
			if would == 0 {
				t.Fatalf("no %s-foreign rule would report on the fabric: the test cannot fail", c.name)
			}
			fs, err := Run(context.Background(), f, Options{})
			if err != nil {
				t.Fatal(err)
			}
			own := 0
			for _, fd := range fs {
				if c.foreign(fd.Rule) {
					t.Errorf("%s rule %s reported on a %s fabric: %s", fd.Rule, fd.Rule, c.name, fd.Summary)
				} else {
					own++
				}
			}
			if c.name == "infiniband" && own == 0 {
				t.Error("the broken InfiniBand fabric has no IBQ finding")
			}
		})
	}
}

func TestRuleAppliesTo(t *testing.T) {
	eth, ib, both := &Rule{}, &Rule{LinkLayers: ibOnly()}, &Rule{LinkLayers: bothLinkLayers()}
	for _, c := range []struct {
		r    *Rule
		ll   schema.LinkLayer
		want bool
	}{
		{eth, "", true}, {eth, schema.LinkEthernet, true}, {eth, schema.LinkInfiniBand, false},
		{ib, "", false}, {ib, schema.LinkEthernet, false}, {ib, schema.LinkInfiniBand, true},
		{both, "", true}, {both, schema.LinkInfiniBand, true},
	} {
		if got := c.r.AppliesTo(c.ll); got != c.want {
			t.Errorf("LinkLayers %v AppliesTo(%q) = %v, want %v", c.r.LinkLayers, c.ll, got, c.want)
		}
	}
	if m := Lookup("IBQ001").Meta(); !m.AppliesTo(schema.LinkInfiniBand) || m.AppliesTo(schema.LinkEthernet) {
		t.Error("Meta drops LinkLayers")
	}
}
