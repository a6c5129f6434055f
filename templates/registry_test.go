package templates

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fabricgen/fabricgen/schema"
)

// TestRegistryComplete fails naming any registry platform without a
// folder giving its render parts (view builder, extension, templates).
func TestRegistryComplete(t *testing.T) {
	if err := checkRegistry(renderedNames(), registry()); err != nil {
		t.Fatal(err)
	}
}

// TestCheckRegistryFails shows the check can fail: each case breaks every
// platform's entry of the real table in turn, in one way (one case per
// part), and wants the culprit named.
func TestCheckRegistryFails(t *testing.T) {
	const other = schema.Platform("other_os")
	cases := []struct {
		name  string
		reg   func(map[schema.Platform]platformSpec, schema.Platform)
		wants func(p schema.Platform) []string
	}{
		{"entry removed", func(r map[schema.Platform]platformSpec, p schema.Platform) { delete(r, p) },
			func(p schema.Platform) []string { return []string{"platform " + string(p) + " has no line"} }},
		{"builder missing", func(r map[schema.Platform]platformSpec, p schema.Platform) {
			s := r[p]
			s.build = nil
			r[p] = s
		}, func(p schema.Platform) []string {
			return []string{"platform " + string(p) + ": its folder lacks a view builder"}
		}},
		{"extension missing", func(r map[schema.Platform]platformSpec, p schema.Platform) {
			s := r[p]
			s.Ext = ""
			r[p] = s
		}, func(p schema.Platform) []string {
			return []string{"platform " + string(p) + ": its folder lacks a file extension"}
		}},
		{"another name", func(r map[schema.Platform]platformSpec, p schema.Platform) {
			s := r[p]
			s.Platform = other
			r[p] = s
		}, func(p schema.Platform) []string {
			return []string{"platform " + string(p) + ": its folder's render info names " + string(other)}
		}},
		{"unknown entry", func(r map[schema.Platform]platformSpec, p schema.Platform) { r[other] = r[p] },
			func(schema.Platform) []string {
				return []string{"registry entry " + string(other) + " is no platform of the registry"}
			}},
		{"templates removed", func(r map[schema.Platform]platformSpec, p schema.Platform) {
			s := r[p]
			s.templates = nil
			r[p] = s
		}, func(p schema.Platform) []string { return []string{"platform " + string(p) + " has no templates"} }},
		{"no entry template", func(r map[schema.Platform]platformSpec, p schema.Platform) {
			s := r[p]
			s.templates = fstest.MapFS{"interface.tmpl": &fstest.MapFile{Data: []byte("x")}}
			r[p] = s
		}, func(p schema.Platform) []string {
			return []string{"platform " + string(p) + " has no " + entry}
		}},
	}
	for _, tc := range cases {
		for _, p := range renderedNames() {
			t.Run(tc.name+"/"+string(p), func(t *testing.T) {
				reg := registry()
				tc.reg(reg, p)
				err := checkRegistry(renderedNames(), reg)
				if err == nil {
					t.Fatal("checkRegistry passed a broken registry")
				}
				for _, w := range tc.wants(p) {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not name %q", err, w)
					}
				}
			})
		}
	}
	t.Run("all at once", func(t *testing.T) {
		err := checkRegistry(renderedNames(), map[schema.Platform]platformSpec{})
		for _, p := range renderedNames() {
			if err == nil || !strings.Contains(err.Error(), "platform "+string(p)+" has no line") {
				t.Errorf("an empty registry: %v does not name %s", err, p)
			}
		}
	})
}
