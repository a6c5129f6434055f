package lint

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestLintReportsEveryRenderRefusal: for every device render refuses (each
// templates/testdata/golden/**/<device>.err), lint reports the same problem
// on the same line with a platform-limit rule: lint and render never disagree.
func TestLintReportsEveryRenderRefusal(t *testing.T) {
	root := filepath.Join("..", "templates", "testdata", "golden")
	errs, err := filepath.Glob(filepath.Join(root, "*", "*.err"))
	if err != nil {
		t.Fatal(err)
	}
	more, err := filepath.Glob(filepath.Join(root, "*", "*", "*.err"))
	if err != nil {
		t.Fatal(err)
	}
	errs = append(errs, more...)
	if len(errs) == 0 {
		t.Fatal("no .err goldens found")
	}
	byDir := map[string][]Finding{}
	for _, e := range errs {
		rel, _ := filepath.Rel(root, filepath.Dir(e))
		dir := filepath.Join("..", "examples", rel)
		fs, ok := byDir[dir]
		if !ok {
			f, diags := schema.Load(dir, schema.Options{Platforms: platforms.Catalog()})
			if diags.HasErrors() {
				t.Fatalf("%s: %v", dir, diags)
			}
			if fs, err = Run(context.Background(), f, Options{}); err != nil {
				t.Fatal(err)
			}
			byDir[dir] = fs
		}
		b, err := os.ReadFile(e)
		if err != nil {
			t.Fatal(err)
		}
		// One refusal per line: "fabric.fab.hcl:60:5: device leaf2 (platform
		// P) cannot express VALUE: REASON".
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			at, rest, ok := strings.Cut(line, ": device ")
			if !ok {
				t.Fatalf("%s: unexpected golden %q", e, line)
			}
			_, what, _ := strings.Cut(rest, " cannot express ")
			if !reportsRefusal(fs, at, what) {
				t.Errorf("%s: render refuses %q at %s; lint has no platform-limit finding saying so", e, what, at)
			}
		}
	}
}

// reportsRefusal reports whether a platform-limit finding (on its own, or
// folded into an intent rule's finding on its line) says what at at
// ("file:line:col").
func reportsRefusal(fs []Finding, at, what string) bool {
	match := func(rule string, r schema.Range, summary string) bool {
		if !strings.HasPrefix(rule, "PLT") || r.IsZero() {
			return false
		}
		pos := filepath.Base(r.Filename) + strings.TrimPrefix(r.String(), r.Filename)
		_, fwhat, _ := strings.Cut(summary, " cannot express ")
		return pos == at && fwhat == what
	}
	for _, fd := range fs {
		if match(fd.Rule, fd.Range(), fd.Summary) {
			return true
		}
		for _, im := range fd.Implied {
			if match(im.Rule, im.Range, im.Summary) {
				return true
			}
		}
	}
	return false
}
