package diag

import (
	"bytes"
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
	ansiDim    = "\x1b[2m"
	ansiCaret  = "\x1b[1;35m"
	ansiReset  = "\x1b[0m"
)

// WriteText writes diagnostics for a terminal, one block each:
//
//	file:line:col: error[QOS001]: summary (and 3 more places)
//	     |
//	  75 |   trust = "none"
//	     |   ^^^^^^^^^^^^^^
//	  detail
//	  path: gpu01:eth0 → leaf1:Ethernet1 → … (16 paths of RoCE data and 16 of CNP share this problem)
//	  see:  file:line:col: the other end's value
//	  also: error[QOS004]: a finding of a rule this one implies, on the same line
//	  fix:  what to change
//
// Everything from the intent is escaped (control and invisible characters
// shown as \x1b, \u200b) and source lines are cut at MaxSnippetColumns.
// colour adds ANSI colours; set it only for a terminal.
func WriteText(w io.Writer, ds Diagnostics, files map[string][]byte, colour bool) error {
	var b bytes.Buffer
	for _, d := range ds {
		writeOne(&b, d, files, colour)
	}
	_, err := w.Write(b.Bytes())
	return err
}

func writeOne(b *bytes.Buffer, d *Diagnostic, files map[string][]byte, colour bool) {
	paint := func(code, s string) string {
		if !colour {
			return s
		}
		return code + s + ansiReset
	}
	sevCol := map[Severity]string{Error: ansiRed, Warning: ansiYellow, Info: ansiCyan}[d.Severity]
	label := d.Severity.String()
	if d.Rule != "" {
		label += "[" + d.Rule + "]"
	}
	if d.Subject != nil && !d.Subject.IsZero() {
		b.WriteString(paint(ansiBold, EscapeText(d.Subject.String(), false)))
		b.WriteString(": ")
	}
	fmt.Fprintf(b, "%s %s%s\n", paint(sevCol, label+":"), EscapeText(d.Summary, false), countNote(d.Count))
	if d.Subject != nil && !d.Subject.IsZero() {
		writeSnippet(b, files, *d.Subject, colour)
	}
	if d.Detail != "" {
		for _, l := range strings.Split(EscapeText(d.Detail, true), "\n") {
			b.WriteString("  ")
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	if len(d.Trace) > 0 {
		fmt.Fprintf(b, "  %s %s", paint(ansiBold, "path:"), EscapeText(d.TraceString(), false))
		if ps := d.PathsString(); ps != "" {
			fmt.Fprintf(b, " %s", paint(ansiDim, "("+ps+" share this problem)"))
		}
		b.WriteByte('\n')
	}
	for _, r := range d.Related {
		if r.Range.IsZero() {
			continue
		}
		fmt.Fprintf(b, "  %s  %s: %s\n", paint(ansiBold, "see:"), EscapeText(r.Range.String(), false), EscapeText(r.Message, false))
	}
	for _, im := range d.Implied {
		fmt.Fprintf(b, "  %s %s[%s]: %s\n", paint(ansiBold, "also:"), im.Severity, im.Rule, EscapeText(im.Summary, false))
	}
	for _, e := range d.Evidence {
		fmt.Fprintf(b, "  %s %s\n", paint(ansiBold, "seen:"), EscapeText(e.String(), false))
	}
	if d.Fix != "" {
		fmt.Fprintf(b, "  %s  %s\n", paint(ansiBold, "fix:"), EscapeText(d.Fix, false))
	}
	b.WriteByte('\n')
}

// PathCount is "1 path" or "N paths".
func PathCount(n int64) string {
	if n == 1 {
		return "1 path"
	}
	return fmt.Sprintf("%d paths", n)
}

func countNote(n int) string {
	switch {
	case n == 2:
		return " (and 1 more place)"
	case n > 2:
		return fmt.Sprintf(" (and %d more places)", n-1)
	}
	return ""
}

// writeSnippet prints the subject's first line with a caret underline,
// like a compiler.
func writeSnippet(b *bytes.Buffer, files map[string][]byte, r Range, colour bool) {
	sn, ok := SnippetFor(files, r)
	if !ok {
		return
	}
	first, _, _ := strings.Cut(sn.Code, "\n")
	hs, he := sn.HighlightStartOffset, sn.HighlightEndOffset
	if he <= hs || he > len(first) {
		hs, he = min(hs, len(first)), len(first)
	}
	pre, mid, post, caret := snippetLine(first, hs, he)
	num := fmt.Sprint(sn.StartLine)
	pad := strings.Repeat(" ", len(num))
	fmt.Fprintf(b, "  %s |\n", pad)
	fmt.Fprintf(b, "  %s | %s%s%s\n", num, pre, mid, post)
	if caret == "" {
		return
	}
	if colour {
		i := strings.IndexByte(caret, '^')
		caret = caret[:i] + ansiCaret + caret[i:] + ansiReset
	}
	fmt.Fprintf(b, "  %s | %s\n", pad, caret)
}

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

// WriteText is WriteText(w, ds, files, colour).
func (ds Diagnostics) WriteText(w io.Writer, files map[string][]byte, colour bool) error {
	return WriteText(w, ds, files, colour)
}
