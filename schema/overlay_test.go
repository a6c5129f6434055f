package schema_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestOverlay: an editor's buffers replace the files on disk, a buffer of
// a file not yet saved is read too, a buffer of another directory or of
// another kind of file is not, and a buffer is held to the rules a file
// is (UTF-8, no NUL, size).
func TestOverlay(t *testing.T) {
	dir := t.TempDir()
	disk := filepath.Join(dir, "a.fab.hcl")
	if err := os.WriteFile(disk, []byte("fabric \"disk\" {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	load := func(overlay map[string][]byte) (*schema.Fabric, schema.Diagnostics) {
		return schema.Load(dir, schema.Options{Platforms: platforms.Catalog(), Overlay: overlay})
	}
	f, diags := load(map[string][]byte{disk: []byte("fabric \"buffer\" {}\n")})
	if diags.HasErrors() || f.Name != "buffer" {
		t.Fatalf("the buffer did not replace the file: %q %s", f.Name, diags.Error())
	}
	unsaved := filepath.Join(dir, "b.fab.hcl")
	f, diags = load(map[string][]byte{unsaved: []byte("traffic_class \"x\" {\n  priority = 1\n}\n")})
	if diags.HasErrors() || f.Class("x") == nil || string(f.Files[unsaved]) == "" {
		t.Fatalf("the unsaved buffer was not read: %s", diags.Error())
	}
	f, diags = load(map[string][]byte{
		filepath.Join(t.TempDir(), "c.fab.hcl"): []byte("fabric \"elsewhere\" {}\n"),
		filepath.Join(dir, "notes.hcl"):         []byte("this is { not intent"),
	})
	if diags.HasErrors() || f.Name != "disk" {
		t.Fatalf("a buffer of another directory or file kind was read: %q %s", f.Name, diags.Error())
	}
	for name, src := range map[string][]byte{
		"NUL":      []byte("fabric \"x\" {}\x00"),
		"UTF-8":    []byte("fabric \"x\xff\" {}"),
		"too long": []byte(strings.Repeat("#", schema.MaxFileSize+1)),
	} {
		_, diags = load(map[string][]byte{disk: src})
		if !diags.HasErrors() || !strings.Contains(diags.Error(), "a.fab.hcl") {
			t.Errorf("%s: a bad buffer was accepted: %s", name, diags.Error())
		}
	}
}
