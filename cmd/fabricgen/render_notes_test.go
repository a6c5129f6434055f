package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenderSaysWhereItRounds: a SONiC lossless port whose cable length is
// no row of pg_profile_lookup.ini is rendered with the next longer row
// (buffermgrd looks rows up by exact length); render says so, once per
// intent line, at the value's file:line:col. A cable that is a row gets
// no note.
func TestRenderSaysWhereItRounds(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "lint", "testdata", "fixtures", "buf002-fail-no-cable", "fabric.fab.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, cable string
		want        []string
		not         string
	}{
		{"30m to the 40m row", "30m", []string{"fabric.fab.hcl:191:3: leaf1:Ethernet0 and 2 more: cable_length 30m is rendered as 40m: buffermgrd"}, ""},
		{"3m to the 5m row", "3m", []string{"cable_length 3m is rendered as 5m"}, ""},
		{"a row: no note", "5m", nil, "note:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			text := strings.Replace(string(src), `cable_length = "3m"`, `cable_length = "`+tt.cable+`"`, 1)
			if err := os.WriteFile(filepath.Join(dir, "fabric.fab.hcl"), []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := lintRun(t, "render", "-o", filepath.Join(dir, "out"), "--force", dir)
			if code != 0 {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if strings.Count(stderr, "note:") > len(tt.want) || tt.not != "" && strings.Contains(stderr, tt.not) {
				t.Errorf("stderr has notes it should not:\n%s", stderr)
			}
		})
	}
}

// TestPlanSaysWhereItRounds: plan, which renders what it compares, prints
// the same notes (to the error stream: the plan itself is unchanged).
func TestPlanSaysWhereItRounds(t *testing.T) {
	r := newPushRig(t, "clos-400g")
	stdout, stderr := r.run(0, nil, "plan", "--device", "leaf3", "fabric")
	want := `leaf3:Ethernet240 and 1 more: cable_length 70m is rendered as 300m: buffermgrd`
	if !strings.Contains(stderr, want) || !strings.Contains(stderr, "devices.fab.hcl:") {
		t.Errorf("plan's stderr lacks %q at the intent's line:\n%s", want, stderr)
	}
	if strings.Contains(stdout, "note:") {
		t.Errorf("the notes went into the plan:\n%s", stdout)
	}
}

// TestRenderSaysWhereNXOSRoundsECN: NX-OS WRED thresholds are whole
// kbytes; a byte threshold that is not one is rendered rounded down, and
// render says so at the ecn_profile's line.
func TestRenderSaysWhereNXOSRoundsECN(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := lintRun(t, "render", "-o", out, filepath.Join("..", "..", "examples", "ai-training-2subnet"))
	if code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	for _, want := range []string{
		"qos.fab.hcl:18:3: leaf2: ecn_profile roce min_threshold 150000 bytes is rendered as 146 kbytes",
		"qos.fab.hcl:19:3: leaf2: ecn_profile roce max_threshold 1500000 bytes is rendered as 1464 kbytes",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}
