package emulator

import (
	"slices"
	"strings"
	"testing"
)

// TestSHA256SumCheck: sha256sum -c answers as GNU coreutils does (the
// outputs below are the real one's on Debian): OK, FAILED, a missing
// file, --status; the file swap's compare-and-swap guard relies on it.
func TestSHA256SumCheck(t *testing.T) {
	_, c := host(t, "")
	run(t, c, "printf 'hello\\n' > /tmp/h.txt", 0)
	const good = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"
	const bad = "0000000000000000000000000000000000000000000000000000000000000000"
	cases := []struct {
		line   string
		status int
		out    string
	}{
		{"sha256sum /tmp/h.txt", 0, good + "  /tmp/h.txt"},
		{"printf '%s  %s\\n' " + good + " /tmp/h.txt | sha256sum -c", 0, "/tmp/h.txt: OK"},
		{"printf '%s  %s\\n' " + bad + " /tmp/h.txt | sha256sum -c", 1, "/tmp/h.txt: FAILED\nsha256sum: WARNING: 1 computed checksum did NOT match"},
		{"printf '%s  %s\\n' " + good + " /tmp/h.txt | sha256sum -c --status", 0, ""},
		{"printf '%s  %s\\n' " + bad + " /tmp/h.txt | sha256sum -c --status", 1, ""},
		{"printf '%s  %s\\n' " + bad + " /tmp/nope | sha256sum -c --status", 1, "sha256sum: /tmp/nope: No such file or directory"},
		{"printf '%s  %s\\n' " + good + " /tmp/h.txt | sha256sum -c --status && echo swapped", 0, "swapped"},
		{"printf '%s  %s\\n' " + bad + " /tmp/h.txt | sha256sum -c --status && echo swapped", 1, ""},
	}
	for _, tc := range cases {
		got := strings.Split(strings.TrimSpace(run(t, c, tc.line, tc.status)), "\n")
		want := strings.Split(tc.out, "\n")
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: printed %q, want the lines %q (stdout and stderr, in any order)", tc.line, got, want)
		}
	}
}
