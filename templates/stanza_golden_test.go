package templates

import (
	"path/filepath"
	"testing"

	"github.com/fabricgen/fabricgen/internal/golden"
	"github.com/fabricgen/fabricgen/schema"
)

// TestStanzaGolden renders testdata/stanza (one device per platform and host
// variant, with every port shape and ACL entry shape the sub-templates
// print) and compares each device with testdata/stanza/golden/<file>. The
// examples' goldens have no SONiC ACL_RULE, no Junos filter and few host
// variants; these pin them, so moving a stanza between Go and a template
// cannot change a byte unnoticed.
func TestStanzaGolden(t *testing.T) {
	f, diags := schema.Load(filepath.Join("testdata", "stanza"), schema.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Errs())
	}
	r := newTestRenderer(t)
	platforms := map[schema.Platform]bool{}
	for _, d := range f.Devices {
		out, err := r.Render(f, d)
		if err != nil {
			t.Errorf("%s: %v", d.Name, err)
			continue
		}
		platforms[d.Platform.V] = true
		golden.Check(t, filepath.Join("testdata", "stanza", "golden", out.Filename), out.Text, "go test ./templates -run TestStanzaGolden -update")
	}
	for _, p := range schema.Platforms() {
		if !platforms[p] {
			t.Errorf("testdata/stanza renders no %s device", p)
		}
	}
}
