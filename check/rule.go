package check

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/lint"
)

// Layer groups the checks as the RoCE stack does (lint.Layer: a check
// rule is lint's rule type).
type Layer = lint.Layer

// Layers, from the optic up.
const (
	Physical  Layer = "physical"
	LinkLayer Layer = "link"
	Network   Layer = "network"
	Transport Layer = "transport"
	Meta      Layer = "meta"
)

// Scope says which devices a rule reads (lint.Scope).
type Scope = lint.Scope

// Scopes.
const (
	// Switches and hosts both.
	AllDevices Scope = iota
	// SwitchesOnly are the switch platforms.
	SwitchesOnly
	// HostsOnly are the host NIC platforms.
	HostsOnly
)

// Rule is one check: lint's rule type over check's Pass, a plain value in
// the registry (Rules), the one source for docs, explain, SARIF rule
// metadata and help, documented by lint's docgen (lint.RuleMarkdown,
// lint.RuleText, lint.RulesPage). Its Layer, Thresholds, Needs and Scope
// are set; Doc is docs/check-rules.md.
type Rule = lint.RuleOf[Pass]

// rulesDoc is the page documenting the registry.
const rulesDoc = "docs/check-rules.md"

// Rules returns the registry, ordered by ID; each call builds fresh values.
func Rules() []*Rule {
	var rs []*Rule
	rs = append(rs, physicalRules()...)
	rs = append(rs, linkRules()...)
	rs = append(rs, networkRules()...)
	rs = append(rs, transportRules()...)
	rs = append(rs, metaRules()...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].ID < rs[j].ID })
	for _, r := range rs {
		r.Doc = rulesDoc
	}
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

// ValidateRules checks the registry: what every registry's rules must
// have (lint.ValidateRegistry: well-formed unique IDs, every field filled
// in, a Run function), and here a layer, thresholds and known metric
// families.
func ValidateRules(rs []*Rule) error {
	if err := lint.ValidateRegistry(rs, ruleIDPattern, "CHK001"); err != nil {
		return err
	}
	known := map[string]bool{}
	for _, f := range Families() {
		known[f] = true
	}
	for _, r := range rs {
		if r.Layer == "" || r.Thresholds == "" {
			return fmt.Errorf("rule %s: layer and thresholds are required", r.ID)
		}
		for _, n := range r.Needs {
			if !known[n] {
				return fmt.Errorf("rule %s: needs unknown metric family %q", r.ID, n)
			}
		}
	}
	return nil
}

// LintRules is the registry's metadata (lint.RuleOf.Meta: Run nil), for
// the output formats' rule tables (SARIF rules, JUnit test cases).
func LintRules() []*lint.Rule {
	var out []*lint.Rule
	for _, r := range Rules() {
		out = append(out, r.Meta())
	}
	return out
}

// Finding is a check finding: fabricgen's one diagnostics type.
type Finding = diag.Diagnostic
