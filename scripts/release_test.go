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

// readme has a pre-commit snippet pinned to a commit, as the real one.
const readme = "# x\n\n```yaml\nrepos:\n  - repo: https://github.com/fabricgen/fabricgen\n    rev: 5ba7e68968c5b2226a95e244298514b5f9ed5c5d  # a release tag\n    hooks:\n      - id: fabricgen-lint\n```\n\nrev: untouched\n"

// versionMain prints the main module's version from the build info, as
// fabricgen version does when no -X main.releaseVersion is given.
const versionMain = `package main

import (
	"fmt"
	"runtime/debug"
)

func main() {
	bi, _ := debug.ReadBuildInfo()
	fmt.Print(bi.Main.Version)
}
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
	files := map[string]string{"scripts/release.sh": string(script), "README.md": readme, "docs/man/fabricgen.1": ".TH x\n",
		"docs/push.md": "# push\n", "docs/cli/fabricgen.md": "# cli\n", ".gitignore": "dist/\n",
		"go.mod": "module example.com/fabricgen\n\ngo 1.24\n", "main.go": versionMain}
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
	cmd.Env = append(os.Environ(), "GO="+fake, "RELEASE_PLATFORMS=linux/amd64 darwin/arm64",
		// make tag commits and tags: an identity and no signing, whatever
		// the machine's git configuration.
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_CONFIG_COUNT=2", "GIT_CONFIG_KEY_0=tag.gpgSign", "GIT_CONFIG_VALUE_0=false", "GIT_CONFIG_KEY_1=commit.gpgSign", "GIT_CONFIG_VALUE_1=false")
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
		if err != nil {
			t.Fatalf("tar -tzf %s: %v", name, err)
		}
		for _, f := range []string{"fabricgen", "README.md", "man/fabricgen.1", "docs/push.md", "docs/cli/fabricgen.md", "docs/man/fabricgen.1"} {
			if !strings.Contains(string(list), name+"/"+f+"\n") {
				t.Errorf("%s lacks %s; it holds:\n%s", name, f, list)
			}
		}
	}
}

// gitOut is git's output in dir.
func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}

// TestReleaseTagFlow: make tag moves the pre-commit pin to the tag in a
// commit of its own and tags that commit; go build there stamps the tag
// as the version; make release then packs it, docs/ included.
func TestReleaseTagFlow(t *testing.T) {
	testtool.Need(t, "go", "golang-go")
	dir, fake := releaseRepo(t)
	before := gitOut(t, dir, "rev-parse", "HEAD")
	out, err := runRelease(t, dir, fake, "tag", "v0.1.0")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "make release VERSION=v0.1.0") {
		t.Errorf("tag does not say what comes next:\n%s", out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(readme, "5ba7e68968c5b2226a95e244298514b5f9ed5c5d", "v0.1.0", 1)
	if string(b) != want {
		t.Errorf("README after tagging:\n%s\nwant:\n%s", b, want)
	}
	head := gitOut(t, dir, "rev-parse", "HEAD")
	if head == before || gitOut(t, dir, "rev-parse", "v0.1.0^{commit}") != head {
		t.Errorf("v0.1.0 is not a new commit at HEAD")
	}
	if msg := gitOut(t, dir, "log", "-1", "--format=%s"); msg != "release v0.1.0: pre-commit pins v0.1.0" {
		t.Errorf("tag commit %q", msg)
	}
	if gitOut(t, dir, "status", "--porcelain") != "" {
		t.Error("tagging left the tree dirty")
	}
	// Version stamping: a plain build of the tagged commit is v0.1.0.
	bin := filepath.Join(t.TempDir(), "v")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOFLAGS=-buildvcs=true", "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if v, err := exec.Command(bin).Output(); err != nil || string(v) != "v0.1.0" {
		t.Errorf("the build of the tag says version %q (%v), want v0.1.0", v, err)
	}
	if out, err := runRelease(t, dir, fake, "v0.1.0"); err != nil {
		t.Fatalf("release after tag: %v\n%s", err, out)
	}
	// The next tag moves the pin again.
	git(t, dir, "commit", "--allow-empty", "-qm", "more")
	if out, err := runRelease(t, dir, fake, "tag", "v0.1.1"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if msg := gitOut(t, dir, "log", "-1", "--format=%s"); msg != "release v0.1.1: pre-commit pins v0.1.1" {
		t.Errorf("second tag commit %q", msg)
	}
}

func TestReleaseTagRefuses(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string)
		args  []string
		want  string
	}{
		{"no version", nil, []string{"tag"}, "usage: make tag VERSION="},
		{"not a version", nil, []string{"tag", "0.1.0"}, "is not a release tag"},
		{"pre-release", nil, []string{"tag", "v0.1.0-rc1"}, "is not a release tag"},
		{"exists", func(t *testing.T, dir string) { git(t, dir, "tag", "-a", "v0.1.0", "-m", "x") }, []string{"tag", "v0.1.0"}, "exists already"},
		{"below the latest", func(t *testing.T, dir string) { git(t, dir, "tag", "-a", "v0.10.0", "-m", "x") }, []string{"tag", "v0.9.0"}, "not above the latest tag v0.10.0"},
		{"dirty tree", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"tag", "v0.1.0"}, "uncommitted changes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, fake := releaseRepo(t)
			if c.setup != nil {
				c.setup(t, dir)
			}
			head := gitOut(t, dir, "rev-parse", "HEAD")
			out, err := runRelease(t, dir, fake, c.args...)
			if err == nil || !strings.Contains(out, c.want) {
				t.Errorf("err %v, output %q, want %q", err, out, c.want)
			}
			if gitOut(t, dir, "rev-parse", "HEAD") != head {
				t.Error("a refused tag made a commit")
			}
		})
	}
}
