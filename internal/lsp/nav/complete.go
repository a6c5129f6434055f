package nav

import (
	"bytes"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/fabricgen/fabricgen/internal/nestlimit"
	"github.com/fabricgen/fabricgen/schema"
)

// ItemKind is what a completion item inserts.
type ItemKind int

// Item kinds (the server maps them to LSP CompletionItemKind: ItemKeyword 14,
// ItemProperty 10, ItemValue 12 (EnumMember 20 fits too), ItemReference 18,
// ItemDevice 9 (Module), ItemPort 5 (Field), ItemVariable 6).
const (
	// ItemKeyword is a block type.
	ItemKeyword ItemKind = iota + 1
	// ItemProperty is an attribute name.
	ItemProperty
	// ItemValue is an enum value or a boolean.
	ItemValue
	// ItemReference is a declared name after KIND., or a whole KIND.NAME.
	ItemReference
	// ItemDevice is a device name in a string.
	ItemDevice
	// ItemPort is a port name after "DEVICE:".
	ItemPort
	// ItemVariable is a var. or local. name.
	ItemVariable
)

// Item is one completion.
type Item struct {
	// Label is what the menu shows; Detail a short type or kind; Doc is
	// Markdown.
	Label, Detail, Doc string
	// Kind is what the item inserts.
	Kind ItemKind
	// InsertText is plain text (never snippet syntax) that replaces
	// Replace.
	InsertText string
	// Replace is the word being typed (empty at the cursor when there is
	// none).
	Replace schema.Range
}

// frame is one level of the completion scanner's stack: the root, a block
// body, or a bracket/string of an expression.
type frame struct {
	kind   byte // 'R' root, 'B' block, '{' '[' '(' '"' '$' (interpolation) 'H' (heredoc)
	path   []string
	attr   string // the attribute an expression frame belongs to
	set    map[string]bool
	blocks map[string]bool
	// line is a block or root frame's current statement; labels the
	// label strings it has read.
	line   []hclsyntax.Token
	labels []string
	text   []byte // a string frame's literal text so far
}

func (fr *frame) body() bool { return fr.kind == 'R' || fr.kind == 'B' }

// cursor is the scanner's state at the completion offset.
type cursor struct {
	stack            []*frame
	line             []hclsyntax.Token
	last, prev, prv2 *hclsyntax.Token
	inComment        bool
	tooDeep          bool
}

// maxScanDepth bounds the scanner's stack: twice the nesting the parsers
// accept (nestlimit.Max), so a file too deep to parse completes nothing
// instead of costing quadratic time.
const maxScanDepth = 2 * nestlimit.Max

// scanner is the completion scanner's state.
type scanner struct {
	stack            []*frame
	c                cursor
	captured         bool
	last, prev, prv2 *hclsyntax.Token
	off              int
}

// scan lexes toks up to the end, recording the state at off and the
// attributes every block sets (after off too).
func scan(toks hclsyntax.Tokens, off int) cursor {
	root := &frame{kind: 'R', path: []string{}, set: map[string]bool{}, blocks: map[string]bool{}}
	s := &scanner{stack: []*frame{root}, off: off}
	for i := range toks {
		t := &toks[i]
		if t.Type == hclsyntax.TokenEOF {
			break
		}
		if !s.captured && int(t.Range.Start.Byte) >= off {
			s.capture()
		}
		if t.Type == hclsyntax.TokenComment {
			s.comment(t)
			continue
		}
		s.token(t)
		s.prv2, s.prev, s.last = s.prev, s.last, t
		if len(s.stack) > maxScanDepth {
			// Deeper than any parser here accepts: no completion.
			s.c.tooDeep = true
			return s.c
		}
	}
	if !s.captured {
		s.capture()
	}
	return s.c
}

func (s *scanner) top() *frame { return s.stack[len(s.stack)-1] }

func (s *scanner) capture() {
	s.c.stack = slices.Clone(s.stack)
	for i := len(s.stack) - 1; i >= 0; i-- {
		if s.stack[i].body() {
			s.c.line = slices.Clone(s.stack[i].line)
			break
		}
	}
	s.c.last, s.c.prev, s.c.prv2 = s.last, s.prev, s.prv2
	s.captured = true
}

// comment handles a comment token: the cursor may be in it, and a line
// comment holds its line's newline.
func (s *scanner) comment(t *hclsyntax.Token) {
	nl := bytes.HasSuffix(t.Bytes, []byte("\n"))
	start, end := int(t.Range.Start.Byte), int(t.Range.End.Byte)
	if !s.captured && start < s.off && (s.off < end || s.off == end && !nl) {
		s.c.inComment = true
	}
	if nl {
		s.newline()
	}
}

// push opens an expression frame of kind.
func (s *scanner) push(kind byte) {
	top := s.top()
	fr := &frame{kind: kind, attr: top.attr}
	if top.body() {
		fr.attr = ""
		if len(top.line) >= 2 && top.line[0].Type == hclsyntax.TokenIdent && top.line[1].Type == hclsyntax.TokenEqual {
			fr.attr = string(top.line[0].Bytes)
		}
	}
	s.stack = append(s.stack, fr)
}

// popTo pops to the nearest frame of kind k within a few levels (an
// unmatched closer pops nothing).
func (s *scanner) popTo(k byte) *frame {
	for i := len(s.stack) - 1; i > 0 && i >= len(s.stack)-8; i-- {
		if s.stack[i].kind == k {
			fr := s.stack[i]
			s.stack = s.stack[:i]
			return fr
		}
		if s.stack[i].body() {
			return nil
		}
	}
	return nil
}

// newline ends a statement; a quoted string ends at its line, and so does
// what is in it.
func (s *scanner) newline() {
	for len(s.stack) > 1 && (s.top().kind == '"' || s.top().kind == '$') {
		s.stack = s.stack[:len(s.stack)-1]
	}
	if top := s.top(); top.body() {
		top.line, top.labels = nil, nil
	}
}

// openBrace opens a block when the statement so far is a block header,
// else an object.
func (s *scanner) openBrace() {
	top := s.top()
	if !top.body() || !isHeader(top.line) {
		s.push('{')
		return
	}
	typ := string(top.line[0].Bytes)
	top.blocks[typ] = true
	path := append(slices.Clone(top.path), typ)
	if typ == "content" && top.kind == 'B' && len(top.path) > 0 && top.path[len(top.path)-1] == "dynamic" {
		if lbl := dynamicLabel(s.stack); lbl != "" {
			path = append(slices.Clone(top.path[:len(top.path)-1]), lbl)
		}
	}
	s.stack = append(s.stack, &frame{kind: 'B', path: path, set: map[string]bool{}, blocks: map[string]bool{}, text: []byte(strings.Join(top.labels, "\x00"))})
	top.line, top.labels = nil, nil
}

// closeBrace closes the innermost object or block.
func (s *scanner) closeBrace() {
	for len(s.stack) > 1 {
		fr := s.top()
		s.stack = s.stack[:len(s.stack)-1]
		if fr.kind == 'B' {
			p := s.top()
			p.line, p.labels = nil, nil
			return
		}
		if fr.kind == '{' {
			return
		}
	}
}

// opens maps an opening token to its frame kind, closes a closing one.
var (
	opens = map[hclsyntax.TokenType]byte{
		hclsyntax.TokenOBrack: '[', hclsyntax.TokenOParen: '(', hclsyntax.TokenOHeredoc: 'H',
		hclsyntax.TokenTemplateInterp: '$', hclsyntax.TokenTemplateControl: '$',
	}
	closes = map[hclsyntax.TokenType]byte{
		hclsyntax.TokenCBrack: '[', hclsyntax.TokenCParen: '(', hclsyntax.TokenCHeredoc: 'H',
		hclsyntax.TokenTemplateSeqEnd: '$',
	}
)

// token handles one token that is not a comment.
func (s *scanner) token(t *hclsyntax.Token) {
	top := s.top()
	if k, ok := opens[t.Type]; ok {
		s.push(k)
		return
	}
	if k, ok := closes[t.Type]; ok {
		s.popTo(k)
		return
	}
	switch t.Type {
	case hclsyntax.TokenNewline, hclsyntax.TokenQuotedNewline:
		s.newline()
	case hclsyntax.TokenOBrace:
		s.openBrace()
	case hclsyntax.TokenCBrace:
		s.closeBrace()
	case hclsyntax.TokenOQuote:
		if top.body() {
			top.line = append(top.line, *t)
		}
		s.push('"')
	case hclsyntax.TokenCQuote:
		if fr := s.popTo('"'); fr != nil {
			if p := s.top(); p.body() {
				p.labels = append(p.labels, string(fr.text))
			}
		}
	default:
		if top.kind == '"' && t.Type == hclsyntax.TokenQuotedLit {
			top.text = append(top.text, t.Bytes...)
		}
		if top.body() {
			top.line = append(top.line, *t)
			if len(top.line) == 2 && top.line[0].Type == hclsyntax.TokenIdent && t.Type == hclsyntax.TokenEqual {
				top.set[string(top.line[0].Bytes)] = true
			}
		}
	}
}

// dynamicLabel is the label of the dynamic block frame on top of stack.
func dynamicLabel(stack []*frame) string {
	top := stack[len(stack)-1]
	if len(top.text) == 0 {
		return ""
	}
	l, _, _ := strings.Cut(string(top.text), "\x00")
	return l
}

// isHeader reports whether line is a block header: a type, then labels
// (quoted or bare), no "=".
func isHeader(line []hclsyntax.Token) bool {
	if len(line) == 0 || line[0].Type != hclsyntax.TokenIdent {
		return false
	}
	for _, t := range line[1:] {
		if t.Type != hclsyntax.TokenIdent && t.Type != hclsyntax.TokenOQuote {
			return false
		}
	}
	return true
}

// block is the innermost block or root frame of the cursor.
func (c *cursor) block() *frame {
	for i := len(c.stack) - 1; i >= 0; i-- {
		if c.stack[i].body() {
			return c.stack[i]
		}
	}
	return c.stack[0]
}

// refAttrKinds are the attributes whose value is a reference, and the
// kind they refer to.
var refAttrKinds = map[string]string{
	"qos_policy": "qos_policy", "ecn": "ecn_profile", "pfc_watchdog": "pfc_watchdog",
	"classes": "traffic_class", "acl_in": "acl", "acl_out": "acl",
}

// singletons are the nested blocks a block has at most one of.
var singletons = map[string]bool{"credentials": true, "rdma": true, "sm": true, "buffer": true}

// Complete returns the completions at byte offset off of file path:
//   - at the top level, the root block types;
//   - in a block body, the attributes and nested blocks the block accepts
//     (the schema's), minus the attributes already set in the block and
//     a second rdma/credentials/sm/buffer;
//   - after `ATTR = ` or inside `ATTR = "`, an enum attribute's values
//     (the schema's tables; platform from WithPlatforms), true and false
//     for a bool, and KIND.NAME for a reference attribute;
//   - after traffic_class., qos_policy., ecn_profile., pfc_watchdog.,
//     acl., var. or local., the names declared in any file;
//   - inside the string of link a/b and port peer, device names, and
//     after "DEVICE:" that device's ports; device names in subnet
//     gateway, mesh lower/upper and partition members (literal blocks,
//     and every instance and port of WithModel's fabric);
//   - inside a role label, the device kinds; a dynamic label, the block
//     types the enclosing block nests.
//
// The scan is lexical, so a file that does not parse completes too.
// JSON files get no completions. Items are sorted by label.
func (ix *Index) Complete(path string, off int) []Item {
	f := ix.files[path]
	if f == nil || !f.native || off < 0 || off > len(f.src) || f.toks == nil {
		return nil
	}
	c := scan(f.toks, off)
	if c.inComment || c.tooDeep {
		return nil
	}
	here := hcl.Range{Filename: path, Start: posAt(f.src, off), End: posAt(f.src, off)}
	word := c.word(off)
	repl := here
	if word != nil {
		repl = word.Range
	}
	items := ix.complete(f, c, word, off, repl)
	sort.SliceStable(items, func(i, j int) bool { return items[i].Label < items[j].Label })
	return items
}

// word is the token being typed: the identifier, string text or number
// the cursor is in or right after.
func (c *cursor) word(off int) *hclsyntax.Token {
	if c.last == nil || int(c.last.Range.End.Byte) < off || int(c.last.Range.Start.Byte) >= off {
		return nil
	}
	switch c.last.Type {
	case hclsyntax.TokenIdent, hclsyntax.TokenQuotedLit, hclsyntax.TokenNumberLit:
		return c.last
	}
	return nil
}

func isType(t *hclsyntax.Token, typ hclsyntax.TokenType) bool { return t != nil && t.Type == typ }

// complete picks the completions of the cursor's context.
func (ix *Index) complete(f *file, c cursor, word *hclsyntax.Token, off int, repl hcl.Range) []Item {
	blk := c.block()
	top := c.stack[len(c.stack)-1]
	ident := word == nil || word.Type == hclsyntax.TokenIdent
	switch {
	case word != nil && ident && isType(c.prev, hclsyntax.TokenDot) && isType(c.prv2, hclsyntax.TokenIdent):
		return ix.names2(string(c.prv2.Bytes), repl)
	case word == nil && isType(c.last, hclsyntax.TokenDot) && int(c.last.Range.End.Byte) == off && isType(c.prev, hclsyntax.TokenIdent):
		return ix.names2(string(c.prev.Bytes), repl)
	case top.kind == '"':
		return ix.inString(f, c, blk, top, word, off, repl)
	case top.body():
		line := c.line
		if word != nil && len(line) > 0 && line[len(line)-1].Range == word.Range {
			line = line[:len(line)-1]
		}
		switch {
		case len(line) == 0 && ident:
			return ix.keywords(blk, repl)
		case len(line) == 2 && isType(&line[0], hclsyntax.TokenIdent) && isType(&line[1], hclsyntax.TokenEqual) && ident:
			return ix.values(blk.path, string(line[0].Bytes), true, repl)
		}
	case top.kind == '[' && (isType(c.last, hclsyntax.TokenOBrack) || isType(c.last, hclsyntax.TokenComma) || word != nil && ident):
		if k, ok := refAttrKinds[top.attr]; ok {
			return ix.refItems(k, true, repl)
		}
	}
	return nil
}

// keywords are the attributes and blocks of the block frame blk.
func (ix *Index) keywords(blk *frame, repl hcl.Range) []Item {
	spec, ok := specFor(blk.path)
	if !ok {
		return nil
	}
	var out []Item
	for _, a := range spec.Attrs {
		if blk.set[a.Name] {
			continue
		}
		doc, _ := AttrDoc(spec.Path, a.Name)
		info, _ := langDocs().lookup(spec.Path, a.Name)
		det := info.Type
		if a.Required {
			det = strings.TrimSpace(det + " (required)")
		}
		out = append(out, Item{Label: a.Name, Detail: det, Doc: doc, Kind: ItemProperty, InsertText: a.Name, Replace: conv(repl)})
	}
	for _, b := range spec.Blocks {
		if b == "content" && blk.set["content"] || singletons[b] && blk.blocks[b] {
			continue
		}
		p := append(slices.Clone(spec.Path), b)
		doc, _ := BlockDoc(p)
		det := "block"
		if bs, ok := specFor(p); ok && len(bs.Labels) > 0 {
			det = "block " + b + ` "` + strings.ToUpper(bs.Labels[0]) + `"`
		}
		out = append(out, Item{Label: b, Detail: det, Doc: doc, Kind: ItemKeyword, InsertText: b, Replace: conv(repl)})
	}
	return out
}

// values completes the value of attribute attr of the block at path;
// quote is true outside a string (the insert text is quoted).
func (ix *Index) values(path []string, attr string, quote bool, repl hcl.Range) []Item {
	var out []Item
	for _, v := range ix.enumValues(path, attr) {
		ins := v
		if quote {
			ins = `"` + v + `"`
		}
		out = append(out, Item{Label: v, Detail: attr, Kind: ItemValue, InsertText: ins, Replace: conv(repl)})
	}
	if !quote {
		return out
	}
	if info, ok := langDocs().lookup(path, attr); ok && strings.HasPrefix(info.Type, "bool") {
		for _, v := range []string{"true", "false"} {
			out = append(out, Item{Label: v, Detail: "bool", Kind: ItemValue, InsertText: v, Replace: conv(repl)})
		}
	}
	if k, ok := refAttrKinds[attr]; ok && attr != "classes" && !strings.HasPrefix(attr, "acl_") {
		out = append(out, ix.refItems(k, true, repl)...)
	}
	return out
}

// enumValues are the values of an enum attribute.
func (ix *Index) enumValues(path []string, attr string) []string {
	if join(path) == "device" && attr == "platform" {
		return ix.platforms
	}
	return schema.EnumValues(path, attr)
}

// refItems are the declared names of kind k: "NAME" (whole false) or
// "KIND.NAME".
func (ix *Index) refItems(k string, whole bool, repl hcl.Range) []Item {
	var out []Item
	seen := map[string]bool{}
	for _, name := range ix.names {
		f := ix.files[name]
		if f.root == nil {
			continue
		}
		for _, n := range f.root.blocks {
			var names []string
			var det string
			switch {
			case k == "local" && n.typ == "locals":
				for _, a := range n.attrs {
					names = append(names, a.name)
				}
				det = "local"
			case k == "var" && n.typ == "variable" && len(n.labels) == 1:
				names, det = []string{n.labels[0]}, detail(n)
			case n.typ == k && len(n.labels) == 1:
				names, det = []string{n.labels[0]}, detail(n)
			}
			for _, nm := range names {
				if seen[nm] {
					continue
				}
				seen[nm] = true
				it := Item{Label: nm, Detail: det, Kind: ItemReference, InsertText: nm, Replace: conv(repl)}
				if k == "var" || k == "local" {
					it.Kind = ItemVariable
				}
				if whole {
					it.Label, it.InsertText = k+"."+nm, k+"."+nm
				}
				if it.Detail == "" {
					it.Detail = k
				}
				out = append(out, it)
			}
		}
	}
	return out
}

// names2 completes NAME after "KIND.".
func (ix *Index) names2(kind string, repl hcl.Range) []Item {
	if !schema.IsRefKind(kind) && kind != "var" && kind != "local" {
		return nil
	}
	return ix.refItems(kind, false, repl)
}

// inString completes inside a quoted string.
func (ix *Index) inString(f *file, c cursor, blk, top *frame, word *hclsyntax.Token, off int, repl hcl.Range) []Item {
	// The literal text before the cursor, and the range of the whole literal.
	var prefix string
	if word != nil && word.Type == hclsyntax.TokenQuotedLit {
		prefix = string(word.Bytes[:off-int(word.Range.Start.Byte)])
	} else if word != nil {
		return nil
	}
	if top.attr == "" {
		// A label being typed: role "KIND", dynamic "TYPE".
		if len(c.line) == 0 || c.line[0].Type != hclsyntax.TokenIdent {
			return nil
		}
		var vals []string
		switch string(c.line[0].Bytes) {
		case "role":
			if len(blk.path) == 0 {
				vals = schema.EnumValues([]string{"device"}, "kind")
			}
		case "dynamic":
			if spec, ok := specFor(blk.path); ok {
				for _, b := range spec.Blocks {
					if b != "dynamic" {
						vals = append(vals, b)
					}
				}
			}
		}
		var out []Item
		for _, v := range vals {
			out = append(out, Item{Label: v, Detail: string(c.line[0].Bytes) + " label", Kind: ItemValue, InsertText: v, Replace: conv(repl)})
		}
		return out
	}
	switch nameUse(blk.path, top.attr) {
	case "endpoint":
		if i := strings.IndexByte(prefix, ':'); i >= 0 {
			dev := prefix[:i]
			r := repl
			r.Start.Byte += i + 1
			r.Start = posAt(f.src, int(r.Start.Byte))
			var out []Item
			for _, p := range ix.portNameList(dev) {
				out = append(out, Item{Label: p, Detail: "port of " + dev, Kind: ItemPort, InsertText: p, Replace: conv(r)})
			}
			return out
		}
		return ix.deviceItems(repl)
	case "device":
		return ix.deviceItems(repl)
	}
	return ix.values(blk.path, top.attr, false, repl)
}

// deviceItems are the device names.
func (ix *Index) deviceItems(repl hcl.Range) []Item {
	var out []Item
	for _, d := range ix.deviceNameList() {
		out = append(out, Item{Label: d, Detail: "device", Kind: ItemDevice, InsertText: d, Replace: conv(repl)})
	}
	return out
}

// posAt is the position of byte off of src: line, column counted in
// characters (runes) from 1, byte. Only Byte is authoritative for the
// server's conversions.
func posAt(src []byte, off int) hcl.Pos {
	off = min(max(off, 0), len(src))
	line := 1 + bytes.Count(src[:off], []byte("\n"))
	ls := bytes.LastIndexByte(src[:off], '\n') + 1
	return hcl.Pos{Line: line, Column: 1 + utf8.RuneCount(src[ls:off]), Byte: off}
}
