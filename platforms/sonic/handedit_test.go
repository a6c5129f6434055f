package sonic

import (
	"encoding/json"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platform"
)

// TestHandEditPatchAndRead: the hand edit is one JSON Patch document
// adding TC_TO_DSCP_MAP and each port's tc_to_dscp_map, and the reader
// reads such a binding as a rewrite of that traffic class on that port
// only; a map naming no such table rewrites nothing.
func TestHandEditPatchAndRead(t *testing.T) {
	lines := zeroDSCP(platform.RoCEAt{Ports: []string{"Ethernet0", "Ethernet8"}, Priority: 3, Queue: 3})
	if len(lines) != 1 {
		t.Fatalf("%d lines, want one JSON Patch document", len(lines))
	}
	var ops []map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &ops); err != nil || len(ops) != 3 {
		t.Fatalf("not a JSON Patch of 3 operations (%v): %s", err, lines[0])
	}
	tests := []struct {
		name, text string
		port       string
		want       map[int]int
	}{
		{"bound", `{"TC_TO_DSCP_MAP": {"Z": {"3": "0"}}, "PORT_QOS_MAP": {"Ethernet0": {"tc_to_dscp_map": "Z"}}}`, "Ethernet0", map[int]int{3: 0}},
		{"another port", `{"TC_TO_DSCP_MAP": {"Z": {"3": "0"}}, "PORT_QOS_MAP": {"Ethernet0": {"tc_to_dscp_map": "Z"}, "Ethernet8": {"pfc_enable": "3"}}}`, "Ethernet8", nil},
		{"no such map", `{"PORT_QOS_MAP": {"Ethernet0": {"tc_to_dscp_map": "Z"}}}`, "Ethernet0", nil},
		{"out of range", `{"TC_TO_DSCP_MAP": {"Z": {"9": "0", "3": "64"}}, "PORT_QOS_MAP": {"Ethernet0": {"tc_to_dscp_map": "Z"}}}`, "Ethernet0", nil},
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
					t.Errorf("traffic class %d rewritten to %d, want %d", p, got[p], v)
				}
			}
		})
	}
}
