package snapshot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/platforms"
)

// TestCheckDocListsCommandsAndFaults keeps docs/check.md in step with the
// collectors and the lab's data-plane faults.
func TestCheckDocListsCommandsAndFaults(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "check.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.ReplaceAll(string(b), `\|`, "|")
	for _, pl := range platforms.Needing("check collector") {
		if pl.Collector == nil {
			t.Errorf("platforms/%s: no check collector", pl.Folder)
			continue
		}
		for _, cmd := range pl.Collector.Commands() {
			if !strings.Contains(doc, "`"+cmd+"`") {
				t.Errorf("docs/check.md does not list %s's command `%s`", pl.Name, cmd)
			}
		}
	}
	for _, k := range dataplane.Kinds() {
		if !strings.Contains(doc, "`"+string(k)) {
			t.Errorf("docs/check.md does not describe the fault %s", k)
		}
	}
}
