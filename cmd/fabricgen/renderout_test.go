package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

// dirNames lists dir's entries, sorted.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// renderSmall loads ai-training-2subnet for writeRenders.
func renderSmall(t *testing.T) (*templates.Renderer, *schema.Fabric) {
	t.Helper()
	f, diags := schema.Load(filepath.Join(repoRoot(t), "examples", "ai-training-2subnet"), schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r, f
}

// TestRenderOutputFolders: render -o into a missing folder, an empty one
// (keeping its mode), one with files (kept), and the working directory;
// each ends with every device's file and no staging folder anywhere.
func TestRenderOutputFolders(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)

	r, f := renderSmall(t)
	want := make([]string, 0, len(f.Devices))
	for _, d := range f.Devices {
		o, err := r.Render(f, d)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, o.Filename)
	}
	cases := []struct {
		name  string
		setup func(t *testing.T, parent string) string // returns OUT
		keep  []string
		mode  os.FileMode
	}{
		{"missing, with missing parents", func(t *testing.T, parent string) string { return filepath.Join(parent, "a", "b", "out") }, nil, 0o755},
		{"empty, mode kept", func(t *testing.T, parent string) string {
			out := filepath.Join(parent, "out")
			if err := os.Mkdir(out, 0o700); err != nil {
				t.Fatal(err)
			}
			return out
		}, nil, 0o700},
		{"with files", func(t *testing.T, parent string) string {
			out := filepath.Join(parent, "out")
			if err := os.Mkdir(out, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, n := range []string{"notes.txt", "leaf1.cfg"} {
				if err := os.WriteFile(filepath.Join(out, n), []byte("old\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			return out
		}, []string{"notes.txt"}, 0o755},
		{"the working directory", func(t *testing.T, parent string) string {
			t.Chdir(parent)
			return "."
		}, nil, 0o755},
		{"a link to an empty folder, kept a link", func(t *testing.T, parent string) string {
			target := filepath.Join(parent, "target")
			if err := os.Mkdir(target, 0o750); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(parent, "out")
			if err := os.Symlink(target, out); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				if st, err := os.Lstat(out); err != nil || st.Mode()&os.ModeSymlink == 0 {
					t.Errorf("%s is no longer a link (%v)", out, err)
				}
			})
			return out
		}, nil, 0o750},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			out := tc.setup(t, parent)
			n, rerr, err := writeRenders(context.Background(), r, f, f.Devices, out)
			if err != nil || rerr != nil || n != len(f.Devices) {
				t.Fatalf("writeRenders = %d, %v, %v", n, rerr, err)
			}
			got := dirNames(t, out)
			wantNames := slices.Sorted(slices.Values(append(append([]string(nil), want...), tc.keep...)))
			if !slices.Equal(got, wantNames) {
				t.Errorf("%s holds %v, want %v", out, got, wantNames)
			}
			b, err := os.ReadFile(filepath.Join(out, "leaf1.cfg"))
			if err != nil || strings.HasPrefix(string(b), "old") {
				t.Errorf("leaf1.cfg not rewritten: %q, %v", b, err)
			}
			st, err := os.Stat(out)
			if err != nil || st.Mode().Perm() != tc.mode {
				t.Errorf("%s has mode %v, want %v (%v)", out, st.Mode().Perm(), tc.mode, err)
			}
			for _, dir := range []string{parent, filepath.Dir(out), out} {
				for _, e := range dirNames(t, dir) {
					if strings.Contains(e, "fabricgen-") {
						t.Errorf("staging folder %s left in %s", e, dir)
					}
				}
			}
			sh, err := os.Stat(filepath.Join(out, "gpu01-cx6.sh"))
			if err != nil || sh.Mode().Perm() != 0o755 {
				t.Errorf("gpu01-cx6.sh: %v, %v; want mode 0755", sh, err)
			}
		})
	}
}

// TestRenderOutputAllOrNothing: a render stopped part way (Ctrl-C) into a
// missing folder leaves no folder at all, and into a folder with files
// leaves those files and no staging folder.
func TestRenderOutputAllOrNothing(t *testing.T) {
	r, f := renderSmall(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	if _, _, err := writeRenders(ctx, r, f, f.Devices, out); err == nil {
		t.Fatal("a cancelled render succeeded")
	}
	if got := dirNames(t, parent); len(got) != 0 {
		t.Errorf("a cancelled render into a new folder left %v", got)
	}
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := writeRenders(ctx, r, f, f.Devices, out); err == nil {
		t.Fatal("a cancelled render succeeded")
	}
	if got := dirNames(t, out); !slices.Equal(got, []string{"notes.txt"}) {
		t.Errorf("a cancelled render into a folder with files left %v", got)
	}
}

// TestRenderOutputIsAFile: OUT naming a file is refused, the file kept.
func TestRenderOutputIsAFile(t *testing.T) {
	r, f := renderSmall(t)
	out := filepath.Join(t.TempDir(), "out")
	if err := os.WriteFile(out, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := writeRenders(context.Background(), r, f, f.Devices, out)
	if err == nil || !strings.Contains(err.Error(), "is a file") {
		t.Fatalf("err = %v, want one saying OUT is a file", err)
	}
	if b, _ := os.ReadFile(out); string(b) != "x" {
		t.Errorf("the file became %q", b)
	}
}

// BenchmarkWriteRenders renders and writes a quarter of examples/scale
// (16,912 devices) into a fresh folder per iteration: what render -o does
// after lint.
func BenchmarkWriteRenders(b *testing.B) {
	f, diags := schema.Load(filepath.Join("..", "..", "examples", "scale"), schema.Options{Vars: map[string]string{"leaves": "512"}, Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		b.Fatal(diags.Error())
	}
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	i := 0
	for b.Loop() {
		i++
		out := filepath.Join(dir, "out"+strconv.Itoa(i))
		if n, rerr, err := writeRenders(context.Background(), r, f, f.Devices, out); err != nil || rerr != nil || n != len(f.Devices) {
			b.Fatalf("writeRenders = %d, %v, %v", n, rerr, err)
		}
	}
}

// TestRenderOutputUmask: a new OUT and its files get their modes less the
// umask, as os.MkdirAll and a shell's redirection would give them.
func TestRenderOutputUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	r, f := renderSmall(t)
	out := filepath.Join(t.TempDir(), "out")
	if _, _, err := writeRenders(context.Background(), r, f, f.Devices, out); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]os.FileMode{out: 0o700, filepath.Join(out, "leaf1.cfg"): 0o600, filepath.Join(out, "gpu01-cx6.sh"): 0o700} {
		if st, err := os.Stat(name); err != nil || st.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %v", name, st.Mode().Perm(), err, want)
		}
	}
}
