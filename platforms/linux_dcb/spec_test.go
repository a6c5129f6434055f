package linuxdcb_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	linuxdcb "github.com/fabricgen/fabricgen/platforms/linux_dcb"
)

// TestSpecReleases: the host renders the same for every kernel, so it
// takes no os_version.
func TestSpecReleases(t *testing.T) {
	platformtest.CheckReleases(t, linuxdcb.Platform().Spec, nil, []string{"6.1"})
}

// TestSpecPortNames pins the host's netdev names.
func TestSpecPortNames(t *testing.T) {
	platformtest.CheckPortNames(t, linuxdcb.Platform().Spec, []string{"eth1"}, []string{"x y"})
}

// TestSpecAtLoad: the loader records a host's driver, the default one
// when the device names none, and refuses a driver the folder does not
// know.
func TestSpecAtLoad(t *testing.T) {
	spec := linuxdcb.Platform().Spec
	dev := func(name string) string {
		return "device \"" + name + "\" {\n  kind     = \"nic\"\n  platform = \"" + string(spec.Name) + "\"\n"
	}
	f, diags := platformtest.LoadIntent(t, "fabric \"r\" {}\n"+dev("n")+"  driver   = \"ice\"\n}\n"+dev("m")+"}\n", spec)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	n, m := f.Device("n"), f.Device("m")
	if n.Driver.V != "ice" || !n.Driver.Set || m.Driver.V != spec.Attrs.DefaultDriver || m.Driver.Set {
		t.Errorf("drivers: %+v %+v", n.Driver, m.Driver)
	}
	platformtest.CheckRefused(t, spec, []platformtest.RefusedCase{
		{Name: "driver unknown", Src: dev("x") + "  driver   = \"i40e\"\n}\n",
			Summary: "Invalid value for \"driver\"", Detail: "bnxt_en", Line: 4},
	})
}
