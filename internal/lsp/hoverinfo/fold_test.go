package hoverinfo

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFoldNames(t *testing.T) {
	seq := func(f string, from, to int) []string {
		var out []string
		for i := from; i <= to; i++ {
			out = append(out, fmt.Sprintf(f, i))
		}
		return out
	}
	cat := func(ls ...[]string) []string {
		var out []string
		for _, l := range ls {
			out = append(out, l...)
		}
		return out
	}
	grid := func(a, b int) []string {
		var out []string
		for i := 1; i <= a; i++ {
			for j := 1; j <= b; j++ {
				out = append(out, fmt.Sprintf("leaf%04d-nic%02d", i, j))
			}
		}
		return out
	}
	for _, c := range []struct {
		name string
		in   []string
		max  int
		want string
	}{
		{"empty", nil, 6, ""},
		{"one", []string{"leaf1"}, 6, "`leaf1`"},
		{"run", seq("leaf%d", 1, 4), 6, "leaf1–leaf4"},
		{"two", []string{"leaf1", "leaf2"}, 6, "leaf1–leaf2"},
		{"step", []string{"leaf1", "leaf3", "leaf5"}, 6, "leaf1–leaf5 (every 2nd)"},
		{"gap", cat(seq("swp%d", 1, 8), []string{"swp31"}), 6, `swp\[1–8, 31\]`},
		{"inner number", seq("Ethernet%d/1", 1, 8), 6, "Ethernet1/1–Ethernet8/1"},
		{"grid", grid(3, 4), 6, `leaf\[0001–0003\]-nic\[01–04\]`},
		{"grid missing one", grid(3, 4)[1:], 6, "leaf0001-nic02–leaf0001-nic04, leaf0002-nic01–leaf0002-nic04, leaf0003-nic01–leaf0003-nic04"},
		{"shapes in order", cat(seq("leaf%d", 1, 2), seq("nic%02d", 1, 8), []string{"core1"}), 6, "leaf1–leaf2, nic01–nic08, `core1`"},
		{"duplicates", []string{"a1", "a1", "a2"}, 6, "a1–a2"},
		{"capped", []string{"a1", "b1", "c1", "d1"}, 2, "`a1`, `b1`, …"},
		{"hostile", []string{"x|y1", "x|y2", "`z`"}, 6, `x\|y1–x\|y2, \` + "`z\\`"},
		{"many runs bounded", seq("n%d", 0, 0), 6, "`n0`"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := foldNames(c.in, c.max); got != c.want {
				t.Errorf("foldNames(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
	// A shape that is no full product keeps only keepNames names.
	var sparse []string
	for i := 0; i < 5000; i++ {
		sparse = append(sparse, fmt.Sprintf("r%d-h%d", i, i))
	}
	got := foldNames(sparse, 6)
	if !strings.HasSuffix(got, "…") || len(got) > 400 {
		t.Errorf("sparse names not bounded: %q", got)
	}
}

// FuzzFold folds any comma-separated names: no panic, bounded output,
// one line.
func FuzzFold(f *testing.F) {
	for _, s := range []string{"leaf1,leaf2", "a01,a1,a001", "x9,x10,x11", "1,2,3", "a1b2,a1b3,a2b2,a2b3", ",", "é1,é2", "99999999999999999999,1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		names := strings.Split(s, ",")
		got := foldNames(names, 6)
		if strings.ContainsAny(got, "\n\r") {
			t.Fatalf("fold of %q has a line break: %q", s, got)
		}
		if n := strings.Count(got, ", "); n > 7+2*3*len(names) {
			t.Fatalf("fold of %q not bounded: %q", s, got)
		}
	})
}
