package natsort

import (
	"strings"
	"testing"
)

func TestLess(t *testing.T) {
	sorted := []string{"a", "leaf1", "leaf01", "leaf2", "leaf02", "leaf9", "leaf10", "leaf10a", "leaf10b", "leaf100", "spine1", "x"}
	for i := range sorted {
		for j := range sorted {
			if got, want := Less(sorted[i], sorted[j]), i < j; got != want {
				t.Errorf("Less(%q, %q) = %v, want %v", sorted[i], sorted[j], got, want)
			}
		}
	}
}

func TestRanges(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"leaf3 leaf1 leaf2 leaf7", "leaf1–leaf3, leaf7"},
		{"leaf9 leaf10 leaf11", "leaf9–leaf11"},
		{"leaf09 leaf10", "leaf09–leaf10"},
		{"leaf9 leaf010", "leaf9, leaf010"},
		{"a b c", "a, b, c"},
		{"leaf1 leaf1 leaf2", "leaf1–leaf2"},
		{"gpu1-nic1 gpu1-nic2 gpu2-nic1", "gpu1-nic1–gpu1-nic2, gpu2-nic1"},
		{"r1a r2a", "r1a, r2a"},
		{"n18446744073709551615 n18446744073709551616", "n18446744073709551615, n18446744073709551616"},
		{"", ""},
		{"leaf1 leaf3 leaf5 leaf7", "leaf1–leaf7 (every 2nd)"},
		{"leaf1 leaf5", "leaf1, leaf5"},
		{"leaf1 leaf3 leaf4 leaf5", "leaf1, leaf3–leaf5"},
		{"leaf2 leaf4 leaf6 leaf9", "leaf2–leaf6 (every 2nd), leaf9"},
		{"s3 s14 s25", "s3–s25 (every 11th)"},
		{"s1 s4 s7 s8", "s1–s7 (every 3rd), s8"},
	}
	for _, tt := range tests {
		var parts []string
		for _, r := range Ranges(strings.Fields(tt.in)) {
			parts = append(parts, r.String())
		}
		if got := strings.Join(parts, ", "); got != tt.want {
			t.Errorf("Ranges(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if rs := Ranges([]string{"l1", "l2", "l3"}); len(rs) != 1 || rs[0].N != 3 {
		t.Errorf("Ranges count: %+v", rs)
	}
}
