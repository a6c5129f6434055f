// Package mdtable checks GitHub-flavoured Markdown tables: every row must
// have the header's number of cells, counted as GitHub counts them. A pipe
// splits cells unless a backslash escapes it, also inside a code span
// (GitHub splits rows before it parses code spans), so `a|b` in a cell
// must be written `a\|b`; a row with more cells than the header loses the
// excess, one with fewer gets empty cells.
package mdtable

import (
	"fmt"
	"strings"
)

// Problem is one table row whose cell count differs from its header's.
type Problem struct {
	// Line is the row's 1-based line number.
	Line int
	// Cells and Want are the row's and the header's cell counts.
	Cells, Want int
	// Row is the row's text.
	Row string
}

// String is "line N: 5 cells, the header has 4: | a | b |".
func (p Problem) String() string {
	return fmt.Sprintf("line %d: %d cells, the header has %d (escape a | inside a cell as \\|, also inside backticks): %s", p.Line, p.Cells, p.Want, p.Row)
}

// Check returns every table row of the Markdown text md whose cell count
// differs from its header's, skipping fenced code blocks.
func Check(md string) []Problem {
	lines := strings.Split(md, "\n")
	var out []Problem
	fence := ""
	for i := 0; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], "\r")
		t := strings.TrimLeft(l, " ")
		if fence != "" {
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		if f := fenceOf(t); f != "" {
			fence = f
			continue
		}
		if i+1 >= len(lines) || !strings.Contains(l, "|") || !isDelimiter(strings.TrimRight(lines[i+1], "\r")) {
			continue
		}
		want := len(Cells(l))
		if d := len(Cells(lines[i+1])); d != want {
			// GitHub draws no table at all; report the header.
			out = append(out, Problem{Line: i + 1, Cells: want, Want: d, Row: l})
		}
		i += 2
		for ; i < len(lines); i++ {
			row := strings.TrimRight(lines[i], "\r")
			if strings.TrimSpace(row) == "" || startsBlock(row) {
				i-- // the outer loop looks at this line again
				break
			}
			if n := len(Cells(row)); n != want {
				out = append(out, Problem{Line: i + 1, Cells: n, Want: want, Row: row})
			}
		}
	}
	return out
}

// startsBlock reports whether a line begins a block that ends a table:
// an HTML block, a heading, a block quote or a fence.
func startsBlock(l string) bool {
	t := strings.TrimLeft(l, " ")
	return strings.HasPrefix(t, "<") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, ">") || fenceOf(t) != ""
}

// fenceOf is the fence (``` or ~~~, at least three) a line opens, or "".
func fenceOf(t string) string {
	for _, c := range []string{"`", "~"} {
		n := len(t) - len(strings.TrimLeft(t, c))
		if n >= 3 {
			return strings.Repeat(c, n)
		}
	}
	return ""
}

// isDelimiter reports whether l is a table's delimiter row (|---|:--:|).
func isDelimiter(l string) bool {
	if !strings.Contains(l, "-") {
		return false
	}
	cells := Cells(l)
	if len(cells) == 0 {
		return false
	}
	for _, c := range cells {
		c = strings.TrimSpace(c)
		c = strings.TrimPrefix(c, ":")
		c = strings.TrimSuffix(c, ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return false
		}
	}
	return true
}

// Cells splits a table row into its cells as GitHub does: on every pipe
// the byte before which is not a backslash, code spans included, without
// the optional leading and trailing pipe. cmark-gfm scans a cell as
// (escaped_char|[^|\r\n])+ with the longest match (extensions/ext_scanners.re),
// so a pipe after any backslash, even an escaped one (\\|), is content.
func Cells(row string) []string {
	s := strings.TrimSpace(row)
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '|' && (i == 0 || s[i-1] != '\\'):
			cells = append(cells, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(s[i])
		}
	}
	cells = append(cells, cur.String())
	if strings.HasPrefix(s, "|") {
		cells = cells[1:]
	}
	if len(cells) > 0 && strings.HasSuffix(s, "|") && !strings.HasSuffix(s, `\|`) {
		cells = cells[:len(cells)-1]
	}
	return cells
}
