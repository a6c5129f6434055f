package templates

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// repoRoot is the module root (the parent of this package).
func repoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test file")
	}
	return filepath.Dir(filepath.Dir(file))
}

var (
	exMu    sync.Mutex
	exCache = map[string]*schema.Fabric{}
)

// loadExample loads examples/<name> once per test binary.
func loadExample(t testing.TB, name string) *schema.Fabric {
	t.Helper()
	exMu.Lock()
	defer exMu.Unlock()
	if f, ok := exCache[name]; ok {
		return f
	}
	opts := schema.Options{Platforms: platforms.Catalog()}
	if name == "scale" {
		// The golden and validation tests use a small instance of the
		// parametric example; BenchmarkRender uses the full size.
		opts.Vars = map[string]string{"spines": "4", "leaves": "8", "nics_per_leaf": "2"}
	}
	f, diags := schema.Load(filepath.Join(repoRoot(t), "examples", name), opts)
	if diags.HasErrors() {
		t.Fatalf("loading example %s: %v", name, diags.Errs())
	}
	exCache[name] = f
	return f
}

// exampleNames lists every example directory (one holding *.fab.hcl or
// *.fab.json files), as slash paths relative to examples/.
func exampleNames(t testing.TB) []string {
	t.Helper()
	root := filepath.Join(repoRoot(t), "examples")
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		fab, _ := filepath.Glob(filepath.Join(p, "*.fab.hcl"))
		js, _ := filepath.Glob(filepath.Join(p, "*.fab.json"))
		if len(fab)+len(js) > 0 {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// sampleDevices returns every device of a small example, and for the large
// scale example the first two devices of each platform.
func sampleDevices(f *schema.Fabric) []*schema.Device {
	if len(f.Devices) <= 200 {
		return f.Devices
	}
	seen := map[schema.Platform]int{}
	var out []*schema.Device
	for _, d := range f.Devices {
		if seen[d.Platform.V] < 2 {
			seen[d.Platform.V]++
			out = append(out, d)
		}
	}
	return out
}

func newTestRenderer(t testing.TB) *Renderer {
	t.Helper()
	r, err := NewRenderer(Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// embeddedFS gathers every platform folder's embedded templates into one
// tree, <platform>/<file>.tmpl, as the override folders lay them out.
func embeddedFS(t testing.TB) fstest.MapFS {
	t.Helper()
	out := fstest.MapFS{}
	for _, p := range rendered() {
		err := fs.WalkDir(p.Templates, ".", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(p.Templates, path)
			if err != nil {
				return fmt.Errorf("reading %s's %s: %w", p.Name, path, err)
			}
			out[string(p.Name)+"/"+path] = &fstest.MapFile{Data: b}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}
