package format

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/schema"
)

// SARIFSchemaURI is the schema the SARIF output declares.
const SARIFSchemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string     `json:"id"`
	Name                 string     `json:"name"`
	ShortDescription     sarifText  `json:"shortDescription"`
	FullDescription      sarifText  `json:"fullDescription"`
	Help                 sarifText  `json:"help"`
	HelpURI              string     `json:"helpUri,omitempty"`
	DefaultConfiguration sarifLevel `json:"defaultConfiguration"`
	Properties           sarifProps `json:"properties"`
}

type sarifLevel struct {
	Level string `json:"level"`
}

type sarifProps struct {
	Tags      []string `json:"tags,omitempty"`
	Reference string   `json:"reference,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifLocation struct {
	ID               *int           `json:"id,omitempty"`
	PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
	Message          *sarifText     `json:"message,omitempty"`
}

type sarifThreadFlowLocation struct {
	Location sarifLocation `json:"location"`
}

type sarifThreadFlow struct {
	Locations []sarifThreadFlowLocation `json:"locations"`
}

type sarifCodeFlow struct {
	Message     *sarifText        `json:"message,omitempty"`
	ThreadFlows []sarifThreadFlow `json:"threadFlows"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations,omitempty"`
	RelatedLocations    []sarifLocation    `json:"relatedLocations,omitempty"`
	CodeFlows           []sarifCodeFlow    `json:"codeFlows,omitempty"`
	PartialFingerprints map[string]string  `json:"partialFingerprints,omitempty"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	Properties          map[string]any     `json:"properties,omitempty"`
}

// sarifSuppression says a result was suppressed: "inSource" by an ignore
// comment, "external" by the lint configuration.
type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification,omitempty"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRun struct {
	Tool struct {
		Driver sarifDriver `json:"driver"`
	} `json:"tool"`
	Results    []sarifResult `json:"results"`
	ColumnKind string        `json:"columnKind"`
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

func sarifLevelOf(s schema.Severity) string {
	switch s {
	case schema.SevError:
		return "error"
	case schema.SevWarning:
		return "warning"
	}
	return "note"
}

// SARIFBaseID names the repository root that result URIs are relative to
// when a base path is given.
const SARIFBaseID = "%SRCROOT%"

// fingerprintKey names fabricgen's partial fingerprint (versioned, so a
// change of recipe is a new key rather than a silent change of identity).
const fingerprintKey = "fabricgen/v2"

func physical(r diag.Range, base string) *sarifPhysical {
	if r.IsZero() || r.FromCommandLine() {
		return nil
	}
	reg := &sarifRegion{StartLine: int(max(r.Start.Line, 1)), StartColumn: int(max(r.Start.Column, 1))}
	if r.End.Line >= r.Start.Line && r.End.Line > 0 {
		reg.EndLine = int(r.End.Line)
		if r.End.Line > r.Start.Line || r.End.Column > r.Start.Column {
			reg.EndColumn = int(r.End.Column)
		}
	}
	name, inside := relPath(base, r.Filename)
	art := sarifArtifact{URI: name}
	switch {
	case inside:
		art.URIBaseID = SARIFBaseID
	case filepath.IsAbs(filepath.FromSlash(name)):
		// Outside the base: an absolute file URI, which needs no base.
		art.URI = (&url.URL{Scheme: "file", Path: name}).String()
	}
	return &sarifPhysical{ArtifactLocation: art, Region: reg}
}

func writeSARIF(w io.Writer, r *Result) error {
	var run sarifRun
	run.ColumnKind = "unicodeCodePoints"
	run.Tool.Driver = sarifDriver{Name: "fabricgen", Version: r.Version, InformationURI: "https://github.com/fabricgen/fabricgen", Rules: []sarifRule{}}
	ds := r.Diagnostics
	sups := make([]*sarifSuppression, len(ds), len(ds)+len(r.Suppressed))
	if len(r.Suppressed) > 0 {
		hidden := make([]lint.Finding, len(r.Suppressed))
		for i := range r.Suppressed {
			hidden[i] = r.Suppressed[i].Finding
		}
		ds = append(ds[:len(ds):len(ds)], prepared(lint.Diagnostics(hidden))...)
		for _, s := range r.Suppressed {
			sups = append(sups, &sarifSuppression{Kind: s.Kind, Justification: s.Justification})
		}
	}
	rules, idx := withDiagnosticRules(r.Rules, ds)
	for _, rule := range rules {
		tags := []string{"rocev2", "lossless"}
		if rule.Path {
			tags = append(tags, "end-to-end")
		}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID: rule.ID, Name: rule.ID, ShortDescription: sarifText{Text: rule.Title},
			FullDescription:      sarifText{Text: rule.Rationale},
			Help:                 sarifText{Text: rule.Fix, Markdown: "**Fix:** " + rule.Fix + "\n\n**Why:** " + rule.Rationale + "\n\n**Reference:** " + rule.Reference},
			HelpURI:              rule.HelpURI(),
			DefaultConfiguration: sarifLevel{Level: sarifLevelOf(rule.Severity)},
			Properties:           sarifProps{Tags: tags, Reference: rule.Reference},
		})
	}
	run.Results = []sarifResult{}
	uris := make([]string, len(ds))
	locs := make([]*sarifPhysical, len(ds))
	for i, d := range ds {
		if d.Subject != nil {
			if pl := physical(*d.Subject, r.BasePath); pl != nil {
				locs[i], uris[i] = pl, pl.ArtifactLocation.URI
			}
		}
	}
	prints := fingerprints(ds, uris, r.Sources)
	for i, d := range ds {
		id := ruleID(d)
		res := sarifResult{RuleID: id, RuleIndex: idx[id], Level: sarifLevelOf(d.Severity), Message: sarifText{Text: message(d, r.BasePath)}}
		if pl := locs[i]; pl != nil {
			res.Locations = []sarifLocation{{PhysicalLocation: pl}}
		}
		res.PartialFingerprints = map[string]string{fingerprintKey: prints[i]}
		if sups[i] != nil {
			res.Suppressions = []sarifSuppression{*sups[i]}
		}
		// The related places, then every place a finding about several
		// ports counts (diag.Diagnostic.Places): a viewer marks each.
		for j, rel := range append(slices.Clip(d.Related), d.Places...) {
			if pl := physical(rel.Range, r.BasePath); pl != nil {
				id := j + 1
				res.RelatedLocations = append(res.RelatedLocations, sarifLocation{ID: &id, PhysicalLocation: pl, Message: &sarifText{Text: rel.Message}})
			}
		}
		if len(d.Trace) > 0 {
			var tf sarifThreadFlow
			for _, s := range d.Trace {
				msg := s.Port
				if s.Note != "" {
					msg += " (" + s.Note + ")"
				}
				// The hop's location is where the intent decided what it did
				// (diag.Step.Src), when the trace knows it.
				tf.Locations = append(tf.Locations, sarifThreadFlowLocation{Location: sarifLocation{PhysicalLocation: physical(s.Src, r.BasePath), Message: &sarifText{Text: msg}}})
			}
			res.CodeFlows = []sarifCodeFlow{{Message: &sarifText{Text: "hop trace: " + d.TraceString()}, ThreadFlows: []sarifThreadFlow{tf}}}
		}
		props := map[string]any{"count": max(d.Count, 1)}
		if len(d.Paths) > 0 {
			paths := map[string]int64{}
			for _, fp := range d.Paths {
				paths[fp.Flow] = fp.Paths
			}
			props["paths"] = paths
		}
		if len(d.Implied) > 0 {
			var ids []string
			for _, im := range d.Implied {
				ids = append(ids, im.Rule)
			}
			props["implied"] = ids
		}
		if d.Device != "" {
			props["device"] = strings.TrimSpace(d.Device)
		}
		if d.Port != "" {
			props["port"] = d.Port
		}
		if len(d.Evidence) > 0 {
			props["evidence"] = evidenceJSON(d.Evidence)
		}
		res.Properties = props
		run.Results = append(run.Results, res)
	}
	log := sarifLog{Schema: SARIFSchemaURI, Version: "2.1.0", Runs: []sarifRun{run}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}
