// Package scripts_test checks the shell scripts behind make test and make
// fuzz, running them against a stand-in for the go command.
package scripts_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakeGo answers the go commands scripts/fuzz.sh runs: one package with
// one fuzz target, FuzzA, whose runs behave as $FAKE_SCENARIO says. Each
// fuzz run appends its -fuzztime to $FAKE_STATE/runs.
const fakeGo = `#!/usr/bin/env bash
set -u
case "$1 $2" in
  "list -f")
    case "$3" in
      *ImportPath*)
        mkdir -p "$FAKE_STATE/pkg"
        printf 'package p\n\nfunc FuzzA(f *testing.F) {}\n\nfunc FuzzNot(t *testing.T) {}\n' > "$FAKE_STATE/pkg/a_test.go"
        printf 'example.com/p\t%s\ta_test.go\n' "$FAKE_STATE/pkg" ;;
      *) echo "$FAKE_STATE/pkg" ;;
    esac
    exit 0 ;;
esac
ft=""
while [ $# -gt 0 ]; do [ "$1" = -fuzztime ] && ft=$2; shift; done
echo "$ft" >> "$FAKE_STATE/runs"
n=$(wc -l < "$FAKE_STATE/runs")
deadline() { printf -- '--- FAIL: FuzzA (5.02s)\n    context deadline exceeded\nFAIL\n'; exit 1; }
case "$FAKE_SCENARIO" in
  pass) printf 'fuzz: elapsed: 0s, gathering baseline coverage\nfuzz: elapsed: 3s, execs: 10 (3/sec)\nok\n'; exit 0 ;;
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
		{"the fuzzing time is told apart from the build", "pass", "", true, []string{"20000x"}, "(fuzzing 3s, building "},
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

// TestFuzzTargetsFound: the targets fuzz.sh finds without compiling are
// exactly the fuzz targets of the module's test files, found here with
// go/parser: every top-level func FuzzXxx(*testing.F), however it is
// written.
func TestFuzzTargetsFound(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("go is not on PATH: fuzz.sh lists targets with go list; CI=true, so this fails instead of skipping")
		}
		t.Skip("fuzz.sh lists targets with go list; go is not on PATH")
	}
	cmd := exec.Command("bash", "fuzz.sh")
	cmd.Env = append(os.Environ(), "FUZZ_LIST=1", "FUZZ_TARGETS=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("FUZZ_LIST=1 fuzz.sh: %v", err)
	}
	got := strings.Fields(string(out))
	want := parsedFuzzTargets(t, "..")
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("fuzz.sh finds\n  %v\nthe test files declare\n  %v", got, want)
	}
	if len(want) < 10 {
		t.Errorf("only %d fuzz targets in the module", len(want))
	}
}

// parsedFuzzTargets returns module-path/pkg:FuzzName for every top-level
// func FuzzXxx(x *testing.F) in the _test.go files below root, sorted.
func parsedFuzzTargets(t *testing.T, root string) []string {
	t.Helper()
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	module := strings.TrimSpace(strings.TrimPrefix(strings.SplitN(string(mod), "\n", 2)[0], "module"))
	var out []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		file, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := module
		if rel != "." {
			pkg += "/" + filepath.ToSlash(rel)
		}
		for _, decl := range file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Fuzz") || len(fn.Type.Params.List) != 1 {
				continue
			}
			star, ok := fn.Type.Params.List[0].Type.(*ast.StarExpr)
			if !ok {
				continue
			}
			if sel, ok := star.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "F" {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "testing" {
					out = append(out, pkg+":"+fn.Name.Name)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}
