package schema_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// registryDevice is a device of platform pl in HCL, with the attributes
// pl requires, extra lines (each "  name = value\n") inserted at line 4
// or later.
func registryDevice(pl schema.PlatformSpec, extra string) string {
	kind := "leaf"
	if pl.Host {
		kind = "nic"
	}
	src := "device \"x\" {\n  kind     = \"" + kind + "\"\n  platform = \"" + string(pl.Name) + "\"\n" + extra
	if len(pl.Attrs.ASICs) > 0 && !strings.Contains(extra, "asic") {
		src += "  asic     = \"" + pl.Attrs.ASICs[0] + "\"\n"
	}
	return src + "}\n"
}

// TestRegistrySpecsAtLoad loads, for every platform of the registry (next
// to badBase), what
// its spec says it takes and refuses: a device with its required
// attributes and default release loads; a platform-only attribute it does
// not read, os_version on a platform without a release form, and each
// shell or CLI metacharacter of the corpus its free-text rule refuses are
// refused, and the metacharacters it does not refuse are not.
func TestRegistrySpecsAtLoad(t *testing.T) {
	values := map[string]string{schema.AttrASIC: "broadcom", schema.AttrModel: "m1", schema.AttrDriver: "ice", schema.AttrHWSKU: "sku1"}
	for _, pl := range platforms.Catalog() {
		if !pl.SpeaksLinkLayer(schema.LinkEthernet) {
			continue // the probes are Ethernet fabrics; InfiniBand platforms load in TestInfiniBand*
		}
		t.Run(string(pl.Name), func(t *testing.T) {
			load := func(src string) schema.Diagnostics {
				dir := t.TempDir()
				writeFile(t, dir, baseFile, badBase)
				writeFile(t, dir, "bad.fab.hcl", src)
				return loadNoPanic(t, dir, schema.Options{Getenv: func(string) string { return "" }, Platforms: loadCatalog()})
			}
			want := func(diags schema.Diagnostics, what, summary, detail string) {
				t.Helper()
				if findDiag(diags, badCase{summary: summary, detail: detail, line: 4}) == nil {
					t.Errorf("%s: want an error %q (detail %q) at line 4; got:\n%s", what, summary, detail, listDiags(diags))
				}
			}
			release := ""
			if pl.Release != nil {
				release = "  os_version = \"" + pl.Release.Default + "\"\n"
			}
			if diags := load(registryDevice(pl, release)); diags.HasErrors() {
				t.Errorf("a device with its required attributes (and default release): %s", listDiags(diags))
			}
			if pl.Release == nil {
				want(load(registryDevice(pl, "  os_version = \"1.0\"\n")), "os_version", "Invalid os_version", "takes no os_version")
			}
			reads := pl.Attrs.Names()
			for attr, v := range values {
				if !contains(reads, attr) {
					want(load(registryDevice(pl, "  "+attr+" = \""+v+"\"\n")), attr, "Attribute not used by this platform", attr+" is read by")
				}
			}
			for _, p := range injectionPayloads {
				if !p.meta {
					continue
				}
				diags := load(registryDevice(pl, "  description = \""+p.hcl+"\"\n"))
				refused := findDiag(diags, badCase{summary: "Invalid description", line: 4}) != nil
				if want := strings.ContainsAny(p.hcl, pl.Text.Refuse); refused != want {
					t.Errorf("description with %s: refused %v, want %v (the platform refuses %q): %s", p.name, refused, want, pl.Text.Refuse, listDiags(diags))
				}
			}
		})
	}
}
