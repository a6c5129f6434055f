package schema

import (
	"iter"
	"strconv"
)

// PrioSet is a set of 802.1p priorities (0–7), bit p standing for priority
// p. It is the one representation of a lossless (PFC) priority set. The
// loader computes it once for every place the intent defines one: each
// policy's pfc_priorities (QoSPolicy.PFC), each port's effective QoS
// (PortQoS.Lossless), each device and NIC (Device.Lossless, the union of
// its ports) and the fabric's lossless classes (Fabric.Lossless). Lint,
// check, the view builders and the readers read those values; the list,
// vector and mask forms the vendors print are its methods.
type PrioSet uint8

// PrioSetOf returns the set holding the given priorities; values outside
// 0–7 are taken modulo 8, as a priority field is three bits wide.
func PrioSetOf(prios ...int) PrioSet {
	var s PrioSet
	for _, p := range prios {
		s |= 1 << (p & 7)
	}
	return s
}

// Has reports whether priority p (0–7) is in the set.
func (s PrioSet) Has(p int) bool { return p >= 0 && p < 8 && s&(1<<p) != 0 }

// With returns the set with priority p (taken modulo 8) added.
func (s PrioSet) With(p int) PrioSet { return s | 1<<(p&7) }

// Mask is the set as the 8-bit PFC enable mask of IEEE 802.1Qaz (bit p
// for priority p), as pfc_enable registers and the DCB netlink API hold it.
func (s PrioSet) Mask() uint8 { return uint8(s) }

// All iterates over the priorities in ascending order without allocating.
func (s PrioSet) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		for p := range 8 {
			if s.Has(p) && !yield(p) {
				return
			}
		}
	}
}

// Flags is the set as eight booleans, priority 0 first (the per-priority
// on/off form of "dcb pfc set ... prio-pfc 0:off ... 3:on").
func (s PrioSet) Flags() [8]bool {
	var f [8]bool
	for p := range f {
		f[p] = s.Has(p)
	}
	return f
}

// Len is the number of priorities in the set.
func (s PrioSet) Len() int {
	n := 0
	for v := s; v != 0; v &= v - 1 {
		n++
	}
	return n
}

// List returns the priorities in ascending order (nil for the empty set).
func (s PrioSet) List() []int {
	if s == 0 {
		return nil
	}
	out := make([]int, 0, s.Len())
	for p := range 8 {
		if s.Has(p) {
			out = append(out, p)
		}
	}
	return out
}

// Vector renders the set as eight comma-separated 0/1 flags, priority 0
// first, as mlnx_qos --pfc and SONiC pfc_enable tables show it:
// "0,0,0,1,0,0,0,0".
func (s PrioSet) Vector() string {
	var b [15]byte
	for p := range 8 {
		if p > 0 {
			b[2*p-1] = ','
		}
		b[2*p] = '0'
		if s.Has(p) {
			b[2*p] = '1'
		}
	}
	return string(b[:])
}

// Join lists the priorities in ascending order separated by sep ("3,4"
// for SONiC's pfc_enable and Cumulus' switch-priority, "3 4" for lists
// written with spaces); "" for the empty set.
func (s PrioSet) Join(sep string) string {
	b := make([]byte, 0, 8+7*len(sep))
	for p := range s.All() {
		if len(b) > 0 {
			b = append(b, sep...)
		}
		b = strconv.AppendInt(b, int64(p), 10)
	}
	return string(b)
}

// String lists the priorities comma-separated ("3,4"), or "none".
func (s PrioSet) String() string {
	if s == 0 {
		return "none"
	}
	return s.Join(",")
}

// lossless computes the set of priorities PFC protects under the given
// classes and policies (least specific first): each class with lossless =
// true and a priority, replaced by the last policy's pfc_priorities. It
// returns the set and, per priority, the range that decided it (zero when
// nothing did).
func lossless(classes []*TrafficClass, chain []*QoSPolicy) (PrioSet, [8]Range) {
	var s PrioSet
	var src [8]Range
	for _, c := range classes {
		if c.Priority.Set && c.Lossless.V {
			s = s.With(c.Priority.V)
			src[c.Priority.V&7] = c.Lossless.Src
		}
	}
	for _, pol := range chain {
		if pol.PFC.Set {
			s = pol.PFC.V
			for p := range src {
				src[p] = pol.PFC.Src
			}
		}
	}
	return s, src
}

// deriveLossless computes the fabric's and every device's lossless set from
// the classes and the ports' effective QoS (PortQoS.Lossless, computed by
// buildQoS). Load and Reindex call it.
func (f *Fabric) deriveLossless() {
	f.Lossless, _ = lossless(f.Classes, nil)
	for _, d := range f.Devices {
		d.Lossless = 0
		for _, p := range d.Ports {
			if p.QoS != nil {
				d.Lossless |= p.QoS.Lossless
			}
		}
	}
}
