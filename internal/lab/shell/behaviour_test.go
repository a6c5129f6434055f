package shell

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/golden"
)

// TestBehaviour runs every line of testdata/behaviour.txt through a test
// shell and the static scan, and compares what it printed, its status,
// the commands it ran and Changes with testdata/behaviour.golden: the
// golden was recorded from the hand-written scanners the syntax-tree
// walker replaced, so a difference is a change of the lab shell's
// behaviour to review.
func TestBehaviour(t *testing.T) {
	f, err := os.Open("testdata/behaviour.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	isChange := func(argv []string) bool { return !LinuxReadOnly(argv) }
	writes := func(p string) bool { return strings.HasPrefix(p, "/etc/") || strings.Contains(p, Dynamic) }
	var b strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if sc.Text() == "" || strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		src, err := strconv.Unquote(sc.Text())
		if err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		sh, _, ran := newTestShell()
		var out strings.Builder
		for _, l := range strings.Split(src, "\n") {
			if sh.Exited {
				break
			}
			out.WriteString(sh.Exec(l))
		}
		fmt.Fprintf(&b, "%q\n  out %q status %d exited %v\n  ran %q\n  changes %v\n",
			src, out.String(), sh.Status, sh.Exited, *ran, Changes(src, isChange, writes))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/behaviour.golden", []byte(b.String()), "go test ./internal/lab/shell -run TestBehaviour -update")
}
