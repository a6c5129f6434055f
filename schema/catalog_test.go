package schema_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// copyName is the name of a copied platform spec: a name no registry
// platform takes (the trial adds test_os to the registry).
const copyName = "probe_copy"

// TestCatalogAddsAPlatform: a catalog with one more platform (a copy of a
// registry platform's spec renamed, what scripts/newplatform makes) loads
// a fabric that names it, with nothing in schema changed; without it the
// same fabric is refused at the platform attribute, the error listing the
// catalog's names. The copy's port rule is the original's. Each registry
// platform is copied in turn.
func TestCatalogAddsAPlatform(t *testing.T) {
	for _, pl := range platforms.All() {
		if !pl.Spec.SpeaksLinkLayer(schema.LinkEthernet) {
			continue // the probe is an Ethernet fabric; InfiniBand platforms load in TestInfiniBand*
		}
		t.Run(pl.Folder, func(t *testing.T) {
			if _, taken := platforms.Get(copyName); taken {
				t.Fatalf("%s is a registry platform", copyName)
			}
			cp := pl.Spec
			cp.Name = copyName
			catalog := append(platforms.Catalog(), cp)
			kind := "leaf"
			if cp.Host {
				kind = "nic"
			}
			dev := "fabric \"t\" {}\ndevice \"d1\" {\n  kind     = \"" + kind + "\"\n  platform = \"" + copyName + "\"\n"
			if len(cp.Attrs.ASICs) > 0 {
				dev += "  asic     = \"" + cp.Attrs.ASICs[0] + "\"\n"
			}
			dir := t.TempDir()
			writeFile(t, dir, "f.fab.hcl", dev+"}\n")
			f, diags := schema.Load(filepath.Clean(dir), schema.Options{Platforms: catalog})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			d := f.Device("d1")
			if d.Platform.V != copyName || d.HostPlatform != cp.Host || d.OSVersion.V.Raw != cp.DefaultVersion().Raw {
				t.Errorf("copy's device: platform %q host %v release %v", d.Platform.V, d.HostPlatform, d.OSVersion.V)
			}

			_, diags = schema.Load(filepath.Clean(dir), schema.Options{Platforms: platforms.Catalog()})
			if !diags.HasErrors() {
				t.Fatal("the copy loaded without its spec in the catalog")
			}
			msg := diags.Error()
			if !strings.Contains(msg, "f.fab.hcl:4:") || !strings.Contains(msg, `"`+copyName+`" is not one of`) {
				t.Errorf("error does not point at the platform attribute: %s", msg)
			}
			for _, n := range platforms.List() {
				if !strings.Contains(msg, string(n)) {
					t.Errorf("error does not list %s: %s", n, msg)
				}
			}

			for _, port := range []string{"Ethernet1", "Ethernet1/1", "swp1", "et-0/0/0", "eth0"} {
				writeFile(t, dir, "f.fab.hcl", dev+"  port \""+port+"\" {}\n}\n")
				_, diags := schema.Load(filepath.Clean(dir), schema.Options{Platforms: catalog})
				if refused := diags.HasErrors() && strings.Contains(diags.Error(), "Port name does not fit"); refused == pl.Spec.Ports.Check(port) {
					t.Errorf("port %s on the copy: refused %v, the original's rule accepts it %v: %v", port, refused, pl.Spec.Ports.Check(port), diags)
				}
			}
		})
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
		"no port rule":   append(platforms.Catalog(), schema.PlatformSpec{Name: copyName, Text: schema.TextRule{Why: "x"}, Host: true}),
		"names twice":    append(platforms.Catalog(), platforms.Catalog()...),
	} {
		f, diags := schema.Load(dir, schema.Options{Platforms: catalog})
		if f != nil || !diags.HasErrors() || !strings.Contains(diags.Error(), "catalog is incomplete") {
			t.Errorf("%s: %v %v", name, f, diags)
		}
	}
}
