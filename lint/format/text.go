package format

import (
	"bytes"
	"io"

	"github.com/fabricgen/fabricgen/diag"
)

// writeText is diag.WriteText followed by the totals.
func writeText(w io.Writer, r *Result) error {
	var b bytes.Buffer
	if err := diag.WriteText(&b, r.Diagnostics, r.Sources, r.Color); err != nil {
		return err
	}
	switch {
	case !r.Valid:
		what := "intent"
		if r.Unloaded != "" {
			what = r.Unloaded
		}
		b.WriteString("The " + what + " is not valid: " + summary(r.Diagnostics) + "; lint did not run.\n")
	case len(r.Diagnostics) == 0:
		b.WriteString("No findings.\n")
	default:
		b.WriteString(summary(r.Diagnostics) + "\n")
	}
	_, err := w.Write(b.Bytes())
	return err
}
