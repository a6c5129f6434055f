// Package golden is the one golden-file helper of the test suites: one
// -update flag for every package (go test ./... -update rewrites them all),
// one comparison that prints where the first difference is.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// update is registered once, by this package, for every test binary that
// imports it; the flag package's own state is per process.
var update = flag.Bool("update", false, "rewrite golden files instead of comparing with them")

// Updating reports whether the test binary runs with -update.
func Updating() bool { return *update }

// Check compares got with the file at path, or rewrites the file under
// -update. A missing or different file fails t with the command that
// accepts the new output (hint, for example "go test ./templates -update").
func Check(t testing.TB, path string, got []byte, hint string) {
	t.Helper()
	if *update {
		if err := Write(path, got); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%v (run %s to create it)", err, hint)
		return
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs (run %s and review the diff)\n%s", path, hint, FirstDiff(want, got))
	}
}

// Write writes a golden file, creating its folder.
func Write(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("golden: %w", err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("golden: %w", err)
	}
	return nil
}

// FirstDiff describes the first line where want and got differ, with the
// line number and both versions.
func FirstDiff(want, got []byte) string {
	w := bytes.Split(want, []byte("\n"))
	g := bytes.Split(got, []byte("\n"))
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl []byte
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if i >= len(w) || i >= len(g) || !bytes.Equal(wl, gl) {
			return fmt.Sprintf("line %d:\n  want %q\n  got  %q", i+1, wl, gl)
		}
	}
	return "(no difference)"
}
