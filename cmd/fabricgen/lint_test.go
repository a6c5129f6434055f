package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func lintRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	s := &streams{in: strings.NewReader(""), out: &out, err: &errb, getenv: func(string) string { return "" }}
	code := run(context.Background(), args, s)
	return code, out.String(), errb.String()
}

func TestLintCommandExitCodes(t *testing.T) {
	ex := filepath.Join("..", "..", "examples")
	cases := []struct {
		name string
		args []string
		code int
		out  string
	}{
		{"clean example", []string{"lint", filepath.Join(ex, "roce-storage")}, 0, "No findings."},
		{"broken core", []string{"lint", filepath.Join(ex, "broken", "core-zeroes-dscp")}, 2, "DSCP 26 → 0: no trust dscp"},
		{"warning fails by default", []string{"lint", filepath.Join(ex, "broken", "pfc-without-ecn")}, 2, "ECN004"},
		{"warning below fail level error", []string{"lint", "--fail-level", "error", "--rule", "ECN004", filepath.Join(ex, "broken", "pfc-without-ecn")}, 0, "ECN004"},
		{"info never fails", []string{"lint", "--fail-level", "info", filepath.Join(ex, "roce-storage")}, 1, ""},
		{"only one rule", []string{"lint", "--rule", "ETS001", filepath.Join(ex, "broken", "core-zeroes-dscp")}, 0, "No findings."},
		{"compact", []string{"lint", "-f", "compact", filepath.Join(ex, "broken", "ets-sum")}, 2, "sum to 110, not 100 (queue 0: 50, queue 3: 60) (ETS001)"},
		{"missing dir", []string{"lint", filepath.Join(ex, "no-such-fabric")}, 1, ""},
		{"bad format", []string{"lint", "-f", "yaml", filepath.Join(ex, "roce-storage")}, 1, ""},
		{"single-dash -format", []string{"lint", "-format", "json", filepath.Join(ex, "roce-storage")}, 0, `"diagnostics": []`},
		{"long --format", []string{"lint", "--format", "json", filepath.Join(ex, "roce-storage")}, 0, `"diagnostics": []`},
		{"bad fail level", []string{"lint", "--fail-level", "loud", filepath.Join(ex, "roce-storage")}, 1, ""},
		{"unknown rule", []string{"lint", "--rule", "XYZ001", filepath.Join(ex, "roce-storage")}, 1, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := lintRun(t, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out, errs)
			}
			if c.out != "" && !strings.Contains(out, c.out) {
				t.Errorf("stdout misses %q:\n%s", c.out, out)
			}
		})
	}
}

func TestLintSARIFAndJSON(t *testing.T) {
	dir := filepath.Join("..", "..", "examples", "broken", "core-missing-roce-acl")
	code, out, _ := lintRun(t, "lint", "-f", "sarif", dir)
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || code != 2 || log.Version != "2.1.0" || len(log.Runs[0].Results) == 0 || !hasRule(log.Runs[0].Results, "ACL001") {
		t.Errorf("sarif: exit %d, err %v, %+v", code, err, log)
	}
	code, out, _ = lintRun(t, "lint", "-f", "json", dir)
	var doc struct {
		FormatVersion string `json:"format_version"`
		Valid         bool   `json:"valid"`
		Errors        int    `json:"error_count"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 2 || doc.Errors == 0 || !doc.Valid || doc.FormatVersion == "" {
		t.Errorf("json: exit %d, err %v, %+v", code, err, doc)
	}
}

func TestLintConfigFile(t *testing.T) {
	src := filepath.Join("..", "..", "examples", "broken", "pfc-without-ecn", "fabric.fab.hcl")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	dir := filepath.Join(root, "fabric")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fabric.fab.hcl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(root, ".fabricgen.hcl")
	// The example's one finding is the warning ECN004.
	if err := os.WriteFile(cfg, []byte("config {\n  fail_level = \"error\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := lintRun(t, "lint", dir); code != 0 {
		t.Errorf("fail_level error from the parent's .fabricgen.hcl: exit %d\n%s", code, out)
	}
	if err := os.WriteFile(cfg, []byte("config {\n  fail_level = \"warning\"\n}\nrule \"ECN004\" {\n  enabled = false\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := lintRun(t, "lint", dir); code != 0 || !strings.Contains(out, "No findings.") {
		t.Errorf("ECN004 disabled: exit %d\n%s", code, out)
	}
	if err := os.WriteFile(cfg, []byte("rule \"NOPE01\" {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := lintRun(t, "lint", dir); code != 1 || !strings.Contains(out, "not a fabricgen rule") || !strings.Contains(out, ".fabricgen.hcl:1:6") {
		t.Errorf("bad config: exit %d, stdout %s, stderr %s", code, out, errs)
	}
}

func TestExplainCommand(t *testing.T) {
	code, out, _ := lintRun(t, "explain", "nic001")
	if code != 0 || !strings.Contains(out, "mlnx_qos --pfc 0,0,0,1,0,0,0,0") {
		t.Errorf("explain nic001: exit %d\n%s", code, out)
	}
	code, out, _ = lintRun(t, "explain")
	if code != 0 || !strings.Contains(out, "QOS001") || !strings.Contains(out, "SUP001") {
		t.Errorf("explain: exit %d\n%s", code, out)
	}
	if code, _, errs := lintRun(t, "explain", "ETS9"); code != 1 || !strings.Contains(errs, "did you mean ETS001") {
		t.Errorf("explain ETS9: exit %d, %s", code, errs)
	}
	code, out, _ = lintRun(t, "lint", "--help")
	if code != 0 || !strings.Contains(out, "ACL001") || !strings.Contains(out, "checkstyle:") {
		t.Errorf("lint --help does not list rules and formats:\n%s", out)
	}
}

// TestLintInvalidIntentInEveryFormat: an intent that does not load is
// reported in the format asked for (never 0 bytes), exit 1.
func TestLintInvalidIntentInEveryFormat(t *testing.T) {
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "f.fab.hcl"), []byte("fabric \"x\" {}\ndevice \"d\" {\n  kind     = \"leaf\"\n  platform = \"arista_eso\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"text", "json", "sarif", "github", "junit", "checkstyle", "compact", "markdown"} {
		code, out, _ := lintRun(t, "lint", "-f", f, bad)
		if code != 1 || !strings.Contains(out, "Invalid value for") {
			t.Errorf("%s: exit %d, stdout:\n%s", f, code, out)
		}
	}
	_, out, _ := lintRun(t, "lint", "-f", "sarif", bad)
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						Region struct{ StartLine int } `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs[0].Results) != 1 ||
		log.Runs[0].Results[0].RuleID != "VAL001" || log.Runs[0].Results[0].Locations[0].PhysicalLocation.Region.StartLine != 4 {
		t.Errorf("sarif of an invalid intent: %v\n%s", err, out)
	}
	_, out, _ = lintRun(t, "lint", "-f", "json", bad)
	var doc struct {
		Valid      bool `json:"valid"`
		ErrorCount int  `json:"error_count"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Valid || doc.ErrorCount != 1 {
		t.Errorf("json of an invalid intent: %v %+v", err, doc)
	}
}

func hasRule[T interface {
	~struct {
		RuleID string `json:"ruleId"`
	}
}](rs []T, id string) bool {
	for _, r := range rs {
		if struct {
			RuleID string `json:"ruleId"`
		}(r).RuleID == id {
			return true
		}
	}
	return false
}

// TestLintConfigErrorInEveryFormat: a broken .fabricgen.hcl is a
// diagnostic at its line in every format (exit 1), never 0 bytes on stdout
// and a message without a position on stderr.
func TestLintConfigErrorInEveryFormat(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"classes.fab.hcl", "devices.fab.hcl"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "examples", "roce-storage", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".fabricgen.hcl"), []byte("config {}\n\nrule \"QOS01\" {\n  enabled = false\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ name, want string }{
		{"json", `"line": 3`}, {"sarif", `"startLine": 3`}, {"github", "file=.fabricgen.hcl,line=3,col=6"},
		{"junit", ".fabricgen.hcl:3:6"}, {"checkstyle", `line="3"`}, {"compact", ".fabricgen.hcl:3:6: error"},
		{"text", "Did you mean QOS001?"}, {"markdown", ".fabricgen.hcl:3"},
	} {
		code, out, errs := lintRun(t, "lint", "-f", f.name, "--base-path", dir, dir)
		if code != 1 || !strings.Contains(out, f.want) || !strings.Contains(out, "QOS01") {
			t.Errorf("%s: exit %d, want 1 and %q in stdout:\n%s\nstderr: %s", f.name, code, f.want, out, errs)
		}
	}
}

// TestLintVarErrorHasNoFileLocation: an undeclared -var is reported without
// a file location (it is no file), naming the variable, in SARIF and GitHub.
func TestLintVarErrorHasNoFileLocation(t *testing.T) {
	dir := filepath.Join("..", "..", "examples", "roce-storage")
	code, out, _ := lintRun(t, "lint", "-f", "sarif", "--var", "nosuch=1", dir)
	if code != 1 || strings.Contains(out, `"uri": "-var`) || !strings.Contains(out, "nosuch") {
		t.Errorf("sarif: exit %d:\n%s", code, out)
	}
	code, out, _ = lintRun(t, "lint", "-f", "github", "--var", "nosuch=1", dir)
	if code != 1 || strings.Contains(out, "file=-var") || !strings.Contains(out, "nosuch") {
		t.Errorf("github: exit %d:\n%s", code, out)
	}
}

// TestLintClassWithoutDSCP is issue 21 item 3 through the CLI: the
// clos-400g example with its RoCE or CNP class stripped of its DSCP list
// still validates (an empty list is well-formed), but lint exits 2 with
// QOS009 at the class's dscp line (or its block when the attribute is
// gone), and render refuses (exit 1) instead of writing NIC scripts that
// map the DSCP the NICs mark to priority 0.
func TestLintClassWithoutDSCP(t *testing.T) {
	cases := []struct {
		name     string
		old, new string
		at       string // file:line:col of the finding
		summary  string
	}{
		{"roce dscp empty", "  dscp      = [26]\n", "  dscp      = []\n", "qos.fab.hcl:43:3",
			`traffic_class "roce" has an empty dscp list, but 32 NICs mark RoCE with DSCP 26 (nic01: tos 106)`},
		{"cnp dscp empty", "  dscp      = [48]\n", "  dscp      = []\n", "qos.fab.hcl:54:3",
			`traffic_class "cnp" has an empty dscp list, but 16 NICs mark CNP with DSCP 48 (nic01: cnp_dscp 48)`},
		{"cnp dscp absent", "  dscp      = [48]\n", "", "qos.fab.hcl:52:1",
			`traffic_class "cnp" sets no dscp, but 16 NICs mark CNP with DSCP 48 (nic01: cnp_dscp 48)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := copyExample(t, "clos-400g", t.TempDir())
			path := filepath.Join(dir, "qos.fab.hcl")
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Count(string(src), c.old) != 1 {
				t.Fatalf("qos.fab.hcl has %d copies of %q, want 1", strings.Count(string(src), c.old), c.old)
			}
			if err := os.WriteFile(path, []byte(strings.Replace(string(src), c.old, c.new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			if code, out, errs := lintRun(t, "validate", dir); code != 0 {
				t.Errorf("validate: exit %d, want 0 (an empty dscp list is well-formed)\nstdout: %s\nstderr: %s", code, out, errs)
			}
			code, out, errs := lintRun(t, "lint", "-f", "compact", dir)
			if code != 2 {
				t.Errorf("lint: exit %d, want 2\nstdout: %s\nstderr: %s", code, out, errs)
			}
			var errLines []string
			for _, l := range strings.Split(out, "\n") {
				if strings.Contains(l, ": error - ") {
					errLines = append(errLines, l)
				}
			}
			if len(errLines) != 1 || !strings.HasPrefix(errLines[0], filepath.Join(dir, c.at)+": error - "+c.summary) || !strings.HasSuffix(errLines[0], "(QOS009)") {
				t.Errorf("lint: want exactly one error, QOS009 at %s: %s; got %q\n%s", c.at, c.summary, errLines, out)
			}
			rout := t.TempDir()
			code, stdout, stderr := lintRun(t, "render", "-o", rout, dir)
			if code != 1 {
				t.Errorf("render: exit %d, want 1 (lint errors refuse)\nstdout: %s\nstderr: %s", code, stdout, stderr)
			}
			if !strings.Contains(stderr, c.at) || !strings.Contains(stderr, "error[QOS009]") || !strings.Contains(stderr, "lint reported 1 error(s)") {
				t.Errorf("render: stderr lacks the QOS009 refusal at %s:\n%s", c.at, stderr)
			}
			if ents, _ := os.ReadDir(rout); len(ents) != 0 {
				t.Errorf("render wrote %d file(s) despite the lint error, want none", len(ents))
			}
			// The finding is the fabric's (a class line, no device), so rendering
			// one switch, which would map the DSCP to priority 0, refuses too.
			nout := t.TempDir()
			if code, stdout, stderr := lintRun(t, "render", "-o", nout, dir, "--device", "leaf1"); code != 1 || !strings.Contains(stderr, "error[QOS009]") {
				t.Errorf("render --device leaf1: exit %d, want 1 with QOS009\nstdout: %s\nstderr: %s", code, stdout, stderr)
			}
			if ents, _ := os.ReadDir(nout); len(ents) != 0 {
				t.Errorf("render --device leaf1 wrote %d file(s) despite the lint error, want none", len(ents))
			}
		})
	}
}
