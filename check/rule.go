package check

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/schema"
)

// Layer groups the checks as the RoCE stack does.
type Layer string

// Layers, from the optic up.
const (
	Physical  Layer = "physical"
	LinkLayer Layer = "link"
	Network   Layer = "network"
	Transport Layer = "transport"
	Meta      Layer = "meta"
)

// Scope says which devices a rule reads.
type Scope int

// Scopes.
const (
	// Switches and hosts both.
	AllDevices Scope = iota
	// SwitchesOnly are the switch platforms.
	SwitchesOnly
	// HostsOnly are the host NIC platforms.
	HostsOnly
)

// Rule is one check: a plain value in the registry (Rules), the one
// source for docs, explain, SARIF rule metadata and help, like lint's.
type Rule struct {
	// ID is "CHK001"…
	ID string
	// Title is one line: what must hold.
	Title string
	// Layer is the stack layer the rule watches.
	Layer Layer
	// Severity is the default severity; a finding may be more or less.
	Severity schema.Severity
	// Rationale says why; Reference names public sources; Fix how to fix.
	Rationale, Reference, Fix string
	// Thresholds documents the numbers the rule judges by, with sources.
	Thresholds string
	// Needs are the metric families the rule reads; a device (of Scope)
	// whose platform does not expose one is "not evaluated" for the rule.
	Needs []string
	Scope Scope
	// Path is true for rules that correlate both ends of a link or a path.
	Path bool
	// Run reports the rule's findings through the pass.
	Run func(p *Pass)
}

// Rules returns the registry, ordered by ID; each call builds fresh values.
func Rules() []*Rule {
	var rs []*Rule
	rs = append(rs, physicalRules()...)
	rs = append(rs, linkRules()...)
	rs = append(rs, networkRules()...)
	rs = append(rs, transportRules()...)
	rs = append(rs, metaRules()...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].ID < rs[j].ID })
	return rs
}

// Lookup returns the rule with the ID (case-insensitive), or nil.
func Lookup(id string) *Rule {
	for _, r := range Rules() {
		if strings.EqualFold(r.ID, id) {
			return r
		}
	}
	return nil
}

var ruleIDPattern = regexp.MustCompile(`^CHK[0-9]{3}$`)

// ValidateRules checks the registry: well-formed unique IDs, every field
// filled in, a Run function, known metric families.
func ValidateRules(rs []*Rule) error {
	seen := map[string]bool{}
	known := map[string]bool{}
	for _, f := range Families() {
		known[f] = true
	}
	for _, r := range rs {
		switch {
		case !ruleIDPattern.MatchString(r.ID):
			return fmt.Errorf("rule %q: ID must look like CHK001", r.ID)
		case seen[r.ID]:
			return fmt.Errorf("rule %s: duplicate ID", r.ID)
		case r.Title == "" || r.Rationale == "" || r.Reference == "" || r.Fix == "" || r.Thresholds == "" || r.Layer == "":
			return fmt.Errorf("rule %s: title, layer, rationale, reference, fix and thresholds are all required", r.ID)
		case r.Severity < schema.SevInfo || r.Severity > schema.SevError:
			return fmt.Errorf("rule %s: severity must be error, warning or info", r.ID)
		case r.Run == nil:
			return fmt.Errorf("rule %s: Run is nil", r.ID)
		}
		for _, n := range r.Needs {
			if !known[n] {
				return fmt.Errorf("rule %s: needs unknown metric family %q", r.ID, n)
			}
		}
		seen[r.ID] = true
	}
	return nil
}

// LintRules is the registry as lint rules (metadata only, Run nil), for
// the output formats' rule tables (SARIF rules, JUnit test cases).
func LintRules() []*lint.Rule {
	var out []*lint.Rule
	for _, r := range Rules() {
		out = append(out, &lint.Rule{ID: r.ID, Title: r.Title, Severity: r.Severity, Rationale: r.Rationale,
			Reference: r.Reference, Fix: r.Fix, Path: r.Path, Doc: "docs/check-rules.md"})
	}
	return out
}

// Finding is a check finding: fabricgen's one diagnostics type.
type Finding = diag.Diagnostic
