package lint

import "github.com/fabricgen/fabricgen/schema"

// ValidationRule is the rule every load and validation error is filed
// under in the structured formats (SARIF, JUnit, Checkstyle, GitHub), so
// CI shows an invalid intent like any other finding.
const ValidationRule = "VAL001"

func valRules() []*Rule {
	return []*Rule{{
		ID: ValidationRule, Title: "The intent is valid: syntax, types, units, names and references", Severity: schema.SevError,
		Rationale:  "Nothing can be checked end to end, rendered or pushed from an intent that does not load. These diagnostics come from the loader (the same ones `fabricgen validate` prints); lint runs only when there are none. The rule cannot be turned off.",
		Reference:  "HCL native syntax specification (hashicorp/hcl, hclsyntax/spec.md)",
		Fix:        "Correct the attribute or block the diagnostic points at; its detail says what is allowed.",
		LinkLayers: bothLinkLayers(),
		Run:        func(*Pass) {}, // the loader reports these; see schema.Load
	}}
}

// HelpURI is the rule's entry in docs/rules.md (or the page Doc names)
// on the project's site.
func (r *RuleOf[P]) HelpURI() string {
	doc := r.Doc
	if doc == "" {
		doc = "docs/rules.md"
	}
	return "https://github.com/fabricgen/fabricgen/blob/main/" + doc + "#" + ruleAnchor(r)
}

// ruleAnchor is the GitHub heading slug of the rule's section in its page.
// The platform-limit rules share one section, their family's.
func ruleAnchor[P any](r *RuleOf[P]) string {
	if r.Doc == "" && IsPlatformRule(r.ID) {
		return anchor(platformFamilyTitle)
	}
	return anchor(r.ID + " — " + r.Title)
}
