package lint_test

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/schema"
)

// TestRuleEdits: a rule's one-attribute quick fix names an attribute some
// block of the language takes, and its value is one HCL expression, so
// the editor never writes something the loader refuses to parse.
func TestRuleEdits(t *testing.T) {
	attrs := map[string]bool{}
	for _, b := range schema.Language() {
		for _, a := range b.Attrs {
			attrs[a.Name] = true
		}
	}
	n := 0
	for _, r := range lint.Rules() {
		if r.Edit == nil {
			continue
		}
		n++
		if !attrs[r.Edit.Attr] {
			t.Errorf("%s: quick fix sets %q, which no block takes", r.ID, r.Edit.Attr)
		}
		if _, diags := hclsyntax.ParseExpression([]byte(r.Edit.Value), "fix", hcl.InitialPos); diags.HasErrors() {
			t.Errorf("%s: quick fix value %q is not an expression: %s", r.ID, r.Edit.Value, diags.Error())
		}
	}
	if n < 4 {
		t.Errorf("%d rules have a quick fix; QOS001, QOS005, QOS008 and the link-pause rule at least should", n)
	}
}
