package platformtest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestClosSeats: every folder of the registry takes a seat in the shared
// clos fabric; with its platform put there, the fabric loads, the seat is
// a device of the platform (a host's with the ports its clos.json gives),
// and the seat's brownfield configuration loads in the lab's form.
func TestClosSeats(t *testing.T) {
	for _, fx := range platformtest.All("../..") {
		t.Run(fx.Platform.Folder, func(t *testing.T) {
			files, seat, err := fx.ClosFiles()
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			for name, text := range files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			f, diags := schema.Load(dir, schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
			if diags.HasErrors() {
				t.Fatalf("the clos fabric with %s in seat %s: %v", fx.Platform.Name, seat.Seat, diags)
			}
			d := f.Device(seat.Seat)
			if d == nil || d.Platform.V != fx.Platform.Name {
				t.Fatalf("seat %s is not a %s device", seat.Seat, fx.Platform.Name)
			}
			for _, p := range seat.Ports {
				if d.Port(p) == nil {
					t.Errorf("seat %s has no port %s (testdata/push/clos.json)", seat.Seat, p)
				}
			}
			name, text, err := fx.ClosBrownfield()
			if err != nil {
				t.Fatal(err)
			}
			if want := lab.RunningConfigFile(seat.Seat, fx.Platform.Name); name != want || strings.TrimSpace(text) == "" {
				t.Errorf("brownfield %s (%d bytes), want the file lab up --running-config reads, %s", name, len(text), want)
			}
		})
	}
}

// TestClosSeatErrors: a seat the fabric has no line for, or a seat given
// for another kind of device, fails naming the folder and the seat.
func TestClosSeatErrors(t *testing.T) {
	fx := platformtest.All("../..")[0]
	root := t.TempDir()
	cp := platformtest.Fixture{Platform: fx.Platform, Dir: filepath.Join(root, "platforms", "x", "testdata")}
	if err := os.MkdirAll(filepath.Join(cp.Dir, "push"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The copy's clos fabric: three levels up from a folder's testdata
	// is the repository root.
	clos := filepath.Join(root, "internal", "platformtest", "testdata", "clos")
	if err := os.MkdirAll(clos, 0o755); err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join(fx.ClosDir(), "*.fab.hcl"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(clos, filepath.Base(p)), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ json, want string }{
		{`{"seat": "nosuch"}`, `seat "nosuch"`},
		{`{}`, "names no seat"},
		{`{"seat": "leaf1", "extra": 1}`, "unknown field"},
	} {
		if err := os.WriteFile(filepath.Join(cp.Dir, "push", "clos.json"), []byte(tc.json), 0o600); err != nil {
			t.Fatal(err)
		}
		_, _, err := cp.ClosFiles()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.json, err, tc.want)
		}
	}
}
