package format

import (
	"encoding/xml"
	"io"

	"github.com/fabricgen/fabricgen/schema"
)

type csError struct {
	Line     int    `xml:"line,attr"`
	Column   int    `xml:"column,attr"`
	Severity string `xml:"severity,attr"`
	Message  string `xml:"message,attr"`
	Source   string `xml:"source,attr"`
}

type csFile struct {
	Name   string    `xml:"name,attr"`
	Errors []csError `xml:"error"`
}

type csDoc struct {
	XMLName xml.Name `xml:"checkstyle"`
	Version string   `xml:"version,attr"`
	Files   []csFile `xml:"file"`
}

func writeCheckstyle(w io.Writer, r *Result) error {
	doc := csDoc{Version: "4.3"}
	for _, name := range fileNames(r.Findings) {
		file := csFile{Name: name}
		for i := range r.Findings {
			f := &r.Findings[i]
			if f.Subject.Filename != name {
				continue
			}
			sev := "info"
			switch f.Severity {
			case schema.SevError:
				sev = "error"
			case schema.SevWarning:
				sev = "warning"
			}
			file.Errors = append(file.Errors, csError{Line: int(f.Subject.Start.Line), Column: int(f.Subject.Start.Column),
				Severity: sev, Message: detail(f), Source: "fabricgen." + f.Rule})
		}
		doc.Files = append(doc.Files, file)
	}
	return writeXML(w, doc)
}

func writeXML(w io.Writer, v any) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
