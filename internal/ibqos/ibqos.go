// Package ibqos derives, once, the InfiniBand QoS facts an intent implies:
// the SL-to-VL table, the VL arbitration tables and limits, the
// operational VL count and the IBTA MTU codes. The opensm render and the
// IBQ lint rules both read them from here, so what lint judges is what the
// subnet manager is given.
//
// Sources: linux-rdma/opensm doc/QoS_management_in_OpenSM.txt (sections 2
// and 7: sl2vl, vlarb_high/low as VL:weight in 64-byte units, high_limit,
// max_op_vls) and opensm/osm_qos.c (how the tables are programmed).
package ibqos

import (
	"fmt"
	"sort"

	"github.com/fabricgen/fabricgen/schema"
)

// Defaults and limits of OpenSM and the IBTA specification.
const (
	// DefaultMaxOpVLs is OpenSM's default max_op_vls: 5, VL0–14.
	DefaultMaxOpVLs = 5
	// MaxDataVL is the highest data VL; VL15 is management only, and an
	// SL mapped to it is dropped.
	MaxDataVL = 14
	// MaxSL is the highest service level.
	MaxSL = 15
	// MaxWeight is the largest VL arbitration weight (one byte).
	MaxWeight = 255
	// CreditsPer4K is a 4096-byte packet in VL arbitration units
	// (64 bytes each).
	CreditsPer4K = 64
	// DefaultPartitionMTU is OpenSM's partition (broadcast group) MTU
	// when partitions.conf gives none: 2048 bytes (mtu=4).
	DefaultPartitionMTU = 2048
)

// VLCount is the number of operational data VLs that max_op_vls allows
// (PortInfo OperVLs: 1 → VL0, 2 → VL0–1, 3 → VL0–3, 4 → VL0–7,
// 5 → VL0–14); 0 for a value outside 1–5.
func VLCount(maxOpVLs int) int {
	switch maxOpVLs {
	case 1:
		return 1
	case 2:
		return 2
	case 3:
		return 4
	case 4:
		return 8
	case 5:
		return 15
	}
	return 0
}

// Weight turns a class's share in percent into a VL arbitration weight in
// 64-byte units: 256 units per 100 %, so 25 % is one 4 KB packet (64),
// 50 % two (128), 75 % three (192); capped at 255 and at least 1 for a
// share above zero. Shares that are not multiples of 25 % give weights
// that are not whole 4 KB packets (lint's IBQ004 says so at MTU 4096).
func Weight(percent int) int {
	if percent <= 0 {
		return 0
	}
	w := (percent*256 + 50) / 100
	return min(max(w, 1), MaxWeight)
}

// MTUCode is the IBTA enum of an MTU in bytes (256 → 1 … 4096 → 5), and
// false for a size that is not an IB MTU.
func MTUCode(bytes int) (int, bool) {
	switch bytes {
	case 256:
		return 1, true
	case 512:
		return 2, true
	case 1024:
		return 3, true
	case 2048:
		return 4, true
	case 4096:
		return 5, true
	}
	return 0, false
}

// Entry is one VL arbitration table entry and the class that put it there.
type Entry struct {
	VL     int
	Weight int
	// Class is the class the entry serves.
	Class *schema.TrafficClass
}

// String is the entry as OpenSM writes it, "VL:weight".
func (e Entry) String() string { return fmt.Sprintf("%d:%d", e.VL, e.Weight) }

// Tables are the QoS tables the subnet manager programs on every port:
// one set for CA, switch external, switch port 0 and router ports alike.
type Tables struct {
	// MaxOpVLs is the sm block's max_op_vls (or DefaultMaxOpVLs) and VLs
	// the data VLs it allows.
	MaxOpVLs int
	VLs      int
	// SL2VL maps every SL to a VL. An SL no class names goes to the
	// default class's VL (VL0 when there is none).
	SL2VL [MaxSL + 1]int
	// ClassOfSL is the class that names each SL, or nil.
	ClassOfSL [MaxSL + 1]*schema.TrafficClass
	// High holds the strict classes' VLs, Low the others', each VL once,
	// by VL.
	High, Low []Entry
	// HighLimit is the sm block's high_limit (0 when unset: one packet of
	// the high table per turn, OpenSM's default).
	HighLimit int
	// Default is the class with role default, or nil.
	Default *schema.TrafficClass
	// SM is the subnet manager whose settings were used (the first by
	// name), or nil when the fabric has none.
	SM *schema.Device
}

// VLOf is the VL of class c: its vl, else its sl.
func VLOf(c *schema.TrafficClass) int {
	if c.VL.Set {
		return c.VL.V
	}
	return c.SL.V
}

// SubnetManagers returns the fabric's subnet manager devices, by name.
func SubnetManagers(f *schema.Fabric) []*schema.Device {
	var out []*schema.Device
	for _, d := range f.Devices {
		if d.Kind.V == schema.KindSubnetManager {
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Derive computes the tables of an InfiniBand fabric. Values outside the
// ranges the loader enforces are kept as they are (lint reports them), so
// Derive never fails.
func Derive(f *schema.Fabric) Tables {
	t := Tables{MaxOpVLs: DefaultMaxOpVLs}
	if sms := SubnetManagers(f); len(sms) > 0 {
		t.SM = sms[0]
		if sm := t.SM.SM; sm != nil {
			if sm.MaxOpVLs.Set {
				t.MaxOpVLs = sm.MaxOpVLs.V
			}
			if sm.HighLimit.Set {
				t.HighLimit = sm.HighLimit.V
			}
		}
	}
	t.VLs = VLCount(t.MaxOpVLs)
	t.Default = f.ClassByRole(schema.RoleDefault)
	fill := 0
	if t.Default != nil {
		fill = VLOf(t.Default)
	}
	for sl := range t.SL2VL {
		t.SL2VL[sl] = fill
	}
	classes := append([]*schema.TrafficClass(nil), f.Classes...)
	sort.SliceStable(classes, func(i, j int) bool { return classes[i].SL.V < classes[j].SL.V })
	high, low := map[int]Entry{}, map[int]Entry{}
	for _, c := range classes {
		if !c.SL.Set || c.SL.V < 0 || c.SL.V > MaxSL {
			continue
		}
		vl := VLOf(c)
		if t.ClassOfSL[c.SL.V] == nil {
			t.ClassOfSL[c.SL.V] = c
			t.SL2VL[c.SL.V] = vl
		}
		tab, w := low, Weight(c.Weight.V)
		if c.Sched.V == schema.SchedStrict {
			tab = high
			if !c.Weight.Set {
				w = MaxWeight
			}
		}
		if e, ok := tab[vl]; ok {
			e.Weight = min(e.Weight+w, MaxWeight)
			tab[vl] = e
			continue
		}
		tab[vl] = Entry{VL: vl, Weight: w, Class: c}
	}
	t.High, t.Low = sorted(high), sorted(low)
	return t
}

func sorted(m map[int]Entry) []Entry {
	out := make([]Entry, 0, len(m))
	for _, e := range m {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].VL < out[j].VL })
	return out
}

// UsedVLs is the set of VLs some SL maps to, by VL.
func (t Tables) UsedVLs() []int {
	seen := map[int]bool{}
	var out []int
	for _, vl := range t.SL2VL {
		if !seen[vl] {
			seen[vl] = true
			out = append(out, vl)
		}
	}
	sort.Ints(out)
	return out
}

// WeightOf is the VL's total weight in the high and low tables.
func (t Tables) WeightOf(vl int) (high, low int) {
	for _, e := range t.High {
		if e.VL == vl {
			high += e.Weight
		}
	}
	for _, e := range t.Low {
		if e.VL == vl {
			low += e.Weight
		}
	}
	return high, low
}
