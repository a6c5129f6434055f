package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
)

// repoRoot is the repository root, two folders up.
const repoRoot = "../.."

// scratch makes a root holding a copy of the real registry and of the
// real platforms/FROM folder, so the generator runs on the real files
// without touching the checkout.
func scratch(t *testing.T, from string) string {
	t.Helper()
	root := t.TempDir()
	copyTree(t, filepath.Join(repoRoot, "platforms", from), filepath.Join(root, "platforms", from))
	reg, err := os.ReadFile(filepath.Join(repoRoot, registryFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, registryFile), reg, 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// probe is the name the tests give the copy: a name no registry holds
// (not test_os, which a checkout may already have), checked by fromFolder.
const probe = "np_probe"

// probePkg is probe's package name.
const probePkg = "npprobe"

// fromFolder is the folder the tests copy: the registry's first switch
// platform (a switch has every part, reader included), picked by
// property. It fails when the registry already has probe.
func fromFolder(t *testing.T) string {
	t.Helper()
	from := ""
	for _, pl := range platforms.All() {
		if pl.Folder == probe || pkgName(pl.Folder) == probePkg {
			t.Fatalf("the registry already has %s: choose another probe name", probe)
		}
		if from == "" && !pl.Spec.Host {
			from = pl.Folder
		}
	}
	if from == "" {
		t.Fatal("the registry has no switch platform")
	}
	return from
}

// renders records the render calls of a run, and writes one file where a
// render would, so a test sees the copied goldens replaced.
type renders struct{ calls [][2]string }

func (r *renders) render(root, fabricDir, outDir string) error {
	r.calls = append(r.calls, [2]string{fabricDir, outDir})
	if err := os.MkdirAll(filepath.Join(root, outDir), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(root, outDir, "rendered"), []byte("new\n"), 0o644)
}

// TestCopiesAFolder: the copy renames the folder's package, the name it
// gives itself and the imports of its own sub-packages, leaves the
// sub-packages' own names alone, adds one import and one line to the
// registry, renames the platform in its test data, and renders its
// goldens anew.
func TestCopiesAFolder(t *testing.T) {
	from := fromFolder(t)
	root := scratch(t, from)
	// A fuzz corpus keeps its bytes, even when it names the platform.
	corpus := filepath.Join(root, "platforms", from, "testdata", "fuzz", "FuzzX", "seed.json")
	if err := os.MkdirAll(filepath.Dir(corpus), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(corpus, []byte(`"`+from+`"`), 0o644); err != nil {
		t.Fatal(err)
	}
	var r renders
	if err := run(root, probe, from, r.render); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(root, "platforms", probe)
	plat := read(t, filepath.Join(dst, "platform.go"))
	for _, want := range []string{
		"package " + probePkg + "\n",
		`const name schema.Platform = "` + probe + `"`,
		`Folder: "` + probe + `",`,
		`"github.com/fabricgen/fabricgen/platforms/` + probe + `/emulator"`,
	} {
		if !strings.Contains(plat, want) {
			t.Errorf("platform.go lacks %q:\n%s", want, plat)
		}
	}
	if strings.Contains(plat, from) {
		t.Errorf("platform.go still names %s:\n%s", from, plat)
	}
	word := regexp.MustCompile(`\b` + from + `\b`)
	renamed := 0
	err := filepath.WalkDir(dst, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		s := read(t, path)
		rel, _ := filepath.Rel(dst, path)
		switch {
		case strings.HasPrefix(rel, filepath.Join("testdata", "fuzz")):
			if s != `"`+from+`"` {
				t.Errorf("%s: a fuzz corpus changed: %q", rel, s)
			}
			return nil
		case strings.HasPrefix(rel, "testdata") && (strings.HasSuffix(path, ".hcl") || strings.HasSuffix(path, ".json") || strings.HasSuffix(path, ".md")):
			if word.MatchString(s) {
				t.Errorf("%s still names %s", rel, from)
			}
			if regexp.MustCompile(`\b` + probe + `\b`).MatchString(s) {
				renamed++
			}
			return nil
		case !strings.HasSuffix(path, ".go"):
			return nil
		}
		if strings.Contains(s, "platforms/"+from) {
			t.Errorf("%s still imports platforms/%s", path, from)
		}
		top := filepath.Dir(path) == dst
		if top && !strings.Contains(s, "package "+probePkg) {
			t.Errorf("%s: top-level file not in package %s", path, probePkg)
		}
		if !top && strings.Contains(s, "package "+probePkg) {
			t.Errorf("%s: a sub-package was renamed", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "platforms", from, "testdata", "fabric")); err == nil && renamed == 0 {
		t.Errorf("no test data file of the copy names %s", probe)
	}
	// The goldens are rendered anew from the copy's own fabric: the
	// copied ones are gone.
	wantCall := [2]string{filepath.Join("platforms", probe, "testdata", "fabric"), filepath.Join("platforms", probe, "testdata", "golden")}
	if len(r.calls) != 1 || r.calls[0] != wantCall {
		t.Errorf("render calls %q, want one %q", r.calls, wantCall)
	}
	goldens, err := os.ReadDir(filepath.Join(dst, "testdata", "golden"))
	if err != nil || len(goldens) != 1 || goldens[0].Name() != "rendered" {
		t.Errorf("the copy's goldens are %v (%v), want only the new render", goldens, err)
	}
	before := read(t, filepath.Join(repoRoot, registryFile))
	after := read(t, filepath.Join(root, registryFile))
	added := diffLines(before, after)
	want := []string{
		"\t" + probePkg + ` "github.com/fabricgen/fabricgen/platforms/` + probe + `"`,
		"\t\t" + probePkg + ".Platform(),",
	}
	if strings.Join(added, "\n") != strings.Join(want, "\n") {
		t.Errorf("registry lines added: %q, want %q", added, want)
	}
	// The new platform is the last: the others keep their place, and so
	// their platform-limit rule numbers.
	all := after[strings.Index(after, "func All()"):]
	all = all[:strings.Index(all, "\n\t}\n")]
	if !strings.HasSuffix(strings.TrimSpace(all), probePkg+".Platform(),") {
		t.Errorf("%s is not the registry's last line:\n%s", probe, all)
	}
	if err := run(root, probe, from, nil); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("second run: %v, want a refusal", err)
	}
}

// TestFailedRenderLeavesNothing: when the goldens cannot be rendered, the
// copy is removed and the registry restored.
func TestFailedRenderLeavesNothing(t *testing.T) {
	from := fromFolder(t)
	root := scratch(t, from)
	reg := read(t, filepath.Join(root, registryFile))
	err := run(root, probe, from, func(string, string, string) error { return errors.New("render broke") })
	if err == nil || !strings.Contains(err.Error(), "render broke") {
		t.Fatalf("run = %v, want the render's error", err)
	}
	if _, err := os.Lstat(filepath.Join(root, "platforms", probe)); err == nil {
		t.Errorf("a failed copy left platforms/%s behind", probe)
	}
	if got := read(t, filepath.Join(root, registryFile)); got != reg {
		t.Error("a failed copy changed the registry")
	}
}

// diffLines returns the lines of after that before lacks, in order.
func diffLines(before, after string) []string {
	have := map[string]int{}
	for _, l := range strings.Split(before, "\n") {
		have[l]++
	}
	var out []string
	for _, l := range strings.Split(after, "\n") {
		if have[l] > 0 {
			have[l]--
			continue
		}
		out = append(out, l)
	}
	return out
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRefusesHostileInput: names that are no platform names, a folder
// that exists, a FROM that is no platform folder, and a source folder
// holding a symlink or a named pipe are refused, and a refused copy
// leaves nothing behind and the registry unchanged.
func TestRefusesHostileInput(t *testing.T) {
	from := fromFolder(t)
	tests := []struct {
		name, newName, from, want string
		setup                     func(t *testing.T, root string)
	}{
		{name: "path", newName: "../escape", from: from, want: "not a platform name"},
		{name: "upper case", newName: "Test_OS", from: from, want: "not a platform name"},
		{name: "dash", newName: "test-os", from: from, want: "not a platform name"},
		{name: "empty", newName: "", from: from, want: "not a platform name"},
		{name: "long", newName: strings.Repeat("a", 41), from: from, want: "not a platform name"},
		{name: "reserved", newName: "internal", from: from, want: "reserved"},
		{name: "keyword", newName: "go", from: from, want: "Go keyword"},
		{name: "clash", newName: "sch_ema", from: from, want: "already import"},
		{name: "exists", newName: from, from: from, want: "exists already"},
		{name: "from path", newName: probe, from: "../../etc", want: "not a platform name"},
		{name: "from missing", newName: probe, from: "no_such", want: "not a platform folder"},
		{name: "symlink", newName: probe, from: from, want: "not a regular file", setup: func(t *testing.T, root string) {
			if err := os.Symlink("/etc/passwd", filepath.Join(root, "platforms", from, "templates", "zz.tmpl")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "fifo", newName: probe, from: from, want: "not a regular file", setup: func(t *testing.T, root string) {
			if err := syscall.Mkfifo(filepath.Join(root, "platforms", from, "zz"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := scratch(t, from)
			if tc.setup != nil {
				tc.setup(t, root)
			}
			reg := read(t, filepath.Join(root, registryFile))
			err := run(root, tc.newName, tc.from, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("run(%q, %q) = %v, want an error saying %q", tc.newName, tc.from, err, tc.want)
			}
			if tc.newName != from && reName.MatchString(tc.newName) {
				if _, err := os.Lstat(filepath.Join(root, "platforms", tc.newName)); err == nil {
					t.Errorf("a refused copy left platforms/%s behind", tc.newName)
				}
			}
			if got := read(t, filepath.Join(root, registryFile)); !bytes.Equal([]byte(got), []byte(reg)) {
				t.Error("a refused copy changed the registry")
			}
		})
	}
}
