// Command newplatform adds a platform to fabricgen by copying an existing
// platform folder: go run ./scripts/newplatform NAME FROM copies
// platforms/FROM to platforms/NAME, renames its package and the name it
// gives itself, renames the platform in the copy's test data (FROM to NAME,
// whole words, in its .hcl, .json and .md files; fuzz corpora are left as
// they are), adds NAME's line (and its import) to the registry in
// platforms/platforms.go, and renders the copy's golden files anew from its
// fixture fabric, so they are its own. Nothing else changes: every layer
// and every test loops over the registry, so the copy is rendered,
// emulated, pushed, collected and read back like the folder it came from.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/fabricgen/fabricgen/internal/readlimit"
)

// module is the import path every platform folder lives under.
const module = "github.com/fabricgen/fabricgen/platforms/"

// registryFile is the one registry, relative to the repository root.
const registryFile = "platforms/platforms.go"

// maxFolderBytes bounds what one folder copy may hold: a platform folder
// is source, templates and test data, not a data set.
const maxFolderBytes = 64 << 20

var reName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/newplatform NAME FROM   (e.g. test_os arista_eos), from the repository root")
		os.Exit(2)
	}
	if err := run(".", os.Args[1], os.Args[2], goRender); err != nil {
		fmt.Fprintln(os.Stderr, "newplatform:", err)
		os.Exit(1)
	}
	fmt.Printf("platforms/%s is a copy of platforms/%s with its own goldens, and its line is in %s\n", os.Args[1], os.Args[2], registryFile)
}

// renderFunc renders the fixture fabric in fabricDir into outDir, both
// relative to root (the repository root).
type renderFunc func(root, fabricDir, outDir string) error

// maxRenderOutput bounds what a failed render's output an error quotes.
const maxRenderOutput = 4 << 10

// goRender renders with the fabricgen of the checkout at root, which
// holds the new registry line: go run ./cmd/fabricgen render FABRIC -o OUT.
func goRender(root, fabricDir, outDir string) error {
	cmd := exec.Command("go", "run", "./cmd/fabricgen", "render", fabricDir, "-o", outDir)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		if len(out) > maxRenderOutput {
			out = out[len(out)-maxRenderOutput:]
		}
		return fmt.Errorf("go run ./cmd/fabricgen render %s -o %s: %w\n%s", fabricDir, outDir, err, out)
	}
	return nil
}

// pkgName is the Go package name of a platform folder: its name without
// underscores ("arista_eos" → "aristaeos").
func pkgName(folder string) string { return strings.ReplaceAll(folder, "_", "") }

// checkNames refuses a NAME or FROM that is not a plain platform folder
// name, a NAME that exists, and a FROM that is not a platform folder.
func checkNames(root, name, from string) error {
	for _, n := range []string{name, from} {
		if !reName.MatchString(n) {
			return fmt.Errorf("%q is not a platform name: use lower-case letters, digits and _, starting with a letter, at most 40 characters", n)
		}
		if n == "internal" || n == "testdata" {
			return fmt.Errorf("%q is reserved under platforms/", n)
		}
	}
	pkg := pkgName(name)
	if token.IsKeyword(pkg) {
		return fmt.Errorf("%q would be package %s, a Go keyword: choose another name", name, pkg)
	}
	switch pkg {
	case "platform", "platforms", "schema", "fmt", "sort", "strings", "dialect", "view", "emulator":
		return fmt.Errorf("%q would be package %s, which the registry or the folders already import: choose another name", name, pkg)
	}
	if _, err := os.Lstat(filepath.Join(root, "platforms", name)); err == nil {
		return fmt.Errorf("platforms/%s exists already", name)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("platforms/%s: %w", name, err)
	}
	st, err := os.Lstat(filepath.Join(root, "platforms", from, "platform.go"))
	if err != nil || !st.Mode().IsRegular() {
		return fmt.Errorf("platforms/%s is not a platform folder (no platform.go): give the name of an existing platform to copy", from)
	}
	reg, err := readlimit.File(filepath.Join(root, registryFile), maxFolderBytes)
	if err != nil {
		return fmt.Errorf("reading the registry: %w", err)
	}
	if bytes.Contains(reg, []byte("\t"+pkg+".Platform(),")) || bytes.Contains(reg, []byte(" "+pkg+" \"")) {
		return fmt.Errorf("%s already names package %s", registryFile, pkg)
	}
	return nil
}

// run copies platforms/from to platforms/name under root, renames the
// platform in the copy's test data, adds the registry line, and renders
// the copy's goldens with render (nil: not rendered). On an error nothing
// is left behind: the copy is removed and the registry restored.
func run(root, name, from string, render renderFunc) (err error) {
	if err := checkNames(root, name, from); err != nil {
		return err
	}
	src := filepath.Join(root, "platforms", from)
	dst := filepath.Join(root, "platforms", name)
	regPath := filepath.Join(root, registryFile)
	reg, err := readlimit.File(regPath, maxFolderBytes)
	if err != nil {
		return fmt.Errorf("reading the registry: %w", err)
	}
	defer func() {
		if err != nil {
			_ = os.RemoveAll(dst)
			if werr := readlimit.WriteFile(regPath, reg, 0o644); werr != nil {
				err = errors.Join(err, fmt.Errorf("restoring %s: %w", registryFile, werr))
			}
		}
	}()
	if err := copyFolder(src, dst, from, name); err != nil {
		return err
	}
	if err := renameInTestdata(filepath.Join(dst, "testdata"), from, name); err != nil {
		return err
	}
	if err := addRegistryLine(regPath, name, from); err != nil {
		return err
	}
	return renderGoldens(root, name, render)
}

// renamesIn reports whether path is a text file of a folder's test data
// in which the platform is renamed: fixture fabrics and lint fixtures
// (.hcl), push cases (.json), notes (.md).
func renamesIn(path string) bool {
	switch filepath.Ext(path) {
	case ".hcl", ".json", ".md":
		return true
	}
	return false
}

// renameInTestdata renames the platform from to name, as a whole word, in
// the text files of dir (a copy's testdata); fuzz corpora (any folder
// named fuzz) keep their bytes, and a missing dir is no error.
func renameInTestdata(dir, from, name string) error {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(from) + `\b`)
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("reading %s: %w", path, err)
		}
		if d.IsDir() {
			if d.Name() == "fuzz" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !renamesIn(path) {
			return nil
		}
		b, err := readlimit.File(path, maxFolderBytes)
		if err != nil {
			return fmt.Errorf("reading %s: %w", path, err)
		}
		out := word.ReplaceAll(b, []byte(name))
		if bytes.Equal(out, b) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		return readlimit.WriteFile(path, out, info.Mode().Perm())
	})
}

// renderGoldens replaces the copy's golden renders
// (platforms/NAME/testdata/golden) with renders of its own fixture fabric
// (platforms/NAME/testdata/fabric), when it has one.
func renderGoldens(root, name string, render renderFunc) error {
	fabric := filepath.Join("platforms", name, "testdata", "fabric")
	golden := filepath.Join("platforms", name, "testdata", "golden")
	if render == nil {
		return nil
	}
	if _, err := os.Lstat(filepath.Join(root, fabric)); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := os.RemoveAll(filepath.Join(root, golden)); err != nil {
		return fmt.Errorf("removing the copied goldens: %w", err)
	}
	if err := render(root, fabric, golden); err != nil {
		return fmt.Errorf("rendering platforms/%s's goldens: %w", name, err)
	}
	return nil
}

// copyFolder copies the regular files and folders of src to dst,
// rewriting the Go files; a symlink, named pipe or device is refused.
func copyFolder(src, dst, from, name string) error {
	var total int64
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("reading %s: %w", path, err)
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		out := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(out, 0o755)
		case !info.Mode().IsRegular():
			return fmt.Errorf("%s is not a regular file (%s): a platform folder holds only files and folders", path, info.Mode().Type())
		}
		if total += info.Size(); total > maxFolderBytes {
			return fmt.Errorf("platforms/%s holds more than %d MiB: not a platform folder", from, maxFolderBytes>>20)
		}
		b, err := readlimit.File(path, maxFolderBytes)
		if err != nil {
			return fmt.Errorf("reading %s: %w", path, err)
		}
		if strings.HasSuffix(path, ".go") {
			top := filepath.Dir(rel) == "."
			if b, err = rewriteGo(b, rel, from, name, top); err != nil {
				return err
			}
		}
		return readlimit.WriteFile(out, b, info.Mode().Perm())
	})
}

var (
	reConstName = regexp.MustCompile(`(?m)^const name\b.*$`)
	reEntry     = regexp.MustCompile(`(?m)^\t\t\w+\.Platform\(\),\n`)
	reFolder    = regexp.MustCompile(`(?m)^(\s*Folder:\s*)"[a-z0-9_]+",`)
)

// rewriteGo renames the folder's own package (top-level files only), its
// imports of its own sub-packages, and the name it gives itself.
func rewriteGo(b []byte, rel, from, name string, top bool) ([]byte, error) {
	s := string(b)
	s = strings.ReplaceAll(s, `"`+module+from+`"`, `"`+module+name+`"`)
	s = strings.ReplaceAll(s, `"`+module+from+`/`, `"`+module+name+`/`)
	if top {
		oldPkg, newPkg := pkgName(from), pkgName(name)
		s = regexp.MustCompile(`(?m)^package `+oldPkg+`(_test)?$`).ReplaceAllString(s, "package "+newPkg+"$1")
		s = strings.ReplaceAll(s, "// Package "+oldPkg+" ", "// Package "+newPkg+" ")
		if reConstName.MatchString(s) {
			s = reConstName.ReplaceAllString(s, `const name schema.Platform = "`+name+`"`)
		}
		if reFolder.MatchString(s) {
			s = reFolder.ReplaceAllString(s, `${1}"`+name+`",`)
		}
	}
	out, err := format.Source([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("platforms/%s/%s after renaming: %w", name, rel, err)
	}
	return out, nil
}

// addRegistryLine adds name's import and its line to All(), last.
func addRegistryLine(path, name, from string) error {
	b, err := readlimit.File(path, maxFolderBytes)
	if err != nil {
		return fmt.Errorf("reading the registry: %w", err)
	}
	s := string(b)
	newPkg := pkgName(name)
	reImport := regexp.MustCompile(`(?m)^\t(?:\w+ )?"` + regexp.QuoteMeta(module+from) + `"\n`)
	loc := reImport.FindStringIndex(s)
	if loc == nil {
		return fmt.Errorf("%s does not import platforms/%s: add the line by hand", registryFile, from)
	}
	s = s[:loc[1]] + "\t" + newPkg + ` "` + module + name + "\"\n" + s[loc[1]:]
	// The new line goes last: registry order numbers the platform-limit
	// lint rules (PLT001 is the first platform's), so the platforms
	// before it keep theirs.
	lines := reEntry.FindAllStringIndex(s, -1)
	if len(lines) == 0 || !strings.Contains(s, "\t\t"+pkgName(from)+".Platform(),\n") {
		return fmt.Errorf("%s has no line %s.Platform(): add the line by hand", registryFile, pkgName(from))
	}
	i := lines[len(lines)-1][1]
	s = s[:i] + "\t\t" + newPkg + ".Platform(),\n" + s[i:]
	out, err := format.Source([]byte(s))
	if err != nil {
		return fmt.Errorf("%s after adding %s: %w", registryFile, name, err)
	}
	return readlimit.WriteFile(path, out, 0o644)
}
