package schema

import (
	"strings"
	"testing"
)

// TestWriteTextEscapes: nothing from the intent reaches the terminal raw
// (ESC, CR, NUL, zero-width and bidi characters are shown escaped), a long
// line is cut at MaxSnippetColumns with the caret still under its span.
func TestWriteTextEscapes(t *testing.T) {
	long := strings.Repeat("a", 300) + `bad = "x"` + strings.Repeat("b", 300)
	files := map[string][]byte{
		"f.fab.hcl": []byte("device \"x\x1b[2J\u200b\" {\n" + long + "\n"),
	}
	cases := []struct {
		name          string
		summary       string
		detail        string
		subject       Range
		want, notWant []string
		caretUnder    string
	}{
		{"escapes in the source line", "Invalid device name \x1b]0;owned\x07", "\"x\x1b[2J\" cannot\nname a device\u202e",
			Range{Filename: "f.fab.hcl", Start: Pos{1, 8, 7}, End: Pos{1, 16, 17}},
			[]string{`\x1b[2J\u200b`, `\x1b]0;owned\x07`, "cannot\nname", `\u202e`}, []string{"\x1b[2J", "\x07", "\u200b", "\u202e"}, `"x\x1b[2J\u200b`},
		{"long line cut around the highlight", "Bad", "",
			Range{Filename: "f.fab.hcl", Start: Pos{2, 301, 327}, End: Pos{2, 304, 330}},
			[]string{"…"}, nil, "bad"},
		{"long line cut at 200 columns", "Bad", "",
			Range{Filename: "f.fab.hcl", Start: Pos{2, 1, 26}, End: Pos{2, 4, 29}},
			[]string{"…"}, nil, "aaa"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			WriteDiagnosticText(&b, SevError, c.summary, c.detail, &c.subject, files, false)
			out := b.String()
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(out, w) {
					t.Errorf("output holds raw %q:\n%q", w, out)
				}
			}
			lines := strings.Split(out, "\n")
			for i, l := range lines {
				if len([]rune(l)) > MaxSnippetColumns+20 {
					t.Errorf("line %d is %d columns long", i, len([]rune(l)))
				}
				if strings.HasPrefix(strings.TrimSpace(l), "^") && i > 0 {
					code := lines[i-1]
					col := strings.Index(l, "^")
					n := strings.Count(l, "^")
					cr := []rune(code)
					got := string(cr[col:min(col+n, len(cr))])
					if got != c.caretUnder {
						t.Errorf("caret marks %q, want %q:\n%s\n%s", got, c.caretUnder, code, l)
					}
				}
			}
		})
	}
}
