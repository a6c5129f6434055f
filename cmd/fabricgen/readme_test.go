package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/testtool"
)

// docBlock is a fenced shell block of a Markdown file, with the output
// block that follows it (if any).
type docBlock struct {
	file    string
	line    int // line of the opening fence
	text    string
	skip    string // the reason of a readme-test: skip marker
	output  string // an untagged block right after it: lines its output must have
	outLine int
}

var (
	skipMarker = regexp.MustCompile(`^<!-- readme-test: skip \((.+)\) -->$`)
	runMarker  = "<!-- readme-test -->"
	exitsNote  = regexp.MustCompile(`#.*\bexits (\d+)\b`)
	labUpLine  = regexp.MustCompile(`^fabricgen lab up\b`)
)

// parseDocBlocks returns the shell blocks of a Markdown file: all of them
// (optIn false, README.md) or only those marked <!-- readme-test -->. An
// untagged block right after a shell block (blank lines between allowed)
// is the output it shows.
func parseDocBlocks(name string, src []byte, optIn bool) ([]docBlock, error) {
	var blocks []docBlock
	lines := strings.Split(string(src), "\n")
	// fence reads the block whose opening fence is at i; it returns the
	// body and the index of the closing fence.
	fence := func(i int) (string, int, error) {
		var body []string
		j := i + 1
		for ; j < len(lines) && lines[j] != "```"; j++ {
			body = append(body, lines[j])
		}
		if j == len(lines) {
			return "", 0, fmt.Errorf("%s:%d: unclosed code block", name, i+1)
		}
		return strings.Join(body, "\n") + "\n", j, nil
	}
	marker, markerLine := "", 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "<!-- readme-test"):
			marker, markerLine = l, i+1
			continue
		case !strings.HasPrefix(l, "```"):
			if strings.TrimSpace(l) != "" {
				marker = ""
			}
			continue
		}
		lang := strings.TrimPrefix(l, "```")
		text, end, err := fence(i)
		if err != nil {
			return nil, err
		}
		b := docBlock{file: name, line: i + 1, text: text}
		i = end
		m := skipMarker.FindStringSubmatch(marker)
		run := lang == "sh" || lang == "bash"
		switch {
		case marker != "" && m == nil && marker != runMarker:
			return nil, fmt.Errorf("%s:%d: unknown marker %q: use %s or <!-- readme-test: skip (reason) -->", name, markerLine, marker, runMarker)
		case !run || optIn && marker != runMarker && m == nil:
			marker = ""
			continue
		case m != nil:
			b.skip = m[1]
		}
		marker = ""
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j < len(lines) && lines[j] == "```" {
			if b.output, i, err = fence(j); err != nil {
				return nil, err
			}
			b.outLine = j + 1
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// readmePrelude runs lab up in the background (it serves until ^C) and
// checks each command's exit status.
const readmePrelude = `set -u
readme_lab_pid=
readme_lab_stop() {
  if [ -n "$readme_lab_pid" ]; then
    kill "$readme_lab_pid" 2>/dev/null
    wait "$readme_lab_pid" 2>/dev/null
    readme_lab_pid=
  fi
}
trap readme_lab_stop EXIT
readme_lab_up() {
  readme_lab_stop
  : > "$READMETEST_LAB_LOG"
  fabricgen lab up "$@" > "$READMETEST_LAB_LOG" 2>&1 &
  readme_lab_pid=$!
  for _ in $(seq 2400); do
    grep -q '^Lab up:' "$READMETEST_LAB_LOG" && return 0
    if ! kill -0 "$readme_lab_pid" 2>/dev/null; then
      cat "$READMETEST_LAB_LOG" >&2
      readme_lab_pid=
      return 1
    fi
    sleep 0.05
  done
  echo "lab up did not start within 120 s" >&2
  return 1
}
readme_check() {
  if [ "$1" -ne "$2" ]; then
    echo "readme-test: $3: exit status $1, want $2" >&2
    exit 97
  fi
}
`

// blockScript turns a block into a bash script: each command (with its
// continuation lines) followed by a check of its exit status (0, or the
// status its comment names as "exits N"); lab up lines run in the
// background until the block ends.
func blockScript(b docBlock) string {
	var sc strings.Builder
	sc.WriteString(readmePrelude)
	lines := strings.Split(strings.TrimSuffix(b.text, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		first := i
		cmd := lines[i]
		for strings.HasSuffix(strings.TrimRight(cmd, " "), "\\") && i+1 < len(lines) {
			i++
			cmd += "\n" + lines[i]
		}
		trimmed := strings.TrimSpace(cmd)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		want := "0"
		if m := exitsNote.FindStringSubmatch(lines[i]); m != nil {
			want = m[1]
		}
		if labUpLine.MatchString(trimmed) {
			cmd = "readme_lab_up" + strings.TrimPrefix(trimmed, "fabricgen lab up")
		}
		fmt.Fprintf(&sc, "%s\nreadme_check $? %s '%s:%d'\n", cmd, want, b.file, b.line+1+first)
	}
	return sc.String()
}

// copyRepo copies the repository's files (tracked and new, not ignored)
// into dir.
func copyRepo(t *testing.T, root, dir string) {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, name)
		st, err := os.Lstat(src)
		if err != nil || !st.Mode().IsRegular() {
			continue // deleted in the work tree, or not a file
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, st.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

// readmeBlocks is every block the README test runs or skips: README.md,
// then docs/*.md blocks marked <!-- readme-test -->.
func readmeBlocks(t *testing.T, root string) []docBlock {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := parseDocBlocks("README.md", src, false)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := fs.Glob(os.DirFS(root), "docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range docs {
		src, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		more, err := parseDocBlocks(name, src, true)
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, more...)
	}
	return blocks
}

// TestREADME runs every shell block of README.md (and the marked blocks
// of docs/*.md) in a temporary copy of the repository, as a new user
// would type them, and compares exit statuses and shown output.
func TestREADME(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the README test builds fabricgen and runs a lab")
	}
	for _, tool := range []string{"bash", "git", "go", "make"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("the README test needs %s: %v", tool, err)
			}
			t.Skipf("the README test needs %s, which is not installed", tool)
		}
	}
	root := repoRoot(t)
	// The README runs in a copy of the checkout's files (copyRepo asks
	// git which they are): a tree that is no git checkout (an exported
	// copy) cannot say, so the test is skipped there, never in CI.
	if err := exec.Command("git", "-C", root, "rev-parse", "--is-inside-work-tree").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the README test needs a git checkout: %v", err)
		}
		t.Skipf("the README test needs a git checkout, and %s is none: %v", root, err)
	}
	blocks := readmeBlocks(t, root)
	if len(blocks) < 8 {
		t.Fatalf("found only %d shell blocks in README.md", len(blocks))
	}
	work := t.TempDir()
	copyRepo(t, root, work)
	gobin := t.TempDir()
	logs := t.TempDir()
	env := append(os.Environ(),
		"GOBIN="+gobin,
		// -trimpath keeps the build cache's keys free of the copy's
		// directory, so the copy's builds reuse earlier runs' packages.
		"GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -trimpath"),
		"PATH="+gobin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"READMETEST_LAB_LOG="+filepath.Join(logs, "lab.log"),
		"NO_COLOR=1",
		"FABRICGEN_PASSWORD=",
		"FABRICGEN_PLAN_KEY=",
	)
	start := time.Now()
	for _, b := range blocks {
		name := fmt.Sprintf("%s:%d", b.file, b.line)
		if b.skip != "" {
			t.Logf("%s: skipped: %s", name, b.skip)
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		cmd := exec.CommandContext(ctx, "bash", "-c", blockScript(b))
		cmd.Dir, cmd.Env, cmd.WaitDelay = work, env, 10*time.Second
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		blockStart := time.Now()
		err := cmd.Run()
		cancel()
		if err != nil {
			t.Fatalf("%s: the block failed as written (%v):\n%s\n--- output ---\n%s", name, err, b.text, out.String())
		}
		t.Logf("%s: ok in %.1fs", name, time.Since(blockStart).Seconds())
		if b.output != "" {
			have := map[string]bool{}
			sc := bufio.NewScanner(bytes.NewReader(out.Bytes()))
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			for sc.Scan() {
				have[strings.TrimRight(sc.Text(), " ")] = true
			}
			for i, l := range strings.Split(strings.TrimSuffix(b.output, "\n"), "\n") {
				if strings.TrimSpace(l) != "" && !have[strings.TrimRight(l, " ")] {
					t.Errorf("%s:%d: the output the README shows is not what the commands print: %q\n--- output ---\n%s", b.file, b.outLine+1+i, l, out.String())
				}
			}
		}
	}
	t.Logf("README blocks took %.1fs", time.Since(start).Seconds())
	checkPreCommitRev(t, root)
}

var (
	tagRe    = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+$`)
	revLine  = regexp.MustCompile(`(?m)^\s+rev:\s+(\S+)`)
	hookLine = regexp.MustCompile(`(?m)^\s*- id:\s+(\S+)`)
)

// checkPreCommitRev checks the README's pre-commit snippet: its rev is a
// commit or tag of this repository whose .pre-commit-hooks.yaml defines
// every hook the snippet uses.
func checkPreCommitRev(t *testing.T, root string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	at := strings.Index(s, "```yaml\nrepos:")
	if at < 0 {
		t.Fatal("README.md has no pre-commit snippet (```yaml repos:)")
	}
	snippet := s[at : at+strings.Index(s[at+3:], "```")+3]
	m := revLine.FindStringSubmatch(snippet)
	if m == nil {
		t.Fatalf("the pre-commit snippet has no rev:\n%s", snippet)
	}
	rev := m[1]
	if err := exec.Command("git", "-C", root, "rev-parse", "--is-inside-work-tree").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("not a git checkout, cannot check the pre-commit rev %s", rev)
		}
		t.Logf("not a git checkout: the pre-commit rev %s is not checked", rev)
		return
	}
	commit := rev
	if tagRe.MatchString(rev) && exec.Command("git", "-C", root, "rev-parse", "-q", "--verify", "refs/tags/"+rev).Run() != nil {
		// A checkout without tags (a CI clone that fetched none): the
		// tag flow's own commit names the version, so find the tagged
		// commit by its message.
		out, err := exec.Command("git", "-C", root, "log", "--format=%H", "--fixed-strings", "--grep", "release "+rev+": pre-commit pins "+rev).Output()
		if c := strings.Fields(string(out)); err == nil && len(c) > 0 {
			t.Logf("this checkout has no tag %s: checking the tag flow's commit %s", rev, c[0])
			commit = c[0]
		}
	}
	hooks, err := exec.Command("git", "-C", root, "show", commit+":.pre-commit-hooks.yaml").Output()
	if err != nil {
		t.Fatalf("the README's pre-commit rev %s is no commit or tag of this repository with a .pre-commit-hooks.yaml (%v): make a release tag (make release) or name a commit", rev, err)
	}
	defined := map[string]bool{}
	for _, h := range hookLine.FindAllStringSubmatch(string(hooks), -1) {
		defined[h[1]] = true
	}
	for _, h := range hookLine.FindAllStringSubmatch(snippet, -1) {
		if !defined[h[1]] {
			t.Errorf("the README's pre-commit snippet uses hook %s, which .pre-commit-hooks.yaml at %s does not define", h[1], rev)
		}
	}
	checkSnippetArgs(t, snippet)
}

var argsLine = regexp.MustCompile(`(?m)^\s+- id:\s+(\S+)\n\s+args:\s+\[(.*)\]`)

// checkSnippetArgs parses each hook's args in the snippet with the flags
// of the command its entry runs.
func checkSnippetArgs(t *testing.T, snippet string) {
	t.Helper()
	for _, err := range snippetArgErrors(readHooks(t), snippet) {
		t.Errorf("the README's pre-commit snippet: %v", err)
	}
}

func snippetArgErrors(hooks []hook, snippet string) []error {
	entries := map[string]string{}
	for _, h := range hooks {
		entries[h.id] = h.entry
	}
	var errs []error
	for _, m := range argsLine.FindAllStringSubmatch(snippet, -1) {
		var args []string
		for _, a := range strings.Split(m[2], ",") {
			args = append(args, strings.TrimSpace(a))
		}
		s, _, _ := pushStreams("")
		root := newRootCommand(s)
		fields := strings.Fields(entries[m[1]])
		if len(fields) < 2 {
			errs = append(errs, fmt.Errorf("hook %s: no entry", m[1]))
			continue
		}
		cmd, rest, err := root.Find(fields[1:])
		if err == nil {
			err = cmd.ParseFlags(append(rest, terraformStyleFlags(args)...))
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("hook %s, args %v: %w", m[1], args, err))
		}
	}
	return errs
}

func TestSnippetArgErrors(t *testing.T) {
	hooks := []hook{{id: "fabricgen-lint", entry: "fabricgen precommit lint"}}
	for _, c := range []struct {
		args string
		ok   bool
	}{{"--fail-level, error", true}, {"-var, a=b", true}, {"--no-such-flag", false}} {
		snippet := "    hooks:\n      - id: fabricgen-lint\n        args: [" + c.args + "]\n"
		if errs := snippetArgErrors(hooks, snippet); (len(errs) == 0) != c.ok {
			t.Errorf("args [%s]: %v, want ok %v", c.args, errs, c.ok)
		}
	}
	if errs := snippetArgErrors(nil, "      - id: gone\n        args: [x]\n"); len(errs) != 1 {
		t.Errorf("a hook without an entry: %v", errs)
	}
}

func TestParseDocBlocks(t *testing.T) {
	src := "intro\n```sh\necho a\n```\n\n```\na\n```\n" +
		"<!-- readme-test: skip (needs the network) -->\n```sh\ncurl x\n```\n" +
		"```yaml\nk: v\n```\n```bash\nfalse  # exits 1\n```\n"
	blocks, err := parseDocBlocks("R.md", []byte(src), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 3 || blocks[0].output != "a\n" || blocks[1].skip != "needs the network" || blocks[2].output != "" || blocks[2].line != 16 {
		t.Fatalf("%+v", blocks)
	}
	if sc := blockScript(blocks[2]); !strings.Contains(sc, "false  # exits 1\nreadme_check $? 1 'R.md:17'") {
		t.Errorf("script:\n%s", sc)
	}
	optIn, err := parseDocBlocks("d.md", []byte("```sh\nx\n```\n<!-- readme-test -->\n```sh\ny\n```\n"), true)
	if err != nil || len(optIn) != 1 || optIn[0].text != "y\n" {
		t.Errorf("opt-in blocks %+v, %v", optIn, err)
	}
	if _, err := parseDocBlocks("d.md", []byte("<!-- readme-test: maybe -->\n```sh\ny\n```\n"), false); err == nil {
		t.Error("an unknown marker was accepted")
	}
	if sc := blockScript(docBlock{file: "R.md", line: 1, text: "fabricgen lab up ex \\\n  --fault a  # in a second terminal\n"}); !strings.Contains(sc, "readme_lab_up ex \\\n  --fault a") {
		t.Errorf("lab up is not started in the background:\n%s", sc)
	}
}

// TestBlockScriptFails proves a README command with another exit status
// than the one written fails the block.
func TestBlockScriptFails(t *testing.T) {
	testtool.Need(t, "bash", "bash")
	cases := []struct {
		text string
		ok   bool
	}{
		{"true\n", true},
		{"false\n", false},
		{"false  # exits 1\n", true},
		{"true   # exits 2\n", false},
		{"export X=1\ntest \"$X\" = 1\n", true},
		{"echo a \\\n  b | grep -q 'a b'\n", true},
	}
	for _, c := range cases {
		cmd := exec.Command("bash", "-c", blockScript(docBlock{file: "R.md", line: 1, text: c.text}))
		cmd.Env = append(os.Environ(), "READMETEST_LAB_LOG="+filepath.Join(t.TempDir(), "lab.log"))
		out, err := cmd.CombinedOutput()
		if (err == nil) != c.ok {
			t.Errorf("%q: err %v, want ok %v\n%s", c.text, err, c.ok, out)
		}
	}
}
