package schema

import (
	"slices"
	"testing"
)

func TestOutlierRank(t *testing.T) {
	r := func(line int32) Range {
		return Range{Filename: "f.fab.hcl", Start: Pos{Line: line}, End: Pos{Line: line}}
	}
	cases := []struct {
		name     string
		sides    []Side
		rank     []int
		deviants []int
	}{
		{"none", nil, []int{}, nil},
		{"one side", []Side{{Key: "a", Holders: 5}}, []int{0}, nil},
		{"fewest places", []Side{{Key: "a", Holders: 16}, {Key: "b", Holders: 1}}, []int{1, 0}, []int{1}},
		{"fewest places second", []Side{{Key: "a", Holders: 1}, {Key: "b", Holders: 16}}, []int{0, 1}, []int{0}},
		{"tie keeps order", []Side{{Key: "a", Holders: 2}, {Key: "b", Holders: 2}}, []int{0, 1}, []int{0}},
		{"tie keeps order reversed", []Side{{Key: "b", Holders: 2}, {Key: "a", Holders: 2}}, []int{0, 1}, []int{0}},
		{"zero count is one", []Side{{Key: "a"}, {Key: "b", Holders: 1}}, []int{0, 1}, []int{0}},
		{"more specific wins over count", []Side{
			{Key: "a", Holders: 1, Level: LevelClass},
			{Key: "b", Holders: 100, Level: LevelDevice},
		}, []int{1, 0}, []int{1}},
		{"port attribute beats port policy", []Side{
			{Key: "a", Holders: 1, Level: LevelPortPolicy},
			{Key: "b", Holders: 9, Level: LevelPortAttr},
		}, []int{1, 0}, []int{1}},
		{"same level falls to count", []Side{
			{Key: "a", Holders: 3, Level: LevelDevice},
			{Key: "b", Holders: 2, Level: LevelDevice},
		}, []int{1, 0}, []int{1}},
		{"level ignored when one side is outside the chain", []Side{
			{Key: "a", Holders: 1, Level: LevelNone},
			{Key: "b", Holders: 5, Level: LevelPortAttr},
		}, []int{0, 1}, []int{0}},
		{"intent is never the outlier", []Side{
			{Key: "a", Holders: 1, Level: LevelPortPolicy, Intent: true},
			{Key: "b", Holders: 50, Level: LevelClass},
		}, []int{1, 0}, []int{1}},
		{"all intent falls to level", []Side{
			{Key: "a", Holders: 1, Level: LevelFabric, Intent: true},
			{Key: "a", Holders: 1, Level: LevelPortPolicy, Intent: true},
		}, []int{0, 1}, nil},
		{"sides of one value are counted together", []Side{
			{Key: "x", Holders: 2, Src: r(1)},
			{Key: "y", Holders: 3, Src: r(2)},
			{Key: "x", Holders: 2, Src: r(3)},
		}, []int{1, 0, 2}, []int{1}},
		{"many values: majority is the reference", []Side{
			{Key: "46", Holders: 1},
			{Key: "48", Holders: 15},
			{Key: "47", Holders: 1},
		}, []int{0, 2, 1}, []int{0, 2}},
		{"zero ranges", []Side{{Key: "a", Holders: 2}, {Key: "b", Holders: 1}, {Key: "c", Holders: 2}}, []int{1, 0, 2}, []int{1, 0}},
		{"value level is its highest side", []Side{
			{Key: "a", Holders: 1, Level: LevelClass},
			{Key: "b", Holders: 1, Level: LevelFabric},
			{Key: "a", Holders: 1, Level: LevelPortPolicy},
		}, []int{0, 2, 1}, []int{0, 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Rank(c.sides)
			if !slices.Equal(got, c.rank) {
				t.Errorf("Rank = %v, want %v", got, c.rank)
			}
			if d := Deviants(c.sides); !slices.Equal(d, c.deviants) {
				t.Errorf("Deviants = %v, want %v", d, c.deviants)
			}
			p, rel := Outlier(c.sides)
			ref := Reference(c.sides)
			if len(c.sides) == 0 {
				if p != -1 || rel != nil || ref != -1 {
					t.Errorf("Outlier = %d %v, Reference %d for no sides", p, rel, ref)
				}
				return
			}
			if p != c.rank[0] || !slices.Equal(rel, c.rank[1:]) || ref != c.rank[len(c.rank)-1] {
				t.Errorf("Outlier = %d %v, Reference %d; rank %v", p, rel, ref, c.rank)
			}
			// Rank is a permutation, and the same input ranks the same way.
			seen := map[int]bool{}
			for _, i := range got {
				if i < 0 || i >= len(c.sides) || seen[i] {
					t.Fatalf("Rank %v is no permutation of %d sides", got, len(c.sides))
				}
				seen[i] = true
			}
			if again := Rank(slices.Clone(c.sides)); !slices.Equal(again, got) {
				t.Errorf("Rank not deterministic: %v then %v", got, again)
			}
		})
	}
}

func TestSourceLevel(t *testing.T) {
	at := func(line int32) Range {
		return Range{Filename: "f.fab.hcl", Start: Pos{Line: line}, End: Pos{Line: line}}
	}
	fabric := &QoSPolicy{Name: "fabric", MTU: Value[int]{V: 9100, Set: true, Src: at(1)}, Watchdog: Value[*Watchdog]{Set: true, Src: at(2)}}
	role := &QoSPolicy{Name: "role", Trust: Value[Trust]{V: TrustDSCP, Set: true, Src: at(3)}}
	dev := &QoSPolicy{Name: "dev", PFC: Value[PrioSet]{Set: true, Src: at(4)}, DSCPMap: map[int]Value[int]{26: {V: 3, Set: true, Src: at(8)}}}
	port := &QoSPolicy{Name: "port", Watchdog: Value[*Watchdog]{Set: true, Src: at(5)},
		Queues: map[int]*QueueSpec{3: {Queue: 3, Range: at(9), Sched: Value[SchedMode]{V: SchedStrict, Set: true, Src: at(10)}}}}
	d := &Device{Name: "leaf1", Policy: dev}
	full := &Port{Name: "swp1", Device: d, Policy: port, MTU: Value[int]{V: 9000, Set: true, Src: at(6)},
		QoS: &PortQoS{Policies: []*QoSPolicy{fabric, role, dev, port}}}
	lone := &Port{Name: "swp2", Device: &Device{Name: "leaf2"}, QoS: &PortQoS{Policies: []*QoSPolicy{fabric}}}
	noQoS := &Port{Name: "swp3", Device: d}
	cases := []struct {
		name string
		p    *Port
		src  Range
		want Level
	}{
		{"port attribute", full, at(6), LevelPortAttr},
		{"port policy", full, at(5), LevelPortPolicy},
		{"port policy queue", full, at(10), LevelPortPolicy},
		{"device policy", full, at(4), LevelDevice},
		{"device map entry", full, at(8), LevelDevice},
		{"role policy", full, at(3), LevelRole},
		{"fabric policy", full, at(1), LevelFabric},
		{"fabric watchdog", full, at(2), LevelFabric},
		{"class default", full, at(7), LevelClass},
		{"zero range", full, Range{}, LevelClass},
		{"lone broad policy is the fabric's", lone, at(1), LevelFabric},
		{"no qos", noQoS, at(1), LevelClass},
		{"nil port", nil, at(1), LevelNone},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.p.SourceLevel(c.src); got != c.want {
				t.Errorf("SourceLevel(%v) = %v, want %v", c.src, got, c.want)
			}
		})
	}
	// A policy attached at two levels counts at the more specific.
	twice := &Port{Name: "swp4", Device: &Device{Name: "leaf3", Policy: fabric}, QoS: &PortQoS{Policies: []*QoSPolicy{fabric, fabric}}}
	if got := twice.SourceLevel(at(1)); got != LevelDevice {
		t.Errorf("policy at fabric and device: %v, want device policy", got)
	}
	if (*QoSPolicy)(nil).Sets(at(1)) || fabric.Sets(Range{}) {
		t.Error("nil policy or zero range must set nothing")
	}
}
