package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDriftJobInstalls: the nightly drift job in docs/push.md installs
// fabricgen the way the README does. fabricgen is not a published Go
// module, so `go install github.com/fabricgen/fabricgen/cmd/fabricgen`
// outside a module fails ("'go install' requires a version when current
// directory is not in a module"); the job checks fabricgen out and runs
// `go install ./cmd/fabricgen` in that checkout. The test reads the job's
// steps, refuses a go install of a module path, and runs the job's install
// step in a directory laid out as the job's workspace (the checkout is
// this repository).
func TestDriftJobInstalls(t *testing.T) {
	root := repoRoot(t)
	doc, err := os.ReadFile(filepath.Join(root, "docs", "push.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	start := strings.Index(text, "```yaml\nname: fabric drift")
	if start < 0 {
		t.Fatal("docs/push.md has no drift job (a ```yaml block starting with name: fabric drift)")
	}
	end := strings.Index(text[start+7:], "```")
	job := text[start : start+7+end]
	// The steps, as (key: value) lines of each "- " item.
	var steps []map[string]string
	reKV := regexp.MustCompile(`^\s+(?:- )?(uses|run|working-directory|with):\s*(.*?)\s*(?:#.*)?$`)
	for _, l := range strings.Split(job, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "- ") {
			steps = append(steps, map[string]string{})
		}
		if m := reKV.FindStringSubmatch(l); m != nil && len(steps) > 0 {
			steps[len(steps)-1][m[1]] = m[2]
		}
	}
	checkout := "" // where the job checks fabricgen out
	installed := false
	for _, s := range steps {
		if strings.HasPrefix(s["uses"], "actions/checkout") && strings.Contains(s["with"], "repository: fabricgen/fabricgen") {
			if m := regexp.MustCompile(`path:\s*([^,}\s]+)`).FindStringSubmatch(s["with"]); m != nil {
				checkout = m[1]
			}
		}
		run := s["run"]
		if !strings.Contains(run, "go install") {
			continue
		}
		if regexp.MustCompile(`go install [^ ]*github\.com/fabricgen/fabricgen[^ @]*(\s|$)`).MatchString(run) {
			t.Fatalf("the drift job runs %q: fabricgen is not a published module, go install of its path fails outside a module", run)
		}
		if checkout == "" || s["working-directory"] != checkout {
			t.Fatalf("the drift job runs %q outside a checkout of fabricgen (working-directory %q, checkout %q)", run, s["working-directory"], checkout)
		}
		// Run the step: the workspace holds the fabricgen checkout at
		// the job's path.
		ws := t.TempDir()
		if err := os.Symlink(root, filepath.Join(ws, checkout)); err != nil {
			t.Fatal(err)
		}
		bin := t.TempDir()
		cmd := exec.Command("sh", "-c", run)
		cmd.Dir = filepath.Join(ws, checkout)
		cmd.Env = append(os.Environ(), "GOBIN="+bin, "GOFLAGS=-buildvcs=false")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("the drift job's install step %q: %v\n%s", run, err, out)
		}
		if out, err := exec.Command(filepath.Join(bin, "fabricgen"), "drift", "--help").CombinedOutput(); err != nil {
			t.Fatalf("the installed fabricgen: %v\n%s", err, out)
		}
		installed = true
	}
	if !installed {
		t.Fatal("the drift job installs no fabricgen")
	}
}
