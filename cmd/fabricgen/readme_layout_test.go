package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var (
	codeSpan    = regexp.MustCompile("`([^`]+)`")
	alternation = regexp.MustCompile(`<([^<>]+)>`)
)

// layoutPaths returns the paths the first column of README.md's Layout
// table names, with `dir/<a|b>` expanded to dir/a and dir/b, and the line
// of each.
func layoutPaths(readme string) (map[string]int, error) {
	lines := strings.Split(readme, "\n")
	start := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == "## Layout" {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("README.md has no \"## Layout\" section")
	}
	paths := map[string]int{}
	for i := start + 1; i < len(lines) && !strings.HasPrefix(lines[i], "## "); i++ {
		l := strings.ReplaceAll(lines[i], `\|`, "\x00")
		cells := strings.Split(l, "|")
		if len(cells) < 3 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue // not a row, or the header and its rule
		}
		for _, m := range codeSpan.FindAllStringSubmatch(cells[1], -1) {
			name := strings.ReplaceAll(m[1], "\x00", "|")
			for _, p := range expandAlternation(name) {
				paths[p] = i + 1
			}
		}
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("README.md's Layout section has no table rows naming a `path`")
	}
	return paths, nil
}

// expandAlternation expands the first <a|b|c> of name, recursively.
func expandAlternation(name string) []string {
	loc := alternation.FindStringSubmatchIndex(name)
	if loc == nil {
		return []string{name}
	}
	var out []string
	for _, alt := range strings.Split(name[loc[2]:loc[3]], "|") {
		out = append(out, expandAlternation(name[:loc[0]]+alt+name[loc[1]:])...)
	}
	return out
}

// layoutEntryError says what is wrong with a Layout path: it must be a
// Go package of the repository (a folder with a non-test .go file) or,
// for examples, a folder of fabrics.
func layoutEntryError(root, p string) error {
	dir := filepath.Join(root, filepath.FromSlash(p))
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return fmt.Errorf("`%s`, which is not a folder of the repository", p)
	}
	goFiles, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range goFiles {
		if !strings.HasSuffix(f, "_test.go") {
			return nil
		}
	}
	if fabrics, _ := filepath.Glob(filepath.Join(dir, "*", "*.fab.hcl")); len(fabrics) > 0 {
		return nil
	}
	return fmt.Errorf("`%s`, which holds no Go package (no non-test .go file) and no fabric", p)
}

// TestREADMELayout: every package the README's Layout table names exists,
// so the table cannot describe a package that was renamed, moved or not
// merged yet.
func TestREADMELayout(t *testing.T) {
	root := repoRoot(t)
	src, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	paths, err := layoutPaths(string(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		if err := layoutEntryError(root, p); err != nil {
			t.Errorf("README.md:%d: the Layout table names %v; fix the row or the package", paths[p], err)
		}
	}
}

// TestLayoutPaths: the table parser finds each row's paths, expands
// alternations, keeps escaped bars inside a cell, and the entry check
// refuses a missing folder and a folder without Go files.
func TestLayoutPaths(t *testing.T) {
	readme := "# x\n\n## Layout\n\n| package | owns |\n|---|---|\n" +
		"| `cmd/fabricgen` | the CLI |\n" +
		"| `a`, `b/c` | two |\n" +
		"| `emu/<eos\\|nxos>` | one per platform |\n" +
		"\n## Benchmarks\n\n| `not/this` | x |\n"
	got, err := layoutPaths(readme)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"cmd/fabricgen": 7, "a": 8, "b/c": 8, "emu/eos": 9, "emu/nxos": 9}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("layoutPaths = %v, want %v", got, want)
	}
	if _, err := layoutPaths("# x\n## Layout\nno table\n"); err == nil {
		t.Error("a Layout section without rows passed")
	}

	root := t.TempDir()
	for name, body := range map[string]string{
		"pkg/p.go":                "package p\n",
		"testonly/p_test.go":      "package p\n",
		"examples/one/a.fab.hcl":  "",
		"notes/readme.md":         "",
		"examples2/one/readme.md": "",
	} {
		f := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for p, ok := range map[string]bool{"pkg": true, "examples": true, "testonly": false, "notes": false, "examples2": false, "missing": false, "pkg/p.go": false} {
		if err := layoutEntryError(root, p); (err == nil) != ok {
			t.Errorf("layoutEntryError(%s) = %v, want ok=%v", p, err, ok)
		}
	}
}
