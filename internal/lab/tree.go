package lab

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// rule is one command a configuration mode accepts: a literal head (the
// leading keywords) and a regular expression for the arguments after it.
type rule struct {
	head string
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
	// order is the rank of the rule in its mode: lines print in rule order.
	order int
	// spaced prints a blank line before the stanza (NX-OS layout).
	spaced bool
	// withPrev gives the rule the order of the rule before it, so that
	// their lines print as one group (`ip routing` / `no ip routing vrf X`).
	withPrev bool
	// joined prints the rule's lines right after the previous feature's,
	// without a separator (EOS `hostname` / `ip name-server`).
	joined bool
	// key, when set, is what siblings of the rule sort by (naturally).
	key func(text string) string
	// vmap, when set, parses a map line ("qos map dscp 26 27 to
	// traffic-class 3") into its map, the keys it maps and their target:
	// each key has one mapping, so a later line takes its keys from the
	// earlier lines of the same map, and `no` of a map line unmaps the
	// keys it names.
	vmap func(line string) (mapped, bool)
	// fixed reports a stanza that cannot be deleted (a physical
	// interface): `no`/`default` of it resets it to its defaults (empties
	// it) instead.
	fixed func(line string) bool
	// insertable means a new stanza may be placed before a sibling with
	// "LINE insert-before NAME" (NX-OS policy-map classes).
	insertable bool
}

// mapped is one line of a value map.
type mapped struct {
	// family names the map ("qos map dscp>traffic-class").
	family string
	// keys are the mapped values, as typed (ranges expanded).
	keys []string
	// head is the text before the keys ("qos map dscp"), target after
	// them ("to traffic-class 3").
	head, target string
}

// firstN identifies a line by its first n tokens ("no " prefix ignored).
func firstN(n int) func([]string) string {
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

// grammar is a platform's configuration language: the rules of each mode.
type grammar map[string][]*rule

// r builds a rule; args "" means the head takes no arguments.
func r(head, args string) *rule {
	pat := `^$`
	if args != "" {
		pat = `^(?:` + args + `)$`
	}
	return &rule{head: head, args: regexp.MustCompile(pat)}
}

func (x *rule) enters(mode string, tag func(parent string, args []string) string) *rule {
	x.sub, x.tag = mode, tag
	return x
}
func (x *rule) ident(f func([]string) string) *rule { x.id = f; return x }
func (x *rule) canonical(f func(string) string) *rule {
	x.canon = f
	return x
}
func (x *rule) ordered() *rule   { x.keep = true; return x }
func (x *rule) sequenced() *rule { x.autoSeq = true; return x }
func (x *rule) blank() *rule     { x.spaced = true; return x }
func (x *rule) grouped() *rule   { x.withPrev = true; return x }
func (x *rule) attached() *rule  { x.joined = true; return x }
func (x *rule) sortBy(f func(string) string) *rule {
	x.key = f
	return x
}
func (x *rule) valueMap(f func(string) (mapped, bool)) *rule { x.vmap = f; return x }
func (x *rule) resets(f func(string) bool) *rule             { x.fixed = f; return x }
func (x *rule) insertsBefore() *rule                         { x.insertable = true; return x }

// newGrammar numbers the rules of each mode in the order given.
func newGrammar(modes map[string][]*rule) grammar {
	for _, rules := range modes {
		n := 0
		for i, x := range rules {
			if i > 0 && !x.withPrev {
				n++
			}
			x.order = n
		}
	}
	return grammar(modes)
}

// match finds the rule for a normalised line in mode.
func (g grammar) match(mode, line string) (*rule, []string) {
	for _, x := range g[mode] {
		rest, ok := cutHead(line, x.head)
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
func (g grammar) knows(mode, line string) bool {
	for _, x := range g[mode] {
		if _, ok := cutHead(line, x.head); ok {
			return true
		}
		if strings.HasPrefix(x.head, line+" ") || x.head == line {
			return true
		}
	}
	return false
}

// badToken returns the index of the first token no rule of the modes
// accepts, and whether the line is a known but incomplete command.
func (g grammar) badToken(modes []string, line string) (int, bool) {
	toks := strings.Fields(line)
	best, incomplete := 0, false
	for _, mode := range modes {
		for _, x := range g[mode] {
			ht := strings.Fields(x.head)
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

func cutHead(line, head string) (string, bool) {
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

// node is one configuration line and its sub-mode lines.
type node struct {
	text string
	rule *rule
	kids []*node
	seq  int
	// opaque marks a line the grammar does not know, loaded from an
	// existing configuration and kept verbatim (with its sub-lines).
	opaque bool
	// anchor is where an opaque line sorts: after the siblings of this
	// rule order (the known line it followed in its source), -1 first.
	anchor int
	// src marks a line loaded from an existing configuration; gap that a
	// separator ('!' or a blank line) preceded it there, gapAfter that one
	// followed it (before its next sibling).
	src, gap, gapAfter bool
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

func (x *kidIndex) add(k *node, i int) {
	if _, ok := x.text[k.text]; !ok {
		x.text[k.text] = i
	}
	if k.rule != nil && k.rule.sub == "" {
		if id := k.identity(); id != "" {
			if _, ok := x.id[id]; !ok {
				x.id[id] = i
			}
		}
	}
}

// index returns the node's index, building it, or nil for few children.
func (n *node) index() *kidIndex {
	if len(n.kids) < indexMin {
		return nil
	}
	if n.idx == nil {
		x := &kidIndex{text: make(map[string]int, len(n.kids)), id: map[string]int{}}
		for i, k := range n.kids {
			x.add(k, i)
		}
		n.idx = x
	}
	return n.idx
}

// appendKid adds a child, keeping the index.
func (n *node) appendKid(k *node) {
	n.kids = append(n.kids, k)
	if n.idx != nil {
		n.idx.add(k, len(n.kids)-1)
	}
}

// setKids replaces the children (the index is rebuilt when needed).
func (n *node) setKids(kids []*node) {
	n.kids = kids
	n.idx = nil
}

// learnedLine is an opaque line met in a loaded configuration: typed
// again (restoring a backup), it is accepted where it was.
type learnedLine struct {
	anchor, seq           int
	gap, gapAfter, stanza bool
}

func (n *node) identity() string {
	if n.rule != nil && n.rule.id != nil {
		return n.rule.id(strings.Fields(n.text))
	}
	return n.text
}

func (n *node) child(text string) *node {
	if x := n.index(); x != nil {
		if i, ok := x.text[text]; ok {
			return n.kids[i]
		}
		return nil
	}
	for _, k := range n.kids {
		if k.text == text {
			return k
		}
	}
	return nil
}

// rank is the node's sort group and whether it is opaque (opaque lines
// follow the known lines of their anchor's group, in source order).
func (n *node) rank() (int, int) {
	if n.opaque {
		return n.anchor, 1
	}
	if n.rule != nil {
		return n.rule.order, 0
	}
	return -1, 0
}

// stanza reports whether the node prints with sub-lines.
func (n *node) stanza() bool {
	return (n.rule != nil && n.rule.sub != "") || (n.opaque && len(n.kids) > 0)
}

// sorted returns the children in running-config order.
func (n *node) sorted() []*node {
	out := append([]*node(nil), n.kids...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		ga, oa := a.rank()
		gb, ob := b.rank()
		if ga != gb {
			return ga < gb
		}
		if oa != ob {
			return oa < ob
		}
		if a.opaque || (a.rule != nil && a.rule.keep) {
			return a.seq < b.seq
		}
		if a.rule != nil && a.rule.key != nil && a.rule == b.rule {
			return schema.NaturalLess(a.rule.key(a.text), b.rule.key(b.text))
		}
		// A "no X" line sorts where X would.
		return schema.NaturalLess(strings.TrimPrefix(a.text, "no "), strings.TrimPrefix(b.text, "no "))
	})
	return out
}

func (n *node) clone() *node {
	c := &node{text: n.text, rule: n.rule, seq: n.seq, opaque: n.opaque, anchor: n.anchor, src: n.src, gap: n.gap,
		gapAfter: n.gapAfter, lkey: n.lkey}
	for _, k := range n.kids {
		c.kids = append(c.kids, k.clone())
	}
	return c
}

// frame is one level of the configuration-mode stack.
type frame struct {
	n    *node
	mode string
	tag  string
}

// cfgTree is a hierarchical running configuration edited through modes.
type cfgTree struct {
	g    grammar
	root *node
	seq  int
	// learned holds the opaque lines of the loaded configuration, keyed
	// by pathKey; it is shared by clones (device-wide knowledge).
	learned map[string]learnedLine
}

func newCfgTree(g grammar) *cfgTree {
	return &cfgTree{g: g, root: &node{}, learned: map[string]learnedLine{}}
}

func (t *cfgTree) clone() *cfgTree {
	return &cfgTree{g: t.g, root: t.root.clone(), seq: t.seq, learned: t.learned}
}

// opaqueMode is the mode of an opaque stanza: no rule, so lines fall back
// to the parent modes.
const opaqueMode = "opaque"

// pathKey names a line by the lines above it.
func pathKey(stack []frame, line string) string {
	var b strings.Builder
	for _, f := range stack[1:] {
		b.WriteString(f.n.text)
		b.WriteByte(0)
	}
	b.WriteByte(0)
	b.WriteString(line)
	return b.String()
}

// hasOpaque reports whether an opaque child of n is named by `no arg`.
func hasOpaque(n *node, arg string) bool {
	for _, k := range n.kids {
		if k.opaque && tokenPrefix(arg, k.text) {
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

// restoreOpaque puts a learned line back under parent, in its source
// place (its original sequence number).
func (t *cfgTree) restoreOpaque(parent *node, line string, ll learnedLine) *node {
	if k := parent.child(line); k != nil && k.opaque {
		return k
	}
	if parent.index() == nil {
		for _, k := range parent.kids {
			if k.opaque && normalize(k.text) == line {
				return k
			}
		}
	}
	n := &node{text: line, opaque: true, anchor: ll.anchor, gap: ll.gap, gapAfter: ll.gapAfter, seq: ll.seq}
	parent.appendKid(n)
	return n
}

// addOpaque adds an opaque line from a loaded configuration under parent
// (a line there twice stays twice).
func (t *cfgTree) addOpaque(parent *node, line string, anchor int, gap, src bool) *node {
	t.seq++
	n := &node{text: line, opaque: true, anchor: anchor, gap: gap, src: src, seq: t.seq}
	parent.appendKid(n)
	return n
}

// errUnknown is returned for a line no mode on the stack accepts.
type errUnknown struct {
	token      int
	incomplete bool
}

func (e *errUnknown) Error() string {
	if e.incomplete {
		return "incomplete command"
	}
	return fmt.Sprintf("invalid input at token %d", e.token)
}

// normalize collapses runs of blanks.
func normalize(line string) string { return strings.Join(strings.Fields(line), " ") }

// apply runs one configuration line at the top of stack (falling back to
// the parent modes, as IOS-style CLIs do) and returns the new stack.
func (t *cfgTree) apply(stack []frame, raw string) ([]frame, error) {
	line := normalize(raw)
	for depth := len(stack) - 1; depth >= 0; depth-- {
		f := stack[depth]
		// A line the loaded configuration had there (even one the
		// grammar would take elsewhere, or for a plain line) goes back
		// where it was.
		if ll, ok := t.learned[pathKey(stack[:depth+1], line)]; ok {
			n := t.restoreOpaque(f.n, line, ll)
			out := stack[:depth+1]
			if ll.stanza {
				out = append(out, frame{n: n, mode: opaqueMode, tag: f.tag})
			}
			return out, nil
		}
		if x, args := t.g.match(f.mode, line); x != nil {
			st, _ := t.set(stack[:depth+1], x, args, line, false)
			return st, nil
		}
		neg := ""
		if rest, ok := cutHead(line, "no"); ok && rest != "" {
			neg = rest
		} else if rest, ok := cutHead(line, "default"); ok && rest != "" {
			neg = rest
		}
		if neg != "" && (t.g.knows(f.mode, neg) || hasOpaque(f.n, neg)) {
			t.remove(f.mode, f.n, neg)
			return stack[:depth+1], nil
		}
	}
	modes := make([]string, len(stack))
	for i, f := range stack {
		modes[i] = f.mode
	}
	tok, inc := t.g.badToken(modes, line)
	return stack, &errUnknown{token: tok, incomplete: inc}
}

// set adds the line under the top of stack: a stanza is entered (and
// created when new), a plain line replaces a sibling of the same identity
// unless keepLoaded is set and that sibling came from a loaded
// configuration (where both existed). It returns the new stack and node.
func (t *cfgTree) set(stack []frame, x *rule, args []string, line string, keepLoaded bool) ([]frame, *node) {
	parent := stack[len(stack)-1].n
	if x.canon != nil {
		line = x.canon(line)
	}
	if x.autoSeq {
		top := 0
		for _, k := range parent.kids {
			var n int
			if _, err := fmt.Sscanf(k.text, "%d ", &n); err == nil && n > top {
				top = n
			}
		}
		line = fmt.Sprintf("%d %s", top/10*10+10, line)
		if y, _ := t.g.match(stack[len(stack)-1].mode, line); y != nil {
			x = y
		}
	}
	t.seq++
	if x.sub != "" {
		anchor := ""
		if x.insertable {
			if base, before, ok := strings.Cut(line, " insert-before "); ok {
				line, anchor = base, x.head+" "+before
			}
		}
		n := parent.child(line)
		if n == nil {
			n = &node{text: line, rule: x, seq: t.seq}
			if a := parent.child(anchor); a != nil && anchor != "" {
				// Placed before the anchor: it takes the anchor's place in
				// the insertion order, and the anchor and the stanzas
				// after it move one up.
				n.seq = a.seq
				for _, k := range parent.kids {
					if k.seq >= a.seq {
						k.seq++
					}
				}
			}
			parent.appendKid(n)
		}
		tag := ""
		if x.tag != nil {
			tag = x.tag(stack[len(stack)-1].tag, args)
		}
		return append(stack, frame{n: n, mode: x.sub, tag: tag}), n
	}
	if x.vmap != nil {
		if k := parent.child(line); k != nil {
			return stack, k
		}
		if m, ok := x.vmap(line); ok && !keepLoaded {
			t.unmap(parent, m, false)
		}
	}
	n := &node{text: line, rule: x, seq: t.seq}
	id := n.identity()
	at := -1
	if ix := parent.index(); ix != nil {
		if i, ok := ix.id[id]; ok {
			at = i
		}
	} else {
		for i, k := range parent.kids {
			if k.rule != nil && k.rule.sub == "" && k.identity() == id {
				at = i
				break
			}
		}
	}
	if at >= 0 {
		k := parent.kids[at]
		switch {
		case k.text == line:
			return stack, k
		case !(keepLoaded && k.src):
			n.seq = k.seq
			parent.kids[at] = n
			parent.idx = nil
			return stack, n
		}
	}
	parent.appendKid(n)
	return stack, n
}

// remove deletes what `no ARG` (or `default ARG`) names among the
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
func (t *cfgTree) remove(mode string, parent *node, arg string) {
	drop := func(f func(k *node) bool) {
		kept := parent.kids[:0]
		for _, k := range parent.kids {
			if !(f(k) || k.opaque && tokenPrefix(arg, k.text)) {
				kept = append(kept, k)
			}
		}
		parent.setKids(kept)
	}
	plain := func(k *node) bool { return k.rule != nil && k.rule.sub == "" }
	if x, _ := t.g.match(mode, arg); x != nil {
		line := arg
		if x.canon != nil {
			line = x.canon(arg)
		}
		switch {
		case x.sub != "":
			if x.fixed != nil && x.fixed(line) {
				if k := parent.child(line); k != nil && !k.opaque {
					k.setKids(nil)
				}
				return
			}
			drop(func(k *node) bool { return k.text == line })
		case x.vmap != nil:
			if m, ok := x.vmap(line); ok {
				t.unmap(parent, m, true)
			}
		case x.autoSeq:
			drop(func(k *node) bool { return plain(k) && aclBody(k.text) == line })
		case x.id != nil:
			id := x.id(strings.Fields(line))
			drop(func(k *node) bool {
				return k.text == line || plain(k) && k.rule.id != nil && k.identity() == id
			})
		default:
			drop(func(k *node) bool { return plain(k) && tokenPrefix(line, k.text) })
		}
		return
	}
	if y, _ := t.g.match(mode, "no "+arg); y != nil && y.sub == "" && y.id != nil {
		id := y.id(strings.Fields("no " + arg))
		drop(func(k *node) bool { return plain(k) && k.rule.id != nil && k.identity() == id })
		return
	}
	drop(func(k *node) bool {
		return tokenPrefix(arg, k.text) || tokenPrefix(arg, strings.TrimPrefix(k.text, "no "))
	})
}

// aclBody is an ACL entry without its sequence number.
func aclBody(text string) string {
	if i := strings.IndexByte(text, ' '); i > 0 && isDigit(text[0]) {
		return text[i+1:]
	}
	return text
}

// unmap takes the keys of m away from the lines of its map under parent:
// a line left without keys goes. With onlyTarget only lines mapping to
// m's target lose them (`no qos map dscp 26 to traffic-class 3` unmaps 26
// from traffic class 3, not from another one).
func (t *cfgTree) unmap(parent *node, m mapped, onlyTarget bool) {
	gone := map[string]bool{}
	for _, k := range m.keys {
		gone[k] = true
	}
	kept := parent.kids[:0]
	for _, k := range parent.kids {
		if k.rule == nil || k.rule.vmap == nil {
			kept = append(kept, k)
			continue
		}
		o, ok := k.rule.vmap(k.text)
		if !ok || o.family != m.family || onlyTarget && o.target != m.target {
			kept = append(kept, k)
			continue
		}
		var left []string
		for _, v := range o.keys {
			if !gone[v] {
				left = append(left, v)
			}
		}
		switch {
		case len(left) == len(o.keys):
			kept = append(kept, k)
		case len(left) > 0:
			k.text = o.head + " " + strings.Join(left, " ") + " " + o.target
			kept = append(kept, k)
		}
	}
	parent.setKids(kept)
}

// load applies an indented configuration text (sub-mode lines indented
// under their parent); lines starting with '!' or '#' are comments.
func (t *cfgTree) load(text string) error {
	type level struct {
		indent int
		depth  int
	}
	stack := []frame{{n: t.root, mode: "config"}}
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
		ns, err := t.apply(stack, trimmed)
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

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// patch returns the configuration lines that turn from into to: removals
// (`no` forms) first, then additions, each under its parent line, indented
// by unit per level.
func patch(from, to *node, indent, unit string) []string {
	var out []string
	for _, k := range from.sorted() {
		if to.child(k.text) == nil {
			out = append(out, indent+negate(k.text))
		}
	}
	for _, k := range to.sorted() {
		old := from.child(k.text)
		if old == nil {
			out = append(out, subtree(k, indent, unit)...)
			continue
		}
		if sub := patch(old, k, indent+unit, unit); len(sub) > 0 {
			out = append(out, indent+k.text)
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

func subtree(n *node, indent, unit string) []string {
	out := []string{indent + n.text}
	for _, k := range n.sorted() {
		out = append(out, subtree(k, indent+unit, unit)...)
	}
	return out
}

// loadOptions tunes loadExisting for a platform.
type loadOptions struct {
	// skip drops a line the device prints but does not take back (a
	// header); top is true at the top level.
	skip func(line string, top bool) bool
	// block returns how many lines a multi-line statement starting at
	// lines[i] spans (a banner), or 0.
	block func(lines []string, i int) int
}

// indentedNext reports whether the next line with content is indented
// deeper than indent.
func indentedNext(lines []string, i, indent int) bool {
	for _, l := range lines[i+1:] {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "!") {
			continue
		}
		return len(l)-len(strings.TrimLeft(l, " \t")) > indent
	}
	return false
}

// loadExisting loads a configuration a device printed, never refusing a
// line: a line the grammar knows in the mode its indentation puts it in is
// applied; any other line is kept verbatim as an opaque line, with the
// lines indented under it as its opaque sub-lines, prints back where it
// was, and is remembered so that typing it again (restoring a backup) is
// accepted. A `no ...` line is a statement here, never a removal.
func (t *cfgTree) loadExisting(text string, o loadOptions) {
	type level struct {
		indent int
		depth  int
	}
	lines := strings.Split(text, "\n")
	stack := []frame{{n: t.root, mode: "config"}}
	var levels []level
	lastKnown := map[*node]int{}
	lastChild := map[*node]*node{}
	// follows records the separator before a new child of parent on the
	// child before it.
	follows := func(parent, child *node, gap bool) {
		if prev := lastChild[parent]; prev != nil && prev != child {
			prev.gapAfter = gap
			if prev.lkey != "" {
				ll := t.learned[prev.lkey]
				ll.gapAfter = gap
				t.learned[prev.lkey] = ll
			}
		}
		lastChild[parent] = child
	}
	gap := false
	for i := 0; i < len(lines); i++ {
		raw := strings.TrimRight(lines[i], " \t\r")
		trimmed := strings.TrimSpace(raw)
		if trimmed == "" || strings.HasPrefix(trimmed, "!") {
			gap = true
			continue
		}
		indent := len(raw) - len(strings.TrimLeft(raw, " \t"))
		if trimmed == "end" && indent == 0 {
			continue
		}
		for len(levels) > 0 && levels[len(levels)-1].indent >= indent {
			stack = stack[:levels[len(levels)-1].depth]
			levels = levels[:len(levels)-1]
		}
		if o.skip != nil && o.skip(trimmed, len(stack) == 1) {
			continue
		}
		parent := stack[len(stack)-1]
		anchor := -1
		if v, ok := lastKnown[parent.n]; ok {
			anchor = v
		}
		if len(stack) == 1 && o.block != nil {
			if n := o.block(lines, i); n > 0 {
				var b []string
				for _, l := range lines[i : i+n] {
					b = append(b, strings.TrimRight(l, "\r"))
				}
				blk := t.addOpaque(parent.n, strings.Join(b, "\n"), anchor, gap, true)
				blk.lkey = pathKey(stack, normalize(trimmed))
				t.learned[blk.lkey] = learnedLine{anchor: anchor, gap: gap, seq: blk.seq}
				follows(parent.n, blk, gap)
				i += n - 1
				gap = false
				continue
			}
		}
		line := normalize(trimmed)
		if parent.mode != opaqueMode {
			// A line the grammar takes for a plain one but that has
			// lines indented under it is a stanza the lab does not know.
			if x, args := t.g.match(parent.mode, line); x != nil && (x.sub != "" || !indentedNext(lines, i, indent)) {
				ns, n := t.set(stack, x, args, line, true)
				if !n.src {
					n.src, n.gap = true, gap
				}
				follows(parent.n, n, gap)
				lastKnown[parent.n] = x.order
				if len(ns) > len(stack) {
					levels = append(levels, level{indent: indent, depth: len(stack)})
				}
				stack = ns
				gap = false
				continue
			}
		}
		if parent.mode == opaqueMode && len(stack) > 1 {
			// The parent is a stanza after all.
			up := stack[:len(stack)-1]
			k := pathKey(up, normalize(parent.n.text))
			ll := t.learned[k]
			ll.stanza = true
			t.learned[k] = ll
			anchor = -1
		}
		n := t.addOpaque(parent.n, trimmed, anchor, gap, true)
		n.lkey = pathKey(stack, line)
		t.learned[n.lkey] = learnedLine{anchor: anchor, gap: gap, seq: n.seq}
		follows(parent.n, n, gap)
		levels = append(levels, level{indent: indent, depth: len(stack)})
		stack = append(stack, frame{n: n, mode: opaqueMode, tag: parent.tag})
		gap = false
	}
}
