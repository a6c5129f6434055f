package lsp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/internal/lsp/hoverinfo"
	"github.com/fabricgen/fabricgen/internal/lsp/jsonrpc"
	"github.com/fabricgen/fabricgen/internal/lsp/nav"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/schema"
)

// view is what a request about one position reads: the directory's
// syntax index over the buffers and files, the last analysis' model (nil
// when the intent did not load), the texts and the encoding.
type view struct {
	path  string
	off   int
	ix    *nav.Index
	model *schema.Fabric
	texts map[string]*text
	enc   string
	lang  []schema.BlockSpec
}

// viewAt builds the view of a position in an open document.
func (s *server) viewAt(uri string, pos *Position) (*view, *jsonrpc.Error) {
	path, d, rerr := s.doc(uri)
	if rerr != nil {
		return nil, rerr
	}
	dir := filepath.Dir(path)
	s.mu.Lock()
	enc := s.enc
	st := s.state(dir)
	if st.ix == nil || st.ixGen != st.edits {
		files := map[string][]byte{}
		texts := map[string]*text{}
		for p, doc := range s.docs {
			if filepath.Dir(p) == dir && filepath.Base(p) != lintConfigName {
				files[p], texts[p] = doc.text.src, doc.text
			}
		}
		s.mu.Unlock()
		// Files not open: as the last analysis read them, else from disk.
		if paths, err := schema.IntentFiles(dir); err == nil {
			for _, p := range paths {
				if _, ok := files[p]; ok {
					continue
				}
				s.mu.Lock()
				t := st.texts[p]
				s.mu.Unlock()
				if t == nil {
					b, err := readlimit.File(p, schema.MaxFileSize)
					if err != nil {
						continue
					}
					t = newText(b)
				}
				files[p], texts[p] = t.src, t
			}
		}
		ix := nav.New(files).WithPlatforms(s.platformNames)
		s.mu.Lock()
		st.ix, st.ixTexts, st.ixGen = ix, texts, st.edits
	}
	v := &view{path: path, ix: st.ix.WithModel(st.fabric), model: st.fabric, texts: st.ixTexts, enc: enc, lang: s.lang}
	if pos != nil {
		v.off = d.text.offset(*pos, enc)
	}
	s.mu.Unlock()
	if _, ok := v.texts[path]; !ok {
		v.texts = maps2(v.texts, path, d.text)
	}
	return v, nil
}

// maps2 is m with k set to v, m left as it is.
func maps2(m map[string]*text, k string, v *text) map[string]*text {
	out := make(map[string]*text, len(m)+1)
	for a, b := range m {
		out[a] = b
	}
	out[k] = v
	return out
}

// location converts a schema range into an LSP location.
func (v *view) location(r schema.Range) (Location, bool) {
	t, ok := v.texts[r.Filename]
	if !ok || r.IsZero() {
		return Location{}, false
	}
	return Location{URI: pathToURI(r.Filename), Range: t.rangeOf(r, v.enc)}, true
}

func (v *view) locations(rs []schema.Range) []Location {
	out := []Location{}
	for _, r := range rs {
		if l, ok := v.location(r); ok {
			out = append(out, l)
		}
	}
	return out
}

// positionView decodes a request about a position and builds its view.
func (s *server) positionView(params json.RawMessage) (*view, *jsonrpc.Error) {
	var p TextDocumentPositionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	return s.viewAt(p.TextDocument.URI, &p.Position)
}

func (s *server) definition(params json.RawMessage) (any, *jsonrpc.Error) {
	v, rerr := s.positionView(params)
	if rerr != nil {
		return nil, rerr
	}
	return v.locations(v.ix.Definition(v.path, v.off)), nil
}

func (s *server) references(params json.RawMessage) (any, *jsonrpc.Error) {
	var p ReferenceParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	v, rerr := s.viewAt(p.TextDocument.URI, &p.Position)
	if rerr != nil {
		return nil, rerr
	}
	return v.locations(v.ix.References(v.path, v.off, p.Context.IncludeDeclaration)), nil
}

// hover says what is under the cursor: a reference's summary and reach,
// a device's or port's effective QoS with where each value was set, an
// attribute's documentation.
func (s *server) hover(params json.RawMessage) (any, *jsonrpc.Error) {
	v, rerr := s.positionView(params)
	if rerr != nil {
		return nil, rerr
	}
	t := v.ix.At(v.path, v.off)
	md := v.hoverText(t)
	if md == "" {
		return nil, nil
	}
	h := Hover{Contents: MarkupContent{Kind: "markdown", Value: md}}
	if l, ok := v.location(t.Range); ok && l.URI == pathToURI(v.path) {
		h.Range = &l.Range
	}
	return h, nil
}

// notLoaded is said where hover needs the model and the intent does not load.
const notLoaded = "\n\n*The fabric does not load (see its errors), so its effective values are not known.*"

func (v *view) hoverText(t nav.Target) string {
	file := filepath.Base(v.path)
	switch t.Kind {
	case nav.Reference, nav.BlockLabel, nav.DevicePortString, nav.BlockType:
	case nav.Attribute:
		md, _ := nav.AttrDoc(t.Block, t.Attr)
		return md
	default:
		return ""
	}
	switch t.Ref.Kind {
	case "device":
		if v.model == nil {
			return "**device " + t.Ref.Name + "**" + notLoaded
		}
		if d := v.model.Device(t.Ref.Name); d != nil {
			return hoverinfo.Device(d, file)
		}
	case "port":
		if v.model == nil {
			return "**port " + t.Ref.Name + "**" + notLoaded
		}
		dev, port, _ := strings.Cut(t.Ref.Name, ":")
		if d := v.model.Device(dev); d != nil {
			if pt := d.Port(port); pt != nil {
				return hoverinfo.Port(pt, file)
			}
		}
	case "", "var", "local":
	default:
		if v.model == nil {
			break
		}
		if md, ok := hoverinfo.Reference(v.model, t.Ref.Kind, t.Ref.Name); ok {
			return md
		}
	}
	// A device or port block declared once for many instances (for_each,
	// count, dynamic): found by its header's range in the model.
	if len(t.Block) > 0 && (t.Kind == nav.BlockType || t.Kind == nav.BlockLabel) {
		switch t.Block[len(t.Block)-1] {
		case "device":
			if v.model == nil {
				return ""
			}
			var devs []*schema.Device
			for _, d := range v.model.Devices {
				if sameStart(d.Range, t.BlockRange) {
					devs = append(devs, d)
				}
			}
			if len(devs) == 1 {
				return hoverinfo.Device(devs[0], file)
			}
			if len(devs) > 1 {
				return hoverinfo.Devices(devs, file)
			}
		case "port", "ports":
			if v.model == nil {
				return ""
			}
			var ports []*schema.Port
			for _, d := range v.model.Devices {
				for _, pt := range d.Ports {
					if sameStart(pt.Range, t.BlockRange) {
						ports = append(ports, pt)
					}
				}
			}
			if len(ports) > 0 {
				md := hoverinfo.Port(ports[0], file)
				if len(ports) > 1 {
					md += fmt.Sprintf("\n\n*This block declares %d ports; this is the first.*", len(ports))
				}
				return md
			}
		}
		if md, ok := nav.BlockDoc(t.Block); ok && t.Kind == nav.BlockType {
			return md
		}
	}
	return ""
}

// sameStart reports whether two ranges start at the same place.
func sameStart(a, b schema.Range) bool {
	return a.Filename == b.Filename && a.Start.Line == b.Start.Line && a.Start.Column == b.Start.Column
}

// LSP CompletionItemKind values, per nav.ItemKind.
var itemKinds = map[nav.ItemKind]int{
	nav.ItemKeyword:   14, // Keyword
	nav.ItemProperty:  10, // Property
	nav.ItemValue:     12, // Value
	nav.ItemReference: 18, // Reference
	nav.ItemDevice:    7,  // Class
	nav.ItemPort:      5,  // Field
	nav.ItemVariable:  6,  // Variable
}

func (s *server) completion(params json.RawMessage) (any, *jsonrpc.Error) {
	v, rerr := s.positionView(params)
	if rerr != nil {
		return nil, rerr
	}
	items := v.ix.Complete(v.path, v.off)
	out := CompletionList{Items: make([]CompletionItem, 0, len(items))}
	t := v.texts[v.path]
	for i, it := range items {
		ci := CompletionItem{Label: it.Label, Kind: itemKinds[it.Kind], Detail: it.Detail, SortText: fmt.Sprintf("%05d", i)}
		if it.Doc != "" {
			ci.Documentation = &MarkupContent{Kind: "markdown", Value: it.Doc}
		}
		ci.TextEdit = &TextEdit{Range: t.rangeOf(it.Replace, v.enc), NewText: it.InsertText}
		out.Items = append(out.Items, ci)
	}
	return out, nil
}

// LSP SymbolKind values, per nav.SymbolKind (see its constants).
var symbolKinds = map[nav.SymbolKind]int{
	nav.SymFabric:     2,
	nav.SymVariable:   13,
	nav.SymLocals:     3,
	nav.SymLocal:      14,
	nav.SymDefinition: 23,
	nav.SymDevice:     19,
	nav.SymPort:       8,
	nav.SymLink:       11,
	nav.SymBlock:      7,
}

func (s *server) documentSymbol(params json.RawMessage) (any, *jsonrpc.Error) {
	var p DocumentSymbolParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	v, rerr := s.viewAt(p.TextDocument.URI, nil)
	if rerr != nil {
		return nil, rerr
	}
	t := v.texts[v.path]
	var conv func([]nav.Symbol) []DocumentSymbol
	conv = func(syms []nav.Symbol) []DocumentSymbol {
		out := make([]DocumentSymbol, 0, len(syms))
		for _, sy := range syms {
			kind := symbolKinds[sy.Kind]
			if kind == 0 {
				kind = 7
			}
			out = append(out, DocumentSymbol{Name: sy.Name, Detail: sy.Detail, Kind: kind,
				Range: t.rangeOf(sy.Range, v.enc), SelectionRange: t.rangeOf(sy.Select, v.enc), Children: conv(sy.Children)})
		}
		return out
	}
	return conv(v.ix.Symbols(v.path)), nil
}

// codeAction offers, for each fabricgen diagnostic of the request, its
// one-attribute fix (where the block the finding points into takes that
// attribute) and a fabricgen:ignore comment.
func (s *server) codeAction(params json.RawMessage) (any, *jsonrpc.Error) {
	var p CodeActionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	if len(p.Context.Only) > 0 && !slices.ContainsFunc(p.Context.Only, func(k string) bool { return k == "quickfix" || strings.HasPrefix("quickfix", k+".") || k == "" }) {
		return []CodeAction{}, nil
	}
	v, rerr := s.viewAt(p.TextDocument.URI, nil)
	if rerr != nil {
		return nil, rerr
	}
	t := v.texts[v.path]
	uri := p.TextDocument.URI
	out := []CodeAction{}
	for _, d := range p.Context.Diagnostics {
		if d.Source != "fabricgen" && d.Source != "" || len(d.Data) == 0 {
			continue
		}
		var dd diagData
		if json.Unmarshal(d.Data, &dd) != nil || dd.Rule == "" {
			continue
		}
		r := v.schemaRange(t, d.Range)
		edit := func(e nav.Edit) *WorkspaceEdit {
			return &WorkspaceEdit{Changes: map[string][]TextEdit{uri: {{Range: t.rangeOf(e.Range, v.enc), NewText: e.NewText}}}}
		}
		if dd.Attr != "" && v.takes(r, dd.Attr) {
			if e, ok := v.ix.SetAttr(r, dd.Attr, dd.Value); ok {
				out = append(out, CodeAction{Title: fmt.Sprintf("Set %s = %s", dd.Attr, dd.Value), Kind: "quickfix",
					Diagnostics: []Diagnostic{d}, IsPreferred: true, Edit: edit(e)})
			}
		}
		if e, ok := v.ix.Ignore(r, dd.Rule, ""); ok {
			out = append(out, CodeAction{Title: fmt.Sprintf("Suppress with # fabricgen:ignore %s (give the reason)", dd.Rule), Kind: "quickfix",
				Diagnostics: []Diagnostic{d}, Edit: edit(e)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].IsPreferred && !out[j].IsPreferred })
	return out, nil
}

// schemaRange converts an LSP range of t back into a schema range.
func (v *view) schemaRange(t *text, r Range) schema.Range {
	pos := func(p Position) schema.Pos {
		off := t.offset(p, v.enc)
		line := sort.Search(len(t.lines), func(i int) bool { return t.lines[i] > off }) - 1
		return schema.Pos{Line: int32(line + 1), Column: int32(off - t.lines[line] + 1), Byte: int32(off)}
	}
	return schema.Range{Filename: v.path, Start: pos(r.Start), End: pos(r.End)}
}

// takes reports whether the block r points into accepts attribute attr,
// so that a one-attribute fix never writes an attribute the block refuses.
func (v *view) takes(r schema.Range, attr string) bool {
	tg := v.ix.At(r.Filename, int(r.Start.Byte))
	if tg.Attr == attr {
		return true
	}
	for _, b := range v.lang {
		if slices.Equal(b.Path, tg.Block) {
			for _, a := range b.Attrs {
				if a.Name == attr {
					return true
				}
			}
		}
	}
	return false
}
