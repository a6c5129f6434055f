package config

import (
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
)

// TheirLines lists, for a text configuration (not CONFIG_DB, not a host),
// the lines of the sections fabricgen manages that another administrator
// changed after fabricgen's change went in: a line on the device now that
// neither the backup nor the intent (rendered) has, and a line both have
// that the device lost. Each is the stanza path and the line, joined by
// " > ", with "(removed)" after a lost one; sorted. now is the device's
// running config, scope the config applied last.
func TheirLines(now, backup, rendered, scope string, d *dialect.Dialect) []string {
	nowR, bk := managedScoped(Parse(now, d), Parse(backup, d), Parse(scope, d), d)
	nowI, want := managedScoped(Parse(now, d), Parse(rendered, d), Parse(scope, d), d)
	is, was, ours := leafPaths(nowR), leafPaths(bk), leafPaths(want)
	for p := range leafPaths(nowI) {
		is[p] = true
	}
	var out []string
	for p := range is {
		if !was[p] && !ours[p] {
			out = append(out, p)
		}
	}
	for p := range was {
		if ours[p] && !is[p] {
			out = append(out, p+" (removed)")
		}
	}
	sort.Strings(out)
	return out
}

// leafPaths is every line of a tree with its stanza path (" > ").
func leafPaths(t *Tree) map[string]bool {
	out := map[string]bool{}
	var walk func(ns []*Node, prefix string)
	walk = func(ns []*Node, prefix string) {
		for _, n := range ns {
			p := prefix + n.Line
			out[p] = true
			walk(n.Children, p+" > ")
		}
	}
	walk(t.Nodes, "")
	return out
}

// WithoutTheirs drops from a restore change set the lines that would
// change one of their lines (TheirLines): a line in the same stanza that
// sets, negates or defaults the same keyword. What is left restores only
// fabricgen's own lines.
func WithoutTheirs(cs *ChangeSet, their []string) *ChangeSet {
	touched := map[string]bool{}
	for _, t := range their {
		touched[stanzaKeyword(strings.TrimSuffix(t, " (removed)"))] = true
	}
	out := &ChangeSet{}
	for _, b := range cs.Blocks {
		nb := Block{Path: b.Path}
		for _, l := range b.Lines {
			if !touched[strings.Join(b.Path, " > ")+"\x00"+keyword(l)] {
				nb.Lines = append(nb.Lines, l)
			}
		}
		if len(nb.Lines) > 0 {
			out.Blocks = append(out.Blocks, nb)
		}
	}
	return out
}

// keyword is a line's first word, after any "no " or "default ".
func keyword(l string) string {
	l = strings.TrimSpace(l)
	for _, p := range []string{"no ", "default "} {
		l = strings.TrimPrefix(l, p)
	}
	if f := strings.Fields(l); len(f) > 0 {
		return f[0]
	}
	return ""
}

// RestoredBut says how the sections fabricgen manages of now differ from
// the backup other than by their lines (TheirLines): "" when every line
// on the device that the backup lacks is theirs and every backup line the
// device lacks was replaced by one of theirs (same stanza and keyword).
func RestoredBut(now, backup, scope string, their []string, d *dialect.Dialect) string {
	nowR, bk := managedScoped(Parse(now, d), Parse(backup, d), Parse(scope, d), d)
	is, was := leafPaths(nowR), leafPaths(bk)
	theirs, replaced := map[string]bool{}, map[string]bool{}
	for _, t := range their {
		t = strings.TrimSuffix(t, " (removed)")
		theirs[t] = true
		replaced[stanzaKeyword(t)] = true
	}
	var extra []string
	for p := range is {
		if !was[p] && !theirs[p] {
			extra = append(extra, "on the device, not in the backup: "+p)
		}
	}
	for p := range was {
		if !is[p] && !theirs[p] && !replaced[stanzaKeyword(p)] {
			extra = append(extra, "in the backup, not on the device: "+p)
		}
	}
	sort.Strings(extra)
	if len(extra) == 0 {
		return ""
	}
	return strings.Join(extra, "; ")
}

// stanzaKeyword is a leaf path's stanza and its line's keyword.
func stanzaKeyword(p string) string {
	parts := strings.Split(p, " > ")
	return strings.Join(parts[:len(parts)-1], " > ") + "\x00" + keyword(parts[len(parts)-1])
}
