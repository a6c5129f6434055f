package config

import (
	"github.com/fabricgen/fabricgen/schema"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
)

// Managed returns the canonical managed sections of the running config and
// of the rendered (desired) config. A running stanza is kept only when
// fabricgen manages it: unnamed sections (qos maps) always, named objects
// (ACLs, class-maps, policy-maps) only when the rendered config defines the
// same name, shared stanzas (interfaces) only when the rendered config has
// them and then only their managed child lines. Everything else in the
// running config is never shown or touched.
func Managed(running, desired *Tree, d *dialect.Dialect) (run, want *Tree) {
	return managedScoped(running, desired, nil, d)
}

// managedScoped is Managed where the objects and interfaces a second
// config (scope) names are managed too: a named object scope defines and
// desired lacks is removed, and an interface scope has and desired lacks
// keeps its stanza but loses its managed lines. Restoring a backup uses
// the config that was applied as scope, so what that apply created goes.
func managedScoped(running, desired, scope *Tree, d *dialect.Dialect) (run, want *Tree) {
	mf := newManagedFilter(desired, scope, d)
	want = &Tree{Nodes: mf.want}
	run = &Tree{}
	for _, n := range running.Nodes {
		i, s, ok := mf.manages(n)
		if !ok {
			continue
		}
		if mf.scopedOnly(n.Line) {
			// Managed through the scope only: the stanza stays, its
			// managed lines go.
			want.Nodes = append(want.Nodes, &Node{Line: n.Line, section: i})
		}
		run.Nodes = append(run.Nodes, filtered(n, s, i))
	}
	want.Nodes = merge(want.Nodes)
	run.Nodes = merge(run.Nodes)
	bySection(want)
	bySection(run)
	return run, want
}

// managedFilter decides which top-level stanzas of a running config
// fabricgen manages for one desired config (and scope).
type managedFilter struct {
	d       *dialect.Dialect
	names   map[int]map[string]bool
	headers map[string]bool
	scoped  map[string]bool
	want    []*Node
}

func newManagedFilter(desired, scope *Tree, d *dialect.Dialect) *managedFilter {
	mf := &managedFilter{d: d, names: map[int]map[string]bool{}, headers: map[string]bool{}, scoped: map[string]bool{}}
	addName := func(i int, name string) {
		if mf.names[i] == nil {
			mf.names[i] = map[string]bool{}
		}
		mf.names[i][name] = true
	}
	for _, n := range desired.Nodes {
		i, name := classify(n.Line, d)
		if i < 0 {
			continue
		}
		if d.Sections[i].Named {
			addName(i, name)
		}
		mf.headers[n.Line] = true
		mf.want = append(mf.want, filtered(n, d.Sections[i], i))
	}
	if scope != nil {
		for _, n := range scope.Nodes {
			i, name := classify(n.Line, d)
			switch {
			case i < 0:
			case d.Sections[i].Named:
				addName(i, name)
			case d.Sections[i].Shared && !mf.headers[n.Line]:
				mf.scoped[n.Line] = true
			}
		}
	}
	return mf
}

// manages reports whether a running top-level node is managed, with its
// section.
func (mf *managedFilter) manages(n *Node) (int, dialect.Section, bool) {
	i, name := classify(n.Line, mf.d)
	if i < 0 {
		return i, dialect.Section{}, false
	}
	s := mf.d.Sections[i]
	switch {
	case s.Named && !mf.names[i][name] && !ownedName(name, mf.d):
		return i, s, false
	case s.Shared && !mf.headers[n.Line] && !mf.scoped[n.Line]:
		return i, s, false
	}
	return i, s, true
}

// scopedOnly reports whether a shared stanza is managed only because the
// scope has it.
func (mf *managedFilter) scopedOnly(line string) bool { return mf.scoped[line] && !mf.headers[line] }

// Unmanaged returns the lines of the running config fabricgen does not
// manage for this rendered config and scope, normalised, in the running
// config's order: unrelated stanzas whole, and the unmanaged lines of the
// shared stanzas it manages. Two reads of a device whose unmanaged config
// did not change give the same text. CONFIG_DB gives the unmanaged fields;
// hosts have none.
func Unmanaged(running, rendered, scope string, d *dialect.Dialect) (string, error) {
	return UnmanagedSource(running, NewSource(rendered, d), NewSource(scope, d), d)
}

// UnmanagedSource is Unmanaged with the rendered config and the scope
// parsed once (NewSource); scope may be nil.
func UnmanagedSource(running string, rendered, scope *Source, d *dialect.Dialect) (string, error) {
	switch {
	case d.Host || d.Files:
		// A host's settings are all compared; a Files dialect's files
		// are managed whole, and files the render does not hold are
		// never read.
		return "", nil
	case d.ConfigDB:
		text, err := unmanagedDB(running, rendered.Text(), scope.Text())
		if err != nil || len(d.Derived) == 0 {
			return text, err
		}
		return withoutDerived(text, d), nil
	}
	mf := newManagedFilter(rendered.orEmpty(), scope.parsed(), d)
	var b strings.Builder
	var emit func(n *Node, depth int)
	emit = func(n *Node, depth int) {
		b.WriteString(strings.Repeat(" ", depth*d.Indent) + n.Line + "\n")
		for _, c := range n.Children {
			emit(c, depth+1)
		}
	}
	for _, n := range Parse(running, d).Nodes {
		_, s, ok := mf.manages(n)
		switch {
		case !ok:
			emit(n, 0)
		case s.Shared:
			// The header counts only with lines of its own: a stanza
			// fabricgen created for its lines alone (an interface a
			// factory device did not list) is not someone's change.
			var own []*Node
			for _, c := range n.Children {
				if !matchAny(c.Line, s) {
					own = append(own, c)
				}
			}
			if len(own) > 0 {
				b.WriteString(n.Line + "\n")
			}
			for _, c := range own {
				emit(c, 1)
			}
		}
	}
	return b.String(), nil
}

// merge folds repeated lines of one level into the first (a stanza opened
// twice is one stanza, as the device stores it), recursively.
func merge(ns []*Node) []*Node {
	first := map[string]*Node{}
	out := ns[:0:0]
	for _, n := range ns {
		if f, ok := first[n.Line]; ok {
			f.Children = append(f.Children, n.Children...)
			continue
		}
		first[n.Line] = n
		out = append(out, n)
	}
	for _, n := range out {
		n.Children = merge(n.Children)
	}
	return out
}

// bySection orders top-level nodes by section, keeping the order within a
// section: changes are sent in the rendered config's order (definitions
// before the interfaces using them; "no priority" before "bandwidth").
func bySection(t *Tree) {
	sort.SliceStable(t.Nodes, func(i, j int) bool { return t.Nodes[i].section < t.Nodes[j].section })
}

// Canonical returns a copy of a managed tree in canonical order, for
// display and hashing.
func Canonical(t *Tree, d *dialect.Dialect) *Tree {
	c := &Tree{Nodes: make([]*Node, len(t.Nodes))}
	for i, n := range t.Nodes {
		c.Nodes[i] = clone(n)
	}
	canonical(c, d)
	return c
}

// ownedName reports whether a named object is fabricgen's by its name
// (the dialect's OwnedNames prefix), so it is removed once the rendered
// config no longer defines it.
func ownedName(name string, d *dialect.Dialect) bool {
	return d.OwnedNames != nil && d.OwnedNames.MatchString(name)
}

// classify returns the index of the section a top-level line belongs to and
// its object name, or -1.
func classify(line string, d *dialect.Dialect) (int, string) {
	for i, s := range d.Sections {
		m := s.Match.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		name := ""
		if len(m) > 1 {
			name = m[1]
		}
		return i, name
	}
	return -1, ""
}

// filtered copies a top-level node, keeping only the managed children of a
// shared stanza.
func filtered(n *Node, s dialect.Section, idx int) *Node {
	c := &Node{Line: n.Line, section: idx}
	for _, ch := range n.Children {
		if s.Shared && !matchAny(ch.Line, s) {
			continue
		}
		c.Children = append(c.Children, clone(ch))
	}
	return c
}

func matchAny(line string, s dialect.Section) bool {
	for _, r := range s.Children {
		if r.MatchString(line) {
			return true
		}
	}
	return false
}

func clone(n *Node) *Node {
	c := &Node{Line: n.Line, section: n.section}
	for _, ch := range n.Children {
		c.Children = append(c.Children, clone(ch))
	}
	return c
}

// canonical orders top-level nodes by section then naturally by line, and
// the children of unordered sections naturally, so the device's printing
// order and the template's never show up as a difference.
func canonical(t *Tree, d *dialect.Dialect) {
	sort.SliceStable(t.Nodes, func(i, j int) bool {
		a, b := t.Nodes[i], t.Nodes[j]
		if a.section != b.section {
			return a.section < b.section
		}
		return schema.NaturalLess(a.Line, b.Line)
	})
	for _, n := range t.Nodes {
		if !d.Sections[n.section].Ordered {
			sortNodes(n.Children)
		} else {
			for _, c := range n.Children {
				sortNodes(c.Children)
			}
		}
	}
}

func sortNodes(ns []*Node) {
	sort.SliceStable(ns, func(i, j int) bool { return schema.NaturalLess(ns[i].Line, ns[j].Line) })
	for _, n := range ns {
		sortNodes(n.Children)
	}
}

// withoutDerived drops the lines the device derives itself (d.Derived)
// from an unmanaged listing.
func withoutDerived(text string, d *dialect.Dialect) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		if !matchesLine(strings.TrimSuffix(l, "\n"), d.Derived) {
			b.WriteString(l)
		}
	}
	return b.String()
}
