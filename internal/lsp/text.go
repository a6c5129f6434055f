package lsp

import (
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/fabricgen/fabricgen/schema"
)

// Position encodings (LSP 3.17 PositionEncodingKind).
const (
	encUTF16 = "utf-16"
	encUTF8  = "utf-8"
)

// text is a document's bytes with the offset of each line's start, for
// converting between byte offsets and LSP positions.
type text struct {
	src   []byte
	lines []int
}

func newText(src []byte) *text {
	t := &text{src: src, lines: []int{0}}
	for i, c := range src {
		if c == '\n' {
			t.lines = append(t.lines, i+1)
		}
	}
	return t
}

// lineEnd is the byte offset where line l's text ends (before its newline).
func (t *text) lineEnd(l int) int {
	if l+1 < len(t.lines) {
		end := t.lines[l+1] - 1
		if end > t.lines[l] && t.src[end-1] == '\r' {
			end--
		}
		return end
	}
	return len(t.src)
}

// position is the LSP position of byte offset off (clamped into the
// text; inside a multi-byte character it is the character's start).
func (t *text) position(off int, enc string) Position {
	off = max(0, min(off, len(t.src)))
	l := sort.Search(len(t.lines), func(i int) bool { return t.lines[i] > off }) - 1
	start := t.lines[l]
	off = min(off, max(start, t.lineEnd(l)))
	return Position{Line: l, Character: units(t.src[start:off], enc)}
}

// offset is the byte offset of an LSP position: a line past the end is the
// end of the text, a character past the line's end the line's end.
func (t *text) offset(p Position, enc string) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(t.lines) {
		return len(t.src)
	}
	start, end := t.lines[p.Line], t.lineEnd(p.Line)
	n := 0
	for i := start; i < end; {
		if n >= p.Character {
			return i
		}
		r, size := utf8.DecodeRune(t.src[i:end])
		if enc == encUTF8 {
			n += size
		} else {
			n += utf16.RuneLen(r)
			if r == utf8.RuneError && size == 1 {
				n = n - utf16.RuneLen(r) + 1
			}
		}
		i += size
	}
	return end
}

// units counts b's length in the encoding's code units.
func units(b []byte, enc string) int {
	if enc == encUTF8 {
		return len(b)
	}
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			n++
		} else {
			n += utf16.RuneLen(r)
		}
		b = b[size:]
	}
	return n
}

// rangeOf converts a schema range of this text. The byte offsets are
// trusted when they fall on the range's lines; otherwise (a range built
// without them) the line and column are.
func (t *text) rangeOf(r schema.Range, enc string) Range {
	return Range{Start: t.posOf(r.Start, enc), End: t.posOf(r.End, enc)}
}

func (t *text) posOf(p schema.Pos, enc string) Position {
	l := int(p.Line) - 1
	if l < 0 {
		return Position{}
	}
	if l >= len(t.lines) {
		return t.position(len(t.src), enc)
	}
	b := int(p.Byte)
	if b >= t.lines[l] && b <= t.lineEnd(l) {
		return t.position(b, enc)
	}
	// Column is 1-based in characters.
	off, end := t.lines[l], t.lineEnd(l)
	for c := 1; c < int(p.Column) && off < end; c++ {
		_, size := utf8.DecodeRune(t.src[off:end])
		off += size
	}
	return t.position(off, enc)
}

// uriToPath converts a file: URI to a clean local path; ok is false for
// another scheme or a URI that does not parse.
func uriToPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", false
	}
	if u.Host != "" && u.Host != "localhost" {
		return "", false
	}
	return filepath.Clean(filepath.FromSlash(u.Path)), true
}

// pathToURI is the file: URI of an absolute path.
func pathToURI(path string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	s := u.String()
	if !strings.HasPrefix(s, "file:///") {
		s = strings.Replace(s, "file:", "file://", 1)
	}
	return s
}
