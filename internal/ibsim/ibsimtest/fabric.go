// Package ibsimtest holds the fabrics the tests of ibsim and of its users
// run under ibsim.
package ibsimtest

import "github.com/fabricgen/fabricgen/schema"

// Subnet manager and host port GUIDs of OneLeaf, and its leaf's node GUID.
const (
	LeafGUID = 0x0002c90000000101
	SMGUID   = 0x0002c90300a00101
	GPUGUID  = 0x0002c90300a00201
)

// OneLeaf is one leaf ("leaf1") with the subnet manager ("sm01", port
// "ib0") on its port 1 and a GPU host ("gpu01", port "ib0") on its port 2.
// Each call returns a new, indexed fabric.
func OneLeaf() *schema.Fabric {
	kind := func(k schema.Kind) schema.Value[schema.Kind] { return schema.Value[schema.Kind]{V: k, Set: true} }
	guid := func(g uint64) schema.Value[uint64] { return schema.Value[uint64]{V: g, Set: true} }
	leaf := &schema.Device{Name: "leaf1", Kind: kind(schema.KindLeaf), GUID: guid(LeafGUID)}
	sm := &schema.Device{Name: "sm01", Kind: kind(schema.KindSubnetManager)}
	gpu := &schema.Device{Name: "gpu01", Kind: kind(schema.KindNIC)}
	port := Port
	l1, l2 := port(leaf, "1", 0), port(leaf, "2", 0)
	f := &schema.Fabric{Devices: []*schema.Device{leaf, gpu, sm}, Links: []*schema.Link{
		{A: l1, B: port(sm, "ib0", SMGUID)},
		{A: l2, B: port(gpu, "ib0", GPUGUID)},
	}}
	f.Reindex()
	return f
}

// Port adds port name to d, with port GUID guid when it is not 0 (an HCA
// port's; a switch port has none of its own), and returns it.
func Port(d *schema.Device, name string, guid uint64) *schema.Port {
	p := &schema.Port{Name: name, Device: d}
	if guid != 0 {
		p.GUID = schema.Value[uint64]{V: guid, Set: true}
	}
	d.Ports = append(d.Ports, p)
	return p
}
