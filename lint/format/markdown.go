package format

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/fabricgen/fabricgen/diag"
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
			where = "`" + mdCell.Replace(diag.EscapeText(relPath(r.BasePath, d.Subject.Filename), false)) + fmt.Sprintf(":%d`", d.Subject.Start.Line)
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
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", d.Severity, rule, where,
			mdCell.Replace(diag.EscapeText(problem, true)), mdCell.Replace(diag.EscapeText(d.Fix, false)))
	}
	_, err := w.Write(b.Bytes())
	return err
}
