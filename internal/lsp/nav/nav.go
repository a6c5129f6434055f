// Package nav is the syntax intelligence of `fabricgen lsp`: document
// symbols, what is under the cursor, go-to-definition, references,
// completion and the edits of the quick fixes, computed from the intent
// files' syntax (and, when the server has one, the loaded model).
//
// Positions are byte offsets into a file's source (0-based); ranges are
// schema.Range, as schema.Load reports them. The language server converts
// LSP positions (lines and UTF-16 or UTF-8 characters) to bytes and back.
//
// An Index is immutable once built: With* return a changed copy, so one
// index may serve concurrent requests.
package nav

import (
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"

	"github.com/fabricgen/fabricgen/internal/nestlimit"
	"github.com/fabricgen/fabricgen/schema"
)

// Index is the syntax of one fabric directory's intent files (the overlay
// applied).
type Index struct {
	files     map[string]*file
	names     []string // sorted file names
	model     *schema.Fabric
	platforms []string
	// decls are the syntactic declarations of device and port names.
	decls *nameDecls
}

// file is one indexed file.
type file struct {
	name   string
	src    []byte
	native bool
	// root is the file's top level: a node without type whose children
	// are the file's blocks. Nil when the file was not parsed (too deep,
	// too large, or the parser panicked).
	root *node
	// toks are the native-syntax tokens (nil for JSON), lexed even when
	// the file does not parse: completion reads them.
	toks hclsyntax.Tokens
}

// node is one block of a file.
type node struct {
	typ         string
	labels      []string
	labelRanges []hcl.Range
	typeRange   hcl.Range
	rng         hcl.Range // the whole block
	defRange    hcl.Range // type and labels
	openBrace   hcl.Range
	closeBrace  hcl.Range
	attrs       []*attr
	blocks      []*node
	parent      *node
	// path is the block's place in the language (schema.Language): the
	// content of a dynamic "port" block of a device is ["device", "port"].
	path []string
	// body is the native body (nil for JSON).
	body *hclsyntax.Body
}

// attr is one attribute of a block.
type attr struct {
	name      string
	nameRange hcl.Range
	exprRange hcl.Range
	rng       hcl.Range
	expr      hclsyntax.Expression // nil for JSON
}

// New parses files (path → source): *.fab.hcl with hclsyntax, *.fab.json
// with HCL's JSON parser (any other name is read as native syntax). A file
// that does not parse is indexed as far as the parser got; one nested
// deeper than nestlimit.Max, or larger than schema.MaxFileSize, is
// indexed without blocks (its tokens still serve completion when it is
// native syntax and within the size bound). New never panics, whatever
// the bytes.
func New(files map[string][]byte) *Index {
	ix := &Index{files: map[string]*file{}}
	for name, src := range files {
		ix.files[name] = parseFile(name, src)
		ix.names = append(ix.names, name)
	}
	sort.Strings(ix.names)
	ix.decls = syntacticDecls(ix)
	return ix
}

// WithModel returns a copy of ix whose device and port names resolve
// through f.Devices as well (every for_each/count instance and every port,
// each with its declaring block's range) when f is non-nil. The model is
// read, never changed.
func (ix *Index) WithModel(f *schema.Fabric) *Index {
	c := *ix
	c.model = f
	return &c
}

// WithPlatforms returns a copy of ix that completes `platform` with names
// (platforms.Catalog()'s names).
func (ix *Index) WithPlatforms(names []string) *Index {
	c := *ix
	c.platforms = append([]string(nil), names...)
	return &c
}

// parseFile parses one file, recovering from a parser panic (never seen,
// but the bytes are an editor buffer's).
func parseFile(name string, src []byte) (f *file) {
	f = &file{name: name, src: src, native: !strings.HasSuffix(name, schema.JSONSuffix)}
	if len(src) > schema.MaxFileSize {
		return f
	}
	defer func() {
		if recover() != nil {
			f.root = nil
		}
	}()
	if f.native {
		f.toks, _ = hclsyntax.LexConfig(src, name, hcl.InitialPos)
		if nestlimit.HCL(src, name) != nil {
			return f
		}
		hf, _ := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
		if hf == nil {
			return f
		}
		if body, ok := hf.Body.(*hclsyntax.Body); ok {
			f.root = &node{rng: body.SrcRange, body: body, path: []string{}}
			nativeChildren(f.root, body)
		}
		return f
	}
	if nestlimit.JSON(src, name) != nil {
		return f
	}
	hf, _ := json.Parse(src, name)
	if hf == nil || hf.Body == nil {
		return f
	}
	f.root = &node{rng: hcl.Range{Filename: name, Start: hcl.InitialPos, End: endPos(src, name)}, path: []string{}}
	jsonChildren(f.root, hf.Body, 0)
	return f
}

// endPos is the position after the last byte of src.
func endPos(src []byte, name string) hcl.Pos {
	p := hcl.InitialPos
	for _, c := range src {
		p.Byte++
		p.Column++
		if c == '\n' {
			p.Line++
			p.Column = 1
		}
	}
	return p
}

// childPath is the language path of a block of type typ (labels labels)
// inside parent.
func childPath(parent *node, typ string, labels []string) []string {
	if typ == "content" && len(parent.path) > 0 && parent.typ == "dynamic" && len(parent.labels) == 1 {
		base := parent.path[:len(parent.path)-1]
		return append(append([]string{}, base...), parent.labels[0])
	}
	return append(append([]string{}, parent.path...), typ)
}

// nativeChildren fills n from a native body.
func nativeChildren(n *node, body *hclsyntax.Body) {
	for _, a := range body.Attributes {
		n.attrs = append(n.attrs, &attr{name: a.Name, nameRange: a.NameRange, exprRange: a.Expr.Range(), rng: a.SrcRange, expr: a.Expr})
	}
	sort.Slice(n.attrs, func(i, j int) bool { return n.attrs[i].rng.Start.Byte < n.attrs[j].rng.Start.Byte })
	for _, b := range body.Blocks {
		c := &node{typ: b.Type, labels: b.Labels, labelRanges: b.LabelRanges, typeRange: b.TypeRange,
			rng: hcl.RangeBetween(b.TypeRange, b.CloseBraceRange), defRange: b.DefRange(),
			openBrace: b.OpenBraceRange, closeBrace: b.CloseBraceRange, parent: n, body: b.Body}
		c.path = childPath(n, b.Type, b.Labels)
		nativeChildren(c, b.Body)
		n.blocks = append(n.blocks, c)
	}
}

// specs is schema.Language keyed by the joined path.
func specs() map[string]schema.BlockSpec {
	out := map[string]schema.BlockSpec{}
	for _, b := range schema.Language() {
		out[strings.Join(b.Path, "/")] = b
	}
	return out
}

// specFor is the language's spec of path (ok false for a block the
// language does not know).
func specFor(path []string) (schema.BlockSpec, bool) {
	s, ok := langSpecs()[strings.Join(path, "/")]
	return s, ok
}

// jsonChildren fills n from a JSON body, decoding it against the language
// (JSON bodies have no structure of their own). depth bounds the walk.
func jsonChildren(n *node, body hcl.Body, depth int) {
	spec, ok := specFor(n.path)
	if !ok || depth > 8 {
		return
	}
	if spec.AnyAttrs {
		attrs, _ := body.JustAttributes()
		for _, a := range attrs {
			n.attrs = append(n.attrs, &attr{name: a.Name, nameRange: a.NameRange, exprRange: a.Expr.Range(), rng: a.Range})
		}
		sortAttrs(n)
		return
	}
	hs := &hcl.BodySchema{}
	for _, a := range spec.Attrs {
		hs.Attributes = append(hs.Attributes, hcl.AttributeSchema{Name: a.Name})
	}
	for _, t := range spec.Blocks {
		ls, _ := specFor(append(append([]string{}, n.path...), t))
		hs.Blocks = append(hs.Blocks, hcl.BlockHeaderSchema{Type: t, LabelNames: ls.Labels})
	}
	c, _, _ := body.PartialContent(hs)
	if c == nil {
		return
	}
	for _, a := range c.Attributes {
		n.attrs = append(n.attrs, &attr{name: a.Name, nameRange: a.NameRange, exprRange: a.Expr.Range(), rng: a.Range})
	}
	sortAttrs(n)
	for _, b := range c.Blocks {
		br := b.DefRange
		if b.Body != nil {
			if mr := b.Body.MissingItemRange(); mr.End.Byte > br.End.Byte {
				br = hcl.RangeBetween(b.DefRange, mr)
			}
		}
		ch := &node{typ: b.Type, labels: b.Labels, labelRanges: b.LabelRanges, typeRange: b.TypeRange,
			rng: hcl.RangeBetween(b.DefRange, br), defRange: b.DefRange, parent: n}
		ch.path = childPath(n, b.Type, b.Labels)
		if b.Type != "dynamic" {
			jsonChildren(ch, b.Body, depth+1)
		}
		n.blocks = append(n.blocks, ch)
	}
	sort.Slice(n.blocks, func(i, j int) bool { return n.blocks[i].defRange.Start.Byte < n.blocks[j].defRange.Start.Byte })
}

func sortAttrs(n *node) {
	sort.Slice(n.attrs, func(i, j int) bool { return n.attrs[i].rng.Start.Byte < n.attrs[j].rng.Start.Byte })
}

// within reports whether off is inside r (end inclusive: a cursor right
// after a word is on it).
func within(r hcl.Range, off int) bool {
	return int(r.Start.Byte) <= off && off <= int(r.End.Byte)
}

// innermost is the innermost block of f whose range holds off (f.root when
// none does); nil when f has no tree.
func (f *file) innermost(off int) *node {
	if f.root == nil {
		return nil
	}
	n := f.root
	for {
		var next *node
		for _, c := range n.blocks {
			if within(c.rng, off) {
				next = c
				break
			}
		}
		if next == nil {
			return n
		}
		n = next
	}
}

// attrAt is the attribute of n whose range holds off.
func (n *node) attrAt(off int) *attr {
	for _, a := range n.attrs {
		if within(a.rng, off) {
			return a
		}
	}
	return nil
}

// get is n's attribute named name.
func (n *node) get(name string) *attr {
	for _, a := range n.attrs {
		if a.name == name {
			return a
		}
	}
	return nil
}

// conv converts an HCL range.
func conv(r hcl.Range) schema.Range { return schema.RangeFromHCL(r) }

// walk calls fn for every block of f, parents first.
func (f *file) walk(fn func(*node)) {
	if f.root == nil {
		return
	}
	var rec func(*node)
	rec = func(n *node) {
		fn(n)
		for _, c := range n.blocks {
			rec(c)
		}
	}
	for _, c := range f.root.blocks {
		rec(c)
	}
}
