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

// TestDemoFabricMatchesExample keeps the embedded demo fabrics copies of
// examples/clos-400g and examples/ib-cluster: same files, same bytes.
func TestDemoFabricMatchesExample(t *testing.T) {
	for _, c := range []struct {
		fsys    fs.FS
		folder  string
		example string
	}{{demoFabricFS, "demofabric", demoFabricName}, {demoIBFS, "demofabric-ib", demoIBName}} {
		embedded, err := fs.Glob(c.fsys, c.folder+"/*.fab.hcl")
		if err != nil {
			t.Fatal(err)
		}
		example, err := filepath.Glob(filepath.Join(repoRoot(t), "examples", c.example, "*.fab.hcl"))
		if err != nil {
			t.Fatal(err)
		}
		if len(embedded) == 0 || len(embedded) != len(example) {
			t.Fatalf("embedded %v, examples/%s has %v: copy the files (cp examples/%s/*.fab.hcl cmd/fabricgen/%s/)", embedded, c.example, example, c.example, c.folder)
		}
		for _, path := range example {
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := fs.ReadFile(c.fsys, c.folder+"/"+filepath.Base(path))
			if err != nil || string(got) != string(want) {
				t.Errorf("cmd/fabricgen/%s/%s differs from %s (%v): cp examples/%s/*.fab.hcl cmd/fabricgen/%s/", c.folder, filepath.Base(path), path, err, c.example, c.folder)
			}
		}
	}
}

// TestDemoOneScreen runs fabricgen demo from an empty directory (the
// fabric is in the binary) and checks it fits in 80 lines with each
// step's key line, both seed cases found live with the goodput measured
// in the lab, and every count of each check line shown above it;
// --verbose shows every device's diff.
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
		{"==> 1/8 The lab", "38 emulated devices run in this process"},
		{"==> 2/8 fabricgen lint clos-400g", "0 error(s), 0 warning(s)"},
		{"==> 3/8 fabricgen plan", "Plan: 38 to change, 0 unchanged"},
		{"==> 4/8 fabricgen apply", "Apply: 38 applied."},
		{"==> 5/8 fabricgen plan (again", "Plan: 0 to change, 38 unchanged"},
		{"==> 6/8 Seed case 1: a dirty optic on leaf1:Ethernet31/1", "error[CHK010]: link leaf1:Ethernet31/1 ↔ spine1:et-0/0/0 is up at 400G"},
		{"==> 7/8 Seed case 2: spine1 resets RoCE's DSCP to 0", "error[CHK014]: RoCE data leaves spine1 in its class"},
		{"==> 8/8 InfiniBand: fabricgen lint, render and apply ib-cluster", "0 finding(s); sm01 and sm02 get the same 6 OpenSM files, the 6 switches none.\nApply: 2 applied, OpenSM's tables read back; plan again: 0 to change."},
	}
	sections := make([]string, len(steps))
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
		sections[i] = rest[:end]
		if !strings.Contains(sections[i], st.key) {
			t.Errorf("step %d lacks %q:\n%s", i+1, st.key, sections[i])
		}
		if n := len(willChange.FindAllString(sections[i], -1)); i == 2 && n != 1 {
			t.Errorf("the plan step shows %d device diffs, want 1:\n%s", n, sections[i])
		}
	}
	for _, want := range []string{"38/38 devices done", "fix: Clean the fibre connector", "reseat the optical module",
		"error[CHK016]: spine1 runs QoS that differs from the intent", "Apply: 1 applied, 37 unchanged.", "Done: the lab matches the intent."} {
		if !strings.Contains(text, want) {
			t.Errorf("demo lacks %q:\n%s", want, text)
		}
	}
	// Every count of a check line is shown above it, in its step.
	checkLine := regexp.MustCompile(`Check: (\d+) devices, read 10 s apart: (\d+) error\(s\), (\d+) warning\(s\) \(([^)]*)\)\.`)
	for _, i := range []int{5, 6} {
		sec := sections[i]
		m := checkLine.FindStringSubmatch(strings.ReplaceAll(sec, "\n  ", " "))
		if m == nil {
			t.Errorf("step %d has no check line:\n%s", i+1, sec)
			continue
		}
		above := sec[:strings.Index(sec, "Check: ")]
		if got := strconv.Itoa(strings.Count(above, "\nerror[")); got != m[2] {
			t.Errorf("step %d counts %s error(s) but shows %s:\n%s", i+1, m[2], got, sec)
		}
		if got := strconv.Itoa(strings.Count(above, "\nwarning[")); got != m[3] {
			t.Errorf("step %d counts %s warning(s) but shows %s:\n%s", i+1, m[3], got, sec)
		}
		for _, rule := range strings.Split(m[4], ", ") {
			if !strings.Contains(above, "["+rule+"]: ") {
				t.Errorf("step %d counts %s but does not show it:\n%s", i+1, rule, sec)
			}
		}
	}
	// The goodput, read from the lab: about half with the DSCP reset,
	// all of it after the fix.
	before := gbpsOf(t, sections[6], `RoCE goodput across subnets \(32 flows, read from the lab's data plane\):\n([\d.]+) Gb/s per NIC`)
	broken := gbpsOf(t, sections[6], `Goodput across subnets meanwhile: ([\d.]+) Gb/s per NIC`)
	after := gbpsOf(t, sections[6], `Goodput across subnets after the fix: ([\d.]+) Gb/s per NIC`)
	if before <= 0 || broken < 0.4*before || broken > 0.6*before || after != before {
		t.Errorf("goodput %.1f, %.1f with the DSCP reset, %.1f after the fix: want about half, then all of it back:\n%s", before, broken, after, sections[6])
	}
	// Run from a directory outside any clone, the hint names no path
	// that is not there.
	if !strings.Contains(text, "Next: in a clone of\nhttps://github.com/fabricgen/fabricgen, fabricgen lab up examples/clos-400g,") {
		t.Errorf("the closing hint from %s:\n%s", t.TempDir(), text)
	}

	// --verbose on another, smaller fabric given as DIR (to keep the test
	// short): every step, every changing device's diff (and the fix's in
	// seed case 2), every check report and the result tables.
	s, out, errb = pushStreams("")
	if code := run(context.Background(), []string{"demo", "--verbose", filepath.Join(root, "examples", "ai-training-2subnet")}, s); code != 0 {
		t.Fatalf("demo --verbose: exit %d\n%s\n%s", code, out, errb)
	}
	m := regexp.MustCompile(`Plan: (\d+) to change`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("demo --verbose prints no plan:\n%s", out)
	}
	changing, _ := strconv.Atoi(m[1])
	if n := len(willChange.FindAllString(out.String(), -1)); changing < 2 || n != changing+1 {
		t.Errorf("demo --verbose shows %d device diffs, want %d (every changing device, and 1 in seed case 2)", n, changing+1)
	}
	if !regexp.MustCompile(`DEVICE +PLATFORM +RESULT`).MatchString(out.String()) {
		t.Error("demo --verbose shows no result table")
	}
	for _, want := range []string{"==> 1/8", "==> 8/8", "Apply:", "Plan: 0 to change", "error[CHK010]", "error[CHK016]"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("demo --verbose DIR lacks %q:\n%s", want, out)
		}
	}
}

// gbpsOf is the Gb/s figure re's group matches in text.
func gbpsOf(t *testing.T, text, re string) float64 {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(text)
	if m == nil {
		t.Errorf("no %s in:\n%s", re, text)
		return 0
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Error(err)
	}
	return v
}

// TestDemoNext: the closing hint's path works from where the demo ran.
func TestDemoNext(t *testing.T) {
	root := repoRoot(t)
	outside := t.TempDir()
	cases := []struct {
		name, cwd string
		args      []string
		want      string
	}{
		{"repository root", root, nil, "Next: fabricgen lab up examples/clos-400g,\n"},
		{"inside the clone", filepath.Join(root, "cmd", "fabricgen"), nil, "Next: fabricgen lab up ../../examples/clos-400g,\n"},
		{"outside any clone", outside, nil, "Next: in a clone of\nhttps://github.com/fabricgen/fabricgen, fabricgen lab up examples/clos-400g,\n"},
		{"unknown directory", "", nil, "Next: in a clone of\n"},
		{"DIR as given", outside, []string{"../my fabric"}, "Next: fabricgen lab up '../my fabric',\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := demoNext(c.args, c.cwd)
			if !strings.HasPrefix(got, c.want) {
				t.Errorf("demoNext(%q, %q) = %q, want it to start %q", c.args, c.cwd, got, c.want)
			}
			if m := regexp.MustCompile(`lab up ([^,]+),`).FindStringSubmatch(got); m != nil && c.args == nil && c.cwd != "" && !strings.Contains(got, "in a clone") {
				if _, err := os.Stat(filepath.Join(c.cwd, m[1], "devices.fab.hcl")); err != nil {
					t.Errorf("the hint's path %s does not exist from %s: %v", m[1], c.cwd, err)
				}
			}
		})
	}
}

// willChange matches a device's plan header: "will change:" for a switch,
// "will change N setting(s):" for a host.
var willChange = regexp.MustCompile(`will change( \d+ setting\(s\))?:`)
