// Package lint checks a resolved fabric end to end: what every hop does to
// RoCE data and to congestion notifications (CNP), from the sending NIC
// through leaves, spines and routed core hops to the receiving NIC, plus the
// per-link, per-port and per-object rules of the catalogue.
//
// Rules are values (Rule) in one registry (Rules); documentation, the SARIF
// rule list, `fabricgen explain` and docs/rules.md all derive from it. Path
// rules read the Walk: a data flow over states (port, packet DSCP), each
// visited once, with path counts computed by dynamic programming rather
// than by enumerating NIC pairs (a NIC's paths to itself excluded).
//
// One cause is one finding: Run merges a rule's findings on one line, and
// folds a finding into another rule's on the same line when that rule
// implies it (Rule.Implies), keeping it as a note (Finding.Implied).
//
//go:generate go test -run TestRulesDocUpToDate -update .
package lint
