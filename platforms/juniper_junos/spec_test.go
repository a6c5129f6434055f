package juniperjunos_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	juniperjunos "github.com/fabricgen/fabricgen/platforms/juniper_junos"
	"github.com/fabricgen/fabricgen/schema"
)

// TestSpecReleases pins the Junos release syntax: MAJOR.MINORR<n>[-S<n>][.<n>][-EVO].
func TestSpecReleases(t *testing.T) {
	platformtest.CheckReleases(t, juniperjunos.Platform().Spec,
		map[string][]int{"23.4R1": {23, 4, 1}, "21.4R3-S5": {21, 4, 3}, "22.2R1.9": {22, 2, 1}, "23.4R2-S1-EVO": {23, 4, 2}},
		[]string{"23"})
}

// TestSpecPortNames pins the Junos interface names: TYPE-FPC/PIC/PORT[:CHANNEL].
func TestSpecPortNames(t *testing.T) {
	platformtest.CheckPortNames(t, juniperjunos.Platform().Spec,
		[]string{"et-0/0/0", "xe-0/0/1:2", "ge-1/2/3", "mge-0/0/10"},
		[]string{"et-0/0", "et-0/0/0:", "ae0", "xe0/0/1", "fe-0/0/0", "et-0/0/0:x"})
}

// TestSpecFamilyOf pins the hardware family of Junos model names.
func TestSpecFamilyOf(t *testing.T) {
	familyOf := juniperjunos.Platform().Spec.Attrs.Family
	for model, want := range map[string]schema.HardwareFamily{
		"": juniperjunos.FamilyQFX5000, "QFX5120-48Y": juniperjunos.FamilyQFX5000, "qfx5240-64od": juniperjunos.FamilyQFX5000, "ex4650-48y": juniperjunos.FamilyQFX5000,
		"qfx10002-36q": juniperjunos.FamilyQFX10000, "ex4400-48mp": juniperjunos.FamilyEX, "mx304": juniperjunos.FamilyMX,
	} {
		got, err := familyOf(model)
		if err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", model, got, err, want)
		}
	}
	if _, err := familyOf("ptx10008"); err == nil {
		t.Error("ptx10008 accepted")
	}
}

// TestSpecAtLoad: the loader records a Junos device's model and family,
// and refuses a model it does not know and an os_version that is a
// number.
func TestSpecAtLoad(t *testing.T) {
	spec := juniperjunos.Platform().Spec
	dev := "device \"x\" {\n  kind       = \"spine\"\n  platform   = \"" + string(spec.Name) + "\"\n"
	f, diags := platformtest.LoadIntent(t, "fabric \"r\" {}\n"+dev+"  model      = \"QFX10002-36Q\"\n}\n", spec)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if j := f.Device("x"); j.Family != juniperjunos.FamilyQFX10000 || j.Model.V != "QFX10002-36Q" {
		t.Errorf("model %q family %q", j.Model.V, j.Family)
	}
	platformtest.CheckRefused(t, spec, []platformtest.RefusedCase{
		{Name: "os_version number", Src: dev + "  os_version = 23.4\n}\n",
			Summary: "Incorrect attribute type", Detail: "os_version", Line: 4},
		{Name: "model unknown", Src: dev + "  model      = \"ptx10008\"\n}\n",
			Summary: "Invalid model", Detail: "qfx5120-48y", Line: 4},
	})
}
