package aristaeos_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestEOSNoRemovesOnlyItsLine: `no LINE` removes LINE and lines of the
// same identity, not a sibling whose rule gives all its lines one
// identity. Found by the reliability suite: changing a tx-queue's
// bandwidth (`no bandwidth percent 40`, `bandwidth percent 50`) also
// removed the `no priority` beside it, so the change never verified.
func TestEOSNoRemovesOnlyItsLine(t *testing.T) {
	const start = "interface Ethernet1/1\n   tx-queue 0\n      no priority\n      bandwidth percent 40\n"
	cases := []struct {
		name  string
		lines []string
		want  []string
		gone  []string
	}{
		{"change bandwidth", []string{"no bandwidth percent 40", "bandwidth percent 50"},
			[]string{"      no priority\n", "      bandwidth percent 50\n"}, []string{"bandwidth percent 40"}},
		{"no bandwidth without a value", []string{"no bandwidth percent"},
			[]string{"      no priority\n"}, []string{"bandwidth percent"}},
		{"priority strict replaces no priority", []string{"priority strict"},
			[]string{"      priority strict\n", "      bandwidth percent 40\n"}, []string{"no priority"}},
		{"default priority", []string{"default priority"},
			[]string{"      bandwidth percent 40\n"}, []string{"priority"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := labtest.Start(t, lab.DeviceSpec{Name: "leaf1", Platform: plat().Name, RunningConfig: start})
			sh := labtest.OpenShell(t, l, "leaf1", `leaf1[^\n]*#$`)
			for _, cmd := range append([]string{"configure", "interface Ethernet1/1", "tx-queue 0"}, append(c.lines, "end")...) {
				if out := sh.Run(cmd); strings.Contains(out, "%") {
					t.Fatalf("%s: %s", cmd, out)
				}
			}
			run := l.Device("leaf1").RunningConfig()
			_, txq, _ := strings.Cut(run, "   tx-queue 0\n")
			txq, _, _ = strings.Cut(txq, "   !")
			for _, w := range c.want {
				if !strings.Contains(txq, w) {
					t.Errorf("tx-queue 0 lacks %q:\n%s", w, txq)
				}
			}
			for _, g := range c.gone {
				if strings.Contains(txq, g) {
					t.Errorf("tx-queue 0 still has %q:\n%s", g, txq)
				}
			}
		})
	}
}
