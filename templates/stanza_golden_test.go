package templates

import (
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/golden"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestStanzaGolden renders testdata/stanza (one device per platform and host
// variant, with every port shape and ACL entry shape the sub-templates
// print) and compares each device with testdata/stanza/golden/<file>. The
// examples' goldens have no SONiC ACL_RULE, no Junos filter and few host
// variants; these pin them, so moving a stanza between Go and a template
// cannot change a byte unnoticed.
func TestStanzaGolden(t *testing.T) {
	f, diags := schema.Load(filepath.Join("testdata", "stanza"), schema.Options{Platforms: platforms.Catalog()})
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

// defineRE finds the named sub-templates of an embedded template file.
var defineRE = regexp.MustCompile(`\{\{-? ?define "([^"]+)"`)

// TestSubTemplatesDocumented: every named sub-template of every embedded
// template folder has a row in docs/templates.md's sub-template table
// naming its platform, file and name, and every row names a sub-template
// that exists, so the table a user copies from cannot drift.
func TestSubTemplatesDocumented(t *testing.T) {
	doc := readTemplatesDoc(t)
	rows := map[string]bool{} // platform/file/name
	for _, line := range strings.Split(doc, "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) < 5 || !strings.HasPrefix(cells[1], "`") || !strings.HasSuffix(cells[1], ".tmpl`") {
			continue
		}
		for _, p := range strings.Split(strings.TrimPrefix(cells[0], "| "), ", ") {
			rows[strings.Trim(p, "`")+"/"+strings.Trim(cells[1], "`")+"/"+strings.Trim(cells[2], "`")] = true
		}
	}
	defined := map[string]bool{}
	for _, p := range schema.Platforms() {
		files, err := fs.Glob(embeddedFS(t), string(p)+"/*.tmpl")
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			b, err := embeddedFS(t).ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range defineRE.FindAllStringSubmatch(string(b), -1) {
				k := file + "/" + m[1]
				defined[k] = true
				if !rows[k] {
					t.Errorf("docs/templates.md has no sub-template row for %s", k)
				}
			}
		}
	}
	for k := range rows {
		if !defined[k] {
			t.Errorf("docs/templates.md lists sub-template %s, which no embedded template defines", k)
		}
	}
}
