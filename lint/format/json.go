package format

import (
	"encoding/json"
	"io"

	"github.com/fabricgen/fabricgen/diag"
)

// JSONFormatVersion is the version of the JSON document's shape. A new
// field raises the minor version; a changed or removed one the major.
const JSONFormatVersion = "2.3"

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

// jsonPaths counts the paths of one flow (format 2.0: paths per flow, never summed).
type jsonPaths struct {
	Flow  string `json:"flow"`
	Paths int64  `json:"paths"`
}

// jsonImplied is a finding of another rule folded into this one (format 2.0).
type jsonImplied struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
}

// jsonEvidence is one measurement of a check finding (format 2.1).
type jsonEvidence struct {
	Device        string  `json:"device,omitempty"`
	Port          string  `json:"port,omitempty"`
	Metric        string  `json:"metric"`
	Value         float64 `json:"value"`
	Unit          string  `json:"unit,omitempty"`
	Threshold     string  `json:"threshold,omitempty"`
	WindowSeconds float64 `json:"window_seconds,omitempty"`
	Source        string  `json:"source,omitempty"`
	Reading       string  `json:"reading,omitempty"`
	Intent        string  `json:"intent,omitempty"`
}

type jsonDiagnostic struct {
	Severity string         `json:"severity"`
	Rule     string         `json:"rule,omitempty"`
	Summary  string         `json:"summary"`
	Detail   string         `json:"detail,omitempty"`
	Range    *jsonRange     `json:"range,omitempty"`
	Snippet  *diag.Snippet  `json:"snippet,omitempty"`
	Device   string         `json:"device,omitempty"`
	Port     string         `json:"port,omitempty"`
	Fix      string         `json:"fix,omitempty"`
	Trace    []jsonStep     `json:"trace,omitempty"`
	Paths    []jsonPaths    `json:"paths,omitempty"`
	Count    int            `json:"count,omitempty"`
	Related  []jsonRelated  `json:"related,omitempty"`
	Places   []jsonRelated  `json:"places,omitempty"`
	Implied  []jsonImplied  `json:"implied,omitempty"`
	Evidence []jsonEvidence `json:"evidence,omitempty"`
}

// jsonDoc is the document every command's JSON output shares (validate
// -json, lint -format json): Terraform's validate -json fields plus lint's.
type jsonDoc struct {
	FormatVersion string           `json:"format_version"`
	Valid         bool             `json:"valid"`
	ErrorCount    int              `json:"error_count"`
	WarningCount  int              `json:"warning_count"`
	InfoCount     int              `json:"info_count"`
	Diagnostics   []jsonDiagnostic `json:"diagnostics"`
}

func toJSONRange(r diag.Range) *jsonRange {
	if r.IsZero() {
		return nil
	}
	return &jsonRange{Filename: r.Filename, Start: jsonPos(r.Start), End: jsonPos(r.End)}
}

func writeJSON(w io.Writer, r *Result) error {
	doc := jsonDoc{FormatVersion: JSONFormatVersion, Valid: r.Valid, Diagnostics: []jsonDiagnostic{}}
	doc.ErrorCount, doc.WarningCount, doc.InfoCount = r.Diagnostics.Counts()
	for _, d := range r.Diagnostics {
		doc.Diagnostics = append(doc.Diagnostics, toJSON(d, r.Sources))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func toJSON(d *diag.Diagnostic, sources map[string][]byte) jsonDiagnostic {
	j := jsonDiagnostic{Severity: d.Severity.String(), Rule: d.Rule, Summary: d.Summary, Detail: d.Detail,
		Device: d.Device, Port: d.Port, Fix: d.Fix, Count: d.Count}
	for _, fp := range d.Paths {
		j.Paths = append(j.Paths, jsonPaths(fp))
	}
	for _, im := range d.Implied {
		j.Implied = append(j.Implied, jsonImplied{Rule: im.Rule, Severity: im.Severity.String(), Summary: im.Summary})
	}
	if d.Subject != nil {
		j.Range = toJSONRange(*d.Subject)
		if sn, ok := diag.SnippetFor(sources, *d.Subject); ok {
			j.Snippet = sn
		}
	}
	for _, s := range d.Trace {
		j.Trace = append(j.Trace, jsonStep{Port: s.Port, Note: s.Note})
	}
	for _, rel := range d.Related {
		if !rel.Range.IsZero() {
			j.Related = append(j.Related, jsonRelated{Range: *toJSONRange(rel.Range), Message: rel.Message})
		}
	}
	for _, pl := range d.Places {
		if !pl.Range.IsZero() {
			j.Places = append(j.Places, jsonRelated{Range: *toJSONRange(pl.Range), Message: pl.Message})
		}
	}
	j.Evidence = evidenceJSON(d.Evidence)
	return j
}

// evidenceJSON is the evidence in the JSON document's shape.
func evidenceJSON(es []diag.Evidence) []jsonEvidence {
	var out []jsonEvidence
	for _, e := range es {
		out = append(out, jsonEvidence{Device: e.Device, Port: e.Port, Metric: e.Metric, Value: e.Value, Unit: e.Unit,
			Threshold: e.Threshold, WindowSeconds: e.Window.Seconds(), Source: e.Source, Reading: e.Reading, Intent: e.Intent})
	}
	return out
}
