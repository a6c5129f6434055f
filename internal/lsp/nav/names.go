package nav

import (
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/fabricgen/fabricgen/internal/natsort"
	"github.com/fabricgen/fabricgen/schema"
)

// nameDecls are the device and port names the syntax declares.
type nameDecls struct {
	// devices maps a device name to its declaring block's label range.
	devices map[string][]hcl.Range
	// ports maps "DEVICE:PORT" to the port's declaration: a port block's
	// label, or the name's string in a ports block's names.
	ports map[string][]hcl.Range
	// instances maps a device block to the names of its instances.
	instances map[*node][]string
}

// maxKeys bounds the instance names read from one for_each.
const maxKeys = 1 << 16

// syntacticDecls reads the device and port names of every device block
// whose names the syntax fixes: a literal label (or a literal name), or a
// for_each over a literal collection (directly, through toset/tolist, or
// a local holding one) whose instances are named each.key.
func syntacticDecls(ix *Index) *nameDecls {
	d := &nameDecls{devices: map[string][]hcl.Range{}, ports: map[string][]hcl.Range{}, instances: map[*node][]string{}}
	locals := ix.localExprs()
	for _, name := range ix.names {
		f := ix.files[name]
		if f.root == nil || !f.native {
			continue
		}
		for _, n := range f.root.blocks {
			if n.typ != "device" || len(n.labels) != 1 {
				continue
			}
			names := deviceNames(n, locals)
			if len(names) == 0 {
				continue
			}
			d.instances[n] = names
			decl := n.labelRanges[0]
			ports := devicePorts(n)
			for _, dn := range names {
				d.devices[dn] = append(d.devices[dn], decl)
				for _, p := range ports {
					k := dn + ":" + p.val
					d.ports[k] = append(d.ports[k], p.rng)
				}
			}
		}
	}
	return d
}

// localExprs maps each local's name to its expression (the first one).
func (ix *Index) localExprs() map[string]hclsyntax.Expression {
	out := map[string]hclsyntax.Expression{}
	for _, name := range ix.names {
		f := ix.files[name]
		if f.root == nil {
			continue
		}
		for _, n := range f.root.blocks {
			if n.typ != "locals" {
				continue
			}
			for _, a := range n.attrs {
				if _, dup := out[a.name]; !dup && a.expr != nil {
					out[a.name] = a.expr
				}
			}
		}
	}
	return out
}

// deviceNames are the instance names of device block n, as far as the
// syntax fixes them.
func deviceNames(n *node, locals map[string]hclsyntax.Expression) []string {
	if n.get("count") != nil {
		return nil
	}
	nameAttr := n.get("name")
	fe := n.get("for_each")
	if fe == nil {
		if nameAttr == nil {
			return []string{n.labels[0]}
		}
		if s, ok := literalString(nameAttr.expr); ok {
			return []string{s.val}
		}
		return nil
	}
	if nameAttr != nil && !isTraversal(nameAttr.expr, "each", "key") {
		return nil
	}
	return literalKeys(fe.expr, locals, 0)
}

// isTraversal reports whether e is exactly root.step.
func isTraversal(e hclsyntax.Expression, root, step string) bool {
	st, ok := e.(*hclsyntax.ScopeTraversalExpr)
	if !ok || len(st.Traversal) != 2 || st.Traversal.RootName() != root {
		return false
	}
	a, ok := st.Traversal[1].(hcl.TraverseAttr)
	return ok && a.Name == step
}

// literalKeys are the for_each keys of a literal collection: a list or
// set's strings, a map's keys; through toset/tolist and locals (depth
// bounds the chain of locals).
func literalKeys(e hclsyntax.Expression, locals map[string]hclsyntax.Expression, depth int) []string {
	if e == nil || depth > 4 {
		return nil
	}
	switch x := e.(type) {
	case *hclsyntax.FunctionCallExpr:
		if (x.Name == "toset" || x.Name == "tolist") && len(x.Args) == 1 {
			return literalKeys(x.Args[0], locals, depth+1)
		}
		return nil
	case *hclsyntax.ScopeTraversalExpr:
		if len(x.Traversal) == 2 && x.Traversal.RootName() == "local" {
			if a, ok := x.Traversal[1].(hcl.TraverseAttr); ok {
				return literalKeys(locals[a.Name], locals, depth+1)
			}
		}
		return nil
	case *hclsyntax.ParenthesesExpr:
		return literalKeys(x.Expression, locals, depth+1)
	}
	if len(e.Variables()) > 0 {
		return nil
	}
	v, diags := e.Value(nil)
	if diags.HasErrors() || !v.IsWhollyKnown() || v.IsNull() {
		return nil
	}
	var out []string
	t := v.Type()
	switch {
	case t.IsListType() || t.IsSetType() || t.IsTupleType():
		if v.LengthInt() > maxKeys {
			return nil
		}
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			if ev.IsNull() || ev.Type() != cty.String {
				return nil
			}
			out = append(out, ev.AsString())
		}
	case t.IsMapType() || t.IsObjectType():
		if v.LengthInt() > maxKeys {
			return nil
		}
		for it := v.ElementIterator(); it.Next(); {
			k, _ := it.Element()
			out = append(out, k.AsString())
		}
	}
	return out
}

// strLit is a string literal in the source: its value and the range of
// its text (inside the quotes).
type strLit struct {
	val string
	rng hcl.Range
}

// literalString is e when e is a plain quoted string whose source text is
// its value (no escapes, no interpolation).
func literalString(e hclsyntax.Expression) (strLit, bool) {
	t, ok := e.(*hclsyntax.TemplateExpr)
	if !ok || len(t.Parts) != 1 {
		return strLit{}, false
	}
	lit, ok := t.Parts[0].(*hclsyntax.LiteralValueExpr)
	if !ok || lit.Val.IsNull() || lit.Val.Type() != cty.String || !lit.Val.IsKnown() {
		return strLit{}, false
	}
	s := lit.Val.AsString()
	r := lit.SrcRange
	if int(r.End.Byte-r.Start.Byte) != len(s) {
		return strLit{}, false
	}
	return strLit{val: s, rng: r}, true
}

// literalStrings are the literal strings of e: e itself, or a list's.
func literalStrings(e hclsyntax.Expression) []strLit {
	if e == nil {
		return nil
	}
	if s, ok := literalString(e); ok {
		return []strLit{s}
	}
	t, ok := e.(*hclsyntax.TupleConsExpr)
	if !ok {
		return nil
	}
	var out []strLit
	for _, x := range t.Exprs {
		if s, ok := literalString(x); ok {
			out = append(out, s)
		}
	}
	return out
}

// devicePorts are the literally named ports of device block n: port
// block labels and the strings of a ports block's names.
func devicePorts(n *node) []strLit {
	var out []strLit
	for _, c := range n.blocks {
		switch {
		case c.typ == "port" && len(c.labels) == 1:
			// The label's range (with its quotes), as for a device.
			out = append(out, strLit{val: c.labels[0], rng: c.labelRanges[0]})
		case c.typ == "ports":
			if a := c.get("names"); a != nil {
				out = append(out, literalStrings(a.expr)...)
			}
		}
	}
	return out
}

// nameUse says how an attribute names devices: "endpoint" ("DEVICE:PORT")
// or "device".
func nameUse(path []string, attr string) string {
	switch strings.Join(path, "/") + "." + attr {
	case "link.a", "link.b", "device/port.peer":
		return "endpoint"
	case "subnet.gateway", "mesh.lower", "mesh.upper", "partition.members", "partition.full_members":
		return "device"
	}
	return ""
}

// nameRef is a device or port name in a string: Kind "device" or "port",
// Name "leaf1" or "leaf1:Ethernet1", and the range of that part of the
// string.
type nameRef struct {
	ref Ref
	rng hcl.Range
}

// nameRefs splits a literal naming string of an attribute used as use
// ("endpoint" or "device") into its device and port parts.
func nameRefs(s strLit, use string) []nameRef {
	if use == "device" {
		return []nameRef{{Ref{"device", s.val}, s.rng}}
	}
	i := strings.IndexByte(s.val, ':')
	if i < 0 {
		return []nameRef{{Ref{"device", s.val}, s.rng}}
	}
	dr, pr := s.rng, s.rng
	dr.End.Byte = dr.Start.Byte + i
	dr.End.Column = dr.Start.Column + i
	pr.Start.Byte = dr.End.Byte + 1
	pr.Start.Column = dr.End.Column + 1
	return []nameRef{{Ref{"device", s.val[:i]}, dr}, {Ref{"port", s.val}, pr}}
}

// declsOf are the declarations of a device or port name: the syntax's,
// else the model's.
func (ix *Index) declsOf(r Ref) []schema.Range {
	var hs []hcl.Range
	switch r.Kind {
	case "device":
		hs = ix.decls.devices[r.Name]
	case "port":
		hs = ix.decls.ports[r.Name]
	}
	var out []schema.Range
	for _, h := range hs {
		out = append(out, conv(h))
	}
	if len(out) > 0 || ix.model == nil {
		return out
	}
	dev, port, _ := strings.Cut(r.Name, ":")
	for _, d := range ix.model.Devices {
		if d == nil || d.Name != dev {
			continue
		}
		if r.Kind == "device" {
			out = append(out, d.Range)
			continue
		}
		for _, p := range d.Ports {
			if p != nil && p.Name == port {
				out = append(out, p.Range)
			}
		}
	}
	return out
}

// deviceNameList is every device name, sorted naturally: the syntax's and
// the model's.
func (ix *Index) deviceNameList() []string {
	seen := map[string]bool{}
	for n := range ix.decls.devices {
		seen[n] = true
	}
	if ix.model != nil {
		for _, d := range ix.model.Devices {
			if d != nil {
				seen[d.Name] = true
			}
		}
	}
	return sortedNames(seen)
}

// portNameList is every port name of device dev, sorted naturally.
func (ix *Index) portNameList(dev string) []string {
	seen := map[string]bool{}
	for k := range ix.decls.ports {
		if d, p, _ := strings.Cut(k, ":"); d == dev {
			seen[p] = true
		}
	}
	if ix.model != nil {
		for _, d := range ix.model.Devices {
			if d == nil || d.Name != dev {
				continue
			}
			for _, p := range d.Ports {
				if p != nil {
					seen[p.Name] = true
				}
			}
		}
	}
	return sortedNames(seen)
}

func sortedNames(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return natsort.Less(out[i], out[j]) })
	return out
}
