package main

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

func TestJoinGroups(t *testing.T) {
	cases := []struct {
		platforms, keys []string
		want            string
	}{
		{[]string{"a", "b", "c", "d"}, []string{"x", "y", "x", "z"}, ".x (a, c), .y (b) or .z (d)"},
		{[]string{"a", "b"}, []string{"x", "x"}, ".x (a, b)"},
		{[]string{"a", "b"}, []string{"x", "y"}, ".x (a) or .y (b)"},
		{nil, nil, ""},
	}
	for _, tc := range cases {
		got := joinGroups(groupPlatforms(tc.platforms, tc.keys), func(k string) string { return "." + k }, "or")
		if got != tc.want {
			t.Errorf("joinGroups(%v, %v) = %q, want %q", tc.platforms, tc.keys, got, tc.want)
		}
	}
}

func TestWrapHelp(t *testing.T) {
	got := wrapHelp("aa bb  cc\ndd averyveryverylongword e", 8)
	want := "aa bb cc\ndd\naveryveryverylongword\ne"
	if got != want {
		t.Errorf("wrapHelp = %q, want %q", got, want)
	}
	for _, l := range strings.Split(wrapHelp(strings.Repeat("word ", 100), 76), "\n") {
		if len(l) > 76 {
			t.Errorf("line of %d columns: %q", len(l), l)
		}
	}
}

// TestHelpNamesEveryPlatform: the help texts that say what each
// platform's files are come from the registries, so they name every
// platform, and the --running-config error names each platform's file.
func TestHelpNamesEveryPlatform(t *testing.T) {
	for _, args := range [][]string{{"render", "--help"}, {"lab", "up", "--help"}, {"lab", "show", "--help"}} {
		code, stdout, stderr := lintRun(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		flat := strings.Join(strings.Fields(stdout), " ")
		for _, p := range schema.Platforms() {
			if !strings.Contains(flat, string(p)) {
				t.Errorf("%v does not name platform %s:\n%s", args, p, stdout)
			}
		}
	}
	files := runningConfigFiles("<device>")
	for _, want := range []string{"<device>.cfg (arista_eos, cisco_nxos, juniper_junos, nvidia_cumulus)", "<device>.json (sonic)", "or <device>.sh (nvidia_mlnx, linux_dcb)"} {
		if !strings.Contains(files, want) {
			t.Errorf("runningConfigFiles = %q, lacks %q", files, want)
		}
	}
	if got := renderExtensions(); !strings.Contains(got, ".set (juniper_junos)") || !strings.Contains(got, ".cfg (arista_eos, cisco_nxos)") {
		t.Errorf("renderExtensions = %q", got)
	}
}
