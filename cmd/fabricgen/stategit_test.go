package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// git runs git in the working directory without the user's own
// configuration and returns its output.
func git(t *testing.T, args ...string) string {
	t.Helper()
	c := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	c.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestStateAndGit: after lab up (its default directory, .fabricgen/lab)
// and an apply in a git checkout, git status shows only what is meant to
// be committed, the .gitignore files fabricgen wrote and the
// last-applied records; the lab's private keys, the backups and the lock
// are ignored.
func TestStateAndGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is not installed")
		}
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	copyExample(t, "ai-training-2subnet", dir)
	t.Chdir(dir)
	git(t, "init", "-q")
	git(t, "add", "fabric")
	git(t, "commit", "-q", "-m", "fabric")
	s, _, _ := pushStreams("")
	f, diags := schema.Load("fabric", schema.Options{Getenv: s.getenv, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	specs, err := labSpecs(f.Devices, s.getenv)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l, inv, err := startLab(ctx, f, specs, defaultLabDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	s, out, errb := pushStreams("")
	if code := run(ctx, []string{"apply", "fabric", "-auto-approve", "--inventory", inv, "--known-hosts", l.KnownHostsPath()}, s); code != 0 {
		t.Fatalf("apply: exit %d\n%s\n%s", code, out, errb)
	}
	meant := regexp.MustCompile(`^\?\? (\.fabricgen/\.gitignore|fabric/\.fabricgen/\.gitignore|fabric/\.fabricgen/applied/[a-z0-9-]+\.json)$`)
	records := 0
	for _, line := range strings.Split(strings.TrimSpace(git(t, "status", "--porcelain", "--untracked-files=all")), "\n") {
		if !meant.MatchString(line) {
			t.Errorf("git status shows a file not meant to be committed: %q", line)
		}
		if strings.Contains(line, "/applied/") {
			records++
		}
	}
	if records != len(f.Devices) {
		t.Errorf("git status shows %d last-applied records, want %d (one per device)", records, len(f.Devices))
	}
	var private []string
	for _, root := range []string{filepath.Join(".fabricgen", "lab"), filepath.Join("fabric", ".fabricgen", "backups")} {
		_ = filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() {
				private = append(private, p)
			}
			return nil
		})
	}
	keys := 0
	for _, p := range private {
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), "PRIVATE KEY") {
			keys++
		}
		if out, err := exec.Command("git", "check-ignore", "-q", p).CombinedOutput(); err != nil {
			t.Errorf("%s is not ignored: %v %s", p, err, out)
		}
	}
	if keys == 0 {
		t.Errorf("the lab wrote no private key in .fabricgen/lab to check: %v", private)
	}
}
