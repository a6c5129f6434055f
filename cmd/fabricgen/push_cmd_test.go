package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/push"
	"github.com/fabricgen/fabricgen/schema"
)

const cmdSecret = "cmd-T3st-s3cret-value"

// pushStreams are test streams whose environment holds the lab password.
func pushStreams(in string) (*streams, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	return &streams{in: strings.NewReader(in), out: &out, err: &errb, getenv: func(k string) string {
		if k == "FABRICGEN_PASSWORD" {
			return cmdSecret
		}
		return ""
	}}, &out, &errb
}

// TestPlanApplyCLI drives plan -out, apply PLANFILE and plan again against
// a lab started the way lab up starts it, and scans every output and file
// for the password.
func TestPlanApplyCLI(t *testing.T) {
	fabric := filepath.Join("..", "..", "examples", "ai-training-2subnet")
	s, _, _ := pushStreams("")
	f, diags := schema.Load(fabric, schema.Options{Getenv: s.getenv})
	if diags.HasErrors() {
		t.Fatalf("load %s: %v", fabric, diags.Error())
	}
	specs, err := labSpecs(f.Devices, s.getenv)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l, inv, err := startLab(ctx, specs, filepath.Join(dir, "lab"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	common := []string{"--inventory", inv, "--known-hosts", l.KnownHostsPath()}
	planFile := filepath.Join(dir, "plan.json")
	backups := filepath.Join(dir, "backups")
	var transcript strings.Builder

	exec := func(want int, args ...string) string {
		t.Helper()
		s, out, errb := pushStreams("")
		code := run(ctx, append(args, common...), s)
		transcript.WriteString(out.String() + errb.String())
		if code != want {
			t.Fatalf("fabricgen %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, out, errb)
		}
		return out.String()
	}

	out := exec(exitFindings, "plan", fabric, "-out", planFile, "-detailed-exitcode")
	if !strings.Contains(out, "to change") || !strings.Contains(out, "+++ leaf1 (fabricgen)") {
		t.Errorf("plan output lacks the summary or a diff:\n%s", out)
	}
	md := exec(0, "plan", fabric, "--markdown")
	if !strings.Contains(md, "| device | platform | status |") || !strings.Contains(md, "```diff") {
		t.Errorf("markdown plan:\n%s", md)
	}
	js := exec(0, "plan", fabric, "-json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(js), &doc); err != nil || doc["format_version"] == nil {
		t.Errorf("plan -json is not a plan document: %v", err)
	}

	out = exec(0, "apply", planFile, "--backup-dir", backups, "--device-diff")
	if !strings.Contains(out, "leaf1 (arista_eos) reported:\n--- system:/running-config") {
		t.Errorf("apply --device-diff does not show EOS's session diff:\n%s", out)
	}
	if !strings.Contains(out, "applied") || strings.Contains(out, "rolled back") {
		t.Errorf("apply output:\n%s", out)
	}
	exec(0, "plan", fabric, "-detailed-exitcode")
	out = exec(0, "apply", fabric, "--backup-dir", backups)
	if !strings.Contains(out, "No changes.") {
		t.Errorf("second apply changed something:\n%s", out)
	}
	// The saved plan is now stale: every changed device is refused.
	out = exec(exitFailed, "apply", planFile, "--backup-dir", backups)
	if !strings.Contains(out, string(push.StatusStale)) {
		t.Errorf("re-applying an old plan was not refused as stale:\n%s", out)
	}

	if strings.Contains(transcript.String(), cmdSecret) {
		t.Error("the password appears in the command output")
	}
	_ = filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(cmdSecret)) {
				t.Errorf("the password appears in %s", p)
			}
		}
		return nil
	})
}

// TestApplyNeedsYes: without -auto-approve, anything but "yes" cancels.
func TestApplyNeedsYes(t *testing.T) {
	fabric := filepath.Join("..", "..", "examples", "ai-training-2subnet")
	s, _, _ := pushStreams("")
	f, diags := schema.Load(fabric, schema.Options{Getenv: s.getenv})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	specs, err := labSpecs(f.Devices, s.getenv)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	l, inv, err := startLab(context.Background(), specs, filepath.Join(dir, "lab"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	s, out, errb := pushStreams("no\n")
	code := run(context.Background(), []string{"apply", fabric, "--inventory", inv, "--known-hosts", l.KnownHostsPath(), "--backup-dir", filepath.Join(dir, "b")}, s)
	if code != exitFailed || !strings.Contains(errb.String(), "apply cancelled") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	if _, err := os.Stat(filepath.Join(dir, "b")); err == nil {
		t.Error("a cancelled apply wrote backups")
	}
}

// TestDemo runs the README's first command on an example.
func TestDemo(t *testing.T) {
	s, out, errb := pushStreams("")
	code := run(context.Background(), []string{"demo", filepath.Join("..", "..", "examples", "ai-training-2subnet")}, s)
	if code != 0 {
		t.Fatalf("demo: exit %d\n%s\n%s", code, out, errb)
	}
	for _, want := range []string{"==> 1/4", "==> 4/4", "Apply:", "Plan: 0 to change"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
}
