package templates

import (
	"maps"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fabricgen/fabricgen/schema"
)

// TestRegistryComplete fails naming any schema platform without a registry
// entry or an embedded template folder.
func TestRegistryComplete(t *testing.T) {
	if err := checkRegistry(schema.Platforms(), registry(), embedded); err != nil {
		t.Fatal(err)
	}
}

// TestCheckRegistryFails shows the check can fail: each case breaks the
// real table or folder tree in one way and wants the culprit named.
func TestCheckRegistryFails(t *testing.T) {
	folders := fstest.MapFS{}
	for _, p := range schema.Platforms() {
		folders[string(p)+"/"+entry] = &fstest.MapFile{Data: []byte("x")}
	}
	cases := []struct {
		name  string
		reg   func(map[schema.Platform]platformSpec)
		fsys  func(fstest.MapFS)
		wants []string
	}{
		{"entry removed", func(r map[schema.Platform]platformSpec) { delete(r, schema.CiscoNXOS) }, nil,
			[]string{"platform cisco_nxos has no entry"}},
		{"builder missing", func(r map[schema.Platform]platformSpec) {
			s := r[schema.SONiC]
			s.build = nil
			r[schema.SONiC] = s
		}, nil, []string{"platform sonic: its registry entry lacks"}},
		{"unknown entry", func(r map[schema.Platform]platformSpec) { r["vyos"] = r[schema.AristaEOS] }, nil,
			[]string{"registry entry vyos is not a schema platform"}},
		{"folder removed", nil, func(m fstest.MapFS) { delete(m, "linux_dcb/"+entry) },
			[]string{"platform linux_dcb has no template folder"}},
		{"stray folder", nil, func(m fstest.MapFS) { m["vyos/"+entry] = &fstest.MapFile{Data: []byte("x")} },
			[]string{"template folder templates/vyos/ is not a schema platform"}},
		{"two at once", func(r map[schema.Platform]platformSpec) { delete(r, schema.AristaEOS) },
			func(m fstest.MapFS) { delete(m, "sonic/"+entry) },
			[]string{"platform arista_eos has no entry", "platform sonic has no template folder"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reg := registry()
			fsys := maps.Clone(folders)
			if tc.reg != nil {
				tc.reg(reg)
			}
			if tc.fsys != nil {
				tc.fsys(fsys)
			}
			err := checkRegistry(schema.Platforms(), reg, fsys)
			if err == nil {
				t.Fatal("checkRegistry passed a broken registry")
			}
			for _, w := range tc.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
		})
	}
	if err := checkRegistry(schema.Platforms(), registry(), folders); err != nil {
		t.Errorf("the intact table fails: %v", err)
	}
}
