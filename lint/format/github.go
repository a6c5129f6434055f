package format

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// GitHub Actions workflow commands: data escapes %, CR, LF; properties also , and :.
var (
	ghData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghProp = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func writeGitHub(w io.Writer, r *Result) error {
	var b bytes.Buffer
	for i := range r.Findings {
		f := &r.Findings[i]
		cmd := "notice"
		switch f.Severity {
		case schema.SevError:
			cmd = "error"
		case schema.SevWarning:
			cmd = "warning"
		}
		s := f.Subject
		fmt.Fprintf(&b, "::%s file=%s,line=%d,col=%d", cmd, ghProp.Replace(s.Filename), s.Start.Line, s.Start.Column)
		if s.End.Line >= s.Start.Line && s.End.Line > 0 {
			fmt.Fprintf(&b, ",endLine=%d", s.End.Line)
			if s.End.Line == s.Start.Line {
				fmt.Fprintf(&b, ",endColumn=%d", s.End.Column)
			}
		}
		fmt.Fprintf(&b, ",title=%s::%s\n", ghProp.Replace(f.Rule), ghData.Replace(detail(f)))
	}
	_, err := w.Write(b.Bytes())
	return err
}
