// Package config turns running and rendered configuration text into the
// canonical form fabricgen compares: volatile lines dropped, only the
// sections fabricgen manages kept, children in a stable order. It computes
// the change set (lines to add, lines to remove with the platform's "no"
// form, in the right sub-mode) and a patch-compatible unified diff. Host
// NIC platforms are compared as sets of facts instead (hosts.go).
//
// Everything here is pure: text in, text out. push/session fetches the
// text; push plans and applies with the results.
package config

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
)

// Node is one configuration line and the lines nested under it.
type Node struct {
	// Line is the line without indentation or trailing spaces. A
	// multi-line statement (Dialect.Block: a banner) is its lines as
	// printed, joined by newlines.
	Line     string
	Children []*Node
	// Gap reports that dropped lines (blank ones, or volatile ones such as
	// EOS's "!" separators) came right before this line in its text.
	Gap bool
	// Block marks a multi-line statement (Dialect.Block), kept verbatim.
	Block bool
	// Num is the line's 1-based number in the parsed text (0 for a node
	// built by hand), so an importer can say FILE:LINE.
	Num int
	// section is the index of the dialect section a top-level node belongs to.
	section int
}

// Tree is a parsed configuration: its top-level nodes in order.
type Tree struct {
	Nodes []*Node
}

// Normalize returns text with carriage returns, trailing spaces, blank lines
// and the dialect's volatile lines (timestamps, "! Command:" headers, "end")
// removed and each line in the dialect's canonical form (ACL port numbers
// for names), ending in a newline. Two fetches of an unchanged device
// normalise to the same bytes, and a device printing "eq bgp" to the same
// bytes as a render writing "eq 179".
func Normalize(text string, d *dialect.Dialect) string {
	if d.Files {
		// A file bundle is compared byte for byte.
		return text
	}
	var b strings.Builder
	for _, raw := range strings.Split(strings.ReplaceAll(text, "\r", ""), "\n") {
		line := strings.TrimRight(raw, " \t")
		t := strings.TrimSpace(line)
		if t == "" || volatile(t, d) {
			continue
		}
		if d.Canonical != nil {
			if c := d.Canonical(t); c != t {
				line = line[:len(line)-len(strings.TrimLeft(line, " \t"))] + c
			}
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// Digest is the hex SHA-256 of the normalised text.
func Digest(text string, d *dialect.Dialect) string {
	sum := sha256.Sum256([]byte(Normalize(text, d)))
	return hex.EncodeToString(sum[:])
}

func volatile(t string, d *dialect.Dialect) bool {
	for _, v := range d.Volatile {
		if v.MatchString(t) {
			return true
		}
	}
	return false
}

// Parse reads indented configuration text into a tree. A line indented
// deeper than the one before it is that line's child; tabs count as one
// level. Blank and volatile lines are dropped (the next line's Gap marks
// where), a multi-line statement (Dialect.Block) is one node, and every
// line is in the dialect's canonical form (as Normalize writes it). This
// is the one parser of a platform's indented running-config text: push
// compares with it, each platform's reader reads QoS from it, and the
// lab's emulators load a saved configuration from it (ParseAsPrinted).
func Parse(text string, d *dialect.Dialect) *Tree { return parse(text, d, true) }

// ParseAsPrinted is Parse keeping each line as the text has it (not in
// the dialect's canonical form): what a device loading the text stores
// and prints back.
func ParseAsPrinted(text string, d *dialect.Dialect) *Tree { return parse(text, d, false) }

func parse(text string, d *dialect.Dialect, canonical bool) *Tree {
	type frame struct {
		indent int
		node   *Node
	}
	t := &Tree{}
	var stack []frame
	lines := strings.Split(strings.ReplaceAll(text, "\r", ""), "\n")
	gap := false
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || volatile(trimmed, d) {
			gap = true
			continue
		}
		text := trimmed
		if canonical && d.Canonical != nil {
			if text = strings.TrimSpace(d.Canonical(trimmed)); text == "" {
				continue
			}
		}
		ind := indentOf(line)
		for len(stack) > 0 && stack[len(stack)-1].indent >= ind {
			stack = stack[:len(stack)-1]
		}
		n := &Node{Line: text, Gap: gap, Num: i + 1}
		gap = false
		if len(stack) == 0 && d.Block != nil {
			if span := d.Block(lines, i); span > 0 {
				span = min(span, len(lines)-i)
				n.Line, n.Block = strings.Join(lines[i:i+span], "\n"), true
				t.Nodes = append(t.Nodes, n)
				i += span - 1
				continue
			}
		}
		if len(stack) == 0 {
			t.Nodes = append(t.Nodes, n)
		} else {
			p := stack[len(stack)-1].node
			p.Children = append(p.Children, n)
		}
		stack = append(stack, frame{ind, n})
	}
	return t
}

func indentOf(line string) int {
	n := 0
	for _, r := range line {
		switch r {
		case ' ':
			n++
		case '\t':
			n += 8
		default:
			return n
		}
	}
	return n
}

// Text prints the tree with indent spaces per level, ending in a newline
// (empty for an empty tree).
func (t *Tree) Text(indent int) string {
	var b strings.Builder
	var walk func(ns []*Node, depth int)
	walk = func(ns []*Node, depth int) {
		for _, n := range ns {
			b.WriteString(strings.Repeat(" ", depth*indent))
			b.WriteString(n.Line)
			b.WriteByte('\n')
			walk(n.Children, depth+1)
		}
	}
	walk(t.Nodes, 0)
	return b.String()
}

// Lines counts the lines of the tree.
func (t *Tree) Lines() int {
	var count func(ns []*Node) int
	count = func(ns []*Node) int {
		c := 0
		for _, n := range ns {
			c += 1 + count(n.Children)
		}
		return c
	}
	return count(t.Nodes)
}
