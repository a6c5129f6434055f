package templates

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platform"
)

// defineRE finds the named sub-templates of an embedded template file.
var defineRE = regexp.MustCompile(`\{\{-? ?define "([^"]+)"`)

// subTemplateRows parses a folder's templates.md: the file/name of every
// row of its sub-template table (| file | sub-template | data | printed by |).
func subTemplateRows(doc string) map[string]bool {
	rows := map[string]bool{}
	for _, line := range strings.Split(doc, "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) < 4 || !strings.HasPrefix(cells[0], "| `") || !strings.HasSuffix(cells[0], ".tmpl`") {
			continue
		}
		rows[strings.Trim(strings.TrimPrefix(cells[0], "| "), "`")+"/"+strings.Trim(cells[1], "`")] = true
	}
	return rows
}

// subTemplatesDefined lists the file/name of every named sub-template of
// a platform's embedded templates.
func subTemplatesDefined(tmpl fs.FS) (map[string]bool, error) {
	files, err := fs.Glob(tmpl, "*.tmpl")
	if err != nil {
		return nil, fmt.Errorf("listing the templates: %w", err)
	}
	defined := map[string]bool{}
	for _, file := range files {
		b, err := fs.ReadFile(tmpl, file)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", file, err)
		}
		for _, m := range defineRE.FindAllStringSubmatch(string(b), -1) {
			defined[file+"/"+m[1]] = true
		}
	}
	return defined, nil
}

// subTemplateProblems compares a folder's sub-template table with the
// sub-templates its templates define.
func subTemplateProblems(folder string, rows, defined map[string]bool) []string {
	var out []string
	for k := range defined {
		if !rows[k] {
			out = append(out, fmt.Sprintf("platforms/%s/templates.md has no sub-template row for %s", folder, k))
		}
	}
	for k := range rows {
		if !defined[k] {
			out = append(out, fmt.Sprintf("platforms/%s/templates.md lists sub-template %s, which no embedded template of the folder defines", folder, k))
		}
	}
	sort.Strings(out)
	return out
}

// TestSubTemplatesDocumented: every named sub-template of every registry
// folder's embedded templates has a row in the folder's templates.md
// naming its file and name, and every row names a sub-template that
// exists, so the table a user copies from cannot drift.
func TestSubTemplatesDocumented(t *testing.T) {
	for _, p := range rendered() {
		t.Run(p.Folder, func(t *testing.T) {
			checkSubTemplatesDoc(t, p)
		})
	}
}

func checkSubTemplatesDoc(t *testing.T, p platform.Platform) {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(repoRoot(t), "platforms", p.Folder, "templates.md"))
	if err != nil {
		t.Fatalf("platforms/%s: no sub-template table: %v", p.Folder, err)
	}
	defined, err := subTemplatesDefined(p.Templates)
	if err != nil {
		t.Fatalf("platforms/%s: %v", p.Folder, err)
	}
	for _, prob := range subTemplateProblems(p.Folder, subTemplateRows(string(doc)), defined) {
		t.Error(prob)
	}
}

// TestSubTemplatesDocumentedCanFail proves the check: a sub-template
// without a row and a row without a sub-template are both reported.
func TestSubTemplatesDocumentedCanFail(t *testing.T) {
	rows := subTemplateRows("| file | sub-template | data | printed by |\n|---|---|---|---|\n" +
		"| `acl.tmpl` | `acl_entry` | one entry | `device.tmpl` |\n" +
		"| `acl.tmpl` | `acl_gone` | one entry | `device.tmpl` |\n")
	defined := map[string]bool{"acl.tmpl/acl_entry": true, "interface.tmpl/interface": true}
	probs := subTemplateProblems("x", rows, defined)
	if len(probs) != 2 || !strings.Contains(probs[0], "interface.tmpl/interface") || !strings.Contains(probs[1], "acl.tmpl/acl_gone") {
		t.Errorf("problems %q, want the undocumented sub-template and the stale row", probs)
	}
}
