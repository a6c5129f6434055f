package nvidiacumulus_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	nvidiacumulus "github.com/fabricgen/fabricgen/platforms/nvidia_cumulus"
)

// TestSpecReleases pins the Cumulus release syntax: MAJOR.MINOR[.PATCH],
// and compares a release with AtLeast.
func TestSpecReleases(t *testing.T) {
	spec := nvidiacumulus.Platform().Spec
	platformtest.CheckReleases(t, spec,
		map[string][]int{"5.15": {5, 15}, "5.9.2": {5, 9, 2}},
		[]string{"5", "5.15 ", "5.15a"})
	v, err := spec.ParseVersion("5.15")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		want []int
		ok   bool
	}{{[]int{5, 15}, true}, {[]int{5, 15, 0}, true}, {[]int{5, 14}, true}, {[]int{5, 16}, false}, {[]int{6}, false}, {[]int{5, 15, 1}, false}} {
		if got := v.AtLeast(tc.want...); got != tc.ok {
			t.Errorf("5.15 AtLeast %v = %v, want %v", tc.want, got, tc.ok)
		}
	}
}

// TestSpecPortNames pins the Cumulus port names: swpN[sM].
func TestSpecPortNames(t *testing.T) {
	platformtest.CheckPortNames(t, nvidiacumulus.Platform().Spec,
		[]string{"swp1", "swp49s0", "swp10s3"},
		[]string{"swp", "swp1s", "Ethernet1", "swp1s0s1", "eth0"})
}

// TestSpecAtLoad: a Cumulus device without os_version renders for the
// default release, from the device; a release with letters and a ports
// block naming another vendor's port are refused.
func TestSpecAtLoad(t *testing.T) {
	spec := nvidiacumulus.Platform().Spec
	dev := "device \"x\" {\n  kind       = \"leaf\"\n  platform   = \"" + string(spec.Name) + "\"\n"
	f, diags := platformtest.LoadIntent(t, "fabric \"r\" {}\n"+dev+"}\n", spec)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if c := f.Device("x"); c.OSVersion.Set || c.OSVersion.V.Raw != spec.Release.Default || c.OSVersion.Src != c.Range {
		t.Errorf("default release %+v", c.OSVersion)
	}
	platformtest.CheckRefused(t, spec, []platformtest.RefusedCase{
		{Name: "os_version with letters", Src: dev + "  os_version = \"5.15a\"\n}\n",
			Summary: "Invalid os_version", Detail: "MAJOR.MINOR", Line: 4},
		{Name: "ports block naming another vendor's port", Src: dev + "  ports {\n    names = [\"swp1\", \"Ethernet2\"]\n  }\n}\n",
			Summary: "Port name does not fit the platform", Detail: `"Ethernet2"`, Line: 5},
	})
}
