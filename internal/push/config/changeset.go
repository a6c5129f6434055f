package config

import (
	"github.com/fabricgen/fabricgen/internal/push/dialect"
)

// Block is the commands to send in one configuration mode.
type Block struct {
	// Path lists the lines entering the mode, outermost first; empty means
	// global configuration mode.
	Path []string `json:"path,omitempty"`
	// Lines are sent in order inside the mode: removals (the platform's
	// "no" form) first, then additions. An added sub-stanza is its header,
	// its lines, and "exit".
	Lines []string `json:"lines"`
}

// ChangeSet is everything to send to one device, in order.
type ChangeSet struct {
	Blocks []Block `json:"blocks,omitempty"`
}

// Empty reports whether there is nothing to change.
func (c *ChangeSet) Empty() bool { return c == nil || len(c.Blocks) == 0 }

// Commands flattens the change set into the command lines to send from
// global configuration mode: each block's path, its lines, one "exit" per
// path level.
func (c *ChangeSet) Commands() []string {
	if c == nil {
		return nil
	}
	var out []string
	for _, b := range c.Blocks {
		out = append(out, b.Path...)
		out = append(out, b.Lines...)
		for range b.Path {
			out = append(out, "exit")
		}
	}
	return out
}

// Changes computes the change set turning the managed running config into
// the managed desired config (both from Managed). Children are compared as
// sets except in ordered sections, where a reordering rebuilds the stanza.
func Changes(run, want *Tree, d *dialect.Dialect) *ChangeSet {
	cs := &ChangeSet{}
	diffLevel(cs, nil, run.Nodes, want.Nodes, false, d)
	return cs
}

func diffLevel(cs *ChangeSet, path []string, run, want []*Node, ordered bool, d *dialect.Dialect) {
	runBy := index(run)
	wantBy := index(want)
	var lines []string
	if ordered && !keepsOrder(run, want) && d.InsertBefore != nil && commonInOrder(run, want) {
		if ins, ok := insertions(run, want, d); ok {
			diffInserted(cs, path, run, want, ins, d)
			return
		}
	}
	if ordered && !keepsOrder(run, want) {
		for _, n := range run {
			lines = append(lines, d.Negate(n.Line))
		}
		for _, n := range want {
			lines = append(lines, subtree(n)...)
		}
		if len(lines) > 0 {
			cs.Blocks = append(cs.Blocks, Block{Path: clonePath(path), Lines: lines})
		}
		return
	}
	// A removed stanza (a class-map, a tx-queue) goes last, after the
	// changes that may stop referring to it; a removed line goes first,
	// before a line replacing its value.
	var stanzas []string
	for _, n := range run {
		if _, ok := wantBy[n.Line]; ok {
			continue
		}
		if len(n.Children) > 0 {
			stanzas = append(stanzas, d.Negate(n.Line))
		} else {
			lines = append(lines, d.Negate(n.Line))
		}
	}
	for _, n := range want {
		if _, ok := runBy[n.Line]; !ok {
			lines = append(lines, subtree(n)...)
		}
	}
	if len(lines) > 0 {
		cs.Blocks = append(cs.Blocks, Block{Path: clonePath(path), Lines: lines})
	}
	for _, w := range want {
		r, ok := runBy[w.Line]
		if !ok {
			continue
		}
		childOrdered := len(path) == 0 && d.Sections[w.section].Ordered
		diffLevel(cs, append(path, w.Line), r.Children, w.Children, childOrdered, d)
	}
	if len(stanzas) > 0 {
		cs.Blocks = append(cs.Blocks, Block{Path: clonePath(path), Lines: stanzas})
	}
}

// subtree is the commands creating n: its line, then its children, then
// "exit" when it opened a sub-mode.
func subtree(n *Node) []string {
	out := []string{n.Line}
	if len(n.Children) == 0 {
		return out
	}
	for _, c := range n.Children {
		out = append(out, subtree(c)...)
	}
	return append(out, "exit")
}

func index(ns []*Node) map[string]*Node {
	m := make(map[string]*Node, len(ns))
	for _, n := range ns {
		m[n.Line] = n
	}
	return m
}

// keepsOrder reports whether removing the lines of run that want lacks
// and appending want's new lines at the end yields want's order: the lines
// both have are in the same order, and every new line comes after them.
// Otherwise an ordered stanza must be rebuilt.
func keepsOrder(run, want []*Node) bool {
	wantBy, runBy := index(want), index(run)
	var common []string
	for _, n := range run {
		if _, ok := wantBy[n.Line]; ok {
			common = append(common, n.Line)
		}
	}
	i := 0
	for _, n := range want {
		if _, ok := runBy[n.Line]; !ok {
			continue
		}
		if i >= len(common) || common[i] != n.Line {
			return false
		}
		i++
	}
	seenNew := false
	for _, n := range want {
		_, old := runBy[n.Line]
		if !old {
			seenNew = true
		} else if seenNew {
			return false
		}
	}
	return true
}

func clonePath(p []string) []string {
	if len(p) == 0 {
		return nil
	}
	return append([]string(nil), p...)
}

// commonInOrder reports whether the lines run and want both have come in
// the same order in each.
func commonInOrder(run, want []*Node) bool {
	wantBy, runBy := index(want), index(run)
	var a, b []string
	for _, n := range run {
		if _, ok := wantBy[n.Line]; ok {
			a = append(a, n.Line)
		}
	}
	for _, n := range want {
		if _, ok := runBy[n.Line]; ok {
			b = append(b, n.Line)
		}
	}
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// insertions maps each new line of want that has a common line after it
// to the command inserting it before that line; ok is false when the
// dialect cannot insert one of them.
func insertions(run, want []*Node, d *dialect.Dialect) (map[string]string, bool) {
	runBy := index(run)
	out := map[string]string{}
	for i, n := range want {
		if _, old := runBy[n.Line]; old {
			continue
		}
		for _, next := range want[i+1:] {
			if _, old := runBy[next.Line]; old {
				cmd := d.InsertBefore(n.Line, next.Line)
				if cmd == "" {
					return nil, false
				}
				out[n.Line] = cmd
				break
			}
		}
	}
	return out, true
}

// diffInserted changes an ordered section whose kept lines stay in order:
// removed lines go, new lines are inserted in front of the kept line
// after them (or appended when none follows), and kept lines' children
// are compared as usual.
func diffInserted(cs *ChangeSet, path []string, run, want []*Node, ins map[string]string, d *dialect.Dialect) {
	wantBy, runBy := index(want), index(run)
	var lines []string
	for _, n := range run {
		if _, ok := wantBy[n.Line]; !ok {
			lines = append(lines, d.Negate(n.Line))
		}
	}
	for _, n := range want {
		if _, ok := runBy[n.Line]; ok {
			continue
		}
		sub := subtree(n)
		if cmd, ok := ins[n.Line]; ok {
			sub[0] = cmd
		}
		lines = append(lines, sub...)
	}
	if len(lines) > 0 {
		cs.Blocks = append(cs.Blocks, Block{Path: clonePath(path), Lines: lines})
	}
	for _, w := range want {
		if r, ok := runBy[w.Line]; ok {
			diffLevel(cs, append(path, w.Line), r.Children, w.Children, false, d)
		}
	}
}
