package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
)

// TestValidateCommand runs validate on a valid fabric and on one whose
// device names a platform misspelled, for every platform of the registry
// (validate suggests the platform meant).
func TestValidateCommand(t *testing.T) {
	for _, pl := range platforms.All() {
		t.Run(string(pl.Name), func(t *testing.T) { validateCommand(t, string(pl.Name)) })
	}
}

// validateCommand checks validate with a fabric whose device names
// platform with one letter too many.
func validateCommand(t *testing.T, platform string) {
	ex := filepath.Join("..", "..", "examples")
	bad := t.TempDir()
	typo := platform + "x"
	if err := os.WriteFile(filepath.Join(bad, "f.fab.hcl"), []byte("fabric \"x\" {}\ndevice \"d\" {\n  kind     = \"leaf\"\n  platform = \""+typo+"\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		args      []string
		code      int
		out, errs string
	}{
		{"valid", []string{"validate", filepath.Join(ex, "roce-storage")}, 0, `Success! Fabric "roce-storage" is valid: 8 devices, 24 ports, 12 links.`, ""},
		{"variable", []string{"validate", "-var", "leaves=8", "-var", "spines=2", "-var", "nics_per_leaf=2", filepath.Join(ex, "scale")}, 0, "26 devices", ""},
		{"invalid", []string{"validate", bad}, 1, "", `Did you mean "` + platform + `"?`},
		{"snippet", []string{"validate", bad}, 1, "", `4 |   platform = "` + typo + `"`},
		{"json invalid", []string{"validate", "-json", bad}, 1, `"valid": false`, ""},
		{"missing dir", []string{"validate", filepath.Join(bad, "nope")}, 1, "", "Cannot read fabric directory"},
		{"bad -var", []string{"validate", "-var", "novalue", bad}, 1, "", "write -var name=value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := lintRun(t, tc.args...)
			if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errs, tc.errs) {
				t.Errorf("code %d (want %d)\nstdout: %s\nstderr: %s", code, tc.code, out, errs)
			}
		})
	}
	_, out, _ := lintRun(t, "validate", "-json", bad)
	var doc struct {
		Valid       bool `json:"valid"`
		ErrorCount  int  `json:"error_count"`
		Diagnostics []struct {
			Summary string `json:"summary"`
			Range   struct {
				Start struct{ Line int } `json:"start"`
			} `json:"range"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("validate -json: %v\n%s", err, out)
	}
	if doc.Valid || doc.ErrorCount != 1 || doc.Diagnostics[0].Range.Start.Line != 4 {
		t.Errorf("validate -json: %+v", doc)
	}
}

func TestFmtCommand(t *testing.T) {
	dir := t.TempDir()
	ugly := "fabric \"x\" {\ndescription=\"a\"\n    qos_policy   = qos_policy.p\n}\n"
	pretty := "fabric \"x\" {\n  description = \"a\"\n  qos_policy  = qos_policy.p\n}\n"
	path := filepath.Join(dir, "f.fab.hcl")
	sub := filepath.Join(dir, "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(p string) string {
		t.Helper()
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	write(path, ugly)
	write(filepath.Join(sub, "g.fab.hcl"), ugly)

	code, out, _ := lintRun(t, "fmt", "-check", "-diff", dir)
	if code != 2 || !strings.Contains(out, "-description=\"a\"") || !strings.Contains(out, "+  description = \"a\"") || strings.Contains(out, "sub") {
		t.Errorf("fmt -check -diff: code %d\n%s", code, out)
	}
	if read(path) != ugly {
		t.Error("fmt -check wrote the file")
	}
	if code, out, _ = lintRun(t, "fmt", "-recursive", dir); code != 0 || !strings.Contains(out, "g.fab.hcl") {
		t.Errorf("fmt -recursive: code %d\n%s", code, out)
	}
	if read(path) != pretty || read(filepath.Join(sub, "g.fab.hcl")) != pretty {
		t.Errorf("not formatted:\n%s", read(path))
	}
	if code, out, _ = lintRun(t, "fmt", "-check", "-recursive", dir); code != 0 || out != "" {
		t.Errorf("second fmt -check: code %d %q", code, out)
	}
	broken := filepath.Join(dir, "broken.fab.hcl")
	write(broken, "fabric \"x\" {\n  a = \n")
	code, _, errs := lintRun(t, "fmt", broken)
	if code != 1 || !strings.Contains(errs, "broken.fab.hcl:2:") || read(broken) != "fabric \"x\" {\n  a = \n" {
		t.Errorf("fmt of a broken file: code %d\n%s", code, errs)
	}
	write(filepath.Join(dir, "notes.txt"), "hello\n")
	if code, _, errs = lintRun(t, "fmt", filepath.Join(dir, "notes.txt")); code != 1 || !strings.Contains(errs, "only *.fab.hcl") {
		t.Errorf("fmt of a non-intent file: code %d %s", code, errs)
	}
}

func TestTerraformStyleFlags(t *testing.T) {
	got := strings.Join(terraformStyleFlags([]string{"plan", "-json", "-out=p.json", "-o", "x", "--device", "l*", "--", "-json"}), " ")
	if want := "plan --json --out=p.json -o x --device l* -- -json"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
