package check

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
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

// TestRuleReach: every rule says whether a host judges it alone (check
// --local runs it) or only a central run can; the cross-device ones
// named in the docs are central, and the registry refuses a rule without
// a reach or a path rule that claims a host can judge it.
func TestRuleReach(t *testing.T) {
	for _, r := range Rules() {
		if r.Reach != HostReach && r.Reach != FabricReach {
			t.Errorf("%s: reach %q, want host or fabric", r.ID, r.Reach)
		}
		if r.Meta().Reach != r.Reach {
			t.Errorf("%s: Meta drops the reach", r.ID)
		}
	}
	host, fabric := HostRules()
	if len(host)+len(fabric) != len(Rules()) || len(host) == 0 {
		t.Fatalf("host %v, fabric %v", host, fabric)
	}
	for _, id := range []string{"CHK014", "CHK017", "CHK018", "CHK013"} {
		if !slices.Contains(fabric, id) {
			t.Errorf("%s is cross-device or switch-only, but a host run would judge it (fabric %v)", id, fabric)
		}
	}
	for _, id := range []string{"CHK001", "CHK005", "CHK010", "CHK016", "CHK019", "CHK020", "CHK021"} {
		if !slices.Contains(host, id) {
			t.Errorf("%s is a host's own reading, but a host run would leave it out (host %v)", id, host)
		}
	}
	base := func() *Rule {
		return &Rule{ID: "CHK001", Title: "t", Layer: Physical, Rationale: "r", Reference: "x", Fix: "f", Thresholds: "t", Severity: 1, Run: func(*Pass) {}}
	}
	noReach, badReach, pathHost := base(), base(), base()
	badReach.Reach = "rack"
	pathHost.Reach, pathHost.Path = HostReach, true
	for name, r := range map[string]*Rule{"no reach": noReach, "unknown reach": badReach, "path rule on a host": pathHost} {
		if ValidateRules([]*Rule{r}) == nil {
			t.Errorf("%s: ValidateRules accepted it", name)
		}
	}
	ok := base()
	ok.Reach = HostReach
	if err := ValidateRules([]*Rule{ok}); err != nil {
		t.Errorf("a complete host rule: %v", err)
	}
}
