package format

import (
	"bytes"
	"fmt"
	"io"
	"strings"

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
		b.WriteString("No findings" + fabrics(r.Fabrics) + ".\n")
	default:
		b.WriteString(summary(r.Diagnostics) + fabrics(r.Fabrics) + "\n")
	}
	_, err := w.Write(b.Bytes())
	return err
}

// fabrics is " in N fabrics (a, b, …)" for a report of several, else "".
func fabrics(dirs []string) string {
	if len(dirs) < 2 {
		return ""
	}
	const shown = 5
	names := dirs
	if len(names) > shown {
		names = names[:shown]
	}
	out := fmt.Sprintf(" in %d fabrics (%s", len(dirs), strings.Join(names, ", "))
	if len(dirs) > shown {
		out += fmt.Sprintf(", and %d more", len(dirs)-shown)
	}
	return out + ")"
}
