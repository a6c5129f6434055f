package main

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDemoFabricMatchesExample keeps the embedded demo fabric a copy of
// examples/clos-400g: same files, same bytes.
func TestDemoFabricMatchesExample(t *testing.T) {
	embedded, err := fs.Glob(demoFabricFS, "demofabric/*.fab.hcl")
	if err != nil {
		t.Fatal(err)
	}
	example, err := filepath.Glob(filepath.Join(repoRoot(t), "examples", demoFabricName, "*.fab.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(embedded) == 0 || len(embedded) != len(example) {
		t.Fatalf("embedded %v, examples/%s has %v: copy the files (cp examples/%s/*.fab.hcl cmd/fabricgen/demofabric/)", embedded, demoFabricName, example, demoFabricName)
	}
	for _, path := range example {
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := demoFabricFS.ReadFile("demofabric/" + filepath.Base(path))
		if err != nil || string(got) != string(want) {
			t.Errorf("cmd/fabricgen/demofabric/%s differs from %s (%v): cp examples/%s/*.fab.hcl cmd/fabricgen/demofabric/", filepath.Base(path), path, err, demoFabricName)
		}
	}
}

// TestDemoOneScreen runs fabricgen demo from an empty directory (the
// fabric is in the binary) and checks it fits in 80 lines with each
// step's key line; -v shows every device's diff.
func TestDemoOneScreen(t *testing.T) {
	root := repoRoot(t)
	t.Chdir(t.TempDir())
	s, out, errb := pushStreams("")
	if code := run(context.Background(), []string{"demo"}, s); code != 0 {
		t.Fatalf("demo: exit %d\n%s\n%s", code, out, errb)
	}
	text := out.String() + errb.String()
	if n := strings.Count(text, "\n"); n > 80 {
		t.Errorf("demo printed %d lines, want at most 80:\n%s", n, text)
	}
	steps := []struct{ header, key string }{
		{"==> 1/7 The lab", "38 emulated devices run in this process"},
		{"==> 2/7 fabricgen lint clos-400g", "0 error(s), 0 warning(s)"},
		{"==> 3/7 fabricgen plan", "Plan: 38 to change, 0 unchanged"},
		{"==> 4/7 fabricgen apply", "Apply: 38 applied."},
		{"==> 5/7 fabricgen plan (again", "Plan: 0 to change, 38 unchanged"},
		{"==> 6/7 A rehearsed failure", "rolled back"},
		{"==> 7/7 fabricgen check: a dirty optic on leaf1:Ethernet31/1", "error[CHK010]: link leaf1:Ethernet31/1 ↔ spine1:et-0/0/0 is up at 400G"},
	}
	rest := text
	for i, st := range steps {
		at := strings.Index(rest, st.header)
		if at < 0 {
			t.Fatalf("step %d: no %q in:\n%s", i+1, st.header, text)
		}
		rest = rest[at:]
		end := len(rest)
		if i+1 < len(steps) {
			if e := strings.Index(rest, steps[i+1].header); e > 0 {
				end = e
			}
		}
		if !strings.Contains(rest[:end], st.key) {
			t.Errorf("step %d lacks %q:\n%s", i+1, st.key, rest[:end])
		}
		if n := len(willChange.FindAllString(rest[:end], -1)); i == 2 && n != 1 {
			t.Errorf("the plan step shows %d device diffs, want 1:\n%s", n, rest[:end])
		}
	}
	for _, want := range []string{"38/38 devices done", "exactly what it was before the apply", "Apply: 1 applied, 37 unchanged.", "fix: Clean the fibre connector", "reseat the optical module", "Check: 38 devices", "Done: the lab matches the intent."} {
		if !strings.Contains(text, want) {
			t.Errorf("demo lacks %q:\n%s", want, text)
		}
	}

	// -v on another, smaller fabric given as DIR (to keep the test
	// short): every step, every changing device's diff, and the result
	// tables.
	s, out, errb = pushStreams("")
	if code := run(context.Background(), []string{"demo", "-v", filepath.Join(root, "examples", "roce-storage")}, s); code != 0 {
		t.Fatalf("demo -v: exit %d\n%s\n%s", code, out, errb)
	}
	m := regexp.MustCompile(`Plan: (\d+) to change`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("demo -v prints no plan:\n%s", out)
	}
	changing, _ := strconv.Atoi(m[1])
	if n := len(willChange.FindAllString(out.String(), -1)); changing < 2 || n != changing+1 {
		t.Errorf("demo -v shows %d device diffs, want %d (every changing device, and 1 in the rehearsal)", n, changing+1)
	}
	if !regexp.MustCompile(`DEVICE +PLATFORM +RESULT`).MatchString(out.String()) {
		t.Error("demo -v shows no result table")
	}
	for _, want := range []string{"==> 1/7", "==> 7/7", "Apply:", "Plan: 0 to change", "error[CHK010]"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("demo -v DIR lacks %q:\n%s", want, out)
		}
	}
}

// willChange matches a device's plan header: "will change:" for a switch,
// "will change N setting(s):" for a host.
var willChange = regexp.MustCompile(`will change( \d+ setting\(s\))?:`)
