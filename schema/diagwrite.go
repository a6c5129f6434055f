package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ANSI colours for terminal output.
const (
	ansiRed    = "\x1b[1;31m"
	ansiYellow = "\x1b[1;33m"
	ansiCyan   = "\x1b[1;36m"
	ansiBold   = "\x1b[1m"
	ansiUnder  = "\x1b[4m"
	ansiReset  = "\x1b[0m"
)

// SourceLine returns the text of line n (1-based) of files[filename], without the newline.
func SourceLine(files map[string][]byte, filename string, n int) (string, bool) {
	src, ok := files[filename]
	if !ok || n < 1 {
		return "", false
	}
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			return "", false
		}
		src = src[j+1:]
	}
	if j := bytes.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return strings.TrimRight(string(src), "\r"), true
}

// Snippet is the source text a range covers, for human and JSON output.
type Snippet struct {
	// StartLine is the first line shown.
	StartLine int `json:"start_line"`
	// Code is the text of the lines shown.
	Code string `json:"code"`
	// HighlightStartOffset and HighlightEndOffset are byte offsets into Code.
	HighlightStartOffset int `json:"highlight_start_offset"`
	HighlightEndOffset   int `json:"highlight_end_offset"`
}

// SnippetFor returns the lines of rng (at most three) from files.
func SnippetFor(files map[string][]byte, rng Range) (*Snippet, bool) {
	startLine, startCol := int(rng.Start.Line), int(rng.Start.Column)
	endLine, endCol := int(rng.End.Line), int(rng.End.Column)
	first, ok := SourceLine(files, rng.Filename, startLine)
	if !ok {
		return nil, false
	}
	lines := []string{first}
	last := min(endLine, startLine+2)
	for n := startLine + 1; n <= last; n++ {
		l, ok := SourceLine(files, rng.Filename, n)
		if !ok {
			break
		}
		lines = append(lines, l)
	}
	code := strings.Join(lines, "\n")
	start := min(max(startCol-1, 0), len(first))
	end := len(code)
	if endLine == startLine {
		end = min(max(endCol-1, start), len(first))
	}
	return &Snippet{StartLine: startLine, Code: code, HighlightStartOffset: start, HighlightEndOffset: end}, true
}

// WriteText prints diagnostics like `terraform validate`: severity and
// summary, the file and line, the source lines with the subject
// underlined, and the detail. colour adds ANSI colours.
func (ds Diagnostics) WriteText(w io.Writer, files map[string][]byte, colour bool) error {
	var b strings.Builder
	for _, d := range ds {
		WriteDiagnosticText(&b, d.Severity, d.Summary, d.Detail, d.Subject, files, colour)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteDiagnosticText writes one diagnostic in the human format; lint
// findings reuse it so every error and finding looks the same.
func WriteDiagnosticText(b *strings.Builder, sev Severity, summary, detail string, subject *Range, files map[string][]byte, colour bool) {
	paint := func(code, s string) string {
		if !colour {
			return s
		}
		return code + s + ansiReset
	}
	label := map[Severity]string{SevError: "Error", SevWarning: "Warning", SevInfo: "Info"}[sev]
	col := map[Severity]string{SevError: ansiRed, SevWarning: ansiYellow, SevInfo: ansiCyan}[sev]
	fmt.Fprintf(b, "%s %s\n\n", paint(col, label+":"), paint(ansiBold, EscapeText(summary, false)))
	if subject != nil && !subject.IsZero() {
		fmt.Fprintf(b, "  on %s line %d:\n", EscapeText(subject.Filename, false), subject.Start.Line)
		if sn, ok := SnippetFor(files, *subject); ok {
			for i, line := range strings.Split(sn.Code, "\n") {
				n := sn.StartLine + i
				hs, he := -1, -1
				if i == 0 && sn.HighlightEndOffset > sn.HighlightStartOffset && sn.HighlightEndOffset <= len(line) {
					hs, he = sn.HighlightStartOffset, sn.HighlightEndOffset
				}
				pre, mid, post, caret := snippetLine(line, hs, he)
				if mid != "" {
					mid = paint(ansiUnder, mid)
				}
				fmt.Fprintf(b, "  %4d: %s%s%s\n", n, pre, mid, post)
				if i == 0 && !colour && caret != "" && !strings.Contains(sn.Code, "\n") {
					fmt.Fprintf(b, "        %s\n", caret)
				}
			}
		}
		b.WriteString("\n")
	}
	if detail != "" {
		b.WriteString(EscapeText(detail, true))
		b.WriteString("\n\n")
	}
}

// MaxSnippetColumns is where a source line shown under a diagnostic is cut.
const MaxSnippetColumns = 200

// snippetLine prepares one source line for the terminal: control and
// invisible characters escaped, cut to MaxSnippetColumns columns (with …
// where text was left out), split around the highlight [hs, he) (-1: none),
// and the caret line under it (empty when it falls outside what is shown).
func snippetLine(line string, hs, he int) (pre, mid, post, caret string) {
	type piece struct {
		text string
		part int // 0 before, 1 highlight, 2 after
	}
	var cols []piece // one per displayed column
	for i, r := range line {
		part := 0
		if hs >= 0 && i >= he {
			part = 2
		} else if hs >= 0 && i >= hs {
			part = 1
		}
		if r == utf8.RuneError && !utf8.ValidString(line[i:min(i+utf8.UTFMax, len(line))]) {
			cols = append(cols, piece{"\\ufffd", part})
			continue
		}
		for _, c := range escapeRune(r, false) {
			cols = append(cols, piece{string(c), part})
		}
	}
	from := 0
	if hs >= 0 {
		// The column where the highlight starts, among the escaped ones.
		start := 0
		for start < len(cols) && cols[start].part == 0 {
			start++
		}
		if start >= MaxSnippetColumns-10 {
			from = start - 40
		}
	}
	to := min(len(cols), from+MaxSnippetColumns)
	var parts [3]strings.Builder
	if from > 0 {
		parts[0].WriteString("…")
	}
	caretPad, caretLen := 0, 0
	if from > 0 {
		caretPad = 1
	}
	for _, c := range cols[from:to] {
		parts[c.part].WriteString(c.text)
		switch c.part {
		case 0:
			caretPad++
		case 1:
			caretLen++
		}
	}
	if to < len(cols) {
		parts[2].WriteString("…")
	}
	if caretLen > 0 {
		caret = strings.Repeat(" ", caretPad) + strings.Repeat("^", caretLen)
	}
	return parts[0].String(), parts[1].String(), parts[2].String(), caret
}

// EscapeText makes text from the intent safe for a terminal: control
// characters show as \n, \t, \x1b and the like, invisible Unicode format
// characters (zero-width space, bidi controls, BOM) as \u200b. keepNewlines
// leaves line breaks (and tabs) of a multi-line message alone.
func EscapeText(s string, keepNewlines bool) string {
	clean := true
	for _, r := range s {
		if e := escapeRune(r, keepNewlines); len(e) != 1 || e[0] != r {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		b.WriteString(string(escapeRune(r, keepNewlines)))
	}
	return b.String()
}

// escapeRune is r, or the escape that shows it.
func escapeRune(r rune, keepNewlines bool) []rune {
	switch {
	case r == '\n' && keepNewlines, r == '\t':
		return []rune{r}
	case r == '\n':
		return []rune(`\n`)
	case r == '\r':
		return []rune(`\r`)
	case r < 0x20 || r == 0x7f:
		return []rune(fmt.Sprintf(`\x%02x`, r))
	case r >= 0x80 && r < 0xa0:
		return []rune(fmt.Sprintf(`\u%04x`, r))
	case r >= 0x80 && (unicode.Is(unicode.Cf, r) || unicode.In(r, unicode.Zl, unicode.Zp, unicode.Co, unicode.Cs) || r == utf8.RuneError || !unicode.IsGraphic(r)):
		if r > 0xffff {
			return []rune(fmt.Sprintf(`\U%08x`, r))
		}
		return []rune(fmt.Sprintf(`\u%04x`, r))
	}
	return []rune{r}
}

// jsonPos and jsonRange follow Terraform's `validate -json` shape.
type jsonPos struct {
	Line   int32 `json:"line"`
	Column int32 `json:"column"`
	Byte   int32 `json:"byte"`
}

type jsonRange struct {
	Filename string  `json:"filename"`
	Start    jsonPos `json:"start"`
	End      jsonPos `json:"end"`
}

type jsonDiag struct {
	Severity string     `json:"severity"`
	Summary  string     `json:"summary"`
	Detail   string     `json:"detail"`
	Range    *jsonRange `json:"range,omitempty"`
	Snippet  *Snippet   `json:"snippet,omitempty"`
}

// JSONRange converts a Range to Terraform's JSON range shape.
func JSONRange(r *Range) any {
	if r == nil || r.IsZero() {
		return nil
	}
	return &jsonRange{Filename: r.Filename,
		Start: jsonPos{r.Start.Line, r.Start.Column, r.Start.Byte},
		End:   jsonPos{r.End.Line, r.End.Column, r.End.Byte}}
}

// WriteJSON prints the result in the shape of `terraform validate -json`.
func (ds Diagnostics) WriteJSON(w io.Writer, files map[string][]byte) error {
	out := struct {
		FormatVersion string     `json:"format_version"`
		Valid         bool       `json:"valid"`
		ErrorCount    int        `json:"error_count"`
		WarningCount  int        `json:"warning_count"`
		Diagnostics   []jsonDiag `json:"diagnostics"`
	}{FormatVersion: "1.0", Valid: !ds.HasErrors(), Diagnostics: []jsonDiag{}}
	for _, d := range ds {
		switch d.Severity {
		case SevError:
			out.ErrorCount++
		case SevWarning:
			out.WarningCount++
		}
		jd := jsonDiag{Severity: d.Severity.String(), Summary: d.Summary, Detail: d.Detail}
		if d.Subject != nil && !d.Subject.IsZero() {
			jr := JSONRange(d.Subject).(*jsonRange)
			jd.Range = jr
			if sn, ok := SnippetFor(files, *d.Subject); ok {
				jd.Snippet = sn
			}
		}
		out.Diagnostics = append(out.Diagnostics, jd)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
