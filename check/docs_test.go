package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckDocCoversRules keeps docs/check.md in step with the registry:
// every rule has a threshold row.
func TestCheckDocCoversRules(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "check.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Rules() {
		if !strings.Contains(string(b), "| "+r.ID+" |") {
			t.Errorf("docs/check.md has no threshold row for %s", r.ID)
		}
	}
}
