package lint

import (
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// Step is one port of a hop trace, with what happened to the packet there.
type Step struct {
	// Port is "device:port".
	Port string
	// Note says what the hop did, e.g. "DSCP 26 → 0: no trust dscp"; empty when nothing notable.
	Note string
}

// Related is a secondary location a finding points at (the other end of a
// link, the attribute a value was inherited from).
type Related struct {
	Range   schema.Range
	Message string
}

// Finding is one problem a rule found.
type Finding struct {
	// Rule is the rule ID, e.g. "QOS002".
	Rule     string
	Severity schema.Severity
	// Message says what is wrong, in the user's words.
	Message string
	// Subject is the intent text that causes the finding.
	Subject schema.Range
	// Device and Port name a representative place (Port is empty for device or object findings).
	Device string
	Port   string
	// Fix says how to fix it (the rule's fix unless a rule gives a specific one).
	Fix string
	// Trace is one representative hop trace for path findings, source NIC first.
	Trace []Step
	// Paths counts the NIC-to-NIC paths that share the problem (path findings only).
	Paths int64
	// Count is how many places (ports, links, objects) share this finding; at least 1.
	Count int
	// Related lists secondary locations.
	Related []Related
}

// TraceString renders the trace as "a:p1 → b:p2 (note) → …".
func (f *Finding) TraceString() string {
	parts := make([]string, len(f.Trace))
	for i, s := range f.Trace {
		if s.Note != "" {
			parts[i] = s.Port + " (" + s.Note + ")"
		} else {
			parts[i] = s.Port
		}
	}
	return strings.Join(parts, " → ")
}

// SortFindings orders findings by file, line, column, rule, device, port and message.
func SortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := &fs[i], &fs[j]
		if a.Subject.Filename != b.Subject.Filename {
			return a.Subject.Filename < b.Subject.Filename
		}
		if a.Subject.Start.Line != b.Subject.Start.Line {
			return a.Subject.Start.Line < b.Subject.Start.Line
		}
		if a.Subject.Start.Column != b.Subject.Start.Column {
			return a.Subject.Start.Column < b.Subject.Start.Column
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		if a.Device != b.Device {
			return a.Device < b.Device
		}
		if a.Port != b.Port {
			return a.Port < b.Port
		}
		return a.Message < b.Message
	})
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
