package aristaeos_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	aristaeos "github.com/fabricgen/fabricgen/platforms/arista_eos"
)

// TestSpecReleases pins the EOS release syntax: MAJOR.MINOR[.PATCH][.N][TRAIN].
func TestSpecReleases(t *testing.T) {
	platformtest.CheckReleases(t, aristaeos.Platform().Spec,
		map[string][]int{"4.30.1F": {4, 30, 1}, "4.32.2.1F": {4, 32, 2, 1}, "4.21": {4, 21}},
		[]string{"4.30.1f", "v4.30"})
}

// TestSpecPortNames pins the EOS interface names.
func TestSpecPortNames(t *testing.T) {
	platformtest.CheckPortNames(t, aristaeos.Platform().Spec,
		[]string{"Ethernet1", "Ethernet49/1", "Ethernet3/1/4"},
		[]string{"ethernet1", "Eth1", "Ethernet", "Ethernet1/", "Ethernet1/2/3/4", "swp1", "Ethernet1a"})
}

// TestSpecRefusedAtLoad: what the loader refuses on an EOS device, with
// the platform's own words.
func TestSpecRefusedAtLoad(t *testing.T) {
	spec := aristaeos.Platform().Spec
	dev := "device \"x\" {\n  kind       = \"leaf\"\n  platform   = \"" + string(spec.Name) + "\"\n"
	platformtest.CheckRefused(t, spec, []platformtest.RefusedCase{
		{Name: "os_version garbage", Src: dev + "  os_version = \"latest\"\n}\n",
			Summary: "Invalid os_version", Detail: "4.30.1F", Line: 4},
		{Name: "port named like another vendor's", Src: dev + "  port \"swp1\" {}\n}\n",
			Summary: "Port name does not fit the platform", Detail: `"swp1" is not an interface name on ` + string(spec.Name), Line: 4},
	})
}
