package sonic_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/platforms/sonic"
)

// TestSpecReleases pins the SONiC release syntax: YYYYMM[.N].
func TestSpecReleases(t *testing.T) {
	platformtest.CheckReleases(t, sonic.Platform().Spec,
		map[string][]int{"202311": {202311}, "202405.2": {202405, 2}},
		[]string{"202300", "202313", "master"})
}

// TestSpecPortNames pins the SONiC port names: EthernetN.
func TestSpecPortNames(t *testing.T) {
	platformtest.CheckPortNames(t, sonic.Platform().Spec,
		[]string{"Ethernet0", "Ethernet248"},
		[]string{"Ethernet1/1", "Ethernet", "eth0"})
}

// TestSpecAtLoad: a SONiC device needs its ASIC, one SONiC names, and
// the loader records it with the release; a month 13 is no release.
func TestSpecAtLoad(t *testing.T) {
	spec := sonic.Platform().Spec
	dev := "device \"x\" {\n  kind       = \"leaf\"\n  platform   = \"" + string(spec.Name) + "\"\n"
	f, diags := platformtest.LoadIntent(t, "fabric \"r\" {}\n"+dev+"  asic       = \"mellanox\"\n  os_version = \"202106\"\n}\n", spec)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if s := f.Device("x"); s.ASIC.V != "mellanox" || !s.OSVersion.Set || s.OSVersion.V.AtLeast(202111) || !s.OSVersion.V.AtLeast(202106) {
		t.Errorf("asic %q release %+v", s.ASIC.V, s.OSVersion)
	}
	platformtest.CheckRefused(t, spec, []platformtest.RefusedCase{
		{Name: "without asic", Src: "\n\n" + dev + "}\n",
			Summary: "Missing asic", Detail: `asic = "mellanox" | "broadcom"`, Line: 3},
		{Name: "asic null", Src: dev + "  asic       = null\n}\n",
			Summary: "Missing asic", Line: 1},
		{Name: "asic misspelt", Src: dev + "  asic       = \"melanox\"\n}\n",
			Summary: "Invalid value for \"asic\"", Detail: "mellanox", Line: 4},
		{Name: "os_version month 13", Src: dev + "  asic       = \"broadcom\"\n  os_version = \"202313\"\n}\n",
			Summary: "Invalid os_version", Detail: "YYYYMM", Line: 5},
	})
}

// TestSpecHWSKU: hwsku is optional, one of the SKUs with a lookup file in
// sonic-buildimage (platforms/sonic/skus), of the device's ASIC family
// ("broadcom-dnx" counts as broadcom); a name in another case is refused
// with the spelling that exists.
func TestSpecHWSKU(t *testing.T) {
	spec := sonic.Platform().Spec
	dev := "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"" + string(spec.Name) + "\"\n"
	f, diags := platformtest.LoadIntent(t, "fabric \"r\" {}\n"+dev+"  asic     = \"broadcom\"\n  hwsku    = \"DellEMC-Z9332f-O32\"\n}\n", spec)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if s := f.Device("x"); !s.HWSKU.Set || s.HWSKU.V != "DellEMC-Z9332f-O32" {
		t.Errorf("hwsku %+v", s.HWSKU)
	}
	platformtest.CheckRefused(t, spec, []platformtest.RefusedCase{
		{Name: "unknown SKU", Src: dev + "  asic     = \"broadcom\"\n  hwsku    = \"My-Own-SKU\"\n}\n",
			Summary: "Invalid hwsku", Detail: "not a SKU with a pg_profile_lookup.ini in sonic-buildimage", Line: 5},
		{Name: "another case", Src: dev + "  asic     = \"broadcom\"\n  hwsku    = \"dellemc-z9332f-o32\"\n}\n",
			Summary: "Invalid hwsku", Detail: `did you mean "DellEMC-Z9332f-O32"?`, Line: 5},
		{Name: "another ASIC", Src: dev + "  asic     = \"broadcom\"\n  hwsku    = \"ACS-SN5600\"\n}\n",
			Summary: "Invalid hwsku", Detail: `another ASIC family, mellanox`, Line: 5},
	})
}
