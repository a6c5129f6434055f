package lint

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
			f, diags := schema.Load(dir, schema.Options{})
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
		line := strings.TrimSpace(string(b))
		// "fabric.fab.hcl:60:5: device leaf2 (platform arista_eos) cannot express VALUE: REASON"
		at, rest, ok := strings.Cut(line, ": device ")
		if !ok {
			t.Fatalf("%s: unexpected golden %q", e, line)
		}
		_, what, _ := strings.Cut(rest, " cannot express ")
		found := false
		for _, fd := range fs {
			if !strings.HasPrefix(fd.Rule, "PLT") || fd.Subject == nil {
				continue
			}
			pos := filepath.Base(fd.Subject.Filename) + strings.TrimPrefix(fd.Subject.String(), fd.Subject.Filename)
			_, fwhat, _ := strings.Cut(fd.Summary, " cannot express ")
			if pos == at && fwhat == what {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: render refuses %q at %s; lint has no platform-limit finding saying so", e, what, at)
		}
	}
}
