// Package scripts_test checks the shell scripts behind make test and make
// fuzz, running them against a stand-in for the go command.
package scripts_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeGo answers the go commands scripts/fuzz.sh runs: one package with
// one fuzz target, FuzzA, whose runs behave as $FAKE_SCENARIO says. Each
// fuzz run appends its -fuzztime to $FAKE_STATE/runs.
const fakeGo = `#!/usr/bin/env bash
set -u
case "$1 $2" in
  "test -list") printf 'FuzzA\nok  \texample.com/p\t0.01s\n'; exit 0 ;;
  "list -f") echo "$FAKE_STATE/pkg"; exit 0 ;;
esac
ft=""
while [ $# -gt 0 ]; do [ "$1" = -fuzztime ] && ft=$2; shift; done
echo "$ft" >> "$FAKE_STATE/runs"
n=$(wc -l < "$FAKE_STATE/runs")
deadline() { printf -- '--- FAIL: FuzzA (5.02s)\n    context deadline exceeded\nFAIL\n'; exit 1; }
case "$FAKE_SCENARIO" in
  pass) echo ok; exit 0 ;;
  race-once) [ "$n" -eq 1 ] && deadline; echo ok; exit 0 ;;
  race-always) deadline ;;
  crasher)
    mkdir -p "$FAKE_STATE/pkg/testdata/fuzz/FuzzA"; echo x > "$FAKE_STATE/pkg/testdata/fuzz/FuzzA/abc"
    printf -- '--- FAIL: FuzzA (1.00s)\n    context deadline exceeded\n    Failing input written to testdata/fuzz/FuzzA/abc\nFAIL\n'; exit 1 ;;
  test-error) printf -- '--- FAIL: FuzzA (1.00s)\n    x_test.go:12: bad result\n    context deadline exceeded\nFAIL\n'; exit 1 ;;
esac
exit 3
`

func runFuzzScript(t *testing.T, scenario, fuzztime string) (string, []string, error) {
	t.Helper()
	state := t.TempDir()
	goBin := filepath.Join(state, "go")
	if err := os.WriteFile(goBin, []byte(fakeGo), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "fuzz.sh")
	cmd.Env = append(os.Environ(), "GO="+goBin, "FAKE_STATE="+state, "FAKE_SCENARIO="+scenario, "FUZZTIME="+fuzztime)
	out, err := cmd.CombinedOutput()
	runs, _ := os.ReadFile(filepath.Join(state, "runs"))
	return string(out), strings.Fields(string(runs)), err
}

func TestFuzzScript(t *testing.T) {
	tests := []struct {
		name, scenario, fuzztime string
		wantOK                   bool
		wantRuns                 []string
		wantOut                  string
	}{
		{"budget mode uses an execution count", "pass", "", true, []string{"20000x"}, "fuzz: 1 targets"},
		{"time mode passes the duration", "pass", "7s", true, []string{"7s"}, "fuzz: 1 targets"},
		{"a bare coordinator deadline is retried once", "race-once", "5s", true, []string{"5s", "5s"}, "golang/go#75804"},
		{"a second bare deadline fails", "race-always", "5s", false, []string{"5s", "5s"}, "context deadline exceeded"},
		{"a written reproducer fails at once", "crasher", "5s", false, []string{"5s"}, "Failing input written"},
		{"a test error fails at once", "test-error", "5s", false, []string{"5s"}, "bad result"},
		{"budget mode never retries", "race-once", "", false, []string{"20000x"}, "context deadline exceeded"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, runs, err := runFuzzScript(t, tc.scenario, tc.fuzztime)
			if (err == nil) != tc.wantOK {
				t.Fatalf("exit error %v, want ok=%v\n%s", err, tc.wantOK, out)
			}
			if strings.Join(runs, " ") != strings.Join(tc.wantRuns, " ") {
				t.Errorf("fuzz runs %q, want %q\n%s", runs, tc.wantRuns, out)
			}
			if !strings.Contains(out, tc.wantOut) {
				t.Errorf("output lacks %q:\n%s", tc.wantOut, out)
			}
		})
	}
}
