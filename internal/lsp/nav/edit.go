package nav

import (
	"bytes"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/fabricgen/fabricgen/schema"
)

// Edit is one text replacement: Range (empty for an insertion) becomes
// NewText.
type Edit struct {
	Range   schema.Range
	NewText string
}

// nativeAt finds the native-syntax file of r and the innermost block and
// attribute r starts in (a nil attr when r starts in no attribute); ok is
// false when r is not inside a block of a native file of the index.
func (ix *Index) nativeAt(r schema.Range) (*file, *node, *attr, bool) {
	f := ix.files[r.Filename]
	if f == nil || !f.native || f.root == nil {
		return nil, nil, nil, false
	}
	off := int(r.Start.Byte)
	if off < 0 || off > len(f.src) {
		return nil, nil, nil, false
	}
	n := f.innermost(off)
	if n == nil || n.typ == "" {
		return nil, nil, nil, false
	}
	return f, n, n.attrAt(off), true
}

// SetAttr returns the edit that makes `attr = value` hold in the block
// that r points into. r is a finding's subject: an attribute's range
// (its name, its value or the whole) — then that attribute's expression
// is replaced when its name is attr, else attr is set in the attribute's
// enclosing block — or a range inside a block. An existing attr of the
// block is replaced, keeping everything else on its line; otherwise one
// line `<indent>attr = value` is inserted before the block's closing
// brace, indented two spaces deeper than the block header (a block
// written on one line is opened onto lines first). value is HCL text,
// inserted as is. ok is false when r is not inside a native-syntax block
// of this index, or the block has no closing brace (the file is cut).
func (ix *Index) SetAttr(r schema.Range, attr, value string) (Edit, bool) {
	f, n, a, ok := ix.nativeAt(r)
	if !ok {
		return Edit{}, false
	}
	if a == nil || a.name != attr {
		a = n.get(attr)
	}
	if a != nil {
		return Edit{Range: conv(a.exprRange), NewText: value}, true
	}
	cb := n.closeBrace
	if cb.Empty() || cb.Filename == "" || int(cb.End.Byte) > len(f.src) || int(cb.Start.Byte) >= len(f.src) || f.src[cb.Start.Byte] != '}' {
		return Edit{}, false
	}
	hdrIndent := indentOf(f.src, int(n.typeRange.Start.Byte))
	body := bodyIndent(f.src, n, hdrIndent)
	ls := lineStart(f.src, int(cb.Start.Byte))
	if strings.TrimSpace(string(f.src[ls:cb.Start.Byte])) == "" && ls > int(n.openBrace.End.Byte) {
		p := posAt(f.src, ls)
		return Edit{Range: conv(hcl.Range{Filename: f.name, Start: p, End: p}), NewText: body + attr + " = " + value + "\n"}, true
	}
	// One line: `port "x" { speed = "1G" }` becomes a block of lines.
	inner := strings.TrimSpace(string(f.src[n.openBrace.End.Byte:cb.Start.Byte]))
	var b strings.Builder
	b.WriteString("\n")
	if inner != "" {
		b.WriteString(body + inner + "\n")
	}
	b.WriteString(body + attr + " = " + value + "\n" + hdrIndent + "}")
	rng := hcl.Range{Filename: f.name, Start: posAt(f.src, int(n.openBrace.End.Byte)), End: posAt(f.src, int(cb.End.Byte))}
	return Edit{Range: conv(rng), NewText: b.String()}, true
}

// Ignore returns the edit that adds `# fabricgen:ignore RULE reason` on
// its own line above the attribute or block r starts in, with that line's
// indentation: lint's suppression covers the block or attribute that
// begins on the line below the comment, so the finding is suppressed. An
// empty reason is written "TODO: why this is accepted" (a suppression
// without a reason is SUP001). ok is false when r is not inside a
// native-syntax block of this index.
func (ix *Index) Ignore(r schema.Range, rule, reason string) (Edit, bool) {
	f, n, a, ok := ix.nativeAt(r)
	if !ok || strings.ContainsAny(rule, " \t\r\n#,") || rule == "" {
		return Edit{}, false
	}
	reason = strings.Join(strings.Fields(reason), " ")
	if reason == "" {
		reason = "TODO: why this is accepted"
	}
	start := int(n.typeRange.Start.Byte)
	if a != nil {
		start = int(a.rng.Start.Byte)
	}
	ls := lineStart(f.src, start)
	p := posAt(f.src, ls)
	text := indentOf(f.src, start) + "# fabricgen:ignore " + strings.ToUpper(rule) + " " + reason + "\n"
	return Edit{Range: conv(hcl.Range{Filename: f.name, Start: p, End: p}), NewText: text}, true
}

// lineStart is the offset of the start of off's line.
func lineStart(src []byte, off int) int {
	return bytes.LastIndexByte(src[:off], '\n') + 1
}

// indentOf is the leading blanks of off's line.
func indentOf(src []byte, off int) string {
	ls := lineStart(src, off)
	i := ls
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return string(src[ls:i])
}

// bodyIndent is the indentation of n's body: that of its first attribute
// or block on a line of its own, else two spaces (a tab, in a file
// indented with tabs) deeper than the header.
func bodyIndent(src []byte, n *node, hdr string) string {
	first := -1
	for _, a := range n.attrs {
		if first < 0 || int(a.rng.Start.Byte) < first {
			first = int(a.rng.Start.Byte)
		}
	}
	for _, c := range n.blocks {
		if first < 0 || int(c.typeRange.Start.Byte) < first {
			first = int(c.typeRange.Start.Byte)
		}
	}
	if first >= 0 {
		if ind := indentOf(src, first); lineStart(src, first)+len(ind) == first && len(ind) > len(hdr) {
			return ind
		}
	}
	if strings.Contains(hdr, "\t") {
		return hdr + "\t"
	}
	return hdr + "  "
}
