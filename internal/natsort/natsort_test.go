package natsort

import (
	"fmt"
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

func TestPattern(t *testing.T) {
	var nics []string
	for l := 1; l <= 64; l++ {
		for _, n := range []string{"01", "03"} {
			nics = append(nics, fmt.Sprintf("leaf%04d-nic%s", l, n))
		}
	}
	tests := []struct {
		name  string
		in    []string
		want  string
		found bool
	}{
		{"product of two numbers", nics, "leaf[0001–0064]-nic[01, 03]", true},
		{"one number", strings.Fields("s1 s2 s3"), "s[1–3]", true},
		{"a combination missing", nics[1:], "", false},
		{"two shapes", strings.Fields("a1 a2 b1"), "", false},
		{"letters differ", strings.Fields("a1x a2x a3y"), "", false},
		{"too few", strings.Fields("a1 a2"), "", false},
		{"duplicates count once", strings.Fields("a1 a1 a2"), "", false},
		{"fixed number kept", strings.Fields("r7-s1 r7-s2 r7-s3"), "r7-s[1–3]", true},
		{"no numbers", strings.Fields("a b c"), "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Pattern(tt.in)
			if got != tt.want || ok != tt.found {
				t.Errorf("Pattern = %q, %v; want %q, %v", got, ok, tt.want, tt.found)
			}
		})
	}
}
