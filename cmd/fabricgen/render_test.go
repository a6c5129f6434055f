package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRenderCommand(t *testing.T) {
	ex := filepath.Join("..", "..", "examples")
	cases := []struct {
		name    string
		args    []string
		code    int
		stdout  string
		stderr  string
		files   []string
		nofiles bool
	}{
		{"all devices", []string{filepath.Join(ex, "ai-training-2subnet")}, 0, "Rendered 11 of 11 device(s)", "",
			[]string{"core1.cfg", "leaf2.cfg", "gpu01-cx6.sh"}, false},
		{"device globs", []string{filepath.Join(ex, "ai-training-2subnet"), "--device", "leaf*", "--device", "core1"}, 0, "Rendered 3 of 3", "",
			[]string{"leaf1.cfg", "leaf2.cfg", "core1.cfg"}, false},
		{"glob matching nothing", []string{filepath.Join(ex, "ai-training-2subnet"), "--device", "nope*"}, 1, "", `"nope*" matches no device`, nil, true},
		{"lint errors refuse", []string{filepath.Join(ex, "broken", "core-zeroes-dscp")}, 1, "", "lint reported", nil, true},
		{"force renders anyway", []string{filepath.Join(ex, "broken", "core-zeroes-dscp"), "--force"}, -1, "Rendered", "Rendering anyway (--force)", nil, false},
		{"unrenderable device named", []string{filepath.Join(ex, "broken", "ets-sum"), "--force", "--device", "leaf1"}, 1, "Rendered 0 of 1", "device leaf1 (platform arista_eos) cannot express buffer.headroom", nil, true},
		{"no output folder", []string{filepath.Join(ex, "roce-storage"), "-o", ""}, 1, "", "pass -o OUT", nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{"render", "-o", out}, tc.args...)
			code, stdout, stderr := lintRun(t, args...)
			if tc.code >= 0 && code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, stdout, stderr)
			}
			if !strings.Contains(stdout, tc.stdout) {
				t.Errorf("stdout %q lacks %q", stdout, tc.stdout)
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr %q lacks %q", stderr, tc.stderr)
			}
			for _, f := range tc.files {
				if _, err := os.Stat(filepath.Join(out, f)); err != nil {
					t.Errorf("missing %s: %v", f, err)
				}
			}
			if tc.nofiles {
				ents, _ := os.ReadDir(out)
				if len(ents) != 0 {
					t.Errorf("wrote %d file(s), want none", len(ents))
				}
			}
		})
	}
}

func TestRenderScriptsAreExecutable(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := lintRun(t, "render", "-o", out, filepath.Join("..", "..", "examples", "ai-training-2subnet"), "--device", "gpu01-cx6")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	st, err := os.Stat(filepath.Join(out, "gpu01-cx6.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm()&0o100 == 0 {
		t.Errorf("gpu01-cx6.sh mode %v, want executable", st.Mode())
	}
}
