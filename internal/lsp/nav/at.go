package nav

import (
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/fabricgen/fabricgen/schema"
)

// TargetKind says what is under an offset.
type TargetKind int

// Target kinds.
const (
	// None: nothing that nav knows (whitespace, a comment, a value).
	None TargetKind = iota
	// Reference: KIND.NAME, var.NAME or local.NAME in an expression.
	Reference
	// BlockLabel: a block's label.
	BlockLabel
	// BlockType: a block's type keyword.
	BlockType
	// Attribute: an attribute's name.
	Attribute
	// DevicePortString: a device or port name inside a string of link
	// a/b, port peer, subnet gateway, mesh lower/upper or partition
	// members/full_members.
	DevicePortString
)

// String names the kind (for goldens and logs).
func (k TargetKind) String() string {
	switch k {
	case Reference:
		return "Reference"
	case BlockLabel:
		return "BlockLabel"
	case BlockType:
		return "BlockType"
	case Attribute:
		return "Attribute"
	case DevicePortString:
		return "DevicePortString"
	}
	return "None"
}

// Ref names a referenceable thing: Kind is a block type (traffic_class,
// ecn_profile, pfc_watchdog, qos_policy, acl), "var", "local", "device"
// or "port" (Name "DEVICE:PORT").
type Ref struct{ Kind, Name string }

// Target is what is under a byte offset.
type Target struct {
	// Kind is what the offset is on.
	Kind TargetKind
	// Ref is set for a Reference, a DevicePortString, and a BlockLabel of
	// a referenceable block (a root block with a name label, a variable,
	// a device with a literal name, a port of one).
	Ref Ref
	// Block is the block path of the enclosing blocks, e.g. ["device",
	// "port"]; a dynamic block's content is its generated block type.
	Block []string
	// Labels are the labels of the innermost block.
	Labels []string
	// Attr is the attribute the offset is in (its name or its value).
	Attr string
	// Range is the range of the thing under the cursor.
	Range schema.Range
	// BlockRange is the innermost block's header (type and labels).
	BlockRange schema.Range
}

// At returns what is under byte offset off of file path (a zero Target
// for an unknown file or an offset outside it).
func (ix *Index) At(path string, off int) Target {
	f := ix.files[path]
	if f == nil || off < 0 || off > len(f.src) {
		return Target{}
	}
	n := f.innermost(off)
	if n == nil {
		return Target{}
	}
	t := Target{Labels: n.labels}
	if n.typ != "" {
		t.Block = n.path
		t.BlockRange = conv(n.defRange)
	}
	if n.typ != "" && within(n.typeRange, off) {
		t.Kind, t.Range = BlockType, conv(n.typeRange)
		return t
	}
	for i, lr := range n.labelRanges {
		if within(lr, off) {
			t.Kind, t.Range = BlockLabel, conv(lr)
			t.Ref = ix.labelRef(n, i)
			return t
		}
	}
	a := n.attrAt(off)
	if a == nil {
		return t
	}
	t.Attr = a.name
	if within(a.nameRange, off) {
		t.Kind, t.Range = Attribute, conv(a.nameRange)
		if n.typ == "locals" {
			t.Ref = Ref{"local", a.name}
		}
		return t
	}
	if a.expr == nil {
		return t
	}
	for _, r := range exprRefs(a.expr) {
		if within(r.rng, off) {
			t.Kind, t.Ref, t.Range = Reference, r.ref, conv(r.rng)
			return t
		}
	}
	if use := nameUse(n.path, a.name); use != "" {
		for _, s := range literalStrings(a.expr) {
			for _, nr := range nameRefs(s, use) {
				if within(nr.rng, off) {
					t.Kind, t.Ref, t.Range = DevicePortString, nr.ref, conv(nr.rng)
					return t
				}
			}
		}
	}
	return t
}

// labelRef is the Ref of label i of block n, if n is referenceable.
func (ix *Index) labelRef(n *node, i int) Ref {
	if i != 0 {
		return Ref{}
	}
	switch {
	case len(n.path) == 1 && schema.IsRefKind(n.typ):
		return Ref{n.typ, n.labels[0]}
	case len(n.path) == 1 && n.typ == "variable":
		return Ref{"var", n.labels[0]}
	case len(n.path) == 1 && n.typ == "device":
		if names := ix.decls.instances[n]; len(names) == 1 {
			return Ref{"device", names[0]}
		}
		if names := ix.modelInstances(n); len(names) == 1 {
			return Ref{"device", names[0]}
		}
	case n.typ == "port" && n.parent != nil && n.parent.typ == "device":
		names := ix.decls.instances[n.parent]
		if len(names) == 0 {
			names = ix.modelInstances(n.parent)
		}
		if len(names) == 1 {
			return Ref{"port", names[0] + ":" + n.labels[0]}
		}
	}
	return Ref{}
}

// modelInstances are the model's devices declared by block n.
func (ix *Index) modelInstances(n *node) []string {
	if ix.model == nil {
		return nil
	}
	def := conv(n.defRange)
	var out []string
	for _, d := range ix.model.Devices {
		if d != nil && d.Range.Filename == def.Filename && d.Range.Start.Byte == def.Start.Byte {
			out = append(out, d.Name)
		}
	}
	return out
}

// refUse is a reference in an expression and its range (the first two
// steps of the traversal).
type refUse struct {
	ref Ref
	rng hcl.Range
}

// exprRefs lists the KIND.NAME, var.NAME and local.NAME references of e.
func exprRefs(e hclsyntax.Expression) []refUse {
	var out []refUse
	_ = hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
		st, ok := n.(*hclsyntax.ScopeTraversalExpr)
		if !ok || len(st.Traversal) < 2 {
			return nil
		}
		root := st.Traversal.RootName()
		if !schema.IsRefKind(root) && root != "var" && root != "local" {
			return nil
		}
		a, ok := st.Traversal[1].(hcl.TraverseAttr)
		if !ok {
			return nil
		}
		out = append(out, refUse{Ref{root, a.Name}, hcl.RangeBetween(st.Traversal[0].SourceRange(), a.SrcRange)})
		return nil
	})
	return out
}

// Definition returns where the thing under off is declared:
//   - KIND.NAME (traffic_class, ecn_profile, pfc_watchdog, qos_policy,
//     acl): the declaring block's label; var.NAME: the variable block's
//     label; local.NAME: the local's attribute name;
//   - a device or port name in a string (link a/b "DEVICE:PORT", port
//     peer, subnet gateway, mesh lower/upper, partition members): the
//     device block's label, the port block's label (or the name's string
//     in a ports block). Syntactically that works for a device with a
//     literal label (or a literal name), and for a for_each over a
//     literal list, set or map — directly, through toset/tolist, or a
//     local holding one — whose instances are named each.key: "leaf1"
//     goes to device "leaf" { for_each = local.leaves }. Anything
//     computed (count, for expressions, functions) resolves only through
//     WithModel's fabric: the declaring block's range (Device.Range,
//     Port.Range);
//   - a block label: the label itself (a declaration is its own
//     definition).
//
// Nil when there is nothing to go to. More than one range when a name is
// declared twice.
func (ix *Index) Definition(path string, off int) []schema.Range {
	t := ix.At(path, off)
	switch t.Kind {
	case Reference, DevicePortString:
		return sortRanges(ix.declarations(t.Ref))
	case BlockLabel:
		return []schema.Range{t.Range}
	case Attribute:
		if t.Ref.Kind == "local" {
			return []schema.Range{t.Range}
		}
	}
	return nil
}

// declarations are the declaring ranges of r.
func (ix *Index) declarations(r Ref) []schema.Range {
	switch r.Kind {
	case "device", "port":
		return ix.declsOf(r)
	}
	var out []schema.Range
	for _, name := range ix.names {
		f := ix.files[name]
		if f.root == nil {
			continue
		}
		for _, n := range f.root.blocks {
			switch {
			case r.Kind == "local" && n.typ == "locals":
				if a := n.get(r.Name); a != nil {
					out = append(out, conv(a.nameRange))
				}
			case r.Kind == "var" && n.typ == "variable" && len(n.labels) == 1 && n.labels[0] == r.Name:
				out = append(out, conv(n.labelRanges[0]))
			case n.typ == r.Kind && len(n.labels) == 1 && n.labels[0] == r.Name:
				out = append(out, conv(n.labelRanges[0]))
			}
		}
	}
	return out
}

// References returns every use of the thing under off across all files,
// plus its declaration when includeDecl, sorted by file, then byte.
// References are the KIND.NAME / var.NAME / local.NAME traversals of
// native-syntax files; for device and port names, the literal strings
// that name them in link a/b, port peer, subnet gateway, mesh lower/upper
// and partition members/full_members (literal strings only: a name built
// by an expression or a template is not found). On the label of a device
// with for_each, every instance's name counts. Nil when off is on nothing
// referenceable.
func (ix *Index) References(path string, off int, includeDecl bool) []schema.Range {
	t := ix.At(path, off)
	var want map[Ref]bool
	switch {
	case t.Ref.Kind != "":
		want = map[Ref]bool{t.Ref: true}
	case t.Kind == BlockLabel && len(t.Block) >= 1 && t.Block[len(t.Block)-1] == "device" || t.Kind == BlockLabel && len(t.Block) >= 1 && t.Block[len(t.Block)-1] == "port":
		want = ix.instanceRefs(path, off)
	}
	if len(want) == 0 {
		return nil
	}
	var out []schema.Range
	seen := map[schema.Range]bool{}
	add := func(r schema.Range) {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	for _, name := range ix.names {
		f := ix.files[name]
		f.walk(func(n *node) {
			for _, a := range n.attrs {
				if a.expr == nil {
					continue
				}
				for _, u := range exprRefs(a.expr) {
					if want[u.ref] {
						add(conv(u.rng))
					}
				}
				if use := nameUse(n.path, a.name); use != "" {
					for _, s := range literalStrings(a.expr) {
						for _, nr := range nameRefs(s, use) {
							if want[nr.ref] {
								add(conv(nr.rng))
							}
						}
					}
				}
			}
		})
	}
	if includeDecl {
		for r := range want {
			for _, d := range ix.declarations(r) {
				add(d)
			}
		}
	}
	return sortRanges(out)
}

// instanceRefs are the Refs of every instance of the device block (or of
// the port block in a device block) under off.
func (ix *Index) instanceRefs(path string, off int) map[Ref]bool {
	f := ix.files[path]
	n := f.innermost(off)
	if n == nil {
		return nil
	}
	dev, port := n, ""
	if n.typ == "port" && n.parent != nil && n.parent.typ == "device" && len(n.labels) == 1 {
		dev, port = n.parent, n.labels[0]
	}
	names := ix.decls.instances[dev]
	if len(names) == 0 {
		names = ix.modelInstances(dev)
	}
	out := map[Ref]bool{}
	for _, d := range names {
		if port == "" {
			out[Ref{"device", d}] = true
		} else {
			out[Ref{"port", d + ":" + port}] = true
		}
	}
	return out
}

// sortRanges sorts by file, then start byte, then end byte.
func sortRanges(rs []schema.Range) []schema.Range {
	sort.Slice(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Start.Byte != b.Start.Byte {
			return a.Start.Byte < b.Start.Byte
		}
		return a.End.Byte < b.End.Byte
	})
	return rs
}

// join is a block path for messages.
func join(p []string) string { return strings.Join(p, "/") }
