package schema

import "strconv"

// PrioSet is a set of 802.1p priorities (0–7), bit p standing for priority
// p. It is the one representation of a lossless (PFC) priority set: the
// resolved port QoS (PortQoS.Lossless), the lossless classes
// (Fabric.IntentLossless), and every list, vector and comparison derived
// from them.
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

// String lists the priorities comma-separated ("3,4"), or "none".
func (s PrioSet) String() string {
	if s == 0 {
		return "none"
	}
	b := make([]byte, 0, 15)
	for _, p := range s.List() {
		if len(b) > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(p), 10)
	}
	return string(b)
}

// Lossless is the set of priorities PFC protects on the port.
func (q *PortQoS) Lossless() PrioSet {
	var s PrioSet
	for p, v := range q.PFC {
		if v.V {
			s |= 1 << p
		}
	}
	return s
}

// IntentLossless is the set of priorities the fabric's lossless classes use
// (classes without a priority do not count): the priorities PFC should
// protect on every port.
func (f *Fabric) IntentLossless() PrioSet {
	var s PrioSet
	for _, c := range f.Classes {
		if c.Lossless.V && c.Priority.Set {
			s |= 1 << (c.Priority.V & 7)
		}
	}
	return s
}
