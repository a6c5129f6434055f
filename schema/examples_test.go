package schema_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// exampleDir is the examples folder relative to this package.
const exampleDir = "../examples"

// exampleCase is one example directory with the counts it must resolve to.
type exampleCase struct {
	dir                  string
	vars                 map[string]string
	devices, ports, link int
	// check runs example-specific assertions on the loaded fabric.
	check func(t *testing.T, f *schema.Fabric)
}

// scaleCounts is what examples/scale must produce for s spines, l leaves and
// n NICs per leaf: every leaf has n host ports and s uplinks, every spine one
// port per leaf, every NIC one port.
func scaleCounts(s, l, n int) (devices, ports, links int) {
	return s + l + l*n, s*l + l*(n+s) + l*n, l*n + l*s
}

func scaleCase(s, l, n int) exampleCase {
	d, p, k := scaleCounts(s, l, n)
	return exampleCase{
		dir:     "scale",
		vars:    map[string]string{"spines": strconv.Itoa(s), "leaves": strconv.Itoa(l), "nics_per_leaf": strconv.Itoa(n)},
		devices: d, ports: p, link: k,
		check: func(t *testing.T, f *schema.Fabric) {
			kinds := countBy(f, func(d *schema.Device) string { return string(d.Kind.V) })
			if kinds["spine"] != s || kinds["leaf"] != l || kinds["nic"] != l*n {
				t.Errorf("kinds = %v, want %d spines, %d leaves, %d nics", kinds, s, l, l*n)
			}
			for _, d := range f.Devices {
				want := map[schema.Kind]int{schema.KindSpine: l, schema.KindLeaf: n + s, schema.KindNIC: 1}[d.Kind.V]
				if len(d.Ports) != want {
					t.Errorf("%s has %d ports, want %d", d.Name, len(d.Ports), want)
				}
			}
		},
	}
}

func exampleCases() []exampleCase {
	return []exampleCase{
		{dir: "roce-storage", devices: 8, ports: 24, link: 12, check: checkRoCEStorage},
		{dir: "ai-training-2subnet", devices: 11, ports: 24, link: 12, check: checkAITraining},
		{dir: "ai-training-2subnet", vars: map[string]string{"gpus_per_subnet": "16"}, devices: 35, ports: 72, link: 36},
		{dir: "clos-400g", devices: 38, ports: 80, link: 40, check: checkClos400G},
		{dir: "releases", devices: 16, ports: 30, link: 15, check: checkReleases},
		// 2 spines, 4 leaves, 2 SM hosts, 10 HCA hosts; 2×4 + 4×5 + 12
		// ports; the 8 fat-tree links and one per host.
		{dir: "ib-cluster", devices: 18, ports: 40, link: 20, check: checkIBCluster},
		scaleCase(4, 8, 4),
		scaleCase(2, 3, 5),
		// More leaves than go-cty's range() returns by default (1,024): the
		// full-size fabric has 2,048.
		scaleCase(1, 1100, 0),
	}
}

// TestExamples loads every example and checks its counts and the
// end-to-end contract every example promises: links wired both ways, /31
// ends in one network, NIC marking equal to the RoCE class, PFC on the RoCE
// priority and the MTU chain on every port.
func TestExamples(t *testing.T) {
	for _, c := range exampleCases() {
		name := c.dir
		if len(c.vars) > 0 {
			name += "/" + varsName(c.vars)
		}
		t.Run(name, func(t *testing.T) {
			f := loadExample(t, c.dir, c.vars)
			ports := 0
			for _, d := range f.Devices {
				ports += len(d.Ports)
			}
			if len(f.Devices) != c.devices || ports != c.ports || len(f.Links) != c.link {
				t.Errorf("got %d devices, %d ports, %d links; want %d, %d, %d",
					len(f.Devices), ports, len(f.Links), c.devices, c.ports, c.link)
			}
			checkLinks(t, f)
			if !f.InfiniBand() {
				checkContract(t, f)
			}
			checkLossless(t, f)
			if c.check != nil {
				c.check(t, f)
			}
		})
	}
}

// checkLossless recomputes, from the intent as written, the lossless sets
// the loader computed once: each port's (its policies' pfc_priorities, else
// its classes' lossless priorities), each device's (the union of its ports')
// and the fabric's (its lossless classes' priorities).
func checkLossless(t *testing.T, f *schema.Fabric) {
	t.Helper()
	var intent schema.PrioSet
	for _, c := range f.Classes {
		if c.Lossless.V && c.Priority.Set {
			intent = intent.With(c.Priority.V)
		}
	}
	if f.Lossless != intent {
		t.Errorf("Fabric.Lossless = %v, the classes say %v", f.Lossless, intent)
	}
	seen := map[*schema.PortQoS]bool{}
	for _, d := range f.Devices {
		var union schema.PrioSet
		for _, p := range d.Ports {
			q := p.QoS
			if q == nil {
				continue
			}
			union |= q.Lossless
			if seen[q] {
				continue
			}
			seen[q] = true
			var classes []*schema.TrafficClass
			var want schema.PrioSet
			pfcSet := false
			for _, pol := range q.Policies {
				if !pol.ClassesRange.IsZero() {
					classes = pol.Classes
				}
				if pol.PFC.Set {
					want, pfcSet = pol.PFC.V, true
				}
			}
			if !pfcSet {
				for _, c := range classes {
					if c.Lossless.V && c.Priority.Set {
						want = want.With(c.Priority.V)
					}
				}
			}
			if q.Lossless != want {
				t.Errorf("%s: PortQoS.Lossless = %v, its policies say %v", p.ID(), q.Lossless, want)
			}
			if q.Lossless != 0 && q.PFCSource().IsZero() {
				t.Errorf("%s: PFC on %v with no source range", p.ID(), q.Lossless)
			}
		}
		if d.Lossless != union {
			t.Errorf("%s: Device.Lossless = %v, its ports use %v", d.Name, d.Lossless, union)
		}
	}
}

// TestExamplesCovered fails when an example directory has no entry in
// exampleCases, so a new example cannot skip validation.
func TestExamplesCovered(t *testing.T) {
	ents, err := os.ReadDir(exampleDir)
	if err != nil {
		t.Fatalf("read %s: %v", exampleDir, err)
	}
	covered := map[string]bool{}
	for _, c := range exampleCases() {
		covered[c.dir] = true
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		files, err := schema.IntentFiles(filepath.Join(exampleDir, e.Name()))
		if err != nil {
			t.Fatalf("list %s: %v", e.Name(), err)
		}
		// broken/ holds one deliberately wrong fabric per subdirectory and
		// no intent of its own; lint's tests cover it.
		if len(files) == 0 {
			continue
		}
		if !covered[e.Name()] {
			t.Errorf("examples/%s is not in exampleCases: add it with its device, port and link counts", e.Name())
		}
		if _, err := os.Stat(filepath.Join(exampleDir, e.Name(), "README.md")); err != nil {
			t.Errorf("examples/%s has no README.md saying what it shows", e.Name())
		}
	}
}

// TestScaleExampleIsShort keeps the parametric Clos under 100 lines.
func TestScaleExampleIsShort(t *testing.T) {
	files, err := schema.IntentFiles(filepath.Join(exampleDir, "scale"))
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines += bytes.Count(b, []byte{'\n'})
	}
	if lines >= 100 {
		t.Errorf("examples/scale has %d lines; it must describe the Clos in under 100", lines)
	}
}

// TestScaleDefaultCounts checks the arithmetic behind the scale README: the
// defaults give 2,112 switches and 65,536 NICs. Loading that size is the
// job of BenchmarkLoad.
func TestScaleDefaultCounts(t *testing.T) {
	d, p, l := scaleCounts(64, 2048, 32)
	if d != 2112+65536 || p != 393216 || l != 196608 {
		t.Errorf("scaleCounts(64, 2048, 32) = %d, %d, %d", d, p, l)
	}
}

func varsName(vars map[string]string) string {
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	s := ""
	for i, k := range keys {
		if i > 0 {
			s += ","
		}
		s += k + "=" + vars[k]
	}
	return s
}

func loadExample(t *testing.T, dir string, vars map[string]string) *schema.Fabric {
	t.Helper()
	f, diags := schema.Load(filepath.Join(exampleDir, dir), schema.Options{Vars: vars, Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	for _, d := range diags {
		t.Errorf("%s: %s", d.Severity, d.Error())
	}
	if f == nil {
		t.Fatalf("Load(%s) returned no fabric", dir)
	}
	if diags.HasErrors() {
		t.FailNow()
	}
	return f
}

// checkIBCluster checks what examples/ib-cluster promises: every HCA port
// has a GUID and every switch a node GUID, the hosts' SLs are their
// classes', the SM hosts share their settings, and the storage partition
// has its targets as full members.
func checkIBCluster(t *testing.T, f *schema.Fabric) {
	t.Helper()
	if !f.InfiniBand() {
		t.Fatalf("link layer %q, want infiniband", f.LinkLayer.V)
	}
	sls := map[int]string{}
	for _, c := range f.Classes {
		if !c.SL.Set || c.Priority.Set {
			t.Errorf("class %s: sl %+v priority %+v", c.Name, c.SL, c.Priority)
		}
		sls[c.SL.V] = c.Name
	}
	var sm *schema.SubnetManager
	for _, d := range f.Devices {
		switch d.Kind.V {
		case schema.KindLeaf, schema.KindSpine:
			if !d.GUID.Set {
				t.Errorf("switch %s has no node GUID", d.Name)
			}
		case schema.KindNIC:
			want := map[bool]string{true: "compute", false: "storage"}[d.Name[:3] == "gpu"]
			if d.RDMA == nil || sls[d.RDMA.SL.V] != want {
				t.Errorf("host %s: rdma %+v, want the SL of class %s", d.Name, d.RDMA, want)
			}
		case schema.KindSubnetManager:
			if sm != nil && (strings.Join(sm.RoutingEngine.V, ",") != strings.Join(d.SM.RoutingEngine.V, ",") || sm.MaxOpVLs != d.SM.MaxOpVLs) {
				t.Errorf("SM %s differs from the other SM host", d.Name)
			}
			sm = d.SM
		}
		for _, p := range d.Ports {
			if k := d.Kind.V; (k == schema.KindNIC || k == schema.KindSubnetManager) && !p.GUID.Set {
				t.Errorf("%s has no port GUID", p.ID())
			}
			if p.QoS == nil || p.QoS.MTU.V != 2048 {
				t.Errorf("%s: MTU %v, want 2048 (ibsim's MtuCap)", p.ID(), p.QoS)
			}
		}
	}
	if sm == nil || sm.MaxOpVLs.V != 4 {
		t.Errorf("SM settings %+v, want max_op_vls 4", sm)
	}
	names := make([]string, 0, len(f.Partitions))
	for _, p := range f.Partitions {
		names = append(names, fmt.Sprintf("%s=0x%04x", p.Name, p.PKey.V))
	}
	if got := strings.Join(names, " "); got != "Default=0x7fff compute=0x8001 storage=0x8002" {
		t.Errorf("partitions %s", got)
	}
	st := f.Partitions[2]
	for _, n := range []string{"stor01", "stor02"} {
		if m, ok := st.MembershipOf(f.Device(n)); !ok || m != schema.MemberFull {
			t.Errorf("%s in storage: %v %v, want full", n, m, ok)
		}
	}
	if m, ok := st.MembershipOf(f.Device("gpu01")); !ok || m != schema.MemberLimited {
		t.Errorf("gpu01 in storage: %v %v, want limited", m, ok)
	}
}

func countBy(f *schema.Fabric, key func(*schema.Device) string) map[string]int {
	out := map[string]int{}
	for _, d := range f.Devices {
		out[key(d)]++
	}
	return out
}

// checkLinks asserts every link is wired both ways, both ends run the same
// speed, and two routed ends share one network (an L2 switch port facing a
// routed NIC is fine). No address is used twice.
func checkLinks(t *testing.T, f *schema.Fabric) {
	t.Helper()
	for _, l := range f.Links {
		if l.A == nil || l.B == nil {
			t.Errorf("link %s is not wired", l.Name)
			continue
		}
		if l.A.Link != l || l.B.Link != l || l.A.Peer != l.B || l.B.Peer != l.A {
			t.Errorf("link %s is not connected both ways", l.Name)
		}
		if l.A.Speed.V != l.B.Speed.V {
			t.Errorf("link %s joins %s at %d b/s to %s at %d b/s", l.Name, l.A.ID(), l.A.Speed.V, l.B.ID(), l.B.Speed.V)
		}
		// PFC headroom is sized from the cable; InfiniBand has no PFC.
		if !l.CableLength.Set && !f.InfiniBand() {
			t.Errorf("link %s has no cable_length (headroom sizing needs it)", l.Name)
		}
		if l.A.IP.Set && l.B.IP.Set {
			a, b := l.A.IP.V, l.B.IP.V
			if a.Masked() != b.Masked() || a.Addr() == b.Addr() {
				t.Errorf("link %s: %s %s and %s %s are not two addresses of one network", l.Name, l.A.ID(), a, l.B.ID(), b)
			}
		}
	}
	seen := map[string]string{}
	for _, d := range f.Devices {
		for _, p := range d.Ports {
			if !p.IP.Set {
				continue
			}
			addr := p.IP.V.Addr().String()
			if prev, dup := seen[addr]; dup {
				t.Errorf("%s and %s both use %s", prev, p.ID(), addr)
			}
			seen[addr] = p.ID()
		}
	}
}

// checkContract asserts the lossless contract every example promises.
// checkReleases pins what examples/releases exists to show: one device per
// syntax variant.
func checkReleases(t *testing.T, f *schema.Fabric) {
	t.Helper()
	// Each device shows one release syntax (with its ASIC or model
	// family): "ASIC-or-family release", on a platform with a release form.
	want := map[string]string{
		"spine1": "qfx10000 22.4R3-S2", "leaf-eos421": " 4.21.3F", "leaf-mlnx": "mellanox 202405",
		"leaf-202106": "broadcom 202106", "leaf-201911": "marvell 201911", "leaf-cl515": " 5.15",
	}
	platformsShown := map[schema.Platform]bool{}
	for name, w := range want {
		d := f.Device(name)
		if d == nil {
			t.Errorf("no device %s", name)
			continue
		}
		platformsShown[d.Platform.V] = true
		got := d.ASIC.V + string(d.Family) + " " + d.OSVersion.V.Raw
		if pl, ok := platforms.Get(d.Platform.V); !ok || pl.Spec.Release == nil || got != w || !d.OSVersion.Set {
			t.Errorf("%s (%s, a platform with a release form): %q, want %q (set)", name, d.Platform.V, got, w)
		}
	}
	if len(platformsShown) < 4 {
		t.Errorf("the release devices show %d platforms, want 4", len(platformsShown))
	}
	// Every driver of a platform that reads driver is on one of its NICs.
	drivers := map[schema.Platform]map[string]int{}
	for _, d := range f.Devices {
		if drivers[d.Platform.V] == nil {
			drivers[d.Platform.V] = map[string]int{}
		}
		drivers[d.Platform.V][d.Driver.V]++
	}
	readers := 0
	for _, pl := range platforms.All() {
		if len(pl.Spec.Attrs.Drivers) == 0 || drivers[pl.Name] == nil {
			continue
		}
		readers++
		for _, drv := range pl.Spec.Attrs.Drivers {
			if drivers[pl.Name][drv] == 0 {
				t.Errorf("no %s NIC with driver %s", pl.Name, drv)
			}
		}
	}
	if readers == 0 {
		t.Errorf("no NIC of a platform that reads driver")
	}
}

func checkContract(t *testing.T, f *schema.Fabric) {
	t.Helper()
	roce := f.ClassByRole(schema.RoleRoCE)
	cnp := f.ClassByRole(schema.RoleCNP)
	if roce == nil || cnp == nil {
		t.Fatalf("example needs a roce and a cnp traffic class")
	}
	prio := roce.Priority.V
	for _, d := range f.Devices {
		if d.Kind.V == schema.KindNIC {
			if d.RDMA == nil {
				t.Errorf("NIC %s has no rdma block", d.Name)
			} else {
				if !slices.Contains(roce.DSCP, d.RDMA.DSCP()) {
					t.Errorf("NIC %s marks DSCP %d (tos %d); the roce class carries %v", d.Name, d.RDMA.DSCP(), d.RDMA.ToS.V, roce.DSCP)
				}
				if d.RDMA.ToS.V&3 == 0 {
					t.Errorf("NIC %s: tos %d has no ECT bits, ECN cannot mark it", d.Name, d.RDMA.ToS.V)
				}
				if d.RDMA.CNPDSCP.Set && !slices.Contains(cnp.DSCP, d.RDMA.CNPDSCP.V) || d.RDMA.CNPPriority.Set && d.RDMA.CNPPriority.V != cnp.Priority.V {
					t.Errorf("NIC %s sends CNPs as DSCP %d priority %d; the cnp class is %v priority %d",
						d.Name, d.RDMA.CNPDSCP.V, d.RDMA.CNPPriority.V, cnp.DSCP, cnp.Priority.V)
				}
			}
		}
		for _, p := range d.Ports {
			q := p.QoS
			if q.Trust.V != schema.TrustDSCP {
				t.Errorf("%s trusts %q, want dscp", p.ID(), q.Trust.V)
			}
			for ds, v := range q.DSCP {
				if !v.Set {
					t.Errorf("%s leaves DSCP %d unmapped (name it in a class, dscp_map or default_priority)", p.ID(), ds)
					break
				}
			}
			for _, ds := range roce.DSCP {
				if q.DSCP[ds].V != prio {
					t.Errorf("%s maps RoCE DSCP %d to priority %d, want %d", p.ID(), ds, q.DSCP[ds].V, prio)
				}
			}
			if got := q.Lossless.List(); !slices.Equal(got, []int{prio}) {
				t.Errorf("%s has PFC on %v, want [%d]", p.ID(), got, prio)
			}
			if q.Queues[roce.Queue.V].ECN.V == nil {
				t.Errorf("%s has no ECN on RoCE queue %d", p.ID(), roce.Queue.V)
			}
			if q.Queues[cnp.Queue.V].Sched.V != schema.SchedStrict {
				t.Errorf("%s schedules CNP queue %d as %q, want strict", p.ID(), cnp.Queue.V, q.Queues[cnp.Queue.V].Sched.V)
			}
			if q.Watchdog.V == nil {
				t.Errorf("%s has PFC but no watchdog", p.ID())
			}
			wantMTU := 9214 // the largest MTU every platform takes (EOS: 68–9214)
			if d.Kind.V == schema.KindNIC {
				wantMTU = 4200
			}
			if q.MTU.V != wantMTU {
				t.Errorf("%s has MTU %d, want %d", p.ID(), q.MTU.V, wantMTU)
			}
			if sum := etsSum(q); sum != 100 {
				t.Errorf("%s: DWRR weights sum to %d, want 100", p.ID(), sum)
			}
		}
	}
}

func etsSum(q *schema.PortQoS) int {
	sum := 0
	for _, qq := range q.Queues {
		if qq.Sched.V == schema.SchedDWRR {
			sum += qq.Weight.V
		}
	}
	return sum
}

func checkRoCEStorage(t *testing.T, f *schema.Fabric) {
	if got := f.ClassByRole(schema.RoleRoCE).Priority.V; got != 3 {
		t.Errorf("roce priority = %d, want 3 (the seed's PFC priority)", got)
	}
}

func checkAITraining(t *testing.T, f *schema.Fabric) {
	roce := f.ClassByRole(schema.RoleRoCE)
	if !slices.Equal(roce.DSCP, []int{46}) {
		t.Errorf("roce DSCP = %v, want [46] (EF, as the seed's fix marks it)", roce.DSCP)
	}
	if len(f.Subnets) != 2 {
		t.Fatalf("got %d subnets, want 2", len(f.Subnets))
	}
	for _, s := range f.Subnets {
		if !s.RequireRoCEACL.V || s.Gateway == nil || s.Gateway.Kind.V != schema.KindLeaf {
			t.Errorf("subnet %s: require_roce_acl %v, gateway %v", s.Name, s.RequireRoCEACL.V, s.Gateway)
		}
	}
	// Every switch port classifies RoCE with the ACL that re-marks to 46.
	for _, d := range f.Devices {
		if d.Kind.V == schema.KindNIC {
			continue
		}
		for _, p := range d.Ports {
			if len(p.ACLIn) != 1 || p.ACLIn[0].Name != "roce-mark" {
				t.Errorf("%s: acl_in = %v, want [roce-mark]", p.ID(), p.ACLIn)
				continue
			}
			if !marks4791(p.ACLIn[0], 46) {
				t.Errorf("%s: ACL %s does not set DSCP 46 on UDP 4791", p.ID(), p.ACLIn[0].Name)
			}
		}
	}
	core := f.Device("core1")
	if core == nil || core.Kind.V != schema.KindCore || !core.IsRouter() {
		t.Errorf("core1 must be a routed core device, got %+v", core)
	}
}

// marks4791 reports whether the ACL permits UDP 4791 with set_dscp = dscp in
// its first rule that matches non-CNP RoCE traffic.
func marks4791(a *schema.ACL, dscp int) bool {
	for _, r := range a.Rules {
		if r.Protocol.V != "udp" || !hasPort(r.DstPorts.V, 4791) || r.DSCP.Set {
			continue
		}
		return r.Action.V == schema.ActionPermit && r.SetDSCP.V == dscp
	}
	return false
}

func hasPort(rs []schema.PortRange, p int) bool {
	for _, r := range rs {
		if r.Contains(p) {
			return true
		}
	}
	return false
}

func checkClos400G(t *testing.T, f *schema.Fabric) {
	byPlatform := countBy(f, func(d *schema.Device) string { return string(d.Platform.V) })
	// It shows seven platforms, all of the registry, with 16 NICs of each
	// host platform.
	if len(byPlatform) < 7 {
		t.Errorf("clos-400g uses %d platforms (%v); it must use seven", len(byPlatform), byPlatform)
	}
	hosts := 0
	for p, n := range byPlatform {
		pl, ok := platforms.Get(schema.Platform(p))
		switch {
		case !ok:
			t.Errorf("clos-400g uses %s, not a registry platform", p)
		case pl.Spec.Host:
			hosts++
			if n != 16 {
				t.Errorf("clos-400g has %d %s NICs, want 16", n, p)
			}
		}
	}
	if hosts < 2 {
		t.Errorf("clos-400g uses %d host platforms, want 2", hosts)
	}
	for _, d := range f.Devices {
		if d.Credentials.PasswordEnv.V != "FABRICGEN_PASSWORD" {
			t.Errorf("%s: password_env = %q, want FABRICGEN_PASSWORD (the demo lab authenticates by password)", d.Name, d.Credentials.PasswordEnv.V)
		}
		if !d.MgmtAddress.Set {
			t.Errorf("%s has no mgmt_address", d.Name)
		}
		for _, p := range d.Ports {
			if p.Speed.V != 400e9 {
				t.Errorf("%s runs at %d b/s, want 400G", p.ID(), p.Speed.V)
			}
		}
	}
	for _, l := range f.Links {
		m := l.CableLength.V
		host := l.A.Device.Kind.V == schema.KindNIC || l.B.Device.Kind.V == schema.KindNIC
		if host && m != 3 || !host && (m < 30 || m > 100) {
			t.Errorf("link %s: %g m is not a realistic %s cable", l.Name, m, map[bool]string{true: "host", false: "fabric"}[host])
		}
	}
}

// docBlock matches a fenced code block of docs/language.md and its language.
var docBlock = regexp.MustCompile("(?s)```(hcl|json)\n(.*?)```")

// TestLanguageDocExamples keeps docs/language.md honest: every HCL snippet
// parses, and the complete fabrics (the overview and the JSON example) load
// without errors.
func TestLanguageDocExamples(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "language.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := docBlock.FindAllSubmatch(doc, -1)
	if len(blocks) < 10 {
		t.Fatalf("found %d code blocks in docs/language.md; the pattern is broken", len(blocks))
	}
	var complete []string
	for i, m := range blocks {
		lang, src := string(m[1]), m[2]
		name := fmt.Sprintf("block%02d.fab.%s", i, lang)
		if lang == "hcl" {
			if _, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos); diags.HasErrors() {
				t.Errorf("docs/language.md code block %d does not parse: %s", i, diags.Error())
			}
		}
		if bytes.Contains(src, []byte(`fabric "`)) || bytes.Contains(src, []byte(`"fabric":`)) {
			if bytes.Contains(src, []byte("device")) && bytes.Contains(src, []byte("link")) {
				complete = append(complete, name)
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
					t.Fatal(err)
				}
				if _, diags := schema.Load(dir, schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()}); diags.HasErrors() {
					t.Errorf("docs/language.md code block %d (a complete fabric) does not load:\n%s", i, diags.Error())
				}
			}
		}
	}
	if len(complete) < 2 {
		t.Errorf("expected the overview and the JSON example to be complete fabrics, found %v", complete)
	}
}
