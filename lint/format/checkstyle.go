package format

import (
	"encoding/xml"
	"io"
	"sort"

	"github.com/fabricgen/fabricgen/diag"
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
	byFile := map[string]*csFile{}
	var names []string
	for _, d := range r.Diagnostics {
		rng := d.Range()
		name := rng.Filename // "" for a diagnostic without a source
		f := byFile[name]
		if f == nil {
			f = &csFile{Name: name}
			byFile[name] = f
			names = append(names, name)
		}
		sev := "info"
		switch d.Severity {
		case diag.Error:
			sev = "error"
		case diag.Warning:
			sev = "warning"
		}
		f.Errors = append(f.Errors, csError{Line: int(rng.Start.Line), Column: int(rng.Start.Column),
			Severity: sev, Message: message(d, ""), Source: "fabricgen." + ruleID(d)})
	}
	sort.Strings(names)
	for _, n := range names {
		doc.Files = append(doc.Files, *byFile[n])
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
