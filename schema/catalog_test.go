package schema_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// testOSFabric is a fabric of one switch of platform test_os, named the
// way arista_eos names ports.
const testOSFabric = `fabric "t" {}
device "leaf1" {
  kind       = "leaf"
  platform   = "test_os"
  os_version = "4.31.2F"
  port "Ethernet1" {
    description = "uplink"
  }
}
`

// TestCatalogAddsAPlatform: a catalog with one more platform (a copy of
// arista_eos's spec renamed test_os, what scripts/newplatform makes) loads
// a fabric that names it, with nothing in schema changed; without it the
// same fabric is refused at the platform attribute, the error listing the
// catalog's names.
func TestCatalogAddsAPlatform(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "f.fab.hcl", testOSFabric)
	eos := specOf(t, schema.AristaEOS)
	testOS := eos
	testOS.Name = "test_os"
	catalog := append(platforms.Catalog(), testOS)
	f, diags := schema.Load(filepath.Clean(dir), schema.Options{Platforms: catalog})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	d := f.Device("leaf1")
	if d.Platform.V != "test_os" || d.HostPlatform || !d.OSVersion.V.AtLeast(4, 31, 2) || d.Port("Ethernet1") == nil {
		t.Errorf("test_os device: platform %q host %v release %v", d.Platform.V, d.HostPlatform, d.OSVersion.V)
	}

	_, diags = schema.Load(filepath.Clean(dir), schema.Options{Platforms: platforms.Catalog()})
	if !diags.HasErrors() {
		t.Fatal("test_os loaded without its spec in the catalog")
	}
	msg := diags.Error()
	if !strings.Contains(msg, "f.fab.hcl:4:") || !strings.Contains(msg, `"test_os" is not one of`) {
		t.Errorf("error does not point at the platform attribute: %s", msg)
	}
	for _, n := range platforms.List() {
		if !strings.Contains(msg, string(n)) {
			t.Errorf("error does not list %s: %s", n, msg)
		}
	}

	// The copy's port rule is arista_eos's: a port it does not name is
	// refused on test_os too.
	writeFile(t, dir, "f.fab.hcl", strings.Replace(testOSFabric, "Ethernet1", "swp1", 1))
	if _, diags := schema.Load(filepath.Clean(dir), schema.Options{Platforms: catalog}); !diags.HasErrors() || !strings.Contains(diags.Error(), "test_os") {
		t.Errorf("swp1 on test_os: %v", diags)
	}
}

// TestLoadNeedsCatalog: a load without a catalog fails, saying so, rather
// than knowing platforms of its own.
func TestLoadNeedsCatalog(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "f.fab.hcl", `fabric "t" {}`+"\n")
	f, diags := schema.Load(dir, schema.Options{})
	if f != nil || !diags.HasErrors() || !strings.Contains(diags.Error(), "No platform catalog") {
		t.Errorf("load without a catalog: %v %v", f, diags)
	}
	// A folder whose spec is missing (its entry left zero) or listed
	// twice is refused by name, not a panic at the first port.
	for name, catalog := range map[string][]schema.PlatformSpec{
		"an empty entry": append(platforms.Catalog(), schema.PlatformSpec{}),
		"no port rule":   append(platforms.Catalog(), schema.PlatformSpec{Name: "test_os", Text: schema.TextRule{Why: "x"}, Host: true}),
		"a name twice":   append(platforms.Catalog(), platforms.Catalog()[0]),
	} {
		f, diags := schema.Load(dir, schema.Options{Platforms: catalog})
		if f != nil || !diags.HasErrors() || !strings.Contains(diags.Error(), "catalog is incomplete") {
			t.Errorf("%s: %v %v", name, f, diags)
		}
	}
}
