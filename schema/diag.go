package schema

import "github.com/fabricgen/fabricgen/diag"

// The loader reports through fabricgen's one diagnostics type (package
// diag); these names keep the schema API readable.
type (
	// Pos is a position in a source file.
	Pos = diag.Pos
	// Range is a span of source text; the zero Range means "no source".
	Range = diag.Range
	// Severity orders diagnostics: Error > Warning > Info.
	Severity = diag.Severity
	// Diagnostic is one problem found in the intent, pointing at its source.
	Diagnostic = diag.Diagnostic
	// Diagnostics is a list of diagnostics in the order found.
	Diagnostics = diag.Diagnostics
)

// Severities.
const (
	SevInfo    = diag.Info
	SevWarning = diag.Warning
	SevError   = diag.Error
)

// ParseSeverity parses "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) { return diag.ParseSeverity(s) }
