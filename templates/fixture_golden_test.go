package templates

import (
	"path/filepath"
	"testing"

	"github.com/fabricgen/fabricgen/internal/golden"
	"github.com/fabricgen/fabricgen/internal/platformtest"
)

// TestPlatformFixtureGoldens renders each platform folder's own fixture
// (platforms/<name>/testdata/fabric) and compares every device of the
// platform with platforms/<name>/testdata/golden/<file>, looping over the
// registry: a new folder is rendered and pinned without a line here, and
// a folder without a fixture, or whose fixture has none of its devices,
// fails, named.
func TestPlatformFixtureGoldens(t *testing.T) {
	r := newTestRenderer(t)
	for _, fx := range platformtest.All(filepath.Join("..")) {
		t.Run(fx.Platform.Folder, func(t *testing.T) {
			f, err := fx.Load()
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range fx.Devices(f) {
				out, err := r.Render(f, d)
				if err != nil {
					t.Errorf("%s: %v", d.Name, err)
					continue
				}
				golden.Check(t, filepath.Join(fx.GoldenDir(), out.Filename), out.Text, "go test ./templates -run TestPlatformFixtureGoldens -update")
			}
		})
	}
}
