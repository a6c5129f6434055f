package lint

import (
	"sort"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/schema"
)

// Finding is one problem a rule found: fabricgen's one diagnostics type
// (diag.Diagnostic), with Rule set. Subject is the line to change; the
// shared definitions and the other places involved are in Related.
type Finding = diag.Diagnostic

// Step is one port of a hop trace.
type Step = diag.Step

// Related is a secondary location a finding points at.
type Related = diag.Related

// FlowPaths is the number of paths of one flow that share a finding.
type FlowPaths = diag.FlowPaths

// ptr is the subject pointer for a range (nil for the zero range).
func ptr(r schema.Range) *schema.Range { return r.Ptr() }

// SortFindings orders findings by file, line, column, rule, device, port and summary.
func SortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool { return diag.Less(&fs[i], &fs[j]) })
}

// MaxSeverity returns the highest severity among fs, or 0 when fs is empty.
func MaxSeverity(fs []Finding) schema.Severity {
	var m schema.Severity
	for i := range fs {
		if fs[i].Severity > m {
			m = fs[i].Severity
		}
	}
	return m
}

// AtOrAbove counts the findings whose severity is at least level.
func AtOrAbove(fs []Finding, level schema.Severity) int {
	n := 0
	for i := range fs {
		if fs[i].Severity >= level {
			n++
		}
	}
	return n
}

// Diagnostics returns pointers to fs, as the output formats take them.
func Diagnostics(fs []Finding) diag.Diagnostics {
	out := make(diag.Diagnostics, len(fs))
	for i := range fs {
		out[i] = &fs[i]
	}
	return out
}
