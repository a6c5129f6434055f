package lint

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// TestSameLineFindingPointsAtItsPlaces: findings that one line causes at
// several ports, merged into one, keep each port as a related location.
func TestSameLineFindingPointsAtItsPlaces(t *testing.T) {
	a := Finding{Summary: "leaf1:Ethernet1 x", Device: "leaf1", Port: "Ethernet1"}
	b := Finding{Summary: "leaf2:Ethernet1 x", Device: "leaf2", Port: "Ethernet1"}
	line := schema.Range{Filename: "q.fab.hcl", Start: schema.Pos{Line: 3, Column: 1}, End: schema.Pos{Line: 3, Column: 9}}
	a.Subject, b.Subject = &line, &line
	places := func(dev, port string) (schema.Range, bool) {
		return schema.Range{Filename: "d.fab.hcl", Start: schema.Pos{Line: int32(len(dev)), Column: 1}}, true
	}
	got := mergeSameLine([]Finding{a, b}, places)
	if len(got) != 1 || got[0].Count != 2 {
		t.Fatalf("got %d findings (%+v), want one about 2 places", len(got), got)
	}
	var msgs []string
	for _, r := range got[0].Related {
		msgs = append(msgs, r.Message)
	}
	if j := strings.Join(msgs, "|"); j != "applies at leaf1:Ethernet1|applies at leaf2:Ethernet1" {
		t.Errorf("related %q, want both places", j)
	}

}
