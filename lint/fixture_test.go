package lint

import (
	"fmt"
	"net/netip"
	"slices"
	"time"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// fixture builds small fabrics in Go: a 2-leaf, 2-spine Clos with four
// single-port NICs, configured like examples/roce-storage. Every value has a
// distinct source line so findings point somewhere.
type fixture struct {
	line int32
}

func (x *fixture) rng() schema.Range {
	x.line++
	return schema.Range{Filename: "fixture.fab.hcl", Start: schema.Pos{Line: x.line, Column: 3, Byte: x.line * 40}, End: schema.Pos{Line: x.line, Column: 20, Byte: x.line*40 + 17}}
}

func iv(x *fixture, v int) schema.Value[int] { return schema.Value[int]{V: v, Set: true, Src: x.rng()} }
func bv(x *fixture, v bool) schema.Value[bool] {
	return schema.Value[bool]{V: v, Set: true, Src: x.rng()}
}

func (x *fixture) class(name string, role schema.ClassRole, dscp []int, prio int, lossless bool, ecn *schema.ECNProfile, sched schema.SchedMode, weight int) *schema.TrafficClass {
	return &schema.TrafficClass{Name: name, Range: x.rng(), Role: role, RoleRange: x.rng(), DSCP: dscp, DSCPRange: x.rng(),
		Priority: iv(x, prio), Queue: iv(x, prio), Lossless: bv(x, lossless), ECN: ecn, ECNRange: x.rng(),
		Sched: schema.Value[schema.SchedMode]{V: sched, Set: true, Src: x.rng()}, Weight: iv(x, weight)}
}

// portQoS is the effective QoS the loader would produce for the classes.
func (x *fixture) portQoS(f *schema.Fabric, mtu int, wd *schema.Watchdog) *schema.PortQoS {
	q := &schema.PortQoS{Trust: schema.Value[schema.Trust]{V: schema.TrustDSCP, Set: true, Src: x.rng()}}
	def := x.rng()
	for d := range q.DSCP {
		q.DSCP[d] = schema.Value[int]{V: 0, Set: true, Src: def}
	}
	for p := range q.PCP {
		q.PCP[p] = schema.Value[int]{V: p, Set: true, Src: def}
		q.Queue[p] = schema.Value[int]{V: p, Set: true, Src: def}
		q.PFCSrc[p] = def
	}
	for _, c := range f.Classes {
		for _, d := range c.DSCP {
			q.DSCP[d] = schema.Value[int]{V: c.Priority.V, Set: true, Src: c.DSCPRange}
		}
		q.Queue[c.Priority.V] = c.Queue
		q.PFCSrc[c.Priority.V] = c.Lossless.Src
		if c.Lossless.V {
			q.Lossless = q.Lossless.With(c.Priority.V)
		}
		qq := &q.Queues[c.Queue.V]
		qq.Sched = c.Sched
		qq.Weight = c.Weight
		if c.ECN != nil {
			qq.ECN = schema.Value[*schema.ECNProfile]{V: c.ECN, Set: true, Src: c.ECNRange}
		}
	}
	q.Watchdog = schema.Value[*schema.Watchdog]{V: wd, Set: wd != nil, Src: x.rng()}
	q.MTU = iv(x, mtu)
	// The whole lossless profile: a SONiC render takes no partial one.
	q.Buffer.Headroom = schema.Value[int64]{V: 160_000, Set: true, Src: x.rng()}
	q.Buffer.XOFF = schema.Value[int64]{V: 140_000, Set: true, Src: x.rng()}
	q.Buffer.XON = schema.Value[int64]{V: 20_000, Set: true, Src: x.rng()}
	q.Buffer.DynamicThreshold = schema.Value[int]{V: -2, Set: true, Src: x.rng()}
	return q
}

func (x *fixture) device(name string, kind schema.Kind, plat schema.Platform) *schema.Device {
	d := &schema.Device{Name: name, Range: x.rng(), Kind: schema.Value[schema.Kind]{V: kind, Set: true, Src: x.rng()},
		Platform: schema.Value[schema.Platform]{V: plat, Set: true, Src: x.rng()}}
	if pl, ok := platforms.Get(plat); ok && len(pl.Spec.Attrs.ASICs) > 0 {
		asic := pl.Spec.Attrs.ASICs[0]
		if slices.Contains(pl.Spec.Attrs.ASICs, "broadcom") {
			asic = "broadcom"
		}
		d.ASIC = schema.Value[string]{V: asic, Set: true, Src: x.rng()}
	}
	return d
}

// fixturePlatforms are the platforms of the fixture's devices, picked from
// the registry by what the fixture needs: switches that take a Broadcom
// ASIC (so the buffer rules see a chip), and the first host NIC platform.
func fixturePlatforms() (sw, nic schema.Platform) {
	for _, pl := range platforms.All() {
		switch {
		case pl.Spec.Host && nic == "":
			nic = pl.Name
		case !pl.Spec.Host && sw == "" && slices.Contains(pl.Spec.Attrs.ASICs, "broadcom"):
			sw = pl.Name
		}
	}
	if sw == "" || nic == "" {
		panic("the registry has no switch platform with a Broadcom ASIC or no host platform")
	}
	return sw, nic
}

func (x *fixture) port(d *schema.Device, name string, q *schema.PortQoS, ip string) *schema.Port {
	p := &schema.Port{Name: name, Range: x.rng(), Device: d, QoS: q,
		Speed: schema.Value[int64]{V: 100e9, Set: true, Src: x.rng()},
		FEC:   schema.Value[string]{V: "rs", Set: true, Src: x.rng()}}
	if ip != "" {
		p.IP = schema.Value[netip.Prefix]{V: netip.MustParsePrefix(ip), Set: true, Src: x.rng()}
	}
	d.Ports = append(d.Ports, p)
	return p
}

func (x *fixture) link(f *schema.Fabric, name string, a, b *schema.Port, metres float64) *schema.Link {
	l := &schema.Link{Name: name, Range: x.rng(), A: a, B: b, ARange: x.rng(), BRange: x.rng(),
		CableLength: schema.Value[float64]{V: metres, Set: true, Src: x.rng()}}
	a.Link, b.Link, a.Peer, b.Peer = l, l, b, a
	f.Links = append(f.Links, l)
	return l
}

// baseFabric is clean: every rule passes on it.
func baseFabric() *schema.Fabric {
	x := &fixture{}
	f := &schema.Fabric{Name: "fixture", Range: x.rng(), Files: map[string][]byte{}}
	ecn := &schema.ECNProfile{Name: "roce", Range: x.rng(),
		Min: schema.Value[int64]{V: 150_000, Set: true, Src: x.rng()}, Max: schema.Value[int64]{V: 1_500_000, Set: true, Src: x.rng()},
		Probability: iv(x, 100), Mark: bv(x, true)}
	wd := &schema.Watchdog{Name: "standard", Range: x.rng(),
		Detection:    schema.Value[time.Duration]{V: 200 * time.Millisecond, Set: true, Src: x.rng()},
		Restoration:  schema.Value[time.Duration]{V: 200 * time.Millisecond, Set: true, Src: x.rng()},
		PollInterval: schema.Value[time.Duration]{V: 100 * time.Millisecond, Set: true, Src: x.rng()},
		Action:       schema.Value[schema.WatchdogAction]{V: schema.WatchdogDrop, Set: true, Src: x.rng()}}
	f.ECNProfiles = []*schema.ECNProfile{ecn}
	f.Watchdogs = []*schema.Watchdog{wd}
	f.Classes = []*schema.TrafficClass{
		x.class("cnp", schema.RoleCNP, []int{56}, 7, false, nil, schema.SchedStrict, 0),
		x.class("default", schema.RoleDefault, []int{0}, 0, false, nil, schema.SchedDWRR, 30),
		x.class("roce", schema.RoleRoCE, []int{26}, 3, true, ecn, schema.SchedDWRR, 50),
		x.class("storage-mgmt", schema.RoleControl, []int{16}, 6, false, nil, schema.SchedDWRR, 20),
	}
	sw := x.portQoS(f, 9216, wd)
	host := x.portQoS(f, 4200, wd)
	swPlat, nicPlat := fixturePlatforms()
	leaves := []*schema.Device{x.device("leaf1", schema.KindLeaf, swPlat), x.device("leaf2", schema.KindLeaf, swPlat)}
	spines := []*schema.Device{x.device("spine1", schema.KindSpine, swPlat), x.device("spine2", schema.KindSpine, swPlat)}
	var nics []*schema.Device
	for i, name := range []string{"gpu01", "gpu02", "gpu03", "gpu04"} {
		n := x.device(name, schema.KindNIC, nicPlat)
		n.RDMA = &schema.RDMA{Range: x.rng(), RoCEMode: schema.Value[string]{V: "v2", Set: true, Src: x.rng()},
			PathMTU: iv(x, 4096), ToS: iv(x, 106), CNPDSCP: iv(x, 56), CNPPriority: iv(x, 7), ECN: bv(x, true)}
		np := x.port(n, "eth0", host, netip.PrefixFrom(netip.AddrFrom4([4]byte{10, 0, byte(1 + i/2), byte(10 + i)}), 24).String())
		np.FEC = schema.Value[string]{}
		leaf := leaves[i/2]
		lp := x.port(leaf, fmt.Sprintf("Ethernet%d", 1+i%2), sw, "")
		lp.FEC = schema.Value[string]{}
		x.link(f, "host["+name+"]", np, lp, 3)
		nics = append(nics, n)
	}
	for li, l := range leaves {
		for si, s := range spines {
			a := x.port(l, fmt.Sprintf("Ethernet%d", 49+si), sw, netip.PrefixFrom(netip.AddrFrom4([4]byte{10, 1, byte(li), byte(2 * si)}), 31).String())
			b := x.port(s, fmt.Sprintf("Ethernet%d", li+1), sw, netip.PrefixFrom(netip.AddrFrom4([4]byte{10, 1, byte(li), byte(2*si + 1)}), 31).String())
			x.link(f, "fabric["+l.Name+"-"+s.Name+"]", a, b, 30)
		}
	}
	f.Devices = append(append(append(f.Devices, nics...), leaves...), spines...)
	sortDevices(f)
	f.Subnets = []*schema.Subnet{
		{Name: "pod-a", Range: x.rng(), Prefix: schema.Value[netip.Prefix]{V: netip.MustParsePrefix("10.0.1.0/24"), Set: true, Src: x.rng()}},
		{Name: "pod-b", Range: x.rng(), Prefix: schema.Value[netip.Prefix]{V: netip.MustParsePrefix("10.0.2.0/24"), Set: true, Src: x.rng()}},
	}
	f.Reindex()
	return f
}

func sortDevices(f *schema.Fabric) {
	ds := f.Devices
	for i := 1; i < len(ds); i++ {
		for j := i; j > 0 && ds[j].Name < ds[j-1].Name; j-- {
			ds[j], ds[j-1] = ds[j-1], ds[j]
		}
	}
}

// editQoS gives port p its own copy of its QoS, edited by fn.
func editQoS(p *schema.Port, fn func(q *schema.PortQoS)) {
	c := *p.QoS
	fn(&c)
	p.QoS = &c
}

func port(f *schema.Fabric, id string) *schema.Port {
	for _, d := range f.Devices {
		for _, p := range d.Ports {
			if p.ID() == id {
				return p
			}
		}
	}
	panic("fixture has no port " + id)
}

// roceACL classifies UDP 4791 and sets the DSCP to set.
func roceACL(set int) *schema.ACL {
	return &schema.ACL{Name: "roce-mark", Range: schema.Range{Filename: "acl.fab.hcl", Start: schema.Pos{Line: 1, Column: 1}},
		Rules: []*schema.ACLRule{{Seq: 10, Range: schema.Range{Filename: "acl.fab.hcl", Start: schema.Pos{Line: 2, Column: 3}}, Family: "any",
			Protocol: schema.Value[string]{V: "udp", Set: true},
			DstPorts: schema.Value[[]schema.PortRange]{V: []schema.PortRange{{From: 4791, To: 4791}}, Set: true},
			Action:   schema.Value[schema.ACLAction]{V: schema.ActionPermit, Set: true},
			SetDSCP:  schema.Value[int]{V: set, Set: true, Src: schema.Range{Filename: "acl.fab.hcl", Start: schema.Pos{Line: 3, Column: 5}}}}}}
}

// dualHome cables gpu01:eth1 to leaf2:Ethernet3.
func dualHome(f *schema.Fabric) {
	x := &fixture{line: 900}
	n := f.Device("gpu01")
	e0 := n.Ports[0]
	np := x.port(n, "eth1", e0.QoS, "10.0.1.20/24")
	np.FEC = schema.Value[string]{}
	lp := x.port(f.Device("leaf2"), "Ethernet3", port(f, "leaf2:Ethernet1").QoS, "")
	lp.FEC = schema.Value[string]{}
	x.link(f, "host[gpu01-eth1]", np, lp, 3)
	f.Reindex()
}
