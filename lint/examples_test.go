package lint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

var expectedRule = regexp.MustCompile("Expected finding: `([A-Z]+[0-9]+)` at `([^`:]+):([0-9]+)`")

// TestBrokenExamples loads every examples/broken/* directory and checks that
// lint reports the finding its README names, and nothing else: each broken
// example shows its own problem only (findings of rules the named rule
// implies are folded into it).
func TestBrokenExamples(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "examples", "broken", "*"))
	if err != nil || len(dirs) < 9 {
		t.Fatalf("want the 9 seed cases under examples/broken, found %d (%v)", len(dirs), err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
			if err != nil {
				t.Fatal(err)
			}
			m := expectedRule.FindSubmatch(readme)
			if m == nil {
				t.Fatal("README.md has no line `Expected finding: `RULE` at `FILE:LINE``")
			}
			want, wantFile, wantLine := string(m[1]), string(m[2]), string(m[3])
			f, diags := schema.Load(dir, schema.Options{Platforms: platforms.Catalog()})
			if diags.HasErrors() {
				t.Fatalf("does not load: %v", diags)
			}
			fs, err := Run(context.Background(), f, Options{})
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, fd := range fs {
				if fd.Rule == want && fd.Subject != nil && filepath.Base(fd.Subject.Filename) == wantFile && fmt.Sprint(fd.Subject.Start.Line) == wantLine {
					found = true
				}
				if fd.Rule != want {
					t.Errorf("an unrelated finding beside the example's own %s: %s %s %s", want, fd.Rule, fd.Range(), fd.Summary)
				}
			}
			if found {
				return
			}
			t.Errorf("lint did not report %s at %s:%s, the line README.md names; got %d findings", want, wantFile, wantLine, len(fs))
			for _, fd := range fs {
				t.Logf("  %s %s %s", fd.Rule, fd.Range(), fd.Summary)
			}
		})
	}
}

// TestCorrectExamplesClean: the correct examples have no errors or warnings.
func TestCorrectExamplesClean(t *testing.T) {
	for _, name := range []string{"roce-storage", "ai-training-2subnet", "clos-400g", "releases", "ib-cluster"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("..", "examples", name)
			if _, err := os.Stat(dir); err != nil {
				t.Fatalf("example missing: %v", err)
			}
			f, diags := schema.Load(dir, schema.Options{Platforms: platforms.Catalog()})
			if diags.HasErrors() {
				t.Fatalf("does not load: %v", diags)
			}
			fs, err := Run(context.Background(), f, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, fd := range fs {
				if fd.Severity >= schema.SevWarning {
					t.Errorf("%s %s %s: %s", fd.Rule, fd.Severity, fd.Subject, fd.Summary)
				}
			}
		})
	}
}
