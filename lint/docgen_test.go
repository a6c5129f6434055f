package lint

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files (docs/rules.md)")

// TestRulesDocUpToDate fails when docs/rules.md is stale; `go generate ./lint`
// (or go test ./lint -run TestRulesDocUpToDate -update) rewrites it.
func TestRulesDocUpToDate(t *testing.T) {
	path := filepath.Join("..", "docs", "rules.md")
	want := append(RulesMarkdown(), '\n')
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
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
