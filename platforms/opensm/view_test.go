package opensm

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// TestBuildRefuses: fabrics the platform cannot render fail with an error
// at the intent's source saying what to do.
func TestBuildRefuses(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(f *schema.Fabric)
		want string
	}{
		{"ethernet fabric", func(f *schema.Fabric) { f.LinkLayer = set(schema.LinkEthernet) }, `set link_layer = "infiniband"`},
		{"sm settings differ", func(f *schema.Fabric) {
			sm := f.Device("sm02")
			sm.SM.HighLimit = set(sm.SM.HighLimit.V + 1)
			sm.SM.Range = schema.Range{Filename: "ib.fab.hcl", Start: schema.Pos{Line: 40, Column: 3}}
		}, "ib.fab.hcl:40:3: subnet managers sm01 and sm02 have different sm settings"},
		{"at the differing setting's line", func(f *schema.Fabric) {
			sm := f.Device("sm02")
			sm.SM.MaxOpVLs = schema.Value[int]{V: 5, Set: true, Src: schema.Range{Filename: "ib.fab.hcl", Start: schema.Pos{Line: 44, Column: 5}}}
			sm.SM.Range = schema.Range{Filename: "ib.fab.hcl", Start: schema.Pos{Line: 40, Column: 3}}
		}, "ib.fab.hcl:44:5: subnet managers sm01 and sm02 have different sm settings (max_op_vls 5 on sm02"},
		{"the odd one out first", func(f *schema.Fabric) {
			sm3 := *f.Device("sm02")
			sm3.Name = "sm03"
			f.Devices = append(f.Devices, &sm3)
			f.Reindex()
			sm := f.Device("sm01")
			sm.SM.HighLimit = schema.Value[int]{V: sm.SM.HighLimit.V + 1, Set: true, Src: schema.Range{Filename: "ib.fab.hcl", Start: schema.Pos{Line: 12, Column: 5}}}
		}, "ib.fab.hcl:12:5: subnet managers sm02 and sm01 have different sm settings (high_limit"},
	} {
		f := testFabric()
		c.edit(f)
		_, err := Build(f)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// TestBuildChoices: the render's choices that the goldens show only for
// one fabric: no_fallback unless fallback is allowed, no GUID files for
// engines that do not read them, an empty high table as 0:0, and the
// Default partition OpenSM would use without a file when the intent has
// none.
func TestBuildChoices(t *testing.T) {
	f := testFabric()
	for _, d := range []string{"sm01", "sm02"} {
		f.Device(d).SM.AllowFallback = set(true)
		f.Device(d).SM.RoutingEngine = set([]string{"minhop"})
	}
	f.Class("mgmt").Sched = schema.Value[schema.SchedMode]{}
	f.Partitions = f.Partitions[:1]
	v, err := Build(f)
	if err != nil {
		t.Fatal(err)
	}
	if v.RoutingEngine != "minhop" || v.RootsPath != "" || v.CNsPath != "" {
		t.Errorf("engine %q roots %q cns %q", v.RoutingEngine, v.RootsPath, v.CNsPath)
	}
	if v.Sets[0].VLArbHigh != "0:0" {
		t.Errorf("empty high table = %q, want 0:0", v.Sets[0].VLArbHigh)
	}
	if v.Partitions[0].Def != "Default=0x7fff" || v.Partitions[0].MemberList != "ALL=full, SELF=full" {
		t.Errorf("default partition = %+v", v.Partitions[0])
	}
}
