package format

import (
	"bytes"
	"fmt"
	"io"

	"github.com/fabricgen/fabricgen/diag"
)

func writeCompact(w io.Writer, r *Result) error {
	var b bytes.Buffer
	for _, d := range r.Diagnostics {
		where := "-"
		if d.Subject != nil {
			where = d.Subject.String()
		}
		fmt.Fprintf(&b, "%s: %s - %s (%s)\n", diag.EscapeText(where, false), d.Severity, diag.EscapeText(d.Summary, false), ruleID(d))
	}
	_, err := w.Write(b.Bytes())
	return err
}
