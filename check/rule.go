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

// Reach says where a rule can be judged (lint.Reach).
type Reach = lint.Reach

// Reaches.
const (
	// HostReach rules are judged from one host's own NICs alone:
	// fabricgen check --local runs them.
	HostReach Reach = "host"
	// FabricReach rules need other devices' readings (a switch, the far
	// end of a path): only a central fabricgen check judges them.
	FabricReach Reach = "fabric"
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
		switch {
		case r.Reach != HostReach && r.Reach != FabricReach:
			return fmt.Errorf("rule %s: reach %q: set %q or %q", r.ID, r.Reach, HostReach, FabricReach)
		case r.Reach == HostReach && r.Path:
			return fmt.Errorf("rule %s: reach host, but it correlates devices along a path: a host cannot judge it alone", r.ID)
		}
		for _, n := range r.Needs {
			if !known[n] {
				return fmt.Errorf("rule %s: needs unknown metric family %q", r.ID, n)
			}
		}
	}
	return nil
}

// HostRules are the IDs of the rules a host judges alone (HostReach),
// in ID order; FabricRules the rest, left to a central check.
func HostRules() (host, fabric []string) {
	for _, r := range Rules() {
		if r.Reach == HostReach {
			host = append(host, r.ID)
		} else {
			fabric = append(fabric, r.ID)
		}
	}
	return host, fabric
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
