package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// readmeSnippet is the Lua fence after <!-- lsp-snippet: NAME --> in the README.
func readmeSnippet(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)<!-- lsp-snippet: " + regexp.QuoteMeta(name) + " -->\n```lua\n(.*?)```")
	m := re.FindSubmatch(b)
	if m == nil {
		t.Fatalf("README.md has no lsp-snippet %q followed by a lua fence", name)
	}
	return string(m[1])
}

// needNeovim returns the nvim binary, skipping (never under CI=true) without it.
func needNeovim(t *testing.T) string {
	t.Helper()
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("nvim (Debian package neovim) is not installed; .ci/run installs it")
		}
		t.Skip("nvim (Debian package neovim) is not installed")
	}
	return nvim
}

// buildFabricgen builds the fabricgen binary into dir.
func buildFabricgen(t *testing.T, dir string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(dir, "fabricgen"), "github.com/fabricgen/fabricgen/cmd/fabricgen")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
}

// runNeovim runs nvim headless with init as init.lua and script after it,
// and returns its tagged output lines.
func runNeovim(t *testing.T, nvim, bin, init, script string, env ...string) map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	home := t.TempDir()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-n", "-i", "NONE", "-u", init, "-c", "luafile "+script)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+home,
		"XDG_CONFIG_HOME="+home, "XDG_DATA_HOME="+home, "XDG_STATE_HOME="+home, "XDG_CACHE_HOME="+home)
	cmd.Env = append(cmd.Env, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	tags := map[string]string{}
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		tag, rest, _ := strings.Cut(sc.Text(), " ")
		tags[tag] = rest
	}
	if err != nil || tags["FAIL"] != "" {
		t.Fatalf("nvim: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	return tags
}

// TestNeovim: Debian's Neovim, headless, with the README's snippet as its
// configuration, attaches fabricgen lsp to the broken example whose core
// zeroes DSCP; vim.diagnostic.get() holds QOS001 at line 71 with its five
// hops; the preferred quick fix sets trust = "dscp", and the finding goes.
func TestNeovim(t *testing.T) {
	nvim := needNeovim(t)
	bin := t.TempDir()
	buildFabricgen(t, bin)
	dir := copyExample(t, "broken/core-zeroes-dscp")
	init := filepath.Join(t.TempDir(), "init.lua")
	if err := os.WriteFile(init, []byte(readmeSnippet(t, "nvim-0.7")), 0o644); err != nil {
		t.Fatal(err)
	}
	tags := runNeovim(t, nvim, bin, init, filepath.Join("testdata", "nvim_check.lua"), "FG_FILE="+filepath.Join(dir, "fabric.fab.hcl"))
	if tags["FILETYPE"] != `"fabricgen"` {
		t.Errorf("filetype %s, want fabricgen", tags["FILETYPE"])
	}
	var ds []struct {
		Lnum, Col int
		Code      string
		Related   []DiagnosticRelatedInformation
	}
	if err := json.Unmarshal([]byte(tags["DIAGNOSTICS"]), &ds); err != nil {
		t.Fatalf("DIAGNOSTICS %s: %v", tags["DIAGNOSTICS"], err)
	}
	found := false
	for _, d := range ds {
		if d.Code != "QOS001" {
			continue
		}
		found = true
		if d.Lnum != 70 || d.Col != 2 {
			t.Errorf("QOS001 at %d:%d (0-based), want 70:2", d.Lnum, d.Col)
		}
		hops := 0
		for _, r := range d.Related {
			if strings.HasPrefix(r.Message, "hop ") {
				hops++
			}
		}
		if hops != 5 || !strings.Contains(tags["DIAGNOSTICS"], "hop 3/5 core1:Ethernet1: DSCP 26 → 0: no trust dscp") {
			t.Errorf("QOS001's related information has %d hops: %+v", hops, d.Related)
		}
	}
	if !found {
		t.Fatalf("no QOS001 in %s", tags["DIAGNOSTICS"])
	}
	if !strings.Contains(tags["ACTIONS"], "fabricgen:ignore QOS001") {
		t.Errorf("no suppression action among %s", tags["ACTIONS"])
	}
	var after struct {
		Line    string
		Cleared bool
	}
	if err := json.Unmarshal([]byte(tags["AFTER"]), &after); err != nil {
		t.Fatalf("AFTER %s: %v", tags["AFTER"], err)
	}
	if after.Line != `  trust = "dscp"` || !after.Cleared {
		t.Errorf("after the quick fix: line %q, QOS001 cleared %v", after.Line, after.Cleared)
	}
}

// TestNeovimNewSnippet: the README's Neovim 0.11 snippet loads and returns
// the server's command, filetype and root markers.
func TestNeovimNewSnippet(t *testing.T) {
	nvim := needNeovim(t)
	snippet := filepath.Join(t.TempDir(), "fabricgen.lua")
	if err := os.WriteFile(snippet, []byte(readmeSnippet(t, "nvim-0.11")), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(t.TempDir(), "init.lua")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tags := runNeovim(t, nvim, t.TempDir(), empty, filepath.Join("testdata", "nvim_011.lua"), "FG_SNIPPET="+snippet)
	var cfg struct {
		Cmd, Filetypes, RootMarkers []string `json:"-"`
	}
	var raw map[string][]string
	if err := json.Unmarshal([]byte(tags["CONFIG"]), &raw); err != nil {
		t.Fatalf("CONFIG %s: %v", tags["CONFIG"], err)
	}
	cfg.Cmd, cfg.Filetypes, cfg.RootMarkers = raw["cmd"], raw["filetypes"], raw["root_markers"]
	if strings.Join(cfg.Cmd, " ") != "fabricgen lsp" || strings.Join(cfg.Filetypes, " ") != "fabricgen" || strings.Join(cfg.RootMarkers, " ") != ".fabricgen.hcl .git" {
		t.Errorf("config %s", tags["CONFIG"])
	}
}
