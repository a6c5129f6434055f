package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
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

// TestCopiesAFolder: the copy renames the folder's package, the name it
// gives itself and the imports of its own sub-packages, leaves the
// sub-packages' own names alone, and adds one import and one line to the
// registry.
func TestCopiesAFolder(t *testing.T) {
	root := scratch(t, "arista_eos")
	if err := run(root, "test_os", "arista_eos"); err != nil {
		t.Fatal(err)
	}
	plat := read(t, filepath.Join(root, "platforms/test_os/platform.go"))
	for _, want := range []string{
		"package testos\n",
		`const name schema.Platform = "test_os"`,
		`Folder: "test_os",`,
		`"github.com/fabricgen/fabricgen/platforms/test_os/emulator"`,
	} {
		if !strings.Contains(plat, want) {
			t.Errorf("platform.go lacks %q:\n%s", want, plat)
		}
	}
	if strings.Contains(plat, "arista_eos") {
		t.Errorf("platform.go still names arista_eos:\n%s", plat)
	}
	err := filepath.WalkDir(filepath.Join(root, "platforms/test_os"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		s := read(t, path)
		if strings.Contains(s, "platforms/arista_eos") {
			t.Errorf("%s still imports platforms/arista_eos", path)
		}
		top := filepath.Dir(path) == filepath.Join(root, "platforms/test_os")
		if top && !strings.Contains(s, "package testos") {
			t.Errorf("%s: top-level file not in package testos", path)
		}
		if !top && strings.Contains(s, "package testos") {
			t.Errorf("%s: a sub-package was renamed", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	before := read(t, filepath.Join(repoRoot, registryFile))
	after := read(t, filepath.Join(root, registryFile))
	added := diffLines(before, after)
	want := []string{
		`	testos "github.com/fabricgen/fabricgen/platforms/test_os"`,
		`		testos.Platform(),`,
	}
	if strings.Join(added, "\n") != strings.Join(want, "\n") {
		t.Errorf("registry lines added: %q, want %q", added, want)
	}
	// The new platform is the last: the others keep their place, and so
	// their platform-limit rule numbers.
	all := after[strings.Index(after, "func All()"):]
	all = all[:strings.Index(all, "\n\t}\n")]
	if !strings.HasSuffix(strings.TrimSpace(all), "testos.Platform(),") {
		t.Errorf("test_os is not the registry's last line:\n%s", all)
	}
	if err := run(root, "test_os", "arista_eos"); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("second run: %v, want a refusal", err)
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
	tests := []struct {
		name, newName, from, want string
		setup                     func(t *testing.T, root string)
	}{
		{name: "path", newName: "../escape", from: "arista_eos", want: "not a platform name"},
		{name: "upper case", newName: "Test_OS", from: "arista_eos", want: "not a platform name"},
		{name: "dash", newName: "test-os", from: "arista_eos", want: "not a platform name"},
		{name: "empty", newName: "", from: "arista_eos", want: "not a platform name"},
		{name: "long", newName: strings.Repeat("a", 41), from: "arista_eos", want: "not a platform name"},
		{name: "reserved", newName: "internal", from: "arista_eos", want: "reserved"},
		{name: "keyword", newName: "go", from: "arista_eos", want: "Go keyword"},
		{name: "clash", newName: "sch_ema", from: "arista_eos", want: "already import"},
		{name: "exists", newName: "arista_eos", from: "arista_eos", want: "exists already"},
		{name: "from path", newName: "test_os", from: "../../etc", want: "not a platform name"},
		{name: "from missing", newName: "test_os", from: "no_such", want: "not a platform folder"},
		{name: "symlink", newName: "test_os", from: "arista_eos", want: "not a regular file", setup: func(t *testing.T, root string) {
			if err := os.Symlink("/etc/passwd", filepath.Join(root, "platforms/arista_eos/templates/zz.tmpl")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "fifo", newName: "test_os", from: "arista_eos", want: "not a regular file", setup: func(t *testing.T, root string) {
			if err := syscall.Mkfifo(filepath.Join(root, "platforms/arista_eos/zz"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := scratch(t, "arista_eos")
			if tc.setup != nil {
				tc.setup(t, root)
			}
			reg := read(t, filepath.Join(root, registryFile))
			err := run(root, tc.newName, tc.from)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("run(%q, %q) = %v, want an error saying %q", tc.newName, tc.from, err, tc.want)
			}
			if tc.newName != "arista_eos" && reName.MatchString(tc.newName) {
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
