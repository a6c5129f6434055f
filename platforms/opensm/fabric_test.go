package opensm

import (
	"fmt"

	"github.com/fabricgen/fabricgen/internal/ibsim/ibsimtest"
	"github.com/fabricgen/fabricgen/schema"
)

// The test fabric's GUIDs: switches 0x0002c900000001NN (leaves) and
// 0x0002c900000002NN (spines), HCA ports 0x0002c90300a0NN01.
const (
	guidSM01   = 0x0002c90300a00101
	guidSM02   = 0x0002c90300a00201
	guidGPU01  = 0x0002c90300a00301
	guidGPU02  = 0x0002c90300a00401
	guidGPU03  = 0x0002c90300a00501
	guidGPU04  = 0x0002c90300a00601
	guidStor01 = 0x0002c90300a00701
)

func set[T any](v T) schema.Value[T] { return schema.Value[T]{V: v, Set: true} }

// testFabric is a two-tier fat tree (2 spines, 2 leaves) with two SM hosts,
// four GPU hosts and a storage host; classes default (SL0), mgmt (SL1,
// strict), storage (SL2) and compute (SL3); the Default, compute and
// storage partitions. It stays inside ibsim's limits: max_op_vls 3
// (VL0–3 of VL0–7) and MTU 2048.
func testFabric() *schema.Fabric {
	f := &schema.Fabric{Name: "ib1", LinkLayer: set(schema.LinkInfiniBand)}
	dev := func(name string, k schema.Kind, p schema.Platform) *schema.Device {
		d := &schema.Device{Name: name, Kind: set(k), Platform: set(p)}
		f.Devices = append(f.Devices, d)
		return d
	}
	port := ibsimtest.Port
	link := func(a, b *schema.Port) { f.Links = append(f.Links, &schema.Link{A: a, B: b}) }
	var spines, leaves []*schema.Device
	for i := 1; i <= 2; i++ {
		s := dev(fmt.Sprintf("spine%d", i), schema.KindSpine, "ib_switch")
		s.GUID = set(uint64(0x0002c90000000200 + i))
		spines = append(spines, s)
		l := dev(fmt.Sprintf("leaf%d", i), schema.KindLeaf, "ib_switch")
		l.GUID = set(uint64(0x0002c90000000100 + i))
		leaves = append(leaves, l)
	}
	for li, l := range leaves {
		for si, s := range spines {
			link(port(l, fmt.Sprint(7+si), 0), port(s, fmt.Sprint(li+1), 0))
		}
	}
	sm := &schema.SubnetManager{RoutingEngine: set([]string{"ftree"}), MaxOpVLs: set(3), HighLimit: set(4), Priority: set(14)}
	hosts := []struct {
		name       string
		kind       schema.Kind
		guid       uint64
		leaf, port int
	}{
		{"sm01", schema.KindSubnetManager, guidSM01, 0, 1},
		{"sm02", schema.KindSubnetManager, guidSM02, 1, 1},
		{"gpu01", schema.KindNIC, guidGPU01, 0, 2},
		{"gpu02", schema.KindNIC, guidGPU02, 0, 3},
		{"gpu03", schema.KindNIC, guidGPU03, 1, 2},
		{"gpu04", schema.KindNIC, guidGPU04, 1, 3},
		{"stor01", schema.KindNIC, guidStor01, 0, 4},
	}
	for _, h := range hosts {
		pl := schema.Platform("nvidia_mlnx")
		if h.kind == schema.KindSubnetManager {
			pl = "opensm"
		}
		d := dev(h.name, h.kind, pl)
		if h.kind == schema.KindSubnetManager {
			cp := *sm
			d.SM = &cp
		} else {
			d.RDMA = &schema.RDMA{SL: set(3)}
		}
		link(port(d, "ib0", h.guid), port(leaves[h.leaf], fmt.Sprint(h.port), 0))
	}
	class := func(name string, sl, weight int, strict bool, role schema.ClassRole) {
		c := &schema.TrafficClass{Name: name, Role: role, SL: set(sl)}
		if weight > 0 {
			c.Weight = set(weight)
		}
		if strict {
			c.Sched = set(schema.SchedStrict)
		}
		f.Classes = append(f.Classes, c)
	}
	class("compute", 3, 50, false, schema.RoleRoCE)
	class("default", 0, 25, false, schema.RoleDefault)
	class("mgmt", 1, 0, true, schema.RoleControl)
	class("storage", 2, 25, false, schema.RoleBulk)
	f.Reindex()
	d := f.Device
	f.Partitions = []*schema.Partition{
		{Name: "compute", PKey: set(0x8001), Members: []*schema.Device{d("gpu01"), d("gpu02"), d("gpu03"), d("gpu04")}, Membership: set(schema.MemberFull), IPoIB: set(true), MTU: set(2048), SL: set(3)},
		{Name: "default", PKey: set(0x7fff), Default: set(true), IPoIB: set(true), SL: set(0)},
		{Name: "storage", PKey: set(0x8002), Members: []*schema.Device{d("gpu01"), d("gpu02"), d("gpu03"), d("gpu04")}, Membership: set(schema.MemberLimited),
			FullMembers: []*schema.Device{d("stor01")}, IPoIB: set(true), MTU: set(2048), SL: set(2)},
	}
	return f
}
