package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hook is one entry of .pre-commit-hooks.yaml.
type hook struct{ id, entry, language, files, passFilenames string }

func readHooks(t *testing.T) []hook {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var hooks []hook
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if v, ok := strings.CutPrefix(line, "- id:"); ok {
			hooks = append(hooks, hook{id: strings.TrimSpace(v)})
			continue
		}
		if len(hooks) == 0 {
			continue
		}
		h := &hooks[len(hooks)-1]
		key, val, _ := strings.Cut(line, ":")
		val = strings.TrimSpace(val)
		switch key {
		case "entry":
			h.entry = val
		case "language":
			h.language = val
		case "files":
			h.files = val
		case "pass_filenames":
			h.passFilenames = val
		}
	}
	return hooks
}

// TestPreCommitHooks checks .pre-commit-hooks.yaml: fmt rewrites, every
// hook gets the changed files and names a fabricgen command with flags it
// accepts, and each Go-built hook has a language: system twin.
func TestPreCommitHooks(t *testing.T) {
	hooks := readHooks(t)
	byID := map[string]hook{}
	for _, h := range hooks {
		byID[h.id] = h
	}
	for _, id := range []string{"fabricgen-fmt", "fabricgen-validate", "fabricgen-lint"} {
		h, ok := byID[id]
		sys, sysOK := byID[id+"-system"]
		if !ok || !sysOK {
			t.Errorf("%s: hook %v, system variant %v", id, ok, sysOK)
			continue
		}
		if h.language != "golang" || sys.language != "system" || h.entry != sys.entry || h.files != sys.files {
			t.Errorf("%s and its system twin differ: %+v / %+v", id, h, sys)
		}
	}
	if e := byID["fabricgen-fmt"].entry; strings.Contains(e, "check") {
		t.Errorf("fabricgen-fmt only checks (%q); it must rewrite, as terraform_fmt does", e)
	}
	for _, h := range hooks {
		if h.passFilenames != "true" {
			t.Errorf("%s: pass_filenames %q: the hooks work on the changed files", h.id, h.passFilenames)
		}
		args := strings.Fields(h.entry)
		if len(args) == 0 || args[0] != "fabricgen" {
			t.Errorf("%s: entry %q does not run fabricgen", h.id, h.entry)
			continue
		}
		s, _, _ := pushStreams("")
		root := newRootCommand(s)
		cmd, rest, err := root.Find(args[1:])
		if err != nil || cmd == root || cmd.RunE == nil {
			t.Errorf("%s: entry %q: no such command (%v)", h.id, h.entry, err)
			continue
		}
		if err := cmd.ParseFlags(rest); err != nil {
			t.Errorf("%s: entry %q: %v", h.id, h.entry, err)
		}
	}
}

func TestPrecommitFabricsOfFiles(t *testing.T) {
	ex := filepath.Join("..", "..", "examples")
	cases := []struct {
		name    string
		args    []string
		code    int
		wantOut []string
		wantErr string
	}{
		{"two clean fabrics", []string{"precommit", "lint", filepath.Join(ex, "roce-storage", "devices.fab.hcl"), filepath.Join(ex, "clos-400g", "qos.fab.hcl"), filepath.Join(ex, "clos-400g", "devices.fab.hcl")}, 0, nil, ""},
		{"a broken fabric among clean ones", []string{"precommit", "lint", filepath.Join(ex, "roce-storage", "devices.fab.hcl"), filepath.Join(ex, "broken", "ets-sum", "fabric.fab.hcl")}, 2, []string{"ets-sum/fabric.fab.hcl:30:3: error - core1:Ethernet1: DWRR weights sum to 110"}, ""},
		{"no fabric file", []string{"precommit", "lint", filepath.Join(ex, "README.md")}, 0, nil, ""},
		{"validate", []string{"precommit", "validate", filepath.Join(ex, "roce-storage", "devices.fab.hcl")}, 0, []string{`Fabric "roce-storage" is valid`}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := lintRun(t, c.args...)
			if code != c.code || !strings.Contains(errs, c.wantErr) {
				t.Errorf("exit %d (want %d)\n%s%s", code, c.code, out, errs)
			}
			for _, w := range c.wantOut {
				if !strings.Contains(filepath.ToSlash(out), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}

	// An invalid fabric fails with 1 and names it; a lint configuration
	// belongs to every fabric below it.
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad")
	good := filepath.Join(dir, "sub", "good")
	for _, d := range []string{bad, good} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		filepath.Join(bad, "a.fab.hcl"):      "fabric \"x\" {\n  nope = 1\n}\n",
		filepath.Join(good, "a.fab.hcl"):     "fabric \"y\" {}\n",
		filepath.Join(dir, ".fabricgen.hcl"): "config {\n  fail_level = \"error\"\n}\n",
	}
	for p, body := range files {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dirs, err := fabricDirsOf([]string{filepath.Join(dir, ".fabricgen.hcl")})
	if err != nil || strings.Join(dirs, ",") != bad+","+good {
		t.Errorf("fabric dirs of .fabricgen.hcl: %v %v, want [%s %s]", dirs, err, bad, good)
	}
	code, _, errs := lintRun(t, "precommit", "validate", filepath.Join(bad, "a.fab.hcl"), filepath.Join(good, "a.fab.hcl"))
	if code != 1 || !strings.Contains(errs, "1 of 2 fabric(s) failed: "+bad) {
		t.Errorf("invalid fabric: exit %d\n%s", code, errs)
	}
}
