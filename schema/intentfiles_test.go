package schema

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestIntentFilesFollowSymlinks: repositories share intent files by
// symlink; such a file is part of the fabric, not left out unnoticed.
// What a *.fab.hcl name points at that is not a regular file (/dev/zero,
// a named pipe, nothing) is an error naming it, never a hang or a silent
// skip; a directory with the suffix is not a file and is left alone.
func TestIntentFilesFollowSymlinks(t *testing.T) {
	shared := t.TempDir()
	if err := os.WriteFile(filepath.Join(shared, "classes.hcl"), []byte(precedenceFabric), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(shared, "classes.hcl"), filepath.Join(dir, "fabric.fab.hcl")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "old.fab.hcl"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := mustLoad(t, dir, Options{Platforms: testCatalog()})
	if len(f.Devices) == 0 {
		t.Fatal("the symlinked intent file was not loaded")
	}

	for _, c := range []struct {
		name  string
		make  func(path string) error
		wants []string
	}{
		{"symlink to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }, []string{"Not a regular file", "character device", "extra.fab.hcl"}},
		{"named pipe", func(p string) error { return syscall.Mkfifo(p, 0o600) }, []string{"Not a regular file", "named pipe"}},
		{"dangling symlink", func(p string) error { return os.Symlink(filepath.Join(shared, "gone.hcl"), p) }, []string{"Cannot read file", "no such file"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := t.TempDir()
			if err := os.WriteFile(filepath.Join(d, "fabric.fab.hcl"), []byte(precedenceFabric), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := c.make(filepath.Join(d, "extra.fab.hcl")); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, ds := LoadContext(ctx, d, Options{Platforms: testCatalog()})
			if ctx.Err() != nil {
				t.Fatal("the load did not return: it waited on the file")
			}
			for _, w := range c.wants {
				if !strings.Contains(ds.Error(), w) {
					t.Errorf("diagnostics lack %q:\n%s", w, ds.Error())
				}
			}
		})
	}
}
