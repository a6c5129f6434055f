package platformtest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// LoadIntent loads src, one intent file in HCL, with a catalog of specs
// alone (a folder's test passes its own spec, so that a copy of the
// folder passes it too).
func LoadIntent(tb testing.TB, src string, specs ...schema.PlatformSpec) (*schema.Fabric, schema.Diagnostics) {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.fab.hcl"), []byte(src), 0o600); err != nil {
		tb.Fatal(err)
	}
	return schema.Load(dir, schema.Options{Getenv: func(string) string { return "" }, Platforms: specs})
}

// HasError reports whether diags hold an error whose summary and detail
// contain summary and detail, at line (0: any line).
func HasError(diags schema.Diagnostics, summary, detail string, line int) bool {
	for _, d := range diags {
		if d.Severity != schema.SevError || !strings.Contains(d.Summary, summary) || !strings.Contains(d.Detail, detail) {
			continue
		}
		if line == 0 || (d.Subject != nil && int(d.Subject.Start.Line) == line) {
			return true
		}
	}
	return false
}

// CheckReleases checks spec's release form: each of good parses to its
// numbers and prints back as written; each of bad is refused.
func CheckReleases(t *testing.T, spec schema.PlatformSpec, good map[string][]int, bad []string) {
	t.Helper()
	for in, parts := range good {
		v, err := spec.ParseVersion(in)
		if err != nil {
			t.Errorf("%s %q: %v", spec.Name, in, err)
			continue
		}
		if !slices.Equal(v.Parts, parts) || v.String() != in {
			t.Errorf("%s %q: got %v %q, want %v", spec.Name, in, v.Parts, v.String(), parts)
		}
	}
	for _, in := range bad {
		if _, err := spec.ParseVersion(in); err == nil {
			t.Errorf("%s %q: no error", spec.Name, in)
		}
	}
}

// CheckPortNames checks spec's port-name rule accepts good, refuses bad
// and describes itself.
func CheckPortNames(t *testing.T, spec schema.PlatformSpec, good, bad []string) {
	t.Helper()
	for _, s := range good {
		if !spec.Ports.Check(s) {
			t.Errorf("%s rejects %q", spec.Name, s)
		}
	}
	for _, s := range bad {
		if spec.Ports.Check(s) {
			t.Errorf("%s accepts %q", spec.Name, s)
		}
	}
	if spec.Ports.Form == "" {
		t.Errorf("%s has no description of its port names", spec.Name)
	}
}

// RefusedCase is an intent file a platform's spec refuses, and the error.
type RefusedCase struct {
	// Name names the case; Src is the file.
	Name, Src string
	// Summary and Detail are parts of the error's, Line its line.
	Summary, Detail string
	Line            int
}

// CheckRefused loads each case with spec alone and checks the error.
func CheckRefused(t *testing.T, spec schema.PlatformSpec, cases []RefusedCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			_, diags := LoadIntent(t, c.Src, spec)
			if !HasError(diags, c.Summary, c.Detail, c.Line) {
				t.Errorf("want an error %q (detail %q) at line %d; got:\n%v", c.Summary, c.Detail, c.Line, diags)
			}
		})
	}
}
