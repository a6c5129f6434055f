package format

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/fatih/color"

	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/schema"
)

type palette struct {
	err, warn, info, bold, dim, caret *color.Color
}

func newPalette(on bool) palette {
	p := palette{
		err: color.New(color.FgRed, color.Bold), warn: color.New(color.FgYellow, color.Bold),
		info: color.New(color.FgCyan, color.Bold), bold: color.New(color.Bold), dim: color.New(color.Faint),
		caret: color.New(color.FgMagenta, color.Bold),
	}
	for _, c := range []*color.Color{p.err, p.warn, p.info, p.bold, p.dim, p.caret} {
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
	}
	return p
}

func (p palette) sev(s schema.Severity) *color.Color {
	switch s {
	case schema.SevError:
		return p.err
	case schema.SevWarning:
		return p.warn
	}
	return p.info
}

func writeText(w io.Writer, r *Result) error {
	p := newPalette(r.Color)
	var b bytes.Buffer
	for i := range r.Findings {
		f := &r.Findings[i]
		fmt.Fprintf(&b, "%s: %s %s%s\n", p.bold.Sprint(f.Subject.String()), p.sev(f.Severity).Sprintf("%s[%s]:", f.Severity, f.Rule), f.Message, countNote(f))
		snippet(&b, p, r.Sources[f.Subject.Filename], f.Subject)
		if len(f.Trace) > 0 {
			fmt.Fprintf(&b, "  %s %s", p.bold.Sprint("path:"), f.TraceString())
			if f.Paths > 0 {
				fmt.Fprintf(&b, " %s", p.dim.Sprintf("(%s share this problem)", plural64(f.Paths, "path", "paths")))
			}
			b.WriteByte('\n')
		}
		for _, rel := range f.Related {
			if !rel.Range.IsZero() {
				fmt.Fprintf(&b, "  %s %s: %s\n", p.bold.Sprint("see:"), rel.Range, rel.Message)
			}
		}
		if f.Fix != "" {
			fmt.Fprintf(&b, "  %s  %s\n", p.bold.Sprint("fix:"), f.Fix)
		}
		b.WriteByte('\n')
	}
	if len(r.Findings) == 0 {
		b.WriteString("No findings.\n")
	} else {
		fmt.Fprintf(&b, "%s\n", summary(r.Findings))
	}
	_, err := w.Write(b.Bytes())
	return err
}

func countNote(f *lint.Finding) string {
	if f.Count > 1 {
		return " (and " + plural(f.Count-1, "more place", "more places") + ")"
	}
	return ""
}

// snippet prints the subject line with a caret underline, like a compiler.
func snippet(b *bytes.Buffer, p palette, src []byte, r schema.Range) {
	startLine, startColumn := int(r.Start.Line), int(r.Start.Column)
	endLine, endColumn := int(r.End.Line), int(r.End.Column)
	if src == nil || startLine < 1 {
		return
	}
	lines := bytes.Split(src, []byte("\n"))
	if startLine > len(lines) {
		return
	}
	line := strings.TrimRight(string(lines[startLine-1]), "\r")
	num := fmt.Sprint(startLine)
	pad := strings.Repeat(" ", len(num))
	fmt.Fprintf(b, "  %s |\n", pad)
	fmt.Fprintf(b, "  %s | %s\n", num, line)
	startCol := startColumn
	if startCol < 1 {
		startCol = 1
	}
	width := utf8.RuneCountInString(line) - (startCol - 1)
	if endLine == startLine && endColumn > startColumn {
		width = endColumn - startColumn
	}
	if rest := utf8.RuneCountInString(line) - (startCol - 1); width > rest {
		width = rest
	}
	if width < 1 {
		width = 1
	}
	fmt.Fprintf(b, "  %s | %s%s\n", pad, strings.Repeat(" ", startCol-1), p.caret.Sprint(strings.Repeat("^", width)))
}
