package schema

import (
	"fmt"
	"sort"
	"strings"
)

// Pos is a position in a source file: 1-based line and column (in
// characters), 0-based byte offset.
type Pos struct {
	Line, Column, Byte int32
}

// Range is a span of source text. The zero Range means "no source".
type Range struct {
	Filename   string
	Start, End Pos
}

// IsZero reports whether the range points nowhere.
func (r Range) IsZero() bool { return r.Filename == "" }

// String is "file:line:col".
func (r Range) String() string {
	if r.IsZero() {
		return "<no source>"
	}
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}

// Severity orders diagnostics: Error > Warning > Info.
type Severity int

// Severities.
const (
	SevInfo Severity = iota + 1
	SevWarning
	SevError
)

// String is "error", "warning" or "info".
func (s Severity) String() string {
	switch s {
	case SevError:
		return "error"
	case SevWarning:
		return "warning"
	case SevInfo:
		return "info"
	}
	return "unknown"
}

// ParseSeverity parses "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(s) {
	case "error":
		return SevError, nil
	case "warning", "warn":
		return SevWarning, nil
	case "info", "note", "notice":
		return SevInfo, nil
	}
	return 0, fmt.Errorf("unknown severity %q: use error, warning or info", s)
}

// Diagnostic is one problem found in the intent, pointing at its source.
type Diagnostic struct {
	Severity Severity
	// Summary is a short sentence; Detail says what is wrong and how to fix it.
	Summary string
	Detail  string
	// Subject is the range of the offending text; Context an enclosing range.
	Subject *Range
	Context *Range
}

// Error makes a Diagnostic usable as an error.
func (d *Diagnostic) Error() string {
	var b strings.Builder
	if d.Subject != nil {
		b.WriteString(d.Subject.String())
		b.WriteString(": ")
	}
	b.WriteString(EscapeText(d.Summary, false))
	if d.Detail != "" {
		b.WriteString("; ")
		b.WriteString(EscapeText(d.Detail, true))
	}
	return b.String()
}

// Diagnostics is a list of diagnostics in the order found.
type Diagnostics []*Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == SevError {
			return true
		}
	}
	return false
}

// Errs returns the error diagnostics only.
func (ds Diagnostics) Errs() Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == SevError {
			out = append(out, d)
		}
	}
	return out
}

// Error joins the diagnostics into one message.
func (ds Diagnostics) Error() string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.Error()
	}
	return strings.Join(parts, "\n")
}

// Sort orders diagnostics by file, line, column, then summary, for stable output.
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		ar, br := Range{}, Range{}
		if a.Subject != nil {
			ar = *a.Subject
		}
		if b.Subject != nil {
			br = *b.Subject
		}
		if ar.Filename != br.Filename {
			return ar.Filename < br.Filename
		}
		if ar.Start.Byte != br.Start.Byte {
			return ar.Start.Byte < br.Start.Byte
		}
		return a.Summary < b.Summary
	})
}
