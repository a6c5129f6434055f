package nav

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/fabricgen/fabricgen/schema"
)

// SymbolKind is what a symbol is. The language server maps it to LSP's
// SymbolKind as each constant's comment says.
type SymbolKind int

// Symbol kinds.
const (
	// SymFabric is the fabric block: LSP Module (2).
	SymFabric SymbolKind = iota + 1
	// SymVariable is a variable block: LSP Variable (13).
	SymVariable
	// SymLocals is a locals block: LSP Namespace (3).
	SymLocals
	// SymLocal is one local of a locals block: LSP Constant (14).
	SymLocal
	// SymDefinition is a named definition others refer to or that
	// attaches QoS (traffic_class, ecn_profile, pfc_watchdog,
	// qos_policy, acl, role, subnet, partition): LSP Struct (23).
	SymDefinition
	// SymDevice is a device block: LSP Object (19).
	SymDevice
	// SymPort is a port or ports block: LSP Field (8).
	SymPort
	// SymLink is a link or mesh block: LSP Interface (11).
	SymLink
	// SymBlock is any other nested block (rdma, credentials, sm, queue,
	// buffer, rule, dynamic, content): LSP Property (7).
	SymBlock
)

// Symbol is one block for textDocument/documentSymbol.
type Symbol struct {
	// Name is the block's type and quoted labels: `device "leaf"`,
	// `port "Ethernet1"`, `locals`; a local's name.
	Name string
	// Detail is a short summary: a device's kind and platform, a class's
	// priority and lossless-ness, a link's ends.
	Detail string
	// Kind is what the symbol is.
	Kind SymbolKind
	// Range is the whole block.
	Range schema.Range
	// Select is the labels (the type keyword when there is no label).
	Select schema.Range
	// Children are the nested blocks (and a locals block's locals).
	Children []Symbol
}

// Symbols returns the blocks of file path, in source order; nil for an
// unknown file or one that could not be parsed at all.
func (ix *Index) Symbols(path string) []Symbol {
	f := ix.files[path]
	if f == nil || f.root == nil {
		return nil
	}
	var out []Symbol
	for _, n := range f.root.blocks {
		out = append(out, symbol(n))
	}
	return out
}

func symbol(n *node) Symbol {
	s := Symbol{Name: n.typ, Kind: symKind(n), Range: conv(n.rng), Select: conv(n.typeRange), Detail: detail(n)}
	for _, l := range n.labels {
		s.Name += " " + strconv.Quote(l)
	}
	if len(n.labelRanges) > 0 {
		sel := n.labelRanges[0]
		sel.End = n.labelRanges[len(n.labelRanges)-1].End
		s.Select = conv(sel)
	}
	if n.typ == "locals" {
		for _, a := range n.attrs {
			s.Children = append(s.Children, Symbol{Name: a.name, Kind: SymLocal, Range: conv(a.rng), Select: conv(a.nameRange)})
		}
	}
	for _, c := range n.blocks {
		s.Children = append(s.Children, symbol(c))
	}
	return s
}

func symKind(n *node) SymbolKind {
	switch n.typ {
	case "fabric":
		return SymFabric
	case "variable":
		return SymVariable
	case "locals":
		return SymLocals
	case "device":
		return SymDevice
	case "port", "ports":
		if len(n.path) == 2 {
			return SymPort
		}
	case "link", "mesh":
		return SymLink
	case "traffic_class", "ecn_profile", "pfc_watchdog", "qos_policy", "acl", "role", "subnet", "partition":
		if len(n.path) == 1 {
			return SymDefinition
		}
	}
	return SymBlock
}

// detail is a block's one-line summary from its literal attributes.
func detail(n *node) string {
	var parts []string
	add := func(format, attr string) {
		if v, ok := n.literal(attr); ok && v != "" {
			parts = append(parts, fmt.Sprintf(format, v))
		}
	}
	switch join(n.path) {
	case "device":
		add("%s", "kind")
		add("%s", "platform")
		if n.get("for_each") != nil {
			parts = append(parts, "for_each")
		}
		if n.get("count") != nil {
			parts = append(parts, "count")
		}
	case "traffic_class":
		add("role %s", "role")
		add("priority %s", "priority")
		add("sl %s", "sl")
		if v, _ := n.literal("lossless"); v == "true" {
			parts = append(parts, "lossless")
		}
	case "qos_policy":
		add("trust %s", "trust")
		add("mtu %s", "mtu")
	case "ecn_profile":
		if lo, ok := n.literal("min_threshold"); ok {
			hi, _ := n.literal("max_threshold")
			parts = append(parts, lo+"–"+hi)
		}
	case "pfc_watchdog":
		add("detection %s", "detection")
		add("%s", "action")
	case "link":
		if n.get("for_each") != nil || n.get("count") != nil {
			parts = append(parts, "repeated")
		}
		a, aok := n.literal("a")
		b, bok := n.literal("b")
		if aok && bok {
			parts = append(parts, a+" ↔ "+b)
		}
	case "device/port", "device/ports":
		add("%s", "speed")
		add("→ %s", "peer")
	case "subnet":
		add("%s", "prefix")
	case "variable":
		add("default %s", "default")
	}
	return strings.Join(parts, ", ")
}

// literal is attribute name's literal value as text (a string, number or
// bool written as such).
func (n *node) literal(name string) (string, bool) {
	a := n.get(name)
	if a == nil || a.expr == nil {
		return "", false
	}
	if s, ok := literalString(a.expr); ok {
		return s.val, true
	}
	lit, ok := a.expr.(*hclsyntax.LiteralValueExpr)
	if !ok || lit.Val.IsNull() || !lit.Val.IsKnown() {
		return "", false
	}
	switch lit.Val.Type() {
	case cty.Number:
		return lit.Val.AsBigFloat().Text('f', -1), true
	case cty.Bool:
		return strconv.FormatBool(lit.Val.True()), true
	}
	return "", false
}
