// Package diag is fabricgen's one diagnostics type: what validate, lint,
// render and plan report, from an HCL syntax error to a platform limit and
// an end-to-end lint finding. A Diagnostic carries a severity, an optional
// rule ID, a summary and detail in the user's words, the subject range (the
// line to change), related ranges, a hop trace and a fix. The output
// formats (lint/format) render Diagnostics and nothing else, so every
// format carries load errors as well as findings.
//
// The shape follows hcl.Diagnostic (Summary, Detail, Subject, Context) and
// go/analysis's Diagnostic (Category as Rule, Related, a fix).
package diag

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/fabricgen/fabricgen/internal/units"
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

// String is "file:line:col" ("file" alone when the range has no position).
func (r Range) String() string {
	if r.IsZero() {
		return "<no source>"
	}
	if r.Start.Line == 0 {
		return r.Filename
	}
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}

// CommandLinePrefix starts the pseudo file name of a value given on the
// command line: "-var spines" for -var spines=VALUE.
const CommandLinePrefix = "-var "

// FromCommandLine reports whether r points into a value given on the
// command line rather than into a file (an intent file ends in .fab.hcl or
// .fab.json): formats that locate files drop such a location.
func (r Range) FromCommandLine() bool {
	return strings.HasPrefix(r.Filename, CommandLinePrefix) && !strings.HasSuffix(r.Filename, ".fab.hcl") && !strings.HasSuffix(r.Filename, ".fab.json")
}

// Ptr returns a pointer to a copy of r, or nil for the zero range.
func (r Range) Ptr() *Range {
	if r.IsZero() {
		return nil
	}
	return &r
}

// Severity orders diagnostics: Error > Warning > Info.
type Severity int

// Severities.
const (
	Info Severity = iota + 1
	Warning
	Error
)

// String is "error", "warning" or "info".
func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Info:
		return "info"
	}
	return "unknown"
}

// ParseSeverity parses "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(s) {
	case "error":
		return Error, nil
	case "warning", "warn":
		return Warning, nil
	case "info", "note", "notice":
		return Info, nil
	}
	return 0, fmt.Errorf("unknown severity %q: use error, warning or info", s)
}

// Related is a secondary location: the other end of a link, the shared
// definition a deviating value overrides, another place with the same cause.
type Related struct {
	Range   Range
	Message string
}

// MaxPlaces bounds the places a finding lists.
const MaxPlaces = 16

// Step is one port of a hop trace, with what happened to the packet there.
type Step struct {
	// Port is "device:port".
	Port string
	// Note says what the hop did, e.g. "DSCP 26 → 0: no trust dscp"; empty when nothing notable.
	Note string
	// Src is where the intent set what the hop did to the packet: the
	// ACL rule that dropped or re-marked it, the trust that reset it, the
	// class or dscp_map entry that classified it, the NIC's tos that
	// marked it (zero: the port's block stands for it).
	Src Range
}

// Diagnostic is one problem: an invalid intent, a lint finding, a value a
// platform cannot express.
type Diagnostic struct {
	Severity Severity
	// Rule is the lint rule ID ("QOS001"); empty for load and validation errors.
	Rule string
	// Summary says what is wrong in one sentence; Detail adds why and how, if anything.
	Summary string
	Detail  string
	// Subject is the range of the text to change (nil: no source); Context
	// an enclosing range, when known.
	Subject *Range
	Context *Range
	// Related lists the other places involved, each with a message.
	Related []Related
	// Trace is one representative hop trace (source NIC first) for findings on a path.
	Trace []Step
	// Paths counts, per flow, the NIC-to-NIC paths that share the problem
	// (none: not a path finding). The flow Trace follows comes first; the
	// flows are different packets on different paths and are never added up.
	Paths []FlowPaths
	// Count is how many places (ports, links, objects) share the problem; 0 and 1 mean one.
	Count int
	// Places are the blocks of the places Count counts (ports or
	// devices), sorted, at most MaxPlaces: the machine formats list them
	// (SARIF relatedLocations, JSON places); the text format counts them.
	Places []Related
	// Device and Port name a representative place, when there is one.
	Device, Port string
	// Fix says how to fix it.
	Fix string
	// Edit is Fix when it is one attribute, for editors to apply (a quick
	// fix); nil otherwise.
	Edit *AttrEdit
	// Implied lists the findings of other rules on the same line that this
	// finding's cause explains (its rule declares it implies theirs): one
	// cause, one finding, the others kept as notes.
	Implied []Implied
	// Evidence lists the measurements a live-state finding (fabricgen
	// check) rests on; lint and load diagnostics have none.
	Evidence []Evidence
}

// AttrEdit is a fix that is one attribute: Attr = Value (HCL text) in
// the block the finding's Subject points into. The Subject is either that
// attribute, whose value is replaced, or the block, which gains it.
type AttrEdit struct {
	Attr, Value string
}

// FlowPaths is the number of NIC-to-NIC paths of one flow ("RoCE data",
// "CNP") that share a problem.
type FlowPaths struct {
	Flow  string
	Paths int64
}

// Implied is another rule's finding folded into a diagnostic: same line,
// same cause.
type Implied struct {
	Rule     string
	Severity Severity
	Summary  string
	// Range is where the folded finding pointed (on the same line).
	Range Range
}

// Evidence is one measurement behind a finding: what was read where, its
// value, the threshold it was judged against, over which window, and the
// exact command (or database key) that produced it.
type Evidence struct {
	// Device and Port say where the value was read.
	Device, Port string
	// Metric names the signal ("rx_power_dbm", "fcs_errors").
	Metric string
	// Value is the reading: a gauge, or a counter's increase over Window.
	Value float64
	// Unit is the value's unit ("dBm", "frames", "errors/s"); empty for a count.
	Unit string
	// Threshold says what the value was judged against, in words
	// ("< -11.3 dBm: low alarm -13.3 dBm + 2 dB margin").
	Threshold string
	// Window is the time between the two snapshots a counter's increase
	// was measured over (0 for a gauge read once).
	Window time.Duration
	// Source is the command or database key the value came from.
	Source string
	// Reading is the value in the device's words when it is not a
	// quantity (trust "none", a PFC priority set, "down"); Value is then
	// only for machines that want a number.
	Reading string
	// Intent is what the intent says the value should be, in its words
	// ("dscp", "3,4"), for a reading compared with the intent rather than
	// judged against a threshold.
	Intent string
}

// Sourceless makes a diagnostic without a source range (a missing file,
// a bad flag value): the environment, not the intent, is wrong.
func Sourceless(sev Severity, summary, detail string) *Diagnostic {
	return &Diagnostic{Severity: sev, Summary: summary, Detail: detail}
}

// Range returns the subject, or the zero range.
func (d *Diagnostic) Range() Range {
	if d.Subject == nil {
		return Range{}
	}
	return *d.Subject
}

// Error makes a Diagnostic usable as an error: "file:line:col: summary; detail",
// with control characters escaped.
func (d *Diagnostic) Error() string {
	var b strings.Builder
	if d.Subject != nil && !d.Subject.IsZero() {
		b.WriteString(EscapeText(d.Subject.String(), false))
		b.WriteString(": ")
	}
	if d.Rule != "" {
		b.WriteString(d.Rule)
		b.WriteString(": ")
	}
	b.WriteString(EscapeText(d.Summary, false))
	if d.Detail != "" {
		b.WriteString("; ")
		b.WriteString(EscapeText(d.Detail, true))
	}
	return b.String()
}

// PathsString says how many paths of each flow share the problem: "16
// paths of RoCE data and 16 of CNP", "1 path of CNP"; "" when none.
func (d *Diagnostic) PathsString() string {
	var parts []string
	for i, fp := range d.Paths {
		if fp.Paths <= 0 {
			continue
		}
		n := PathCount(fp.Paths)
		if i > 0 && len(parts) > 0 {
			n = fmt.Sprint(fp.Paths)
		}
		parts = append(parts, n+" of "+fp.Flow)
	}
	return strings.Join(parts, " and ")
}

// TraceString renders the trace as "a:p1 → b:p2 (note) → …".
func (d *Diagnostic) TraceString() string {
	parts := make([]string, len(d.Trace))
	for i, s := range d.Trace {
		if s.Note != "" {
			parts[i] = s.Port + " (" + s.Note + ")"
		} else {
			parts[i] = s.Port
		}
	}
	return strings.Join(parts, " → ")
}

// String is one line: "leaf1:Ethernet1 rx_power_dbm = -18 dBm (< -11.3
// dBm …) over 10s, from `show interfaces transceiver dom thresholds | json`".
func (e Evidence) String() string {
	var b strings.Builder
	if e.Device != "" {
		b.WriteString(e.Device)
		if e.Port != "" {
			b.WriteString(":" + e.Port)
		}
		b.WriteByte(' ')
	}
	fmt.Fprintf(&b, "%s = %s", e.Metric, e.ValueText())
	if e.Intent != "" {
		b.WriteString(", intent " + e.Intent)
	}
	if e.Threshold != "" {
		b.WriteString(" (" + e.Threshold + ")")
	}
	if e.Window > 0 {
		b.WriteString(" over " + e.Window.String())
	}
	if e.Source != "" {
		b.WriteString(", from `" + e.Source + "`")
	}
	return b.String()
}

// ValueText is the reading as a person reads it: Reading when set, a
// byte count in B/KB/MB/GB ("100 GB"), else the number and its unit.
func (e Evidence) ValueText() string {
	switch {
	case e.Reading != "":
		return e.Reading
	case e.Unit == "bytes":
		return units.ApproxSize(e.Value)
	case e.Unit != "":
		return FormatValue(e.Value) + " " + e.Unit
	}
	return FormatValue(e.Value)
}

// FormatValue prints a measurement compactly: integers without a
// fraction, small and large values in exponent form (1e-05), others with
// up to three decimals.
func FormatValue(v float64) string {
	switch {
	case v == float64(int64(v)) && v < 1e15 && v > -1e15:
		return fmt.Sprintf("%d", int64(v))
	case v != 0 && (v < 1e-3 && v > -1e-3):
		return strings.Replace(fmt.Sprintf("%.2g", v), "e-0", "e-", 1)
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", v), "0"), ".")
}

// Diagnostics is a list of diagnostics. A nil list means nothing to report.
type Diagnostics []*Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Errs returns the error diagnostics only.
func (ds Diagnostics) Errs() Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == Error {
			out = append(out, d)
		}
	}
	return out
}

// Error joins the diagnostics into one message, one per line.
func (ds Diagnostics) Error() string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.Error()
	}
	return strings.Join(parts, "\n")
}

// Counts returns the number of errors, warnings and infos.
func (ds Diagnostics) Counts() (errors, warnings, infos int) {
	for _, d := range ds {
		switch d.Severity {
		case Error:
			errors++
		case Warning:
			warnings++
		default:
			infos++
		}
	}
	return
}

// AtOrAbove counts the diagnostics whose severity is at least level.
func (ds Diagnostics) AtOrAbove(level Severity) int {
	n := 0
	for _, d := range ds {
		if d.Severity >= level {
			n++
		}
	}
	return n
}

// Sort orders diagnostics by file, line, column, rule, device, port and
// summary, for stable output; diagnostics without a source come first.
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool { return Less(ds[i], ds[j]) })
}

// Less is the order Sort uses.
func Less(a, b *Diagnostic) bool {
	ar, br := a.Range(), b.Range()
	switch {
	case ar.Filename != br.Filename:
		return ar.Filename < br.Filename
	case ar.Start.Line != br.Start.Line:
		return ar.Start.Line < br.Start.Line
	case ar.Start.Column != br.Start.Column:
		return ar.Start.Column < br.Start.Column
	case a.Rule != b.Rule:
		return a.Rule < b.Rule
	case a.Device != b.Device:
		return a.Device < b.Device
	case a.Port != b.Port:
		return a.Port < b.Port
	}
	return a.Summary < b.Summary
}
