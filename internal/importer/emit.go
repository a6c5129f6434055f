package importer

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/text/unicode/norm"
)

// emitBody is a block body laid out directly in the form hclwrite.Format
// gives it: two-space indents, one space around "=", the "=" of
// consecutive attributes aligned, "{" and "}" on lines of their own.
// Values are hclwrite's own tokens for anything but a string, number,
// bool or reference. The devices file, which has a block per device and
// port, is written with it: building it with hclwrite and formatting it
// took most of an import's time (every line's width is counted in
// grapheme clusters, twice). A test holds its output to
// hclwrite.Format(out) == out.
type emitBody struct {
	items []emitItem
}

// emitItem is one attribute, block, comment or blank line of a body.
type emitItem struct {
	kind   emitKind
	name   string // attribute name or block type
	labels []string
	value  []byte // an attribute's expression, as written
	body   *emitBody
	text   string // a comment's whole text, "#…" without the newline
}

type emitKind uint8

const (
	emitAttr emitKind = iota
	emitBlock
	emitComment
	emitBlank
)

// AppendNewBlock adds a nested block and returns its body.
func (b *emitBody) AppendNewBlock(typ string, labels []string) *emitBody {
	nb := &emitBody{}
	b.items = append(b.items, emitItem{kind: emitBlock, name: typ, labels: labels, body: nb})
	return nb
}

// AppendNewline adds a blank line.
func (b *emitBody) AppendNewline() { b.items = append(b.items, emitItem{kind: emitBlank}) }

// AppendComment adds a comment line; text starts with "#".
func (b *emitBody) AppendComment(text string) {
	b.items = append(b.items, emitItem{kind: emitComment, text: strings.TrimRight(text, "\n")})
}

// SetAttributeValue sets an attribute to a value, replacing one of the
// same name where it stands, as hclwrite does.
func (b *emitBody) SetAttributeValue(name string, v cty.Value) {
	b.setAttr(name, valueBytes(v))
}

// SetString sets an attribute to a quoted string.
func (b *emitBody) SetString(name, v string) {
	out := make([]byte, 0, len(v)+2)
	out = appendEscaped(append(out, '"'), v)
	b.setAttr(name, append(out, '"'))
}

// SetInt sets an attribute to a whole number.
func (b *emitBody) SetInt(name string, v int64) { b.setAttr(name, strconv.AppendInt(nil, v, 10)) }

// SetBool sets an attribute to true or false.
func (b *emitBody) SetBool(name string, v bool) { b.setAttr(name, strconv.AppendBool(nil, v)) }

// SetAttributeRef sets an attribute to the reference kind.name.
func (b *emitBody) SetAttributeRef(name, kind, ref string) {
	b.setAttr(name, []byte(kind+"."+ref))
}

// SetAttributeRefs sets an attribute to a list of references.
func (b *emitBody) SetAttributeRefs(name, kind string, refs []string) {
	var sb strings.Builder
	sb.WriteByte('[')
	for i, r := range refs {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(kind)
		sb.WriteByte('.')
		sb.WriteString(r)
	}
	sb.WriteByte(']')
	b.setAttr(name, []byte(sb.String()))
}

func (b *emitBody) setAttr(name string, value []byte) {
	for i := range b.items {
		if b.items[i].kind == emitAttr && b.items[i].name == name {
			b.items[i].value = value
			return
		}
	}
	b.items = append(b.items, emitItem{kind: emitAttr, name: name, value: value})
}

// Bytes lays the body out as a file.
func (b *emitBody) Bytes() []byte {
	return b.write(make([]byte, 0, 4096), 0)
}

// blanks is the indentation and padding the layout cuts from.
const blanks = "                                                                "

// spaces appends n spaces.
func spaces(out []byte, n int) []byte {
	for n > len(blanks) {
		out = append(out, blanks...)
		n -= len(blanks)
	}
	return append(out, blanks[:n]...)
}

func (b *emitBody) write(out []byte, depth int) []byte {
	for i := 0; i < len(b.items); {
		it := b.items[i]
		switch it.kind {
		case emitAttr:
			// A run of attributes aligns its "=" one space past the
			// longest name, as hclwrite's formatCells does.
			j, width := i, 0
			for ; j < len(b.items) && b.items[j].kind == emitAttr; j++ {
				width = max(width, utf8.RuneCountInString(b.items[j].name))
			}
			for _, a := range b.items[i:j] {
				out = spaces(out, 2*depth)
				out = append(out, a.name...)
				out = spaces(out, width-utf8.RuneCountInString(a.name)+1)
				out = append(out, "= "...)
				out = append(out, a.value...)
				out = append(out, '\n')
			}
			i = j
			continue
		case emitBlock:
			out = spaces(out, 2*depth)
			out = append(out, it.name...)
			for _, l := range it.labels {
				out = append(out, " \""...)
				out = appendEscaped(out, l)
				out = append(out, '"')
			}
			out = append(out, " {\n"...)
			out = it.body.write(out, depth+1)
			out = spaces(out, 2*depth)
			out = append(out, "}\n"...)
		case emitComment:
			out = spaces(out, 2*depth)
			out = append(out, it.text...)
			out = append(out, '\n')
		case emitBlank:
			out = append(out, '\n')
		}
		i++
	}
	return out
}

// valueBytes is a value's expression: strings, whole numbers and bools
// directly, anything else through hclwrite.
func valueBytes(v cty.Value) []byte {
	if v.IsKnown() && !v.IsNull() {
		switch v.Type() {
		case cty.String:
			s := v.AsString()
			out := make([]byte, 0, len(s)+2)
			out = appendEscaped(append(out, '"'), s)
			return append(out, '"')
		case cty.Bool:
			return []byte(strconv.FormatBool(v.True()))
		case cty.Number:
			if bf := v.AsBigFloat(); bf.IsInt() {
				if i, acc := bf.Int64(); acc == 0 {
					return []byte(strconv.FormatInt(i, 10))
				}
			}
		}
	}
	return hclwrite.TokensForValue(v).Bytes()
}

// appendEscaped appends a quoted string's content the way hclwrite does:
// quotes, backslashes and control characters escaped, "${" and "%{"
// doubled so that no text becomes a template. Plain text is appended
// as is.
func appendEscaped(buf []byte, s string) []byte {
	plain := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || ((c == '$' || c == '%') && i+1 < len(s) && s[i+1] == '{') {
			plain = false
			break
		}
	}
	if plain {
		return append(buf, s...)
	}
	// A string is written in NFC, as cty (and so hclwrite) holds every
	// string: a label or value in decomposed form reads back the same.
	s = norm.NFC.String(s)
	for i, r := range s {
		switch r {
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\r':
			buf = append(buf, '\\', 'r')
		case '\t':
			buf = append(buf, '\\', 't')
		case '"':
			buf = append(buf, '\\', '"')
		case '\\':
			buf = append(buf, '\\', '\\')
		case '$', '%':
			buf = append(buf, byte(r))
			if i+1 < len(s) && s[i+1] == '{' {
				buf = append(buf, byte(r))
			}
		default:
			switch {
			case !unicode.IsPrint(r) && r < 0x10000:
				buf = append(buf, `\u`...)
				buf = append(buf, pad(strconv.FormatInt(int64(r), 16), 4)...)
			case !unicode.IsPrint(r):
				buf = append(buf, `\U`...)
				buf = append(buf, pad(strconv.FormatInt(int64(r), 16), 8)...)
			default:
				buf = utf8.AppendRune(buf, r)
			}
		}
	}
	return buf
}

func pad(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return strings.Repeat("0", n-len(s)) + s
}
