package check

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/fabricgen/fabricgen/internal/golden"
	"github.com/fabricgen/fabricgen/lint"
)

func TestRegistryValid(t *testing.T) {
	rs := Rules()
	if err := ValidateRules(rs); err != nil {
		t.Fatal(err)
	}
	if len(rs) < 21 {
		t.Errorf("%d rules, want CHK001–CHK021", len(rs))
	}
	for _, r := range rs {
		if lint.Lookup(r.ID) != nil {
			t.Errorf("%s is also a lint rule ID", r.ID)
		}
		if Lookup(strings.ToLower(r.ID)) == nil {
			t.Errorf("Lookup(%q) found nothing", strings.ToLower(r.ID))
		}
	}
	bad := []*Rule{{ID: "CHK1"}, {ID: "CHK001", Title: "t", Layer: Physical, Rationale: "r", Reference: "x", Fix: "f", Thresholds: "t", Severity: 1, Run: func(*Pass) {}, Needs: []string{"nope"}},
		{ID: "CHK002", Title: "t", Layer: Physical, Rationale: "r", Reference: "x", Fix: "f", Severity: 1, Run: func(*Pass) {}}}
	for _, r := range bad {
		if ValidateRules([]*Rule{r}) == nil {
			t.Errorf("ValidateRules accepted %+v", r)
		}
	}
}

// TestRulesDocUpToDate fails when docs/check-rules.md is stale; `go
// generate ./check` (or -update) rewrites it.
func TestRulesDocUpToDate(t *testing.T) {
	path := filepath.Join("..", "docs", "check-rules.md")
	want := append(RulesMarkdown(), '\n')
	if golden.Updating() {
		if err := golden.Write(path, want); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run `go generate ./check`", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/check-rules.md is stale: run `go generate ./check`")
	}
}

func TestRuleTextIsPlain(t *testing.T) {
	for _, r := range Rules() {
		txt := lint.RuleText(r)
		for _, part := range []string{r.ID, r.Title, "Documentation: https://github.com/fabricgen/fabricgen/blob/main/docs/check-rules.md#" + strings.ToLower(r.ID)} {
			if !strings.Contains(txt, part) {
				t.Errorf("%s: explain text lacks %q:\n%s", r.ID, part, txt)
			}
		}
		for _, l := range strings.Split(txt, "\n") {
			if len([]rune(l)) > 100 && !strings.HasPrefix(l, "Documentation:") {
				t.Errorf("%s: explain line longer than 100 columns: %q", r.ID, l)
			}
		}
		for _, internal := range []string{"lint-rules.md", "health-import.md", "seed", "§"} {
			if strings.Contains(r.Reference+r.Rationale+r.Fix, internal) {
				t.Errorf("%s cites %q", r.ID, internal)
			}
		}
		md := lint.RuleMarkdown(r)
		if !strings.Contains(string(RulesMarkdown()), "(#"+anchor(r.ID+" — "+r.Title)+")") || !strings.Contains(md, r.Fix) {
			t.Errorf("%s: markdown entry or anchor missing", r.ID)
		}
		if got := r.HelpURI(); !strings.HasSuffix(got, "/docs/check-rules.md#"+anchor(r.ID+" — "+r.Title)) {
			t.Errorf("%s: help URI %s does not point at its heading", r.ID, got)
		}
	}
}

// anchor is GitHub's heading slug, written here independently of lint's
// docgen: lower case, spaces to dashes, punctuation dropped.
func anchor(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
