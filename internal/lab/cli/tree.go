package cli

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/schema"
)

// Rule is one command a configuration mode accepts: a literal head (the
// leading keywords) and a regular expression for the arguments after it.
type Rule struct {
	Head string
	args *regexp.Regexp
	// sub is the mode the command enters, "" for a plain line.
	sub string
	// tag returns the prompt tag of the sub-mode (e.g. "if-Et1") from the
	// parent mode's tag and the argument submatches.
	tag func(parent string, args []string) string
	// id returns the identity of the line among its siblings: a line
	// replaces any sibling with the same identity. Nil means the line
	// itself (sets such as `ntp server X`).
	id func(tokens []string) string
	// canon rewrites the line as the device stores it (nil: unchanged).
	canon func(line string) string
	// keep orders siblings of this rule by insertion instead of naturally.
	keep bool
	// autoSeq prefixes a line that has no sequence number with the next
	// multiple of 10 after the highest sibling sequence (ACL entries).
	autoSeq bool
	// Order is the rank of the rule in its mode: lines print in rule order.
	Order int
	// Spaced prints a blank line before the stanza (NX-OS layout).
	Spaced bool
	// withPrev gives the rule the order of the rule before it, so that
	// their lines print as one group (`ip routing` / `no ip routing vrf X`).
	withPrev bool
	// Joined prints the rule's lines right after the previous feature's,
	// without a separator (EOS `hostname` / `ip name-server`).
	Joined bool
	// key, when set, is what siblings of the rule sort by (naturally).
	key func(text string) string
	// vmap, when set, parses a map line ("qos map dscp 26 27 to
	// traffic-class 3") into its map, the keys it maps and their target:
	// each key has one mapping, so a later line takes its keys from the
	// earlier lines of the same map, and `no` of a map line unmaps the
	// keys it names.
	vmap func(line string) (Mapped, bool)
	// fixed reports a stanza that cannot be deleted (a physical
	// interface): `no`/`default` of it resets it to its defaults (empties
	// it) instead.
	fixed func(line string) bool
	// insertable means a new stanza may be placed before a sibling with
	// "LINE insert-before NAME" (NX-OS policy-map classes).
	insertable bool
}

// Mapped is one line of a value map.
type Mapped struct {
	// Family names the map ("qos map dscp>traffic-class").
	Family string
	// Keys are the mapped values, as typed (ranges expanded).
	Keys []string
	// Head is the text before the keys ("qos map dscp"), target after
	// them ("to traffic-class 3").
	Head, Target string
}

// FirstN identifies a line by its first n tokens ("no " prefix ignored).
func FirstN(n int) func([]string) string {
	return func(t []string) string {
		if len(t) > 0 && t[0] == "no" {
			t = t[1:]
		}
		if len(t) > n {
			t = t[:n]
		}
		return strings.Join(t, " ")
	}
}

// Grammar is a platform's configuration language: the rules of each mode.
type Grammar map[string][]*Rule

// NewRule builds a rule; args "" means the head takes no arguments.
func NewRule(head, args string) *Rule {
	pat := `^$`
	if args != "" {
		pat = `^(?:` + args + `)$`
	}
	return &Rule{Head: head, args: regexp.MustCompile(pat)}
}

// Enters makes the command enter a sub-mode; tag builds its prompt tag.
func (x *Rule) Enters(mode string, tag func(parent string, args []string) string) *Rule {
	x.sub, x.tag = mode, tag
	return x
}

// Ident sets how a line is identified among its siblings.
func (x *Rule) Ident(f func([]string) string) *Rule { x.id = f; return x }

// Canonical sets how the device rewrites the line it stores.
func (x *Rule) Canonical(f func(string) string) *Rule {
	x.canon = f
	return x
}

// Ordered keeps the rule's lines in insertion order.
func (x *Rule) Ordered() *Rule { x.keep = true; return x }

// Sequenced numbers lines typed without a sequence number (ACL entries).
func (x *Rule) Sequenced() *Rule { x.autoSeq = true; return x }

// Blank prints a blank line before the rule's stanzas.
func (x *Rule) Blank() *Rule { x.Spaced = true; return x }

// Grouped prints the rule's lines in one group with the rule before it.
func (x *Rule) Grouped() *Rule { x.withPrev = true; return x }

// Attached prints the rule's lines right after the previous feature's.
func (x *Rule) Attached() *Rule { x.Joined = true; return x }

// SortBy sets the key siblings of the rule sort by.
func (x *Rule) SortBy(f func(string) string) *Rule {
	x.key = f
	return x
}

// ValueMap makes the rule a value map whose keys have one mapping each.
func (x *Rule) ValueMap(f func(string) (Mapped, bool)) *Rule { x.vmap = f; return x }

// Resets marks stanzas that `no` empties instead of deleting.
func (x *Rule) Resets(f func(string) bool) *Rule { x.fixed = f; return x }

// InsertsBefore lets a new stanza be placed with "LINE insert-before NAME".
func (x *Rule) InsertsBefore() *Rule { x.insertable = true; return x }

// NewGrammar numbers the rules of each mode in the order given.
func NewGrammar(modes map[string][]*Rule) Grammar {
	for _, rules := range modes {
		n := 0
		for i, x := range rules {
			if i > 0 && !x.withPrev {
				n++
			}
			x.Order = n
		}
	}
	return Grammar(modes)
}

// match finds the rule for a normalised line in mode.
func (g Grammar) match(mode, line string) (*Rule, []string) {
	for _, x := range g[mode] {
		rest, ok := CutHead(line, x.Head)
		if !ok {
			continue
		}
		if m := x.args.FindStringSubmatch(rest); m != nil {
			return x, m[1:]
		}
	}
	return nil, nil
}

// knows reports whether some rule of mode starts with the tokens of line
// (used for `no` of something that is not configured).
func (g Grammar) knows(mode, line string) bool {
	for _, x := range g[mode] {
		if _, ok := CutHead(line, x.Head); ok {
			return true
		}
		if strings.HasPrefix(x.Head, line+" ") || x.Head == line {
			return true
		}
	}
	return false
}

// badToken returns the index of the first token no rule of the modes
// accepts, and whether the line is a known but incomplete command.
func (g Grammar) badToken(modes []string, line string) (int, bool) {
	toks := strings.Fields(line)
	best, incomplete := 0, false
	for _, mode := range modes {
		for _, x := range g[mode] {
			ht := strings.Fields(x.Head)
			n := 0
			for n < len(ht) && n < len(toks) && ht[n] == toks[n] {
				n++
			}
			if n == len(toks) && n > 0 {
				incomplete = true
			}
			if n > best {
				best = n
			}
		}
	}
	return best, incomplete
}

// CutHead returns what follows the head keywords in line, and whether
// line starts with them.
func CutHead(line, head string) (string, bool) {
	if head == "" {
		return line, line != ""
	}
	if line == head {
		return "", true
	}
	if strings.HasPrefix(line, head+" ") {
		return line[len(head)+1:], true
	}
	return "", false
}

// Node is one configuration line and its sub-mode lines.
type Node struct {
	Text string
	Rule *Rule
	Kids []*Node
	seq  int
	// Opaque marks a line the grammar does not know, loaded from an
	// existing configuration and kept verbatim (with its sub-lines).
	Opaque bool
	// anchor is where an opaque line sorts: after the siblings of this
	// rule order (the known line it followed in its source), -1 first.
	anchor int
	// Src marks a line loaded from an existing configuration; gap that a
	// separator ('!' or a blank line) preceded it there, gapAfter that one
	// followed it (before its next sibling).
	Src, Gap, GapAfter bool
	// lkey is the learned key of an opaque line from a loaded
	// configuration.
	lkey string
	// idx indexes kids once there are many (a big ACL, thousands of
	// interfaces), so loading a large configuration stays linear.
	idx *kidIndex
}

// kidIndex maps a child's text, and a plain known child's identity, to
// its position (the first such child).
type kidIndex struct {
	text, id map[string]int
}

// indexMin is the number of children from which a node keeps an index.
const indexMin = 32

func (x *kidIndex) add(k *Node, i int) {
	if _, ok := x.text[k.Text]; !ok {
		x.text[k.Text] = i
	}
	if k.Rule != nil && k.Rule.sub == "" {
		if id := k.identity(); id != "" {
			if _, ok := x.id[id]; !ok {
				x.id[id] = i
			}
		}
	}
}

// index returns the node's index, building it, or nil for few children.
func (n *Node) index() *kidIndex {
	if len(n.Kids) < indexMin {
		return nil
	}
	if n.idx == nil {
		x := &kidIndex{text: make(map[string]int, len(n.Kids)), id: map[string]int{}}
		for i, k := range n.Kids {
			x.add(k, i)
		}
		n.idx = x
	}
	return n.idx
}

// appendKid adds a child, keeping the index.
func (n *Node) appendKid(k *Node) {
	n.Kids = append(n.Kids, k)
	if n.idx != nil {
		n.idx.add(k, len(n.Kids)-1)
	}
}

// SetKids replaces the children (the index is rebuilt when needed).
func (n *Node) SetKids(kids []*Node) {
	n.Kids = kids
	n.idx = nil
}

// LearnedLine is an opaque line met in a loaded configuration: typed
// again (restoring a backup), it is accepted where it was.
type LearnedLine struct {
	Anchor, Seq           int
	Gap, gapAfter, stanza bool
}

func (n *Node) identity() string {
	if n.Rule != nil && n.Rule.id != nil {
		return n.Rule.id(strings.Fields(n.Text))
	}
	return n.Text
}

func (n *Node) child(text string) *Node {
	if x := n.index(); x != nil {
		if i, ok := x.text[text]; ok {
			return n.Kids[i]
		}
		return nil
	}
	for _, k := range n.Kids {
		if k.Text == text {
			return k
		}
	}
	return nil
}

// Rank is the node's sort group and whether it is opaque (opaque lines
// follow the known lines of their anchor's group, in source order).
func (n *Node) Rank() (int, int) {
	if n.Opaque {
		return n.anchor, 1
	}
	if n.Rule != nil {
		return n.Rule.Order, 0
	}
	return -1, 0
}

// Stanza reports whether the node prints with sub-lines.
func (n *Node) Stanza() bool {
	return (n.Rule != nil && n.Rule.sub != "") || (n.Opaque && len(n.Kids) > 0)
}

// Sorted returns the children in running-config order.
func (n *Node) Sorted() []*Node {
	out := append([]*Node(nil), n.Kids...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		ga, oa := a.Rank()
		gb, ob := b.Rank()
		if ga != gb {
			return ga < gb
		}
		if oa != ob {
			return oa < ob
		}
		if a.Opaque || (a.Rule != nil && a.Rule.keep) {
			return a.seq < b.seq
		}
		if a.Rule != nil && a.Rule.key != nil && a.Rule == b.Rule {
			return schema.NaturalLess(a.Rule.key(a.Text), b.Rule.key(b.Text))
		}
		// A "no X" line sorts where X would.
		return schema.NaturalLess(strings.TrimPrefix(a.Text, "no "), strings.TrimPrefix(b.Text, "no "))
	})
	return out
}

// Clone returns a deep copy of the node.
func (n *Node) Clone() *Node {
	c := &Node{Text: n.Text, Rule: n.Rule, seq: n.seq, Opaque: n.Opaque, anchor: n.anchor, Src: n.Src, Gap: n.Gap,
		GapAfter: n.GapAfter, lkey: n.lkey}
	for _, k := range n.Kids {
		c.Kids = append(c.Kids, k.Clone())
	}
	return c
}

// Frame is one level of the configuration-mode stack.
type Frame struct {
	N    *Node
	Mode string
	Tag  string
}

// Tree is a hierarchical running configuration edited through modes.
type Tree struct {
	G    Grammar
	Root *Node
	Seq  int
	// Learned holds the opaque lines of the loaded configuration, keyed
	// by pathKey; it is shared by clones (device-wide knowledge).
	Learned map[string]LearnedLine
}

// NewTree returns an empty configuration in grammar g.
func NewTree(g Grammar) *Tree {
	return &Tree{G: g, Root: &Node{}, Learned: map[string]LearnedLine{}}
}

// Clone returns a deep copy of the tree; what it learned is shared.
func (t *Tree) Clone() *Tree {
	return &Tree{G: t.G, Root: t.Root.Clone(), Seq: t.Seq, Learned: t.Learned}
}

// opaqueMode is the mode of an opaque stanza: no rule, so lines fall back
// to the parent modes.
const opaqueMode = "opaque"

// PathKey names a line by the lines above it.
func PathKey(stack []Frame, line string) string {
	var b strings.Builder
	for _, f := range stack[1:] {
		b.WriteString(f.N.Text)
		b.WriteByte(0)
	}
	b.WriteByte(0)
	b.WriteString(line)
	return b.String()
}

// hasOpaque reports whether an opaque child of n is named by `no arg`.
func hasOpaque(n *Node, arg string) bool {
	for _, k := range n.Kids {
		if k.Opaque && tokenPrefix(arg, k.Text) {
			return true
		}
	}
	return false
}

// tokenPrefix reports whether line is arg or starts with arg's tokens
// (`no ntp server 192.0.2.1` names `ntp server 192.0.2.1 iburst`, not
// `ntp server 192.0.2.10`).
func tokenPrefix(arg, line string) bool {
	return line == arg || strings.HasPrefix(line, arg+" ")
}

// RestoreOpaque puts a learned line back under parent, in its source
// place (its original sequence number).
func (t *Tree) RestoreOpaque(parent *Node, line string, ll LearnedLine) *Node {
	if k := parent.child(line); k != nil && k.Opaque {
		return k
	}
	if parent.index() == nil {
		for _, k := range parent.Kids {
			if k.Opaque && Normalize(k.Text) == line {
				return k
			}
		}
	}
	n := &Node{Text: line, Opaque: true, anchor: ll.Anchor, Gap: ll.Gap, GapAfter: ll.gapAfter, seq: ll.Seq}
	parent.appendKid(n)
	return n
}

// addOpaque adds an opaque line from a loaded configuration under parent
// (a line there twice stays twice).
func (t *Tree) addOpaque(parent *Node, line string, anchor int, gap, src bool) *Node {
	t.Seq++
	n := &Node{Text: line, Opaque: true, anchor: anchor, Gap: gap, Src: src, seq: t.Seq}
	parent.appendKid(n)
	return n
}

// ErrUnknown is returned for a line no mode on the stack accepts.
type ErrUnknown struct {
	Token      int
	Incomplete bool
}

func (e *ErrUnknown) Error() string {
	if e.Incomplete {
		return "incomplete command"
	}
	return fmt.Sprintf("invalid input at token %d", e.Token)
}

// Normalize collapses runs of blanks.
func Normalize(line string) string { return strings.Join(strings.Fields(line), " ") }

// Apply runs one configuration line at the top of stack (falling back to
// the parent modes, as IOS-style CLIs do) and returns the new stack.
func (t *Tree) Apply(stack []Frame, raw string) ([]Frame, error) {
	line := Normalize(raw)
	for depth := len(stack) - 1; depth >= 0; depth-- {
		f := stack[depth]
		// A line the loaded configuration had there (even one the
		// grammar would take elsewhere, or for a plain line) goes back
		// where it was.
		if ll, ok := t.Learned[PathKey(stack[:depth+1], line)]; ok {
			n := t.RestoreOpaque(f.N, line, ll)
			out := stack[:depth+1]
			if ll.stanza {
				out = append(out, Frame{N: n, Mode: opaqueMode, Tag: f.Tag})
			}
			return out, nil
		}
		if x, args := t.G.match(f.Mode, line); x != nil {
			st, _ := t.Set(stack[:depth+1], x, args, line, false)
			return st, nil
		}
		neg := ""
		if rest, ok := CutHead(line, "no"); ok && rest != "" {
			neg = rest
		} else if rest, ok := CutHead(line, "default"); ok && rest != "" {
			neg = rest
		}
		if neg != "" && (t.G.knows(f.Mode, neg) || hasOpaque(f.N, neg)) {
			t.Remove(f.Mode, f.N, neg)
			return stack[:depth+1], nil
		}
	}
	modes := make([]string, len(stack))
	for i, f := range stack {
		modes[i] = f.Mode
	}
	tok, inc := t.G.badToken(modes, line)
	return stack, &ErrUnknown{Token: tok, Incomplete: inc}
}

// Set adds the line under the top of stack: a stanza is entered (and
// created when new), a plain line replaces a sibling of the same identity
// unless keepLoaded is set and that sibling came from a loaded
// configuration (where both existed). It returns the new stack and node.
func (t *Tree) Set(stack []Frame, x *Rule, args []string, line string, keepLoaded bool) ([]Frame, *Node) {
	parent := stack[len(stack)-1].N
	if x.canon != nil {
		line = x.canon(line)
	}
	if x.autoSeq {
		top := 0
		for _, k := range parent.Kids {
			var n int
			if _, err := fmt.Sscanf(k.Text, "%d ", &n); err == nil && n > top {
				top = n
			}
		}
		line = fmt.Sprintf("%d %s", top/10*10+10, line)
		if y, _ := t.G.match(stack[len(stack)-1].Mode, line); y != nil {
			x = y
		}
	}
	t.Seq++
	if x.sub != "" {
		anchor := ""
		if x.insertable {
			if base, before, ok := strings.Cut(line, " insert-before "); ok {
				line, anchor = base, x.Head+" "+before
			}
		}
		n := parent.child(line)
		if n == nil {
			n = &Node{Text: line, Rule: x, seq: t.Seq}
			if a := parent.child(anchor); a != nil && anchor != "" {
				// Placed before the anchor: it takes the anchor's place in
				// the insertion order, and the anchor and the stanzas
				// after it move one up.
				n.seq = a.seq
				for _, k := range parent.Kids {
					if k.seq >= a.seq {
						k.seq++
					}
				}
			}
			parent.appendKid(n)
		}
		tag := ""
		if x.tag != nil {
			tag = x.tag(stack[len(stack)-1].Tag, args)
		}
		return append(stack, Frame{N: n, Mode: x.sub, Tag: tag}), n
	}
	if x.vmap != nil {
		if k := parent.child(line); k != nil {
			return stack, k
		}
		if m, ok := x.vmap(line); ok && !keepLoaded {
			t.unmap(parent, m, false)
		}
	}
	n := &Node{Text: line, Rule: x, seq: t.Seq}
	id := n.identity()
	at := -1
	if ix := parent.index(); ix != nil {
		if i, ok := ix.id[id]; ok {
			at = i
		}
	} else {
		for i, k := range parent.Kids {
			if k.Rule != nil && k.Rule.sub == "" && k.identity() == id {
				at = i
				break
			}
		}
	}
	if at >= 0 {
		k := parent.Kids[at]
		switch {
		case k.Text == line:
			return stack, k
		case !keepLoaded || !k.Src:
			n.seq = k.seq
			parent.Kids[at] = n
			parent.idx = nil
			return stack, n
		}
	}
	parent.appendKid(n)
	return stack, n
}

// Remove deletes what `no ARG` (or `default ARG`) names among the
// children of parent in mode, as EOS and NX-OS do:
//   - ARG is a whole statement the grammar knows: the line it names goes,
//     and no other. A single-value command (an identity rule: `mtu`,
//     `bandwidth percent`, `random-detect ecn ...`) is named whatever
//     value ARG gives; a line of a set (`ntp server`, `match dscp`) by
//     its text or a prefix of its tokens; a map line unmaps the keys it
//     names; an ACL entry without a sequence number names the entry with
//     that text; a stanza (`tx-queue 3`, `class X`, `policy-map ...`)
//     goes with its lines, except a fixed one (a physical interface),
//     which is emptied.
//   - `default X` where `no X` is a statement (`no priority`, `no qos
//     trust`, `no switchport`): the statement goes and the default
//     comes back (the lab prints defaults by not printing them).
//   - an incomplete ARG (`no bandwidth percent`, `no random-detect
//     ecn`, `no 10` in an ACL) names every line it is a prefix of.
//
// Opaque lines (from a loaded configuration) are named by their text or
// a prefix of their tokens.
func (t *Tree) Remove(mode string, parent *Node, arg string) {
	drop := func(f func(k *Node) bool) {
		kept := parent.Kids[:0]
		for _, k := range parent.Kids {
			if !f(k) && (!k.Opaque || !tokenPrefix(arg, k.Text)) {
				kept = append(kept, k)
			}
		}
		parent.SetKids(kept)
	}
	plain := func(k *Node) bool { return k.Rule != nil && k.Rule.sub == "" }
	if x, _ := t.G.match(mode, arg); x != nil {
		line := arg
		if x.canon != nil {
			line = x.canon(arg)
		}
		switch {
		case x.sub != "":
			if x.fixed != nil && x.fixed(line) {
				if k := parent.child(line); k != nil && !k.Opaque {
					k.SetKids(nil)
				}
				return
			}
			drop(func(k *Node) bool { return k.Text == line })
		case x.vmap != nil:
			if m, ok := x.vmap(line); ok {
				t.unmap(parent, m, true)
			}
		case x.autoSeq:
			drop(func(k *Node) bool { return plain(k) && aclBody(k.Text) == line })
		case x.id != nil:
			id := x.id(strings.Fields(line))
			drop(func(k *Node) bool {
				return k.Text == line || plain(k) && k.Rule.id != nil && k.identity() == id
			})
		default:
			drop(func(k *Node) bool { return plain(k) && tokenPrefix(line, k.Text) })
		}
		return
	}
	if y, _ := t.G.match(mode, "no "+arg); y != nil && y.sub == "" && y.id != nil {
		id := y.id(strings.Fields("no " + arg))
		drop(func(k *Node) bool { return plain(k) && k.Rule.id != nil && k.identity() == id })
		return
	}
	drop(func(k *Node) bool {
		return tokenPrefix(arg, k.Text) || tokenPrefix(arg, strings.TrimPrefix(k.Text, "no "))
	})
}

// aclBody is an ACL entry without its sequence number.
func aclBody(text string) string {
	if i := strings.IndexByte(text, ' '); i > 0 && IsDigit(text[0]) {
		return text[i+1:]
	}
	return text
}

// unmap takes the keys of m away from the lines of its map under parent:
// a line left without keys goes. With onlyTarget only lines mapping to
// m's target lose them (`no qos map dscp 26 to traffic-class 3` unmaps 26
// from traffic class 3, not from another one).
func (t *Tree) unmap(parent *Node, m Mapped, onlyTarget bool) {
	gone := map[string]bool{}
	for _, k := range m.Keys {
		gone[k] = true
	}
	kept := parent.Kids[:0]
	for _, k := range parent.Kids {
		if k.Rule == nil || k.Rule.vmap == nil {
			kept = append(kept, k)
			continue
		}
		o, ok := k.Rule.vmap(k.Text)
		if !ok || o.Family != m.Family || onlyTarget && o.Target != m.Target {
			kept = append(kept, k)
			continue
		}
		var left []string
		for _, v := range o.Keys {
			if !gone[v] {
				left = append(left, v)
			}
		}
		switch {
		case len(left) == len(o.Keys):
			kept = append(kept, k)
		case len(left) > 0:
			k.Text = o.Head + " " + strings.Join(left, " ") + " " + o.Target
			kept = append(kept, k)
		}
	}
	parent.SetKids(kept)
}

// Load applies an indented configuration text (sub-mode lines indented
// under their parent); lines starting with '!' or '#' are comments. It
// replays lines as typed into the CLI (a factory configuration, an
// out-of-band change): each one goes through Apply, so a line another
// mode takes leaves the sub-mode as it does on the device, and a line no
// mode takes is an error. A configuration the device printed is loaded
// with LoadExisting from the platform's one running-config parser
// instead.
func (t *Tree) Load(text string) error {
	type level struct {
		indent int
		depth  int
	}
	stack := []Frame{{N: t.Root, Mode: "config"}}
	var levels []level
	for i, raw := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(raw)
		if trimmed == "" || strings.HasPrefix(trimmed, "!") || strings.HasPrefix(trimmed, "#") || trimmed == "end" {
			continue
		}
		indent := len(raw) - len(strings.TrimLeft(raw, " \t"))
		for len(levels) > 0 && levels[len(levels)-1].indent >= indent {
			stack = stack[:levels[len(levels)-1].depth]
			levels = levels[:len(levels)-1]
		}
		before := len(stack)
		ns, err := t.Apply(stack, trimmed)
		if err != nil {
			return fmt.Errorf("line %d %q: %w", i+1, trimmed, err)
		}
		stack = ns
		if len(stack) > before {
			levels = append(levels, level{indent: indent, depth: before})
		}
	}
	return nil
}

// IsDigit reports whether c is an ASCII digit.
func IsDigit(c byte) bool { return c >= '0' && c <= '9' }

// Patch returns the configuration lines that turn from into to: removals
// (`no` forms) first, then additions, each under its parent line, indented
// by unit per level.
func Patch(from, to *Node, indent, unit string) []string {
	var out []string
	for _, k := range from.Sorted() {
		if to.child(k.Text) == nil {
			out = append(out, indent+negate(k.Text))
		}
	}
	for _, k := range to.Sorted() {
		old := from.child(k.Text)
		if old == nil {
			out = append(out, Subtree(k, indent, unit)...)
			continue
		}
		if sub := Patch(old, k, indent+unit, unit); len(sub) > 0 {
			out = append(out, indent+k.Text)
			out = append(out, sub...)
		}
	}
	return out
}

func negate(line string) string {
	if rest, ok := strings.CutPrefix(line, "no "); ok {
		return rest
	}
	return "no " + line
}

// Subtree prints n and everything under it, one indent unit deeper per
// level.
func Subtree(n *Node, indent, unit string) []string {
	out := []string{indent + n.Text}
	for _, k := range n.Sorted() {
		out = append(out, Subtree(k, indent+unit, unit)...)
	}
	return out
}

// LoadExisting loads a configuration a device printed, parsed by the
// platform's one running-config parser (config.ParseAsPrinted with its
// push dialect: volatile lines dropped, their places marked, banners kept
// whole), never refusing a line: a line the grammar knows in the mode its
// place in the tree puts it in is applied; any other line is kept
// verbatim as an opaque line, with the lines under it as its opaque
// sub-lines, prints back where it was, and is remembered so that typing
// it again (restoring a backup) is accepted. A `no ...` line is a
// statement here, never a removal.
func (t *Tree) LoadExisting(src *config.Tree) {
	l := &loader{t: t, lastKnown: map[*Node]int{}, lastChild: map[*Node]*Node{}}
	l.walk([]Frame{{N: t.Root, Mode: "config"}}, src.Nodes)
}

// loader walks a parsed configuration into a Tree (LoadExisting).
type loader struct {
	t *Tree
	// lastKnown is the rule order of the last known line under a parent
	// (where an opaque line after it sorts); lastChild the last line.
	lastKnown map[*Node]int
	lastChild map[*Node]*Node
}

// follows records the separator before a new child of parent on the
// child before it.
func (l *loader) follows(parent, child *Node, gap bool) {
	if prev := l.lastChild[parent]; prev != nil && prev != child {
		prev.GapAfter = gap
		if prev.lkey != "" {
			ll := l.t.Learned[prev.lkey]
			ll.gapAfter = gap
			l.t.Learned[prev.lkey] = ll
		}
	}
	l.lastChild[parent] = child
}

// walk loads the nodes under the top of stack, each in the mode it is in.
func (l *loader) walk(stack []Frame, nodes []*config.Node) {
	t := l.t
	for _, src := range nodes {
		parent := stack[len(stack)-1]
		anchor := -1
		if v, ok := l.lastKnown[parent.N]; ok {
			anchor = v
		}
		if src.Block {
			head := strings.TrimSpace(strings.SplitN(src.Line, "\n", 2)[0])
			blk := t.addOpaque(parent.N, src.Line, anchor, src.Gap, true)
			blk.lkey = PathKey(stack, Normalize(head))
			t.Learned[blk.lkey] = LearnedLine{Anchor: anchor, Gap: src.Gap, Seq: blk.seq}
			l.follows(parent.N, blk, src.Gap)
			continue
		}
		line := Normalize(src.Line)
		if parent.Mode != opaqueMode {
			// A line the grammar takes for a plain one but that has
			// lines under it is a stanza the lab does not know.
			if x, args := t.G.match(parent.Mode, line); x != nil && (x.sub != "" || len(src.Children) == 0) {
				ns, n := t.Set(stack, x, args, line, true)
				if !n.Src {
					n.Src, n.Gap = true, src.Gap
				}
				l.follows(parent.N, n, src.Gap)
				l.lastKnown[parent.N] = x.Order
				if len(ns) > len(stack) {
					l.walk(ns, src.Children)
				}
				continue
			}
		}
		if parent.Mode == opaqueMode && len(stack) > 1 {
			// The parent is a stanza after all.
			up := stack[:len(stack)-1]
			k := PathKey(up, Normalize(parent.N.Text))
			ll := t.Learned[k]
			ll.stanza = true
			t.Learned[k] = ll
			anchor = -1
		}
		n := t.addOpaque(parent.N, src.Line, anchor, src.Gap, true)
		n.lkey = PathKey(stack, line)
		t.Learned[n.lkey] = LearnedLine{Anchor: anchor, Gap: src.Gap, Seq: n.seq}
		l.follows(parent.N, n, src.Gap)
		l.walk(append(stack[:len(stack):len(stack)], Frame{N: n, Mode: opaqueMode, Tag: parent.Tag}), src.Children)
	}
}
