package textdiff

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var reHunk = regexp.MustCompile(`(?m)^@@ .* @@$`)

// TestUnifiedMatchesDiffAndPatch compares our hunks with GNU diff -u and
// applies our diff with patch(1), on random edits of a generated config.
func TestUnifiedMatchesDiffAndPatch(t *testing.T) {
	for _, tool := range []string{"diff", "patch"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s not found", tool)
			}
			t.Skipf("%s not found: skipping the unified diff check", tool)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 40 {
		var a []string
		for j := range 60 + rng.IntN(200) {
			a = append(a, fmt.Sprintf("line %d", j))
		}
		b := append([]string(nil), a...)
		for range 1 + rng.IntN(12) {
			k := rng.IntN(len(b))
			switch rng.IntN(3) {
			case 0:
				b[k] = b[k] + " changed"
			case 1:
				b = append(b[:k], b[k+1:]...)
			default:
				b = append(b[:k], append([]string{fmt.Sprintf("new %d", rng.IntN(1000))}, b[k:]...)...)
			}
		}
		as, bs := strings.Join(a, "\n")+"\n", strings.Join(b, "\n")+"\n"
		dir := t.TempDir()
		fa, fb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		_ = os.WriteFile(fa, []byte(as), 0o600)
		_ = os.WriteFile(fb, []byte(bs), 0o600)
		ours := Unified("a", "b", as, bs)
		gnu, _ := exec.Command("diff", "-u", fa, fb).Output()
		if g, o := reHunk.FindAllString(string(gnu), -1), reHunk.FindAllString(ours.Text, -1); strings.Join(g, "\n") != strings.Join(o, "\n") {
			t.Errorf("case %d: hunks differ from diff -u:\nours: %v\ngnu:  %v", i, o, g)
		}
		cmd := exec.Command("patch", "--quiet", fa)
		cmd.Stdin = strings.NewReader(ours.Text)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("case %d: patch: %v\n%s", i, err, out)
		}
		if got, _ := os.ReadFile(fa); string(got) != bs {
			t.Errorf("case %d: patched file differs", i)
		}
	}
}

func TestUnifiedNoChanges(t *testing.T) {
	if d := Unified("a", "b", "x\ny", "x\ny\n"); d.Text != "" || d.Added != 0 || d.Removed != 0 {
		t.Errorf("equal texts (modulo final newline) gave %+v", d)
	}
}

// TestLargeDiffStaysExact: a large text with one line changed is a one
// line change, however long the diff takes (go-diff's default timeout
// would turn it into "delete everything, insert everything").
func TestLargeDiffStaysExact(t *testing.T) {
	const n = 200_000
	a := make([]string, n)
	for i := range a {
		a[i] = fmt.Sprintf("line %d", i)
	}
	b := append([]string(nil), a...)
	b[n/2] = "changed"
	as, bs := strings.Join(a, "\n")+"\n", strings.Join(b, "\n")+"\n"
	if d := Unified("a", "b", as, bs); d.Added != 1 || d.Removed != 1 {
		t.Errorf("one changed line of %d: +%d -%d", n, d.Added, d.Removed)
	}
	ops := Lines(a, b)
	if len(ops) != n+1 || strings.Count(string(ops), " ") != n-1 {
		t.Errorf("one changed line of %d: %d ops, %d kept", n, len(ops), strings.Count(string(ops), " "))
	}
}

// TestNoTimeout: every diff runs without go-diff's deadline, whose
// expiry (one second of wall clock, sooner reached on a loaded machine)
// degrades the diff instead of failing.
func TestNoTimeout(t *testing.T) {
	if d := newDiffer().DiffTimeout; d != 0 {
		t.Errorf("go-diff's DiffTimeout is %v, want 0 (off)", d)
	}
}
