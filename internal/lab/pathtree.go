package lab

import (
	"fmt"
	"strings"
)

// pathTree is a configuration made of statements that are token paths
// (Junos `set` statements, NVUE `nv set` paths). Children keep insertion
// order; a scalar keyword holds one value, so setting it again replaces
// the old value.
type pathTree struct {
	root   *pnode
	scalar func(prefix []string) bool
}

type pnode struct {
	tok  string
	kids []*pnode
	end  bool
	// inactive marks a deactivated statement or hierarchy (Junos).
	inactive bool
	// idx maps a token to its child once there are many children.
	idx map[string]int
}

func newPathTree(scalar func([]string) bool) *pathTree {
	return &pathTree{root: &pnode{}, scalar: scalar}
}

func (t *pathTree) clone() *pathTree {
	return &pathTree{root: t.root.clone(), scalar: t.scalar}
}

func (n *pnode) clone() *pnode {
	c := &pnode{tok: n.tok, end: n.end, inactive: n.inactive}
	for _, k := range n.kids {
		c.kids = append(c.kids, k.clone())
	}
	return c
}

func (n *pnode) child(tok string) *pnode {
	if len(n.kids) >= indexMin {
		if n.idx == nil {
			n.idx = make(map[string]int, len(n.kids))
			for i, k := range n.kids {
				n.idx[k.tok] = i
			}
		}
		if i, ok := n.idx[tok]; ok {
			return n.kids[i]
		}
		return nil
	}
	for _, k := range n.kids {
		if k.tok == tok {
			return k
		}
	}
	return nil
}

// set adds a statement.
func (t *pathTree) set(toks []string) {
	n := t.root
	for i, tok := range toks {
		c := n.child(tok)
		if c == nil {
			c = &pnode{tok: tok}
			if i > 0 && t.scalar(toks[:i]) {
				n.kids, n.idx = nil, nil
			}
			n.kids = append(n.kids, c)
			if n.idx != nil {
				n.idx[tok] = len(n.kids) - 1
			}
		}
		n = c
	}
	n.end = true
}

// remove deletes the statement or hierarchy at toks; it reports whether
// anything was there.
func (t *pathTree) remove(toks []string) bool {
	if len(toks) == 0 {
		return false
	}
	path := []*pnode{t.root}
	n := t.root
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
		if i < len(path)-1 && (len(cur.kids) > 0 || cur.end) {
			break
		}
		for j, k := range parent.kids {
			if k == cur {
				parent.kids = append(parent.kids[:j], parent.kids[j+1:]...)
				parent.idx = nil
				break
			}
		}
	}
	return true
}

// statements returns every leaf statement in tree order.
func (t *pathTree) statements() [][]string {
	var out [][]string
	var walk func(n *pnode, prefix []string)
	walk = func(n *pnode, prefix []string) {
		for _, k := range n.kids {
			p := append(append([]string(nil), prefix...), k.tok)
			if len(k.kids) == 0 {
				out = append(out, p)
				continue
			}
			walk(k, p)
		}
	}
	walk(t.root, nil)
	return out
}

// find returns the node at toks, or nil.
func (t *pathTree) find(toks []string) *pnode {
	n := t.root
	for _, tok := range toks {
		if n = n.child(tok); n == nil {
			return nil
		}
	}
	return n
}

// setLines returns the tree as statements in tree order, each set
// statement as its tokens prefixed by "set", and after the statements of
// a deactivated hierarchy the line "deactivate PATH" (Junos `display set`).
func (t *pathTree) setLines() []string {
	var out []string
	var walk func(n *pnode, prefix []string)
	walk = func(n *pnode, prefix []string) {
		for _, k := range n.kids {
			p := append(append([]string(nil), prefix...), k.tok)
			if len(k.kids) == 0 {
				out = append(out, "set "+strings.Join(p, " "))
			} else {
				walk(k, p)
			}
			if k.inactive {
				out = append(out, "deactivate "+strings.Join(p, " "))
			}
		}
	}
	walk(t.root, nil)
	return out
}

// statementSet returns the statements joined as strings, for set algebra.
func (t *pathTree) statementSet() map[string][]string {
	m := map[string][]string{}
	for _, s := range t.statements() {
		m[strings.Join(s, " ")] = s
	}
	return m
}

// mergeChanges applies to t what changed from base to cand: statements
// removed there are removed here, statements added there are set here.
func (t *pathTree) mergeChanges(base, cand *pathTree) {
	b, c := base.statementSet(), cand.statementSet()
	for _, s := range base.statements() {
		if _, ok := c[strings.Join(s, " ")]; !ok {
			t.remove(s)
		}
	}
	for _, s := range cand.statements() {
		if _, ok := b[strings.Join(s, " ")]; !ok {
			t.set(s)
		}
	}
}

// configTokens splits a statement into tokens: quoted strings and
// bracketed lists ("[ a b ]") are one token each, kept as typed.
func configTokens(s string) ([]string, error) {
	var out []string
	i := 0
	for i < len(s) {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				return nil, fmt.Errorf("unterminated quoted string")
			}
			out = append(out, s[i:i+j+2])
			i += j + 2
		case c == '[':
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

// subtree returns a tree holding only the statements under prefix.
func (t *pathTree) subtree(prefix []string) *pathTree {
	out := newPathTree(t.scalar)
	for _, s := range t.statements() {
		if hasPrefix(s, prefix) {
			out.set(s)
		}
	}
	return out
}
