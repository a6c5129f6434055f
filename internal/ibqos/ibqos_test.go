package ibqos

import (
	"fmt"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

func TestWeight(t *testing.T) {
	for _, c := range []struct{ pct, want int }{
		{0, 0}, {-5, 0}, {1, 3}, {10, 26}, {25, 64}, {50, 128}, {75, 192}, {100, 255}, {300, 255},
	} {
		if got := Weight(c.pct); got != c.want {
			t.Errorf("Weight(%d) = %d, want %d", c.pct, got, c.want)
		}
	}
}

func TestVLCountAndMTUCode(t *testing.T) {
	for in, want := range map[int]int{0: 0, 1: 1, 2: 2, 3: 4, 4: 8, 5: 15, 6: 0} {
		if got := VLCount(in); got != want {
			t.Errorf("VLCount(%d) = %d, want %d", in, got, want)
		}
	}
	for in, want := range map[int]int{256: 1, 512: 2, 1024: 3, 2048: 4, 4096: 5} {
		if got, ok := MTUCode(in); !ok || got != want {
			t.Errorf("MTUCode(%d) = %d %v, want %d", in, got, ok, want)
		}
	}
	for _, bad := range []int{0, 9000, 4095, 2044} {
		if _, ok := MTUCode(bad); ok {
			t.Errorf("MTUCode(%d) accepted", bad)
		}
	}
}

func class(name string, sl, weight int, strict bool, role schema.ClassRole) *schema.TrafficClass {
	c := &schema.TrafficClass{Name: name, Role: role, SL: schema.Value[int]{V: sl, Set: true}}
	if weight > 0 {
		c.Weight = schema.Value[int]{V: weight, Set: true}
	}
	if strict {
		c.Sched = schema.Value[schema.SchedMode]{V: schema.SchedStrict, Set: true}
	}
	return c
}

func TestDerive(t *testing.T) {
	mgmt := class("mgmt", 1, 0, true, schema.RoleControl)
	vl5 := class("storage", 2, 25, false, "")
	vl5.VL = schema.Value[int]{V: 5, Set: true}
	f := &schema.Fabric{Classes: []*schema.TrafficClass{
		class("compute", 3, 50, false, schema.RoleRoCE), class("default", 0, 25, false, schema.RoleDefault), mgmt, vl5,
	}, Devices: []*schema.Device{
		{Name: "sm02", Kind: schema.Value[schema.Kind]{V: schema.KindSubnetManager}, SM: &schema.SubnetManager{MaxOpVLs: schema.Value[int]{V: 3, Set: true}}},
		{Name: "sm01", Kind: schema.Value[schema.Kind]{V: schema.KindSubnetManager}, SM: &schema.SubnetManager{MaxOpVLs: schema.Value[int]{V: 4, Set: true}, HighLimit: schema.Value[int]{V: 4, Set: true}}},
	}}
	f.Reindex()
	tab := Derive(f)
	if tab.SM.Name != "sm01" || tab.MaxOpVLs != 4 || tab.VLs != 8 || tab.HighLimit != 4 {
		t.Fatalf("SM settings: sm %s max_op_vls %d VLs %d high_limit %d, want sm01's 4, 8, 4", tab.SM.Name, tab.MaxOpVLs, tab.VLs, tab.HighLimit)
	}
	want := [16]int{0, 1, 5, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	if tab.SL2VL != want {
		t.Errorf("SL2VL = %v, want %v", tab.SL2VL, want)
	}
	if got := fmt.Sprint(tab.High, tab.Low); got != "[1:255] [0:64 3:128 5:64]" {
		t.Errorf("tables = %s", got)
	}
	if got := fmt.Sprint(tab.UsedVLs()); got != "[0 1 3 5]" {
		t.Errorf("used VLs = %s", got)
	}
	if h, l := tab.WeightOf(3); h != 0 || l != 128 {
		t.Errorf("WeightOf(3) = %d %d", h, l)
	}
	if tab.ClassOfSL[2] != vl5 || tab.ClassOfSL[4] != nil {
		t.Errorf("ClassOfSL wrong")
	}
}

func TestDeriveNoSMNoDefault(t *testing.T) {
	f := &schema.Fabric{Classes: []*schema.TrafficClass{class("compute", 7, 100, false, "")}}
	f.Reindex()
	tab := Derive(f)
	if tab.SM != nil || tab.MaxOpVLs != DefaultMaxOpVLs || tab.VLs != 15 || tab.Default != nil {
		t.Fatalf("defaults wrong: %+v", tab)
	}
	if tab.SL2VL[7] != 7 || tab.SL2VL[0] != 0 || tab.SL2VL[15] != 0 {
		t.Errorf("SL2VL = %v", tab.SL2VL)
	}
}
