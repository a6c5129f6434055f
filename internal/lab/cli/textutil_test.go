package cli

import (
	"fmt"
	"strings"
	"testing"
)

// TestLargeDiffIsExact: the lab's diffs of a large config with one line
// changed show that one line (an EOS session diff, a Junos edit script):
// go-diff's default one-second timeout would degrade them into "delete
// everything, insert everything".
func TestLargeDiffIsExact(t *testing.T) {
	const n = 200_000
	a := make([]string, n)
	for i := range a {
		a[i] = fmt.Sprintf("interface Ethernet%d", i)
	}
	b := append([]string(nil), a...)
	b[n/2] = "interface Ethernet-changed"
	d := UnifiedDiff("before", "after", strings.Join(a, "\n")+"\n", strings.Join(b, "\n")+"\n")
	var changed []string
	for _, l := range strings.Split(d, "\n") {
		if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++") && !strings.HasPrefix(l, "---") {
			changed = append(changed, l)
		}
	}
	if want := []string{"-" + a[n/2], "+" + b[n/2]}; fmt.Sprint(changed) != fmt.Sprint(want) {
		t.Errorf("UnifiedDiff of %d lines with one changed: %d changed line(s), want %q", n, len(changed), want)
	}
	ops := LineOps(a, b)
	if kept := strings.Count(string(ops), " "); len(ops) != n+1 || kept != n-1 {
		t.Errorf("LineOps of %d lines with one changed: %d ops, %d kept", n, len(ops), kept)
	}
}
