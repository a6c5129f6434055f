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

func TestLosslessSets(t *testing.T) {
	var q PortQoS
	q.PFC[3] = Value[bool]{V: true, Set: true}
	q.PFC[5] = Value[bool]{V: false, Set: true}
	if got := q.Lossless(); got != PrioSetOf(3) {
		t.Errorf("Lossless() = %v, want 3", got)
	}
	if got := q.PFCPriorities(); !slices.Equal(got, []int{3}) {
		t.Errorf("PFCPriorities() = %v, want [3]", got)
	}
	f := &Fabric{Classes: []*TrafficClass{
		{Name: "roce", Lossless: Value[bool]{V: true, Set: true}, Priority: Value[int]{V: 3, Set: true}},
		{Name: "cnp", Priority: Value[int]{V: 6, Set: true}},
		{Name: "nopri", Lossless: Value[bool]{V: true, Set: true}},
	}}
	if got := f.IntentLossless(); got != PrioSetOf(3) {
		t.Errorf("IntentLossless() = %v, want 3", got)
	}
}
