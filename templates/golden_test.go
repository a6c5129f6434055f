package templates

import (
	"bytes"
	"context"
	"github.com/fabricgen/fabricgen/internal/golden"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGolden renders every device of every example (a sample of the scale
// example) and compares it with testdata/golden/<example>/<device>.<ext>. A
// device the platform cannot render has <device>.err holding the error.
// Run with -update to rewrite the files.
func TestGolden(t *testing.T) {
	r := newTestRenderer(t)
	for _, ex := range exampleNames(t) {
		t.Run(ex, func(t *testing.T) {
			f := loadExample(t, ex)
			dir := filepath.Join("testdata", "golden", filepath.FromSlash(ex))
			if golden.Updating() {
				if err := os.RemoveAll(dir); err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			platforms := map[string]bool{}
			for _, d := range sampleDevices(f) {
				out, err := r.Render(f, d)
				name, got := "", []byte(nil)
				if err != nil {
					name = d.Name + ".err"
					got = []byte(relErr(err, f.Dir) + "\n")
				} else {
					name = out.Filename
					got = out.Text
					platforms[string(d.Platform.V)] = true
				}
				path := filepath.Join(dir, name)
				golden.Check(t, path, got, "go test ./templates -update")
				if out != nil {
					for _, x := range out.Extra {
						golden.Check(t, filepath.Join(dir, x.Name), x.Text, "go test ./templates -update")
					}
				}
			}
			if len(platforms) == 0 && !strings.Contains(ex, "/") {
				t.Errorf("example %s rendered no device at all", ex)
			}
		})
	}
}

// relErr makes absolute paths in an error relative to the example directory
// so golden files do not depend on where the repository is checked out.
func relErr(err error, dir string) string {
	return string(bytes.ReplaceAll([]byte(err.Error()), []byte(dir+string(filepath.Separator)), nil))
}

// firstDiff shows the first differing line of two texts.

// TestDeterministic renders each example twice, sequentially and through
// RenderAll, and requires identical bytes in identical order.
func TestDeterministic(t *testing.T) {
	r := newTestRenderer(t)
	for _, ex := range []string{"roce-storage", "ai-training-2subnet", "clos-400g"} {
		f := loadExample(t, ex)
		all, _ := r.RenderAll(context.Background(), f, f.Devices)
		for i, d := range f.Devices {
			one, err := r.Render(f, d)
			if (err == nil) != (all[i] != nil) {
				t.Fatalf("%s/%s: RenderAll and Render disagree on success", ex, d.Name)
			}
			if err == nil && (!bytes.Equal(one.Text, all[i].Text) || all[i].Device != d.Name) {
				t.Errorf("%s/%s: parallel render differs from sequential render", ex, d.Name)
			}
		}
	}
}
