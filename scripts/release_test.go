package scripts_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/testtool"
)

// fakeBuild stands in for go build: it writes its environment's GOOS and
// GOARCH and its arguments to the -o file.
const fakeBuild = `#!/usr/bin/env bash
set -eu
out=""
args="$*"
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
printf '%s %s %s\n' "$GOOS" "$GOARCH" "$args" > "$out"
`

// releaseRepo is a git repository with scripts/release.sh, a README, a
// man page and a stand-in go; it returns the repository and the stand-in.
func releaseRepo(t *testing.T) (string, string) {
	t.Helper()
	testtool.Need(t, "git", "git")
	dir := t.TempDir()
	script, err := os.ReadFile("release.sh")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"scripts/release.sh": string(script), "README.md": "# x\n", "docs/man/fabricgen.1": ".TH x\n", ".gitignore": "dist/\n"}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fake := filepath.Join(t.TempDir(), "go")
	if err := os.WriteFile(fake, []byte(fakeBuild), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-qm", "one")
	return dir, fake
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "tag.gpgSign=false", "-c", "commit.gpgSign=false"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func runRelease(t *testing.T, dir, fake string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(filepath.Join(dir, "scripts", "release.sh"), args...)
	cmd.Env = append(os.Environ(), "GO="+fake, "RELEASE_PLATFORMS=linux/amd64 darwin/arm64")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestReleaseRefuses(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string)
		args  []string
		want  string
	}{
		{"no version", nil, nil, "usage: make release VERSION="},
		{"not a version", nil, []string{"latest"}, "is not a version tag"},
		{"no tag", nil, []string{"v1.2.3"}, "no tag v1.2.3"},
		{"tag not at HEAD", func(t *testing.T, dir string) {
			git(t, dir, "tag", "-a", "v1.2.3", "-m", "v1.2.3")
			git(t, dir, "commit", "--allow-empty", "-qm", "two")
		}, []string{"v1.2.3"}, "git checkout v1.2.3"},
		{"dirty tree", func(t *testing.T, dir string) {
			git(t, dir, "tag", "-a", "v1.2.3", "-m", "v1.2.3")
			if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("changed\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"v1.2.3"}, "uncommitted changes (commit or stash them):\n  README.md"},
		{"untracked files are named", func(t *testing.T, dir string) {
			git(t, dir, "tag", "-a", "v1.2.3", "-m", "v1.2.3")
			for _, f := range []string{"plan.json", "out/leaf1.cfg"} {
				if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, f), []byte("x\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}, []string{"v1.2.3"}, "untracked files (remove them, or git stash -u; or add them to .gitignore):\n  out/leaf1.cfg\n  plan.json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, fake := releaseRepo(t)
			if c.setup != nil {
				c.setup(t, dir)
			}
			out, err := runRelease(t, dir, fake, c.args...)
			if err == nil || !strings.Contains(out, c.want) {
				t.Errorf("err %v, output %q, want %q", err, out, c.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "dist")); err == nil {
				t.Error("a refused release wrote dist/")
			}
		})
	}
}

func TestReleaseArchives(t *testing.T) {
	dir, fake := releaseRepo(t)
	git(t, dir, "tag", "-a", "v1.2.3", "-m", "v1.2.3")
	if out, err := runRelease(t, dir, fake, "v1.2.3"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	sums, err := os.ReadFile(filepath.Join(dir, "dist", "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct{ os, arch string }{{"linux", "amd64"}, {"darwin", "arm64"}} {
		name := "fabricgen_1.2.3_" + p.os + "_" + p.arch
		if !strings.Contains(string(sums), name+".tar.gz") {
			t.Errorf("checksums.txt lacks %s:\n%s", name, sums)
		}
		out, err := exec.Command("tar", "-xzOf", filepath.Join(dir, "dist", name+".tar.gz"), name+"/fabricgen").Output()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, want := range []string{p.os + " " + p.arch + " ", "-X main.releaseVersion=v1.2.3", "-trimpath"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("%s was built with %q, want %q in it", name, out, want)
			}
		}
		list, err := exec.Command("tar", "-tzf", filepath.Join(dir, "dist", name+".tar.gz")).Output()
		if err != nil || !strings.Contains(string(list), name+"/man/fabricgen.1") || !strings.Contains(string(list), name+"/README.md") {
			t.Errorf("%s holds %s (%v)", name, list, err)
		}
	}
}
