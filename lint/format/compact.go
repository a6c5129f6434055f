package format

import (
	"bytes"
	"fmt"
	"io"
)

func writeCompact(w io.Writer, r *Result) error {
	var b bytes.Buffer
	for i := range r.Findings {
		f := &r.Findings[i]
		fmt.Fprintf(&b, "%s: %s - %s (%s)\n", f.Subject, f.Severity, f.Message, f.Rule)
	}
	_, err := w.Write(b.Bytes())
	return err
}
