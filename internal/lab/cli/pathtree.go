package cli

import (
	"fmt"
	"strings"
)

// PathTree is a configuration made of statements that are token paths
// (Junos `set` statements, NVUE `nv set` paths). Children keep insertion
// order; a scalar keyword holds one value, so setting it again replaces
// the old value.
type PathTree struct {
	Root   *PathNode
	scalar func(prefix []string) bool
}

// PathNode is one token of a PathTree; End marks a complete statement.
type PathNode struct {
	Tok  string
	Kids []*PathNode
	End  bool
	// Inactive marks a deactivated statement or hierarchy (Junos).
	Inactive bool
	// idx maps a token to its child once there are many children.
	idx map[string]int
}

// NewPathTree returns an empty tree; scalar reports the statement prefixes
// that take one value (a new one replaces the old).
func NewPathTree(scalar func([]string) bool) *PathTree {
	return &PathTree{Root: &PathNode{}, scalar: scalar}
}

// Clone returns a deep copy of the tree.
func (t *PathTree) Clone() *PathTree {
	return &PathTree{Root: t.Root.Clone(), scalar: t.scalar}
}

// Clone returns a deep copy of the node.
func (n *PathNode) Clone() *PathNode {
	c := &PathNode{Tok: n.Tok, End: n.End, Inactive: n.Inactive}
	for _, k := range n.Kids {
		c.Kids = append(c.Kids, k.Clone())
	}
	return c
}

func (n *PathNode) child(tok string) *PathNode {
	if len(n.Kids) >= indexMin {
		if n.idx == nil {
			n.idx = make(map[string]int, len(n.Kids))
			for i, k := range n.Kids {
				n.idx[k.Tok] = i
			}
		}
		if i, ok := n.idx[tok]; ok {
			return n.Kids[i]
		}
		return nil
	}
	for _, k := range n.Kids {
		if k.Tok == tok {
			return k
		}
	}
	return nil
}

// Set adds a statement.
func (t *PathTree) Set(toks []string) {
	n := t.Root
	for i, tok := range toks {
		c := n.child(tok)
		if c == nil {
			c = &PathNode{Tok: tok}
			if i > 0 && t.scalar(toks[:i]) {
				n.Kids, n.idx = nil, nil
			}
			n.Kids = append(n.Kids, c)
			if n.idx != nil {
				n.idx[tok] = len(n.Kids) - 1
			}
		}
		n = c
	}
	n.End = true
}

// Remove deletes the statement or hierarchy at toks; it reports whether
// anything was there.
func (t *PathTree) Remove(toks []string) bool {
	if len(toks) == 0 {
		return false
	}
	path := []*PathNode{t.Root}
	n := t.Root
	for _, tok := range toks {
		c := n.child(tok)
		if c == nil {
			return false
		}
		path = append(path, c)
		n = c
	}
	for i := len(path) - 1; i > 0; i-- {
		parent, cur := path[i-1], path[i]
		if i < len(path)-1 && (len(cur.Kids) > 0 || cur.End) {
			break
		}
		for j, k := range parent.Kids {
			if k == cur {
				parent.Kids = append(parent.Kids[:j], parent.Kids[j+1:]...)
				parent.idx = nil
				break
			}
		}
	}
	return true
}

// Statements returns every leaf statement in tree order.
func (t *PathTree) Statements() [][]string {
	var out [][]string
	var walk func(n *PathNode, prefix []string)
	walk = func(n *PathNode, prefix []string) {
		for _, k := range n.Kids {
			p := append(append([]string(nil), prefix...), k.Tok)
			if len(k.Kids) == 0 {
				out = append(out, p)
				continue
			}
			walk(k, p)
		}
	}
	walk(t.Root, nil)
	return out
}

// Find returns the node at toks, or nil.
func (t *PathTree) Find(toks []string) *PathNode {
	n := t.Root
	for _, tok := range toks {
		if n = n.child(tok); n == nil {
			return nil
		}
	}
	return n
}

// SetLines returns the tree as statements in tree order, each set
// statement as its tokens prefixed by "set", and after the statements of
// a deactivated hierarchy the line "deactivate PATH" (Junos `display set`).
func (t *PathTree) SetLines() []string {
	var out []string
	var walk func(n *PathNode, prefix []string)
	walk = func(n *PathNode, prefix []string) {
		for _, k := range n.Kids {
			p := append(append([]string(nil), prefix...), k.Tok)
			if len(k.Kids) == 0 {
				out = append(out, "set "+strings.Join(p, " "))
			} else {
				walk(k, p)
			}
			if k.Inactive {
				out = append(out, "deactivate "+strings.Join(p, " "))
			}
		}
	}
	walk(t.Root, nil)
	return out
}

// StatementSet returns the statements joined as strings, for set algebra.
func (t *PathTree) StatementSet() map[string][]string {
	m := map[string][]string{}
	for _, s := range t.Statements() {
		m[strings.Join(s, " ")] = s
	}
	return m
}

// MergeChanges applies to t what changed from base to cand: statements
// removed there are removed here, statements added there are set here.
func (t *PathTree) MergeChanges(base, cand *PathTree) {
	b, c := base.StatementSet(), cand.StatementSet()
	for _, s := range base.Statements() {
		if _, ok := c[strings.Join(s, " ")]; !ok {
			t.Remove(s)
		}
	}
	for _, s := range cand.Statements() {
		if _, ok := b[strings.Join(s, " ")]; !ok {
			t.Set(s)
		}
	}
}

// ConfigTokens splits a statement into tokens: quoted strings and
// bracketed lists ("[ a b ]") are one token each, kept as typed.
func ConfigTokens(s string) ([]string, error) {
	var out []string
	i := 0
	for i < len(s) {
		switch s[i] {
		case ' ', '\t':
			i++
		case '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				return nil, fmt.Errorf("unterminated quoted string")
			}
			out = append(out, s[i:i+j+2])
			i += j + 2
		case '[':
			j := strings.IndexByte(s[i:], ']')
			if j < 0 {
				return nil, fmt.Errorf("missing ']'")
			}
			out = append(out, "[ "+strings.Join(strings.Fields(s[i+1:i+j]), " ")+" ]")
			i += j + 1
		default:
			j := i
			for j < len(s) && s[j] != ' ' && s[j] != '\t' {
				j++
			}
			out = append(out, s[i:j])
			i = j
		}
	}
	return out, nil
}

// Subtree returns a tree holding only the statements under prefix.
func (t *PathTree) Subtree(prefix []string) *PathTree {
	out := NewPathTree(t.scalar)
	for _, s := range t.Statements() {
		if HasPrefix(s, prefix) {
			out.Set(s)
		}
	}
	return out
}

// HasPrefix reports whether the statement s starts with the tokens of
// prefix.
func HasPrefix(s, prefix []string) bool {
	if len(prefix) > len(s) {
		return false
	}
	for i := range prefix {
		if s[i] != prefix[i] {
			return false
		}
	}
	return true
}
