package editors

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/nestlimit"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/internal/testtool"
)

// stepTimeout bounds each npm, vsce and node run.
const stepTimeout = 5 * time.Minute

// fileLimit bounds every file this test reads (the .vsix is about 0.5 MB).
const fileLimit = 64 << 20

// minNodeMajor is the oldest Node.js @vscode/vsce 3.x runs on.
const minNodeMajor = 20

// TestVSCodeExtension builds the VS Code extension as a user would (npm ci,
// vsce package) in a copy of editors/vscode, checks what the .vsix holds
// and that engines.vscode fits the language client's, and runs the
// extension's own checks: the grammar under the real TextMate engine,
// extension.js against a stand-in vscode module and language client, and
// extension.js with the real language client against small LSP servers.
func TestVSCodeExtension(t *testing.T) {
	npm := testtool.Need(t, "npm", "npm")
	node := testtool.Need(t, "node", "nodejs")
	npx := testtool.Need(t, "npx", "npm")
	checkNodeVersion(t, node)

	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(repo, "editors", "vscode")
	dir := filepath.Join(t.TempDir(), "vscode")
	if err := copyTree(src, dir); err != nil {
		t.Fatalf("copying %s: %v", src, err)
	}

	start := time.Now()
	run(t, dir, npm, "ci", "--no-audit", "--no-fund")
	t.Logf("npm ci: %s", time.Since(start).Round(time.Millisecond))
	start = time.Now()
	run(t, dir, npx, "--no-install", "vsce", "package", "--out", "x.vsix")
	t.Logf("vsce package: %s", time.Since(start).Round(time.Millisecond))

	t.Run("vsix", func(t *testing.T) { checkVSIX(t, filepath.Join(dir, "x.vsix")) })
	t.Run("engines", func(t *testing.T) { checkEngines(t, dir) })
	t.Run("grammar", func(t *testing.T) {
		args := []string{"test/grammar.js", filepath.Join(repo, "examples", "clos-400g", "qos.fab.hcl")}
		args = append(args, intentFiles(t, filepath.Join(repo, "examples"))...)
		out := run(t, dir, node, args...)
		if !strings.Contains(out, "ok: ") {
			t.Fatalf("test/grammar.js printed no ok line:\n%s", out)
		}
	})
	for _, script := range []string{"test/extension.js", "test/client.js"} {
		t.Run(strings.TrimSuffix(filepath.Base(script), ".js"), func(t *testing.T) {
			out := run(t, dir, node, script)
			if !strings.Contains(out, "ok: ") {
				t.Fatalf("%s printed no ok line:\n%s", script, out)
			}
		})
	}
}

// intentFiles lists the *.fab.hcl files under dir, sorted; there must be
// some.
func intentFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, ".fab.hcl") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("listing %s: %v", dir, err)
	}
	if len(files) == 0 {
		t.Fatalf("no *.fab.hcl under %s", dir)
	}
	return files
}

// checkNodeVersion fails (it does not skip) when node is older than vsce
// needs, saying so, rather than letting vsce fail with a syntax error.
func checkNodeVersion(t *testing.T, node string) {
	t.Helper()
	out := run(t, "", node, "--version")
	v, err := parseVersion(strings.TrimSpace(out))
	if err != nil {
		t.Fatalf("node --version: %v", err)
	}
	if v[0] < minNodeMajor {
		t.Fatalf("node %s is too old: @vscode/vsce 3.x needs Node.js %d or later", strings.TrimSpace(out), minNodeMajor)
	}
}

// run runs prog with args in dir, bounded by stepTimeout, and fails the
// test with its output when it fails. It returns the output.
func run(t *testing.T, dir, prog string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), stepTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "npm_config_update_notifier=false")
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("%s %s in %s: timed out after %s\n%s", prog, strings.Join(args, " "), dir, stepTimeout, out)
	}
	if err != nil {
		t.Fatalf("%s %s in %s: %v\n%s", prog, strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

// copyTree copies the regular files and directories under src to dst,
// leaving out node_modules and built .vsix files; anything else (a
// symlink, a pipe) is an error.
func copyTree(src, dst string) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dst, err)
	}
	ents, err := readlimit.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		from, to := filepath.Join(src, name), filepath.Join(dst, name)
		switch {
		case name == "node_modules" || strings.HasSuffix(name, ".vsix"):
			continue
		case e.IsDir():
			if err := copyTree(from, to); err != nil {
				return err
			}
		case e.Type().IsRegular():
			b, err := readlimit.File(from, fileLimit)
			if err != nil {
				return err
			}
			info, err := e.Info()
			if err != nil {
				return fmt.Errorf("stat %s: %w", from, err)
			}
			if err := readlimit.WriteFile(to, b, info.Mode().Perm()); err != nil {
				return fmt.Errorf("writing %s: %w", to, err)
			}
		default:
			return fmt.Errorf("%s is a %s, not a regular file or directory", from, readlimit.Kind(e.Type()))
		}
	}
	return nil
}

// vsixManifest is the part of the packaged package.json whose paths must be
// in the .vsix.
type vsixManifest struct {
	Main        string `json:"main"`
	Contributes struct {
		Languages []struct {
			Configuration string `json:"configuration"`
		} `json:"languages"`
		Grammars []struct {
			Path string `json:"path"`
		} `json:"grammars"`
	} `json:"contributes"`
}

// checkVSIX checks that the .vsix holds what runs and nothing that does not.
func checkVSIX(t *testing.T, vsix string) {
	b, err := readlimit.File(vsix, fileLimit)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("%s is not a zip: %v", vsix, err)
	}
	names := map[string]*zip.File{}
	for _, f := range zr.File {
		names[f.Name] = f
	}
	for _, want := range []string{
		"extension.vsixmanifest",
		"extension/package.json",
		"extension/extension.js",
		"extension/syntaxes/fabricgen.tmLanguage.json",
		"extension/language-configuration.json",
		"extension/readme.md",
		"extension/LICENSE.txt",
		"extension/node_modules/vscode-languageclient/package.json",
		"extension/node_modules/vscode-languageclient/node.js",
		"extension/node_modules/vscode-languageclient/lib/node/main.js",
		"extension/node_modules/vscode-languageserver-protocol/package.json",
		"extension/node_modules/vscode-jsonrpc/package.json",
	} {
		if names[want] == nil {
			t.Errorf("%s lacks %s", filepath.Base(vsix), want)
		}
	}
	forbidden := []struct{ what, sub string }{
		{"vsce", "@vscode/vsce"},
		{"the TextMate engine (a test tool)", "vscode-textmate"},
		{"Oniguruma (a test tool)", "vscode-oniguruma"},
		{"a test", "_test"},
		{"the extension's tests", "extension/test/"},
		{"a .vsix", ".vsix/"},
		{"the lock file", "extension/package-lock.json"},
		{"npm's settings", "extension/.npmrc"},
		{"the packaging rules", "extension/.vscodeignore"},
	}
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, ".vsix") {
			t.Errorf("%s holds a .vsix: %s", filepath.Base(vsix), f.Name)
		}
		for _, fb := range forbidden {
			if strings.Contains(f.Name, fb.sub) {
				t.Errorf("%s holds %s: %s", filepath.Base(vsix), fb.what, f.Name)
			}
		}
	}
	// Every file the packaged manifest names must be in the .vsix.
	pf := names["extension/package.json"]
	if pf == nil {
		return
	}
	rc, err := pf.Open()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := readAllLimited(rc, "extension/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var m vsixManifest
	if err := decodeJSON(raw, "extension/package.json", &m); err != nil {
		t.Fatal(err)
	}
	paths := []string{m.Main}
	for _, l := range m.Contributes.Languages {
		paths = append(paths, l.Configuration)
	}
	for _, g := range m.Contributes.Grammars {
		paths = append(paths, g.Path)
	}
	for _, p := range paths {
		if p == "" {
			t.Errorf("packaged package.json names an empty path (main, a language configuration or a grammar)")
			continue
		}
		full := "extension/" + strings.TrimPrefix(filepath.ToSlash(filepath.Clean(p)), "./")
		if names[full] == nil {
			t.Errorf("packaged package.json names %s, which the .vsix lacks (%s)", p, full)
		}
	}
}

// readAllLimited reads a zip member, bounded by fileLimit.
func readAllLimited(rc interface {
	Read([]byte) (int, error)
	Close() error
}, name string) ([]byte, error) {
	defer func() { _ = rc.Close() }()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(readlimit.Reader(rc, name, fileLimit)); err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return buf.Bytes(), nil
}

// decodeJSON decodes a JSON text after bounding its nesting.
func decodeJSON(b []byte, name string, v any) error {
	if err := nestlimit.JSON(b, name); err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("decoding %s: %w", name, err)
	}
	return nil
}

// packageEngines is the engines field of a package.json.
type packageEngines struct {
	Version string `json:"version"`
	Engines struct {
		VSCode string `json:"vscode"`
	} `json:"engines"`
}

// readEngines reads a package.json's version and engines.
func readEngines(t *testing.T, path string) packageEngines {
	t.Helper()
	b, err := readlimit.File(path, fileLimit)
	if err != nil {
		t.Fatal(err)
	}
	var p packageEngines
	if err := decodeJSON(b, path, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkEngines checks that every VS Code version the extension accepts is
// one the installed vscode-languageclient accepts, and that the installed
// client is the version package.json pins.
func checkEngines(t *testing.T, dir string) {
	ours := readEngines(t, filepath.Join(dir, "package.json"))
	client := readEngines(t, filepath.Join(dir, "node_modules", "vscode-languageclient", "package.json"))
	if ours.Engines.VSCode == "" || client.Engines.VSCode == "" {
		t.Fatalf("engines.vscode: extension %q, vscode-languageclient %q: both must be set", ours.Engines.VSCode, client.Engines.VSCode)
	}
	within, err := rangeWithin(ours.Engines.VSCode, client.Engines.VSCode)
	if err != nil {
		t.Fatal(err)
	}
	if !within {
		t.Errorf("engines.vscode %q accepts VS Code versions vscode-languageclient %s does not (it needs %q)",
			ours.Engines.VSCode, client.Version, client.Engines.VSCode)
	}
	b, err := readlimit.File(filepath.Join(dir, "package.json"), fileLimit)
	if err != nil {
		t.Fatal(err)
	}
	var deps struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := decodeJSON(b, "package.json", &deps); err != nil {
		t.Fatal(err)
	}
	if pin := deps.Dependencies["vscode-languageclient"]; pin != client.Version {
		t.Errorf("package.json pins vscode-languageclient %q, npm ci installed %q", pin, client.Version)
	}
}

// version is a major.minor.patch version.
type version [3]int

var versionRE = regexp.MustCompile(`^v?(\d{1,9})\.(\d{1,9})\.(\d{1,9})$`)

// parseVersion parses major.minor.patch (an optional leading v, no
// pre-release or build suffix).
func parseVersion(s string) (version, error) {
	m := versionRE.FindStringSubmatch(s)
	if m == nil {
		return version{}, fmt.Errorf("%q is not a major.minor.patch version", s)
	}
	var v version
	for i := range v {
		n, err := strconv.Atoi(m[i+1])
		if err != nil {
			return version{}, fmt.Errorf("%q: %w", s, err)
		}
		v[i] = n
	}
	return v, nil
}

func (v version) less(w version) bool {
	for i := range v {
		if v[i] != w[i] {
			return v[i] < w[i]
		}
	}
	return false
}

// span is the versions [lo, hi); hi is unbounded when open.
type span struct {
	lo, hi version
	open   bool
}

// parseRange parses the engines.vscode forms VS Code documents: ^X.Y.Z,
// >=X.Y.Z and X.Y.Z (exactly that version), following npm's caret rule for
// a zero major or minor.
func parseRange(s string) (span, error) {
	s = strings.TrimSpace(s)
	switch {
	case strings.HasPrefix(s, "^"):
		v, err := parseVersion(s[1:])
		if err != nil {
			return span{}, fmt.Errorf("range %q: %w", s, err)
		}
		switch {
		case v[0] > 0:
			return span{lo: v, hi: version{v[0] + 1, 0, 0}}, nil
		case v[1] > 0:
			return span{lo: v, hi: version{0, v[1] + 1, 0}}, nil
		default:
			return span{lo: v, hi: version{0, 0, v[2] + 1}}, nil
		}
	case strings.HasPrefix(s, ">="):
		v, err := parseVersion(strings.TrimSpace(s[2:]))
		if err != nil {
			return span{}, fmt.Errorf("range %q: %w", s, err)
		}
		return span{lo: v, open: true}, nil
	default:
		v, err := parseVersion(s)
		if err != nil {
			return span{}, fmt.Errorf("range %q is none of ^X.Y.Z, >=X.Y.Z, X.Y.Z: %w", s, err)
		}
		return span{lo: v, hi: version{v[0], v[1], v[2] + 1}}, nil
	}
}

// rangeWithin says whether every version in inner is in outer.
func rangeWithin(inner, outer string) (bool, error) {
	in, err := parseRange(inner)
	if err != nil {
		return false, err
	}
	out, err := parseRange(outer)
	if err != nil {
		return false, err
	}
	if in.lo.less(out.lo) {
		return false, nil
	}
	if out.open {
		return true, nil
	}
	if in.open {
		return false, nil
	}
	return !out.hi.less(in.hi), nil
}

func TestRangeWithin(t *testing.T) {
	tests := []struct {
		inner, outer string
		want         bool
		err          bool
	}{
		{"^1.82.0", "^1.82.0", true, false},
		{"^1.91.0", "^1.82.0", true, false},
		{"^1.80.0", "^1.82.0", false, false},
		{"^2.0.0", "^1.82.0", false, false},
		{">=1.82.0", "^1.82.0", false, false},
		{"^1.82.0", ">=1.82.0", true, false},
		{"1.85.2", "^1.82.0", true, false},
		{"1.82.0", "1.82.0", true, false},
		{"1.82.1", "1.82.0", false, false},
		{"^0.2.3", "^0.2.0", true, false},
		{"^0.3.0", "^0.2.0", false, false},
		{"^0.0.3", "^0.0.3", true, false},
		{"^0.0.4", "^0.0.3", false, false},
		{" ^1.82.0 ", "^1.82.0", true, false},
		{"v1.82.0", "^1.82.0", true, false},
		// Hostile: forms this check does not understand fail loudly.
		{"^", "^1.82.0", false, true},
		{"^1", "^1.82.0", false, true},
		{"^1.82", "^1.82.0", false, true},
		{">=1.82.0 <2.0.0", "^1.82.0", false, true},
		{"^1.82.0-insider", "^1.82.0", false, true},
		{"*", "^1.82.0", false, true},
		{"", "^1.82.0", false, true},
		{"^1.82.0", "~1.82.0", false, true},
		{"^99999999999.0.0", "^1.82.0", false, true},
		{"^1.82.0\n", "^1.82.0", true, false},
		{"^1.82.0 || ^2.0.0", "^1.82.0", false, true},
	}
	for _, tt := range tests {
		got, err := rangeWithin(tt.inner, tt.outer)
		if (err != nil) != tt.err {
			t.Errorf("rangeWithin(%q, %q): error %v, want error %v", tt.inner, tt.outer, err, tt.err)
			continue
		}
		if got != tt.want {
			t.Errorf("rangeWithin(%q, %q) = %v, want %v", tt.inner, tt.outer, got, tt.want)
		}
	}
}

func TestCopyTree(t *testing.T) {
	src := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(src, "node_modules", "x"), 0o755))
	must(os.MkdirAll(filepath.Join(src, "syntaxes"), 0o755))
	must(os.WriteFile(filepath.Join(src, "node_modules", "x", "a.js"), []byte("x"), 0o644))
	must(os.WriteFile(filepath.Join(src, "syntaxes", "g.json"), []byte("{}"), 0o644))
	must(os.WriteFile(filepath.Join(src, "old.vsix"), []byte("zip"), 0o644))
	must(os.WriteFile(filepath.Join(src, "run.sh"), []byte("#!/bin/sh\n"), 0o755))
	dst := filepath.Join(t.TempDir(), "out")
	must(copyTree(src, dst))
	var got []string
	must(filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dst, p)
		if err != nil {
			return err
		}
		if !d.IsDir() {
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	}))
	if strings.Join(got, ",") != "run.sh,syntaxes/g.json" {
		t.Errorf("copied %v, want [run.sh syntaxes/g.json]", got)
	}
	st, err := os.Stat(filepath.Join(dst, "run.sh"))
	must(err)
	if st.Mode().Perm() != 0o755 {
		t.Errorf("run.sh mode %v, want 0755", st.Mode().Perm())
	}

	// A symlink is refused, not followed out of the tree.
	must(os.Symlink("/etc/passwd", filepath.Join(src, "link")))
	if err := copyTree(src, filepath.Join(t.TempDir(), "out2")); err == nil || !strings.Contains(err.Error(), "link") {
		t.Errorf("copyTree with a symlink: error %v, want one naming it", err)
	}
}

// FuzzRangeWithin feeds engines.vscode ranges to the parser: it never
// panics, a range it accepts contains itself, and a caret range lies within
// the >= range of its own lower bound.
func FuzzRangeWithin(f *testing.F) {
	for _, s := range []string{"^1.82.0", ">=1.91.0", "1.2.3", "^0.0.1", "^0.2.0", "^", "v1.0.0", ">= 1.0.0", "^1.82.0 || ^2", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := parseRange(s)
		if err != nil {
			return
		}
		if !r.open && !r.lo.less(r.hi) {
			t.Fatalf("parseRange(%q) = %+v: an empty range", s, r)
		}
		ok, err := rangeWithin(s, s)
		if err != nil || !ok {
			t.Fatalf("rangeWithin(%q, %q) = %v, %v; want true, nil", s, s, ok, err)
		}
		lo := fmt.Sprintf(">=%d.%d.%d", r.lo[0], r.lo[1], r.lo[2])
		if ok, err := rangeWithin(s, lo); err != nil || !ok {
			t.Fatalf("rangeWithin(%q, %q) = %v, %v; want true, nil", s, lo, ok, err)
		}
	})
}
