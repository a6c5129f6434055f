package templates

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/internal/testtool"
	"github.com/fabricgen/fabricgen/schema"
)

// hostScripts renders every host NIC script of every example and of every
// host platform folder's fixture (every driver, trust and RDMA variant,
// names full of "_ . - @").
func hostScripts(t *testing.T) map[string][]byte {
	t.Helper()
	r := newTestRenderer(t)
	out := map[string][]byte{}
	fabrics := map[string]*schema.Fabric{}
	for _, fx := range platformtest.All("..") {
		if !fx.Platform.Spec.Host {
			continue
		}
		f, err := fx.Load()
		if err != nil {
			t.Fatal(err)
		}
		fabrics["platforms/"+fx.Platform.Folder] = f
	}
	for _, ex := range exampleNames(t) {
		fabrics[ex] = loadExample(t, ex)
	}
	for ex, f := range fabrics {
		if f.InfiniBand() {
			continue // an InfiniBand host gets a job environment, not a script (platforms/nvidia_mlnx's IB tests)
		}
		for _, d := range sampleDevices(f) {
			if !d.HostPlatform {
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
	bash := testtool.Need(t, "bash", "bash")
	sc := testtool.Need(t, "shellcheck", "shellcheck")
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

// guardedLines are the only lines of a host script with || in them, each
// one fixed form that push/config knows: ethtool -A accepting only its
// "nothing changed" status 78, a read-back check after dcb app replace,
// and the configfs mount before rdma_cm configfs writes.
var guardedLines = []*regexp.Regexp{
	regexp.MustCompile(`^ethtool -A \S+(?: (?:rx|tx|autoneg) (?:on|off))+ \|\| \[ \$\? -eq 78 \]$`),
	regexp.MustCompile(`^\[ "\$\(dcb (?:-N )?app show dev \S+ (?:dscp|pcp)-prio\)" = "(?:dscp|pcp)-prio [0-9a-z: ]+ " \] \|\| \{ echo "\S+: dcb app (?:dscp|pcp)-prio did not take" >&2; exit 1; \}$`),
	regexp.MustCompile(`^mountpoint -q /sys/kernel/config \|\| mount -t configfs none /sys/kernel/config$`),
}

// probeLine is a capability probe of the preamble: a read-only test of a
// driver's file, tunable, flag or DCB netlink, then one message and exit.
var probeLine = regexp.MustCompile(`^(?:\[ -[de] \S+ \]|dcb pfc show dev \S+ >/dev/null 2>&1|ethtool --get-tunable \S+ pfc-prevention-tout >/dev/null 2>&1|ethtool --show-priv-flags \S+ \| grep -q '\^fw-lldp-agent') \|\| \{ echo "[^"]+" >&2; exit 1; \}$`)

// TestHostScriptShape checks the contract the lab and push rely on: a
// preamble (shebang, set -eu, tool checks, lookups), then one simple
// command per line, no shell control flow beyond the guardedLines forms.
func TestHostScriptShape(t *testing.T) {
	for name, text := range hostScripts(t) {
		lines := strings.Split(strings.TrimRight(string(text), "\n"), "\n")
		if lines[0] != "#!/usr/bin/env bash" {
			t.Errorf("%s: first line %q, want the bash shebang", name, lines[0])
		}
		seenSet, changed := false, false
		for i, l := range lines[1:] {
			switch {
			case l == "" || strings.HasPrefix(l, "#"):
			case l == "set -eu":
				seenSet = true
			case strings.HasPrefix(l, "command -v "), probeLine.MatchString(l):
				if !seenSet {
					t.Errorf("%s:%d: tool check before set -eu", name, i+2)
				}
				if changed {
					t.Errorf("%s:%d: check %q after the first change: every probe must run before anything changes", name, i+2, l)
				}
			case strings.Contains(l, "=$("):
				if changed {
					t.Errorf("%s:%d: lookup after the first change", name, i+2)
				}
			default:
				if !seenSet {
					t.Errorf("%s:%d: command before set -eu: %q", name, i+2, l)
				}
				changed = true
				guarded := false
				for _, re := range guardedLines {
					guarded = guarded || re.MatchString(l)
				}
				if guarded {
					continue
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
