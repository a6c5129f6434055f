package templates

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestOverrideLimits: an override template that loops for ever, recurses,
// writes too much or formats a huge width fails with a message naming
// the limit and the template set, in well under the test's time.
func TestOverrideLimits(t *testing.T) {
	f := loadExample(t, "clos-400g")
	// The engine's limits hold for every platform: one switch of the
	// example stands for them.
	leaf := firstSwitch(t, f)
	p := string(leaf.Platform.V)
	cases := []struct{ name, tmpl, want string }{
		{"empty loop of 2e9", `{{range 2000000000}}{{end}}`, "time limit"},
		{"nested loops", `{{range 100000}}{{range 100000}}{{end}}{{end}}`, "time limit"},
		{"recursion", `{{define "a"}}{{template "a" .}}{{template "a" .}}{{end}}{{template "a" .}}`, ""},
		{"output flood", `{{range 2000000000}}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx{{end}}`, "output limit"},
		{"printf width", `{{printf "%999999999d" 1}}`, "width or precision above"},
		{"printf star", `{{printf "%*d" 999999999 1}}`, "not allowed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, p, "device.tmpl"), []byte(c.tmpl), 0o644); err != nil {
				t.Fatal(err)
			}
			limit := 200 * time.Millisecond
			if c.want == "output limit" {
				limit = time.Minute // the output limit must trip first, even under -race
			}
			r, err := NewRenderer(Options{Dir: dir, TimeLimit: limit, OutputLimit: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, err = r.Render(f, leaf)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), dir) {
				t.Errorf("error %q; want it to contain %q and the template folder", err, c.want)
			}
			if d := time.Since(start); d > 2*time.Minute {
				t.Errorf("took %s", d)
			}
		})
	}
	// Embedded templates and well-behaved overrides are unaffected.
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, p, "device.tmpl"), []byte(`{{range .Ports}}{{printf "%-12s" .Name}}{{end}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := NewRenderer(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Devices {
		if string(d.Platform.V) == p {
			if _, err := r.Render(f, d); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// firstSwitch is the first device of f whose platform is a switch
// platform of the registry.
func firstSwitch(t *testing.T, f *schema.Fabric) *schema.Device {
	t.Helper()
	for _, d := range f.Devices {
		if pl, ok := platforms.Get(d.Platform.V); ok && !pl.Spec.Host {
			return d
		}
	}
	t.Fatal("no switch in the fabric")
	return nil
}
