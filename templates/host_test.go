package templates

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hostScripts renders every host NIC script of every example.
func hostScripts(t *testing.T) map[string][]byte {
	t.Helper()
	r := newTestRenderer(t)
	out := map[string][]byte{}
	for _, ex := range exampleNames(t) {
		f := loadExample(t, ex)
		for _, d := range sampleDevices(f) {
			if !d.Platform.V.IsHost() {
				continue
			}
			o, err := r.Render(f, d)
			if err != nil {
				continue // TestGolden pins the error text
			}
			out[ex+"/"+o.Filename] = o.Text
		}
	}
	if len(out) == 0 {
		t.Fatal("no example rendered a host script")
	}
	return out
}

// TestHostScriptsParseAndLint runs bash -n and shellcheck on every NIC script.
func TestHostScriptsParseAndLint(t *testing.T) {
	bash := needTool(t, "bash", "bash")
	sc := needTool(t, "shellcheck", "shellcheck")
	dir := t.TempDir()
	for name, text := range hostScripts(t) {
		path := filepath.Join(dir, strings.ReplaceAll(name, "/", "_"))
		if err := os.WriteFile(path, text, 0o755); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(bash, "-n", path).CombinedOutput(); err != nil {
			t.Errorf("%s: bash -n: %v\n%s", name, err, out)
		}
		if out, err := exec.Command(sc, "-s", "bash", path).CombinedOutput(); err != nil {
			t.Errorf("%s: shellcheck: %v\n%s", name, err, out)
		}
	}
}

// TestHostScriptShape checks the contract the lab and push rely on: a
// preamble (shebang, set -eu, tool checks, lookups), then one simple
// command per line, no shell control flow.
func TestHostScriptShape(t *testing.T) {
	for name, text := range hostScripts(t) {
		lines := strings.Split(strings.TrimRight(string(text), "\n"), "\n")
		if lines[0] != "#!/usr/bin/env bash" {
			t.Errorf("%s: first line %q, want the bash shebang", name, lines[0])
		}
		seenSet := false
		for i, l := range lines[1:] {
			switch {
			case l == "" || strings.HasPrefix(l, "#"):
			case l == "set -eu":
				seenSet = true
			case strings.HasPrefix(l, "command -v "):
				if !seenSet {
					t.Errorf("%s:%d: tool check before set -eu", name, i+2)
				}
			default:
				if !seenSet {
					t.Errorf("%s:%d: command before set -eu: %q", name, i+2, l)
				}
				for _, bad := range []string{"for ", "while ", "if ", "function ", "&&", "||", ";", "`"} {
					if strings.Contains(l, bad) {
						t.Errorf("%s:%d: %q is not one simple command (contains %q)", name, i+2, l, bad)
					}
				}
			}
		}
	}
}
