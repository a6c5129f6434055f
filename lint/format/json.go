package format

import (
	"encoding/json"
	"io"

	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/schema"
)

type jsonPos struct {
	Line   int32 `json:"line"`
	Column int32 `json:"column"`
	Byte   int32 `json:"byte"`
}

type jsonRange struct {
	Filename string  `json:"filename"`
	Start    jsonPos `json:"start"`
	End      jsonPos `json:"end"`
}

type jsonStep struct {
	Port string `json:"port"`
	Note string `json:"note,omitempty"`
}

type jsonRelated struct {
	Range   jsonRange `json:"range"`
	Message string    `json:"message"`
}

type jsonFinding struct {
	Rule     string        `json:"rule"`
	Severity string        `json:"severity"`
	Message  string        `json:"message"`
	Range    jsonRange     `json:"range"`
	Device   string        `json:"device,omitempty"`
	Port     string        `json:"port,omitempty"`
	Fix      string        `json:"fix,omitempty"`
	Trace    []jsonStep    `json:"trace,omitempty"`
	Paths    int64         `json:"paths,omitempty"`
	Count    int           `json:"count"`
	Related  []jsonRelated `json:"related,omitempty"`
}

type jsonDoc struct {
	Findings []jsonFinding `json:"findings"`
	Summary  struct {
		Errors   int `json:"errors"`
		Warnings int `json:"warnings"`
		Infos    int `json:"infos"`
	} `json:"summary"`
}

func toJSONRange(r schema.Range) jsonRange {
	return jsonRange{Filename: r.Filename, Start: jsonPos(r.Start), End: jsonPos(r.End)}
}

func writeJSON(w io.Writer, r *Result) error {
	doc := jsonDoc{Findings: []jsonFinding{}}
	for i := range r.Findings {
		doc.Findings = append(doc.Findings, toJSONFinding(&r.Findings[i]))
	}
	doc.Summary.Errors, doc.Summary.Warnings, doc.Summary.Infos = counts(r.Findings)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func toJSONFinding(f *lint.Finding) jsonFinding {
	j := jsonFinding{Rule: f.Rule, Severity: f.Severity.String(), Message: f.Message, Range: toJSONRange(f.Subject),
		Device: f.Device, Port: f.Port, Fix: f.Fix, Paths: f.Paths, Count: f.Count}
	for _, s := range f.Trace {
		j.Trace = append(j.Trace, jsonStep(s))
	}
	for _, rel := range f.Related {
		if !rel.Range.IsZero() {
			j.Related = append(j.Related, jsonRelated{Range: toJSONRange(rel.Range), Message: rel.Message})
		}
	}
	return j
}
