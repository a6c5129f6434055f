package mdtable

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCells(t *testing.T) {
	for _, c := range []struct {
		row  string
		want int
	}{
		{"| a | b |", 2},
		{"a | b", 2},
		{"| `udp|tcp` | b |", 3},
		{`| ` + "`udp\\|tcp`" + ` | b |`, 2},
		{`| a \| b | c |`, 2},
		{"|---|:--:|", 2},
		{"| a | b | c \\|", 3},
		{`| a \\| b |`, 1},
	} {
		if got := len(Cells(c.row)); got != c.want {
			t.Errorf("Cells(%q) = %d cells, want %d", c.row, got, c.want)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name, md string
		lines    []int
	}{
		{"clean", "| a | b |\n|---|---|\n| 1 | 2 |\n", nil},
		{"pipe in code", "| a | b |\n|---|---|\n| `x|y` | 2 |\n", []int{3}},
		{"escaped in code", "| a | b |\n|---|---|\n| `x\\|y` | 2 |\n", nil},
		{"too few", "| a | b |\n|---|---|\n| 1 |\n", []int{3}},
		{"fenced", "```\n| a | b |\n|---|---|\n| 1 | 2 | 3 |\n```\n", nil},
		{"ends at blank", "| a | b |\n|---|---|\n| 1 | 2 |\n\n1 | 2 | 3\n", nil},
		{"header and delimiter differ", "| a | b | c |\n|---|---|\n", []int{1}},
		{"html ends", "| a | b |\n|---|---|\n| 1 | 2 |\n<!-- end -->\n", nil},
		{"fence after table", "| a | b |\n|---|---|\n```\n| 1 | 2 | 3 |\n```\n", nil},
		{"two tables", "| a |\n|---|\n| 1 |\n\n| a | b |\n|---|---|\n| 1 |\n", []int{7}},
	} {
		var got []int
		for _, p := range Check(c.md) {
			got = append(got, p.Line)
		}
		if len(got) != len(c.lines) || (len(got) > 0 && got[0] != c.lines[0]) {
			t.Errorf("%s: problems at lines %v, want %v", c.name, got, c.lines)
		}
	}
}

// TestRepositoryTables walks every Markdown file of the repository, and
// every golden file holding Markdown fabricgen generates (lint and plan
// Markdown), and checks each table row has its header's cell count.
func TestRepositoryTables(t *testing.T) {
	root := filepath.Join("..", "..")
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); p != root && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		md := strings.HasSuffix(name, ".md") || (strings.HasSuffix(name, ".golden") && strings.Contains(name, "markdown"))
		if !md {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		for _, pr := range Check(string(b)) {
			rel, _ := filepath.Rel(root, p)
			t.Errorf("%s:%s", rel, pr)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 20 {
		t.Errorf("checked only %d Markdown files; is the walk rooted at the repository?", n)
	}
}
