package juniperjunos

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platform"
)

// TestReadHandEditRewrite: the hand edit's DSCP rewrite rule, bound to a
// port, rewrites its forwarding class's priority on that port only; a
// rule for another loss priority, an unbound rule and a class with no
// queue rewrite nothing.
func TestReadHandEditRewrite(t *testing.T) {
	base := "set class-of-service forwarding-classes class roce queue-num 3 no-loss\nset class-of-service forwarding-classes class roce pfc-priority 3\n"
	edit := strings.Join(zeroDSCP(platform.RoCEAt{Ports: []string{"et-0/0/0"}, Class: "roce", Priority: 3, Queue: 3}), "\n") + "\n"
	tests := []struct {
		name, text string
		port       string
		want       map[int]int
	}{
		{"the hand edit", base + edit, "et-0/0/0", map[int]int{3: 0}},
		{"another port", base + edit + "set class-of-service interfaces et-0/0/1 unit 0 classifiers dscp C\n", "et-0/0/1", nil},
		{"high loss priority only", base + strings.ReplaceAll(edit, "loss-priority low", "loss-priority high"), "et-0/0/0", nil},
		{"a class with no queue", base + strings.ReplaceAll(edit, "forwarding-class roce", "forwarding-class other"), "et-0/0/0", nil},
		{"code point 101110", base + strings.ReplaceAll(edit, "000000", "101110"), "et-0/0/0", map[int]int{3: 46}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := read(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			got := d.Port(tc.port).RewritePrio
			if len(got) != len(tc.want) {
				t.Fatalf("rewrites %v, want %v", got, tc.want)
			}
			for p, v := range tc.want {
				if got[p] != v {
					t.Errorf("priority %d rewritten to %d, want %d", p, got[p], v)
				}
			}
		})
	}
}
