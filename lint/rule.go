package lint

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/schema"
)

// Rule is one lint rule: a plain value, like a go/analysis Analyzer. The
// registry (Rules) is the one source for docs, explain, SARIF and help.
type Rule = RuleOf[Pass]

// RuleOf is one rule of a registry whose rules run over passes of type P:
// lint's (Rule, over Pass) and fabricgen check's (check.Rule, over its
// live-state pass). Both registries are documented, explained, validated
// and listed in SARIF and JUnit by the same code (RuleMarkdown, RuleText,
// RulesPage, ValidateRegistry, Meta).
type RuleOf[P any] struct {
	// ID is the stable identifier, e.g. "QOS002" (check's: "CHK001").
	ID string
	// Title is a one-line summary of what must hold.
	Title string
	// Severity is the default severity; .fabricgen.hcl may override it.
	Severity schema.Severity
	// Rationale says why the rule exists; Reference names the source.
	Rationale string
	Reference string
	// Fix says how to fix a finding.
	Fix string
	// Edit is Fix as one attribute to set, when it is one (editors offer
	// it as a quick fix where a finding's subject is that attribute or a
	// block that takes it); findings get it with Fix.
	Edit *diag.AttrEdit
	// Path is true for rules that read the end-to-end walk (check's:
	// that correlate both ends of a link or a path).
	Path bool
	// Implies lists the rules whose findings this rule's finding explains
	// when both point at the same line (one cause): they are folded into
	// this rule's finding as notes (Finding.Implied) rather than reported
	// on their own. Implication is transitive and must not be circular.
	Implies []string
	// Doc is the documentation page of a rule from another registry
	// (docs/check-rules.md for fabricgen check's CHK rules); empty means
	// docs/rules.md.
	Doc string
	// Layer is the stack layer a live-state rule (check's) watches; empty
	// for an intent rule. A rule with a Layer is documented as check's:
	// by its layer, thresholds and the metrics it reads.
	Layer Layer
	// Thresholds documents the numbers a live-state rule judges by, with
	// sources.
	Thresholds string
	// Needs are the metric families a live-state rule reads; a device (of
	// Scope) whose platform does not expose one is "not evaluated" for it.
	Needs []string
	// Scope says which devices a live-state rule reads.
	Scope Scope
	// Reach says whether a live-state rule can be judged by a host alone,
	// from its own NICs (check's "host": check --local runs it), or needs
	// other devices' readings (check's "fabric": a central check runs it).
	Reach Reach
	// LinkLayers are the link layers of the fabrics an intent rule judges;
	// nil means Ethernet only (as for schema.PlatformSpec.LinkLayers). The
	// runner runs only the rules of the fabric's link layer, so no RoCE
	// rule reports on an InfiniBand fabric and no IBQ rule on Ethernet.
	LinkLayers []schema.LinkLayer
	// Run reports the rule's findings through the pass.
	Run func(p *P)
}

// Layer groups live-state rules as the RoCE stack does (check.Physical…).
type Layer string

// Scope says which devices a live-state rule reads (check.AllDevices…).
type Scope int

// Reach says where a live-state rule can be judged (check.HostReach,
// check.FabricReach).
type Reach string

// Meta is the rule without its Run function: the metadata the output
// formats list (format.Result.Rules), for a rule of any registry.
func (r *RuleOf[P]) Meta() *Rule {
	return &Rule{ID: r.ID, Title: r.Title, Severity: r.Severity, Rationale: r.Rationale, Reference: r.Reference,
		Fix: r.Fix, Path: r.Path, Implies: r.Implies, Doc: r.Doc, Layer: r.Layer, Thresholds: r.Thresholds,
		Needs: r.Needs, Scope: r.Scope, Reach: r.Reach, LinkLayers: r.LinkLayers}
}

// AppliesTo reports whether the rule judges fabrics of link layer ll
// ("" is Ethernet, a fabric's default).
func (r *RuleOf[P]) AppliesTo(ll schema.LinkLayer) bool {
	if ll == "" {
		ll = schema.LinkEthernet
	}
	if len(r.LinkLayers) == 0 {
		return ll == schema.LinkEthernet
	}
	return slices.Contains(r.LinkLayers, ll)
}

// bothLinkLayers is LinkLayers for a rule about the intent's text rather
// than its network (suppressions, validation).
func bothLinkLayers() []schema.LinkLayer {
	return []schema.LinkLayer{schema.LinkEthernet, schema.LinkInfiniBand}
}

// Pass is a rule's only window on the fabric: the inputs, the shared walk,
// and Report. Rules never see the output format or the exit code.
type Pass struct {
	// Fabric is the resolved intent; read-only.
	Fabric *schema.Fabric
	// Rule is the rule being run.
	Rule *Rule
	// Suppressions are the parsed ignore comments (for SUP001).
	Suppressions []Suppression

	walk      func() *Walk
	qosGroups func() []qosGroup
	exist     func() *Exist
	limits    func() map[schema.Platform][]Finding
	report    func(Finding, *Alike)
}

// Walk returns the end-to-end walk, computed once per Run and shared by all rules.
func (p *Pass) Walk() *Walk { return p.walk() }

// Exist returns the model of which priorities can exist on each device,
// computed once per Run and shared by all rules (built on demand for a
// pass made without one).
func (p *Pass) Exist() *Exist {
	if p.exist == nil {
		return NewExist(p.Fabric)
	}
	return p.exist()
}

// Report records a finding. Rule, Severity and Fix default from the rule.
func (p *Pass) Report(f Finding) {
	if f.Rule == "" {
		f.Rule = p.Rule.ID
	}
	if f.Severity == 0 {
		f.Severity = p.Rule.Severity
	}
	if f.Fix == "" {
		f.Fix, f.Edit = p.Rule.Fix, p.Rule.Edit
	}
	if f.Count == 0 {
		f.Count = 1
	}
	p.report(f, nil)
}

// Reportf reports a finding at subject for a port (nil allowed) with a formatted message.
func (p *Pass) Reportf(subject schema.Range, port *schema.Port, format string, args ...any) {
	f := Finding{Subject: ptr(subject), Summary: fmt.Sprintf(format, args...)}
	if port != nil {
		f.Device, f.Port = port.Device.Name, port.Name
	}
	p.Report(f)
}

// Rules returns the rule registry, ordered by ID. Each call builds fresh
// values, so callers may not affect each other.
func Rules() []*Rule {
	var rs []*Rule
	rs = append(rs, qosRules()...)
	rs = append(rs, classRules()...)
	rs = append(rs, pfcRules()...)
	rs = append(rs, bufRules()...)
	rs = append(rs, ecnRules()...)
	rs = append(rs, cnpRules()...)
	rs = append(rs, etsRules()...)
	rs = append(rs, mtuRules()...)
	rs = append(rs, aclRules()...)
	rs = append(rs, wdgRules()...)
	rs = append(rs, linkRules()...)
	rs = append(rs, supRules()...)
	rs = append(rs, valRules()...)
	rs = append(rs, pltRules()...)
	rs = append(rs, ibqRules()...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].ID < rs[j].ID })
	addImplications(rs)
	return rs
}

// implications says which rules' findings a rule's finding explains when
// both point at the same line: the condition of the first entails the
// second's there (a priority PFC pauses for nothing is also a PFC mismatch
// with the other end of the link). Two problems that can each occur
// without the other stay two findings, even on one line.
func implications() map[string][]string {
	return map[string][]string{
		"CNP003": {"PFC008"},                                         // CNP in a paused priority: that priority carries no lossless class
		"ETS002": {"ETS001"},                                         // the zero weight is why the weights miss 100
		"IBQ001": {"IBQ003"},                                         // a class's VL15 is also VL15 in its arbitration table
		"IBQ006": {"IBQ009"},                                         // torus-2QoS rewrites SL2VL and SLs alike
		"MTU002": {"MTU003"},                                         // the hop too small for RoCE differs from the other end
		"PFC002": {"PFC001", "PFC008", "NIC001", "NIC006", "CNP003"}, // the PFC vector on this line misses RoCE: its other faults are the same value
		"PFC008": {"PFC001", "NIC001", "NIC006"},                     // PFC on a priority no class uses: so the ends differ
		"QOS002": {"QOS004"},                                         // a class's DSCP in another class's (PFC) priority
		"QOS003": {"ECN001"},                                         // RoCE put in a lossy queue, which has no ECN
		"QOS006": {"QOS002"},                                         // the NIC's own map sends the class elsewhere
	}
}

// addImplications fills Rule.Implies from implications, and makes every
// intent rule imply the platform-limit rules: a value that is both wrong
// for the fabric and inexpressible on a platform is one line to change,
// reported by the intent rule, with the platform's refusal as a note.
func addImplications(rs []*Rule) {
	var plt []string
	for _, r := range rs {
		if strings.HasPrefix(r.ID, "PLT") {
			plt = append(plt, r.ID)
		}
	}
	imp := implications()
	for _, r := range rs {
		r.Implies = append(r.Implies, imp[r.ID]...)
		if !strings.HasPrefix(r.ID, "PLT") && r.ID != ValidationRule && r.ID != "SUP001" {
			r.Implies = append(r.Implies, plt...)
		}
	}
}

// Lookup returns the rule with the given ID (case-insensitive), or nil.
func Lookup(id string) *Rule {
	for _, r := range Rules() {
		if equalFold(r.ID, id) {
			return r
		}
	}
	return nil
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'a' <= x && x <= 'z' {
			x -= 'a' - 'A'
		}
		if 'a' <= y && y <= 'z' {
			y -= 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

var ruleIDPattern = regexp.MustCompile(`^[A-Z]{2,4}[0-9]{3}$`)

// ValidateRules checks the registry: well-formed unique IDs, every field
// filled in, a Run function, implications between rules of the registry
// and not circular. A test runs it over Rules().
func ValidateRules(rs []*Rule) error {
	if err := ValidateRegistry(rs, ruleIDPattern, "QOS001"); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, r := range rs {
		seen[r.ID] = true
	}
	for _, r := range rs {
		for _, id := range r.Implies {
			if !seen[id] || id == r.ID {
				return fmt.Errorf("rule %s implies %q: not another rule of the registry", r.ID, id)
			}
		}
	}
	closure := impliesClosure(rs)
	for a, bs := range closure {
		for b := range bs {
			if closure[b][a] {
				return fmt.Errorf("rules %s and %s imply each other: implication must not be circular", a, b)
			}
		}
	}
	return nil
}

// ValidateRegistry checks what every registry's rules must have: an ID
// matching pattern (like example), unique; a title, rationale, reference
// and fix; a severity; a Run function. A live-state rule (with a Layer or
// Thresholds) needs both.
func ValidateRegistry[P any](rs []*RuleOf[P], pattern *regexp.Regexp, example string) error {
	seen := map[string]bool{}
	for _, r := range rs {
		switch {
		case !pattern.MatchString(r.ID):
			return fmt.Errorf("rule %q: ID must look like %s", r.ID, example)
		case seen[r.ID]:
			return fmt.Errorf("rule %s: duplicate ID", r.ID)
		case r.Title == "" || r.Rationale == "" || r.Reference == "" || r.Fix == "":
			return fmt.Errorf("rule %s: title, rationale, reference and fix are all required", r.ID)
		case (r.Layer == "") != (r.Thresholds == ""):
			return fmt.Errorf("rule %s: a live-state rule needs both a layer and its thresholds", r.ID)
		case r.Severity < schema.SevInfo || r.Severity > schema.SevError:
			return fmt.Errorf("rule %s: severity must be error, warning or info", r.ID)
		case r.Run == nil:
			return fmt.Errorf("rule %s: Run is nil", r.ID)
		}
		seen[r.ID] = true
	}
	return nil
}
