package format

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/internal/graph"
	"github.com/fabricgen/fabricgen/lint"
)

var mdCell = strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "\n", "<br>", "`", "'")

// writeMarkdown writes a heading with the totals and one table row per
// diagnostic, for a pull-request comment.
func writeMarkdown(w io.Writer, r *Result) error {
	var b bytes.Buffer
	title := "fabricgen lint"
	if !r.Valid {
		title = "fabricgen: the intent is not valid"
	}
	fmt.Fprintf(&b, "### %s: %s\n\n", title, summary(r.Diagnostics))
	if len(r.Diagnostics) == 0 {
		b.WriteString("No findings.\n")
		_, err := w.Write(b.Bytes())
		return err
	}
	b.WriteString("| Severity | Rule | Where | Problem | Fix |\n|---|---|---|---|---|\n")
	for _, d := range r.Diagnostics {
		where := ""
		if d.Subject != nil {
			name, _ := relPath(r.BasePath, d.Subject.Filename)
			where = "`" + mdCell.Replace(diag.EscapeText(name, false)) + fmt.Sprintf(":%d`", d.Subject.Start.Line)
		}
		rule := ruleID(d)
		if rl := lint.Lookup(rule); rl != nil {
			rule = fmt.Sprintf("[%s](%s)", rule, rl.HelpURI())
		}
		problem := d.Summary
		if d.Count > 1 {
			problem += fmt.Sprintf(" (%d places)", d.Count)
		}
		if d.Detail != "" {
			problem += "\n" + d.Detail
		}
		if len(d.Trace) > 0 {
			problem += "\npath: " + d.TraceString()
		}
		for _, rel := range d.Related {
			if !rel.Range.IsZero() {
				rr := rel.Range
				rr.Filename, _ = relPath(r.BasePath, rr.Filename)
				problem += "\nsee: " + rr.String() + ": " + rel.Message
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", d.Severity, rule, where,
			mdCell.Replace(diag.EscapeText(problem, true)), mdCell.Replace(diag.EscapeText(d.Fix, false)))
	}
	writeHopPaths(&b, r.Diagnostics)
	_, err := w.Write(b.Bytes())
	return err
}

// maxHopDiagrams caps the hop-path diagrams of one Markdown report.
const maxHopDiagrams = 10

// writeHopPaths draws the hop path of each finding that has one as a
// Mermaid flowchart, the hop where it goes wrong in red, which GitHub
// renders in a comment; collapsed, at most maxHopDiagrams.
func writeHopPaths(b *bytes.Buffer, ds diag.Diagnostics) {
	var with diag.Diagnostics
	for _, d := range ds {
		if len(d.Trace) > 0 {
			with = append(with, d)
		}
	}
	if len(with) == 0 {
		return
	}
	fmt.Fprintf(b, "\n<details><summary>Hop paths (%d)</summary>\n\n", len(with))
	for i, d := range with {
		if i == maxHopDiagrams {
			fmt.Fprintf(b, "And %d more; `fabricgen lint` prints every path.\n\n", len(with)-maxHopDiagrams)
			break
		}
		at := ""
		if d.Device != "" && d.Port != "" {
			at = d.Device + ":" + d.Port
		}
		fmt.Fprintf(b, "**%s** %s\n\n%s\n", ruleID(d), mdCell.Replace(diag.EscapeText(d.Summary, false)), graph.Fence(graph.HopPath(d.Trace, at)))
	}
	b.WriteString("</details>\n")
}
