package nav_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lsp/nav"
	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// copyFabric copies an example's intent files into a temporary directory
// and returns it with the files (keyed by the copies' paths, as schema.Load
// names them).
func copyFabric(t *testing.T, dir string) (string, map[string][]byte) {
	t.Helper()
	tmp := t.TempDir()
	paths, err := schema.IntentFiles(dir)
	if err != nil || len(paths) == 0 {
		t.Fatalf("%s: %v", dir, err)
	}
	files := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(tmp, filepath.Base(p))
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files[dst] = b
	}
	return tmp, files
}

// lintDir loads and lints dir: the findings of rule and the suppressed ones.
func lintDir(t *testing.T, dir, rule string) (found, hidden []lint.Finding) {
	t.Helper()
	f, diags := schema.Load(dir, schema.Options{Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatalf("%s does not load: %v", dir, diags)
	}
	rep, err := lint.RunReport(context.Background(), f, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range rep.Findings {
		if fd.Rule == rule {
			found = append(found, fd)
		}
	}
	for _, s := range rep.Suppressed {
		if s.Finding.Rule == rule {
			hidden = append(hidden, s.Finding)
		}
	}
	return found, hidden
}

// applyEdit writes e to its file on disk.
func applyEdit(t *testing.T, files map[string][]byte, e nav.Edit) {
	t.Helper()
	src := files[e.Range.Filename]
	out := string(src[:e.Range.Start.Byte]) + e.NewText + string(src[e.Range.End.Byte:])
	if err := os.WriteFile(e.Range.Filename, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestIgnoreSuppressesThroughLint inserts the suppression comment for a
// real finding and lints again: the finding is suppressed, with the
// reason, and the comment's reason is no SUP001.
func TestIgnoreSuppressesThroughLint(t *testing.T) {
	for _, c := range []struct{ dir, rule, reason string }{
		{"../../../examples/broken/pfc-without-ecn", "ECN004", ""},
		{"../../../examples/broken/mtu-1500-hop", "", "accepted in the lab"},
		{"../../../examples/broken/cnp-paused", "", ""},
	} {
		t.Run(filepath.Base(c.dir), func(t *testing.T) {
			dir, files := copyFabric(t, c.dir)
			rule := c.rule
			if rule == "" {
				// The example's first finding.
				f, _ := schema.Load(dir, schema.Options{Platforms: platforms.Catalog()})
				fs, err := lint.Run(context.Background(), f, lint.Options{})
				if err != nil || len(fs) == 0 {
					t.Fatalf("no finding in %s: %v", c.dir, err)
				}
				rule = fs[0].Rule
			}
			found, _ := lintDir(t, dir, rule)
			if len(found) == 0 {
				t.Fatalf("%s reports no %s", c.dir, rule)
			}
			ix := nav.New(files)
			e, ok := ix.Ignore(found[0].Range(), rule, c.reason)
			if !ok {
				t.Fatalf("Ignore(%v): not ok", found[0].Range())
			}
			applyEdit(t, files, e)
			after, hidden := lintDir(t, dir, rule)
			for _, fd := range after {
				if fd.Range() == found[0].Range() || fd.Range().Start.Line == found[0].Range().Start.Line+1 && fd.Range().Filename == found[0].Range().Filename {
					t.Errorf("%s at %v still reported after %q", rule, fd.Range(), e.NewText)
				}
			}
			if len(hidden) == 0 {
				t.Errorf("no %s suppressed after inserting %q", rule, e.NewText)
			}
			if sup, _ := lintDir(t, dir, "SUP001"); len(sup) > 0 {
				t.Errorf("the inserted comment is a SUP001: %v", sup[0].Summary)
			}
		})
	}
}

// TestSetAttrFixesThroughLint applies a finding's one-attribute fix and
// lints again: PFC without ECN (ECN004) is fixed by setting the class's
// ecn.
func TestSetAttrFixesThroughLint(t *testing.T) {
	dir, files := copyFabric(t, "../../../examples/broken/pfc-without-ecn")
	found, _ := lintDir(t, dir, "ECN004")
	if len(found) == 0 {
		t.Fatal("no ECN004")
	}
	ix := nav.New(files)
	// The class the finding is about: the roce traffic_class block.
	var name string
	var off int
	for n, src := range files {
		if i := strings.Index(string(src), `traffic_class "roce"`); i >= 0 {
			name, off = n, i+len(`traffic_class "ro`)
		}
	}
	r := schema.Range{Filename: name, Start: schema.Pos{Byte: int32(off)}, End: schema.Pos{Byte: int32(off)}}
	e, ok := ix.SetAttr(r, "ecn", "ecn_profile.roce")
	if !ok {
		t.Fatal("SetAttr: not ok")
	}
	applyEdit(t, files, e)
	if after, _ := lintDir(t, dir, "ECN004"); len(after) != 0 {
		t.Errorf("ECN004 after the fix %q: %v", e.NewText, after[0].Summary)
	}
}
