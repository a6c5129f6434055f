package lint

import (
	"bytes"
	"github.com/fabricgen/fabricgen/internal/golden"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRulesDocUpToDate fails when docs/rules.md is stale; `go generate ./lint`
// (or go test ./lint -run TestRulesDocUpToDate -update) rewrites it.
func TestRulesDocUpToDate(t *testing.T) {
	path := filepath.Join("..", "docs", "rules.md")
	want := append(RulesMarkdown(), '\n')
	if golden.Updating() {
		if err := golden.Write(path, want); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run `go generate ./lint`", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/rules.md is stale: run `go generate ./lint`")
	}
}

func TestRuleMarkdownMentionsEverything(t *testing.T) {
	for _, r := range Rules() {
		md := RuleMarkdown(r)
		for _, part := range []string{r.ID, r.Title, r.Fix, r.Reference, r.Severity.String()} {
			if !strings.Contains(md, part) {
				t.Errorf("%s: markdown misses %q", r.ID, part)
			}
		}
	}
}

// TestRulesCitePublicSources: explain and docs/rules.md cite public
// sources (standards, RFCs, vendor guides, papers), never the project's
// internal research notes.
func TestRulesCitePublicSources(t *testing.T) {
	for _, r := range Rules() {
		for _, part := range []string{r.Reference, r.Rationale, r.Fix} {
			for _, internal := range []string{"lint-rules.md", "roce-vendors.md", "seed", "§", "reference/"} {
				if strings.Contains(part, internal) {
					t.Errorf("%s cites %q: %s", r.ID, internal, part)
				}
			}
		}
		txt := RuleText(r)
		if strings.Contains(txt, "**") || strings.Contains(txt, "`") {
			t.Errorf("%s: explain text has Markdown:\n%s", r.ID, txt)
		}
		for _, l := range strings.Split(txt, "\n") {
			if len([]rune(l)) > 100 && !strings.HasPrefix(l, "Documentation:") {
				t.Errorf("%s: explain line longer than 100 columns: %q", r.ID, l)
			}
		}
	}
}

// TestExplainKeepsParenthesesTogether: a reference with "; " inside its
// parentheses stays one reference (ACL002's IEEE 802.1Qbb note).
func TestExplainKeepsParenthesesTogether(t *testing.T) {
	txt := RuleText(Lookup("ACL002"))
	if !strings.Contains(txt, "- IEEE 802.1Qbb (PFC pauses a priority; it cannot pause a policer)") {
		t.Errorf("ACL002's first reference is split:\n%s", txt)
	}
	for _, r := range Rules() {
		for _, ref := range splitReferences(r.Reference) {
			if strings.Count(ref, "(") != strings.Count(ref, ")") {
				t.Errorf("%s: unbalanced reference %q", r.ID, ref)
			}
		}
	}
}
