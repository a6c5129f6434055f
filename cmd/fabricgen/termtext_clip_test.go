package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTermLineClipped: a one-line message quoting a megabytes-long
// rendered line or device answer reaches the terminal cut after
// maxTermLine bytes, at a character boundary, saying how much was left
// out; a short one is untouched.
func TestTermLineClipped(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		cut  bool
	}{
		{"short", "leaf1: applied", false},
		{"at the limit", strings.Repeat("x", maxTermLine), false},
		{"32 MiB line", strings.Repeat("x", 32<<20), true},
		{"multibyte at the cut", strings.Repeat("é", maxTermLine), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := termLine(tc.in)
			if !tc.cut {
				if got != tc.in {
					t.Fatalf("changed a short line")
				}
				return
			}
			if len(got) > maxTermLine+64 || !strings.Contains(got, "more bytes not shown") || !utf8.ValidString(got) {
				t.Fatalf("not clipped to %d bytes at a character boundary: %d bytes, tail %q", maxTermLine, len(got), got[len(got)-40:])
			}
		})
	}
}
