package diag

import (
	"bytes"
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
		related       []Related
		trace         []Step
		want, notWant []string
		caretUnder    string
	}{
		{"escapes in the source line", "Invalid device name \x1b]0;owned\x07", "\"x\x1b[2J\" cannot\nname a device\u202e",
			Range{Filename: "f.fab.hcl", Start: Pos{1, 8, 7}, End: Pos{1, 16, 17}}, nil, nil,
			[]string{`\x1b[2J\u200b`, `\x1b]0;owned\x07`, "cannot\n  name", `\u202e`}, []string{"\x1b[2J", "\x07", "\u200b", "\u202e"}, `"x\x1b[2J\u200b`},
		{"long line cut around the highlight", "Bad", "",
			Range{Filename: "f.fab.hcl", Start: Pos{2, 301, 327}, End: Pos{2, 304, 330}}, nil, nil,
			[]string{"…"}, nil, "bad"},
		{"long line cut at 200 columns", "Bad", "",
			Range{Filename: "f.fab.hcl", Start: Pos{2, 1, 26}, End: Pos{2, 4, 29}}, nil, nil,
			[]string{"…"}, nil, "aaa"},
		{"related and trace escaped", "Bad", "",
			Range{Filename: "f.fab.hcl", Start: Pos{2, 1, 26}, End: Pos{2, 4, 29}},
			[]Related{{Range: Range{Filename: "f\x1b.fab.hcl", Start: Pos{1, 1, 0}}, Message: "set \x07here"}},
			[]Step{{Port: "x\u200b:eth0", Note: "a\rb"}},
			[]string{`f\x1b.fab.hcl:1:1: set \x07here`, `x\u200b:eth0 (a\rb)`}, []string{"\x07", "\u200b", "\r"}, "aaa"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			d := &Diagnostic{Severity: Error, Summary: c.summary, Detail: c.detail, Subject: c.subject.Ptr(), Related: c.related, Trace: c.trace}
			if err := WriteText(&b, Diagnostics{d}, files, false); err != nil {
				t.Fatal(err)
			}
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
				if strings.HasSuffix(strings.TrimSpace(l), "^") && strings.Contains(l, "| ") && i > 0 {
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

func TestDiagnosticError(t *testing.T) {
	d := &Diagnostic{Severity: Error, Rule: "PLT001", Summary: "bad\x1b", Subject: (&Range{Filename: "a.fab.hcl", Start: Pos{3, 5, 20}}).Ptr()}
	if got, want := d.Error(), `a.fab.hcl:3:5: PLT001: bad\x1b`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	ds := Diagnostics{{Severity: Warning, Summary: "w"}, d, {Severity: Info, Summary: "i"}}
	if e, w, i := ds.Counts(); e != 1 || w != 1 || i != 1 || !ds.HasErrors() || ds.AtOrAbove(Warning) != 2 {
		t.Errorf("counts %d %d %d", e, w, i)
	}
	ds.Sort()
	if ds[0].Subject != nil || ds[2] != d {
		t.Errorf("sort: sourceless first, then by file: %v", ds)
	}
}
