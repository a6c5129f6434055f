package shell

import (
	"os"
	"strings"
	"testing"
)

// benchScript is a typical host setup script: the clos-400g example's
// golden render of a ConnectX NIC, read where the templates' tests keep it
// current (not a copy that could fall behind the renderer).
const benchScript = "../../../templates/testdata/golden/clos-400g/nic01.sh"

// benchLines returns the lines of benchScript, without comments and blank
// lines, as the host emulator's replay feeds them to the shell.
func benchLines(b *testing.B) []string {
	b.Helper()
	src, err := os.ReadFile(benchScript)
	if err != nil {
		b.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(src), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	return lines
}

// BenchmarkChanges measures the static scan (parsing, nothing runs) of a
// whole host setup script, one line at a time, as the emulators make it:
// Prepare with the shell's own parser, then Changes of the prepared line.
func BenchmarkChanges(b *testing.B) {
	lines := benchLines(b)
	isChange := func([]string) bool { return false }
	sh := NewShell(nil, nil, nil)
	for b.Loop() {
		for _, l := range lines {
			sh.Prepare(l).Changes(isChange, NoFiles)
		}
	}
}

// BenchmarkExec measures parsing and running a whole host setup script,
// one line at a time, against tools that print nothing and succeed.
func BenchmarkExec(b *testing.B) {
	lines := benchLines(b)
	run := func([]string, string) (string, string, int) { return "", "", 0 }
	write := func(string, string, bool) string { return "" }
	which := func(string) (string, bool) { return "/usr/bin/x", true }
	for b.Loop() {
		sh := NewShell(run, write, which)
		sh.Stat = func(string) (bool, bool) { return true, true }
		for _, l := range lines {
			sh.Exec(l)
		}
		if sh.Status != 0 || sh.Exited {
			b.Fatalf("script stopped: status %d", sh.Status)
		}
	}
}
