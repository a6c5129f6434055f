package format

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/fabricgen/fabricgen/diag"
)

// GitHub Actions workflow commands: data escapes %, CR, LF; properties also , and :.
var (
	ghData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghProp = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func writeGitHub(w io.Writer, r *Result) error {
	var b bytes.Buffer
	for _, d := range r.Diagnostics {
		cmd := "notice"
		switch d.Severity {
		case diag.Error:
			cmd = "error"
		case diag.Warning:
			cmd = "warning"
		}
		fmt.Fprintf(&b, "::%s ", cmd)
		if s := d.Subject; s != nil && !s.IsZero() {
			name, _ := relPath(r.BasePath, s.Filename)
			fmt.Fprintf(&b, "file=%s,line=%d,col=%d,", ghProp.Replace(diag.EscapeText(name, false)), s.Start.Line, s.Start.Column)
			if s.End.Line >= s.Start.Line && s.End.Line > 0 {
				fmt.Fprintf(&b, "endLine=%d,", s.End.Line)
				if s.End.Line == s.Start.Line {
					fmt.Fprintf(&b, "endColumn=%d,", s.End.Column)
				}
			}
		}
		fmt.Fprintf(&b, "title=%s::%s\n", ghProp.Replace(ruleID(d)), ghData.Replace(diag.EscapeText(message(d, r.BasePath), true)))
	}
	_, err := w.Write(b.Bytes())
	return err
}
