package schema

import (
	"slices"
	"testing"
)

func TestPrioSet(t *testing.T) {
	cases := []struct {
		in     []int
		list   []int
		vector string
		str    string
	}{
		{nil, nil, "0,0,0,0,0,0,0,0", "none"},
		{[]int{3}, []int{3}, "0,0,0,1,0,0,0,0", "3"},
		{[]int{4, 3, 3}, []int{3, 4}, "0,0,0,1,1,0,0,0", "3,4"},
		{[]int{0, 7}, []int{0, 7}, "1,0,0,0,0,0,0,1", "0,7"},
		{[]int{0, 1, 2, 3, 4, 5, 6, 7}, []int{0, 1, 2, 3, 4, 5, 6, 7}, "1,1,1,1,1,1,1,1", "0,1,2,3,4,5,6,7"},
		{[]int{11}, []int{3}, "0,0,0,1,0,0,0,0", "3"}, // three bits wide
	}
	for _, tc := range cases {
		s := PrioSetOf(tc.in...)
		if got := s.List(); !slices.Equal(got, tc.list) {
			t.Errorf("PrioSetOf(%v).List() = %v, want %v", tc.in, got, tc.list)
		}
		if got := s.Vector(); got != tc.vector {
			t.Errorf("PrioSetOf(%v).Vector() = %q, want %q", tc.in, got, tc.vector)
		}
		if got := s.String(); got != tc.str {
			t.Errorf("PrioSetOf(%v).String() = %q, want %q", tc.in, got, tc.str)
		}
		if got := s.Len(); got != len(tc.list) {
			t.Errorf("PrioSetOf(%v).Len() = %d, want %d", tc.in, got, len(tc.list))
		}
		for p := -1; p <= 8; p++ {
			if got, want := s.Has(p), slices.Contains(tc.list, p); got != want {
				t.Errorf("PrioSetOf(%v).Has(%d) = %v, want %v", tc.in, p, got, want)
			}
		}
	}
}

func TestPrioSetForms(t *testing.T) {
	s := PrioSetOf(3, 4)
	if got := s.Mask(); got != 0x18 {
		t.Errorf("Mask() = %#x, want 0x18", got)
	}
	if got := s.Join(" "); got != "3 4" {
		t.Errorf("Join(\" \") = %q, want \"3 4\"", got)
	}
	if got := PrioSet(0).Join(","); got != "" {
		t.Errorf("empty Join = %q, want \"\"", got)
	}
	if got := s.Flags(); got != [8]bool{3: true, 4: true} {
		t.Errorf("Flags() = %v", got)
	}
	if got := slices.Collect(s.All()); !slices.Equal(got, []int{3, 4}) {
		t.Errorf("All() = %v, want [3 4]", got)
	}
	if got := PrioSet(0).With(3).With(11); got != PrioSetOf(3) {
		t.Errorf("With = %v, want 3", got)
	}
}

func TestLosslessSets(t *testing.T) {
	classes := []*TrafficClass{
		{Name: "roce", Lossless: Value[bool]{V: true, Set: true, Src: Range{Filename: "c"}}, Priority: Value[int]{V: 3, Set: true}},
		{Name: "cnp", Priority: Value[int]{V: 6, Set: true}},
		{Name: "nopri", Lossless: Value[bool]{V: true, Set: true}},
	}
	s, src := lossless(classes, nil)
	if s != PrioSetOf(3) || src[3].Filename != "c" || !src[6].IsZero() {
		t.Errorf("classes: lossless = %v, src %v", s, src)
	}
	pol := &QoSPolicy{PFC: Value[PrioSet]{V: PrioSetOf(4), Set: true, Src: Range{Filename: "p"}}}
	s, src = lossless(classes, []*QoSPolicy{{}, pol})
	if s != PrioSetOf(4) || src[0].Filename != "p" || src[3].Filename != "p" {
		t.Errorf("pfc_priorities: lossless = %v, src %v", s, src)
	}
	q := &PortQoS{Lossless: s, PFCSrc: src}
	if got := q.PFCSource(); got.Filename != "p" {
		t.Errorf("PFCSource() = %v, want p", got)
	}
	f := &Fabric{Classes: classes, Devices: []*Device{{Name: "d", Ports: []*Port{
		{Name: "a", QoS: &PortQoS{Lossless: PrioSetOf(3)}},
		{Name: "b", QoS: &PortQoS{Lossless: PrioSetOf(4)}},
		{Name: "c"},
	}}}}
	f.Reindex()
	if f.Lossless != PrioSetOf(3) {
		t.Errorf("Fabric.Lossless = %v, want 3", f.Lossless)
	}
	if got := f.Devices[0].Lossless; got != PrioSetOf(3, 4) {
		t.Errorf("Device.Lossless = %v, want 3,4", got)
	}
}

// TestLoaderComputesLossless proves the lossless sets are computed by the
// loader, once: every policy's pfc_priorities, every port's PortQoS (shared
// by ports with equal attachments, so every reader sees one value), every
// device's and the fabric's set, each equal to what the intent says.
func TestLoaderComputesLossless(t *testing.T) {
	f := mustLoad(t, mkFabric(t, map[string]string{"f.fab.hcl": precedenceFabric}), Options{Platforms: testCatalog()})
	leaf1 := f.Device("leaf1")
	e1, e2 := leaf1.Port("Ethernet1").QoS, leaf1.Port("Ethernet2").QoS
	if e1.Lossless != PrioSetOf(3) || e2.Lossless != PrioSetOf(4) {
		t.Fatalf("ports: %v / %v, want 3 / 4", e1.Lossless, e2.Lossless)
	}
	if e2.PFCSource().IsZero() || e1.PFCSource().IsZero() {
		t.Errorf("PFC sources missing: %v / %v", e1.PFCSource(), e2.PFCSource())
	}
	if f.Lossless != PrioSetOf(3) {
		t.Errorf("Fabric.Lossless = %v, want 3", f.Lossless)
	}
	var pfcPolicies int
	for _, pol := range f.Policies {
		if pol.PFC.Set {
			pfcPolicies++
		}
	}
	if pfcPolicies == 0 {
		t.Errorf("no policy carries its pfc_priorities as a set")
	}
	for _, d := range f.Devices {
		var want PrioSet
		for _, p := range d.Ports {
			if p.QoS == nil {
				continue
			}
			want |= p.QoS.Lossless
			// The set is a field of the shared PortQoS: recomputing it
			// from the policies gives the same value.
			if s, _ := lossless(classesOf(p.QoS.Policies), p.QoS.Policies); s != p.QoS.Lossless {
				t.Errorf("%s: Lossless %v, recomputed %v", p.ID(), p.QoS.Lossless, s)
			}
		}
		if d.Lossless != want {
			t.Errorf("%s: Device.Lossless %v, want %v", d.Name, d.Lossless, want)
		}
	}
}

// classesOf is the classes a policy chain realises (the last policy that
// lists classes wins), as buildQoS reads them.
func classesOf(chain []*QoSPolicy) []*TrafficClass {
	var classes []*TrafficClass
	for _, pol := range chain {
		if !pol.ClassesRange.IsZero() {
			classes = pol.Classes
		}
	}
	return classes
}
