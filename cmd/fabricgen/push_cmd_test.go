package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/platforms"
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

// copyExample copies examples/NAME into dir/fabric and returns that path,
// so a test's state directory (fabric/.fabricgen) is its own.
func copyExample(t *testing.T, name, dir string) string {
	t.Helper()
	src := filepath.Join(repoRoot(t), "examples", name)
	dst := filepath.Join(dir, "fabric")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// repoRoot is the repository's root directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// TestPlanApplyCLI drives plan -out, apply PLANFILE and plan again against
// a lab started the way lab up starts it, and scans every output and file
// for the password.
func TestPlanApplyCLI(t *testing.T) {
	dir := t.TempDir()
	copyExample(t, "ai-training-2subnet", dir)
	t.Chdir(dir)
	fabric := "fabric"
	s, _, _ := pushStreams("")
	f, diags := schema.Load(fabric, schema.Options{Getenv: s.getenv, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatalf("load %s: %v", fabric, diags.Error())
	}
	specs, err := labSpecs(f.Devices, s.getenv)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l, inv, err := startLab(ctx, f, specs, filepath.Join(dir, "lab"))
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
	if !strings.Contains(md, "| devices | platform | change (each) |") || !strings.Contains(md, "```diff") {
		t.Errorf("markdown plan:\n%s", md)
	}
	js := exec(0, "plan", fabric, "-json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(js), &doc); err != nil || doc["format_version"] == nil {
		t.Errorf("plan -json is not a plan document: %v", err)
	}

	out = exec(0, "apply", planFile, "--backup-dir", backups, "--device-diff")
	if !strings.Contains(out, "leaf1 ("+string(f.Device("leaf1").Platform.V)+") reported:\n--- system:/running-config") {
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
	dir := t.TempDir()
	fabric := copyExample(t, "ai-training-2subnet", dir)
	s, _, _ := pushStreams("")
	f, diags := schema.Load(fabric, schema.Options{Getenv: s.getenv, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	specs, err := labSpecs(f.Devices, s.getenv)
	if err != nil {
		t.Fatal(err)
	}
	l, inv, err := startLab(context.Background(), f, specs, filepath.Join(dir, "lab"))
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

// pushRig is a copy of an example fabric with a lab serving it, driven
// through the CLI from the copy's parent directory.
type pushRig struct {
	t      *testing.T
	dir    string
	common []string
	ctx    context.Context
	lab    *lab.Lab
}

func newPushRig(t *testing.T, example string) *pushRig {
	t.Helper()
	dir := t.TempDir()
	copyExample(t, example, dir)
	t.Chdir(dir)
	s, _, _ := pushStreams("")
	f, diags := schema.Load("fabric", schema.Options{Getenv: s.getenv, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	specs, err := labSpecs(pushedOnly(f, f.Devices), s.getenv)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	l, inv, err := startLab(ctx, f, specs, filepath.Join(dir, "lab"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return &pushRig{t: t, dir: dir, ctx: ctx, lab: l, common: []string{"--inventory", inv, "--known-hosts", l.KnownHostsPath()}}
}

// run runs fabricgen with the rig's connection flags and env, expecting
// the exit code.
func (r *pushRig) run(want int, env map[string]string, args ...string) (string, string) {
	r.t.Helper()
	s, out, errb := pushStreams("")
	base := s.getenv
	s.getenv = func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		return base(k)
	}
	code := run(r.ctx, append(args, r.common...), s)
	if code != want {
		r.t.Fatalf("fabricgen %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, out, errb)
	}
	return out.String(), errb.String()
}

// TestSavedPlanIsARecordNotAScript: a plan file moves between jobs (no
// absolute path), a signed plan edited by hand or applied unsigned is
// refused, --device selects a subset (a glob matching nothing fails), and
// an inventory pointing elsewhere is refused naming both addresses.
func TestSavedPlanIsARecordNotAScript(t *testing.T) {
	r := newPushRig(t, "ai-training-2subnet")
	key := map[string]string{"FABRICGEN_PLAN_KEY": "plan-signing-key"}
	r.run(0, key, "plan", "fabric", "-out", "plan.json")
	raw, err := os.ReadFile("plan.json")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), r.dir) || !strings.Contains(string(raw), `"dir": "fabric"`) {
		t.Errorf("the plan file holds an absolute path or no relative dir")
	}
	if !strings.Contains(string(raw), `"signature": "`) {
		t.Fatal("FABRICGEN_PLAN_KEY set but the plan is not signed")
	}

	// Unsigned use of a signed plan, and a signed plan edited by hand.
	_, errOut := r.run(exitFailed, nil, "apply", "plan.json")
	if !strings.Contains(errOut, "FABRICGEN_PLAN_KEY is not set") {
		t.Errorf("a signed plan applied without the key: %s", errOut)
	}
	first, edited := addEvilLine(t, raw)
	if err := os.WriteFile("edited.json", edited, 0o600); err != nil {
		t.Fatal(err)
	}
	_, errOut = r.run(exitFailed, key, "apply", "edited.json")
	if !strings.Contains(errOut, "signature does not match") {
		t.Errorf("an edited signed plan: %s", errOut)
	}
	// The same edit without signatures: the device is refused because
	// the plan does not match its intent.
	r.run(0, nil, "plan", "fabric", "-out", "unsigned.json")
	raw, _ = os.ReadFile("unsigned.json")
	_, edited = addEvilLine(t, raw)
	_ = os.WriteFile("edited.json", edited, 0o600)
	out, _ := r.run(exitFailed, nil, "apply", "edited.json", "--device", first)
	if !strings.Contains(out, "plan file does not match its intent") {
		t.Errorf("an edited unsigned plan was not refused:\n%s", out)
	}
	// Signed with the key but the key is set while the plan is unsigned.
	_, errOut = r.run(exitFailed, key, "apply", "unsigned.json")
	if !strings.Contains(errOut, "not signed") {
		t.Errorf("an unsigned plan with the key set: %s", errOut)
	}

	// --device with a saved plan: a glob matching nothing fails; a subset
	// changes only that subset.
	_, errOut = r.run(exitFailed, nil, "apply", "unsigned.json", "--device", "spine*")
	if !strings.Contains(errOut, `--device "spine*" matches no device of the plan`) {
		t.Errorf("--device matching nothing: %s", errOut)
	}
	out, _ = r.run(0, nil, "apply", "unsigned.json", "--device", "leaf2")
	if !strings.Contains(out, "leaf2") || strings.Contains(out, "core1 ") {
		t.Errorf("--device leaf2 applied other devices:\n%s", out)
	}
	out, _ = r.run(0, nil, "plan", "fabric")
	if strings.Contains(out, "\nleaf2 (") || strings.HasPrefix(out, "leaf2 (") || !strings.Contains(out, "No changes: ") {
		t.Errorf("leaf2 still changes after apply --device leaf2:\n%s", out)
	}

	// Another inventory than the plan's is refused, naming both addresses.
	r.run(0, nil, "plan", "fabric", "-out", "p2.json")
	inv := map[string]string{}
	b, _ := os.ReadFile(r.common[1])
	_ = json.Unmarshal(b, &inv)
	inv["core1"] = "127.0.0.1:9"
	b, _ = json.Marshal(inv)
	_ = os.WriteFile("other-inventory.json", b, 0o600)
	s, outb, errb := pushStreams("")
	code := run(r.ctx, []string{"apply", "p2.json", "--inventory", "other-inventory.json", "--known-hosts", r.common[3]}, s)
	if code != exitFailed || !strings.Contains(outb.String(), "the plan was made against") || !strings.Contains(outb.String(), "127.0.0.1:9") {
		t.Errorf("apply with another inventory: exit %d\n%s\n%s", code, outb, errb)
	}
}

// addEvilLine adds a command to the first changing device of a plan file
// and returns that device's name and the edited file.
func addEvilLine(t *testing.T, raw []byte) (string, []byte) {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	for _, d := range p["devices"].([]any) {
		dev := d.(map[string]any)
		ch, ok := dev["changes"].(map[string]any)
		if !ok {
			continue
		}
		blocks := ch["blocks"].([]any)
		b := blocks[0].(map[string]any)
		b["lines"] = append([]any{"username evil privilege 15 secret x"}, b["lines"].([]any)...)
		out, err := json.MarshalIndent(p, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		return dev["name"].(string), out
	}
	t.Fatal("no changing device in the plan")
	return "", nil
}

// TestOneOperatorAtATime: while one apply holds the fabric's lock a second
// is refused at once, naming the holder; -lock-timeout waits.
func TestOneOperatorAtATime(t *testing.T) {
	r := newPushRig(t, "ai-training-2subnet")
	st := state.ForFabric("fabric")
	held, err := st.Lock(context.Background(), state.Holder{PID: 31337, User: "alice", Host: "jump1", Command: "fabricgen apply fabric", Started: time.Now()}, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, errOut := r.run(exitFailed, nil, "apply", "fabric", "-auto-approve")
	for _, want := range []string{"lock", "pid 31337", "alice@jump1"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("refused apply does not say %q: %s", want, errOut)
		}
	}
	_, errOut = r.run(exitFailed, nil, "rollback", "leaf1", "--fabric", "fabric")
	if !strings.Contains(errOut, "pid 31337") {
		t.Errorf("rollback while locked: %s", errOut)
	}
	time.AfterFunc(200*time.Millisecond, func() { _ = held.Release() })
	out, _ := r.run(0, nil, "apply", "fabric", "-auto-approve", "-lock-timeout", "1m")
	if !strings.Contains(out, "Apply:") {
		t.Errorf("apply after waiting for the lock:\n%s", out)
	}
	// The run wrote its backups and records into the fabric's state
	// directory, never next to the working directory.
	if _, err := os.Stat(filepath.Join("fabric", ".fabricgen", "backups", "leaf1")); err != nil {
		t.Errorf("no backups in the fabric's state directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join("fabric", ".fabricgen", "applied", "leaf1.json")); err != nil {
		t.Errorf("no last-applied record: %v", err)
	}
	if _, err := os.Stat(".fabricgen"); err == nil {
		t.Error("state written to the working directory instead of the fabric's")
	}
}

// TestRollbackCommand: after an apply, rollback previews, asks, and
// restores each device's newest backup; the next plan shows the intent's
// change again.
func TestRollbackCommand(t *testing.T) {
	r := newPushRig(t, "ai-training-2subnet")
	r.run(0, nil, "apply", "fabric", "-auto-approve")
	r.run(0, nil, "plan", "fabric", "-detailed-exitcode")
	s, out, errb := pushStreams("no\n")
	code := run(r.ctx, append([]string{"rollback", "leaf*", "--fabric", "fabric"}, r.common...), s)
	if code != exitFailed || !strings.Contains(errb.String(), "rollback cancelled") || !strings.Contains(out.String(), "will be restored to backup") {
		t.Fatalf("rollback without yes: exit %d\n%s\n%s", code, out, errb)
	}
	o, _ := r.run(0, nil, "rollback", "leaf*", "--fabric", "fabric", "-auto-approve")
	if !strings.Contains(o, "Rollback: 2 restored") {
		t.Errorf("rollback output:\n%s", o)
	}
	r.run(exitFindings, nil, "plan", "fabric", "-detailed-exitcode")
	o, _ = r.run(0, nil, "rollback", "leaf1", "--fabric", "fabric", "-auto-approve")
	if !strings.Contains(o, "already matches backup") {
		t.Errorf("second rollback:\n%s", o)
	}
	_, e := r.run(exitFailed, nil, "rollback", "leaf1", "core1", "--fabric", "fabric", "--to", "x.cfg")
	if !strings.Contains(e, "exactly one device") {
		t.Errorf("--to with two devices: %s", e)
	}
}

// TestDrift: after an apply every device is in sync; a managed line
// changed by hand is drift (exit 2, with the diff); an intent change is
// pending (exit 0); both are a conflict; -json, --markdown and plan
// -refresh-only report the same.
func TestDrift(t *testing.T) {
	r := newPushRig(t, "ai-training-2subnet")
	out, _ := r.run(0, nil, "drift", "fabric")
	if !strings.Contains(out, "pending") || !strings.Contains(out, "never applied from this state directory") {
		t.Errorf("drift before any apply:\n%s", out)
	}
	r.run(0, nil, "apply", "fabric", "-auto-approve")
	out, _ = r.run(0, nil, "drift", "fabric")
	if !strings.Contains(out, "Drift: 11 in-sync.") {
		t.Fatalf("drift right after apply:\n%s", out)
	}
	// By hand, on leaf1: a managed line changes.
	if err := r.lab.Device("leaf1").ConfigureOutOfBand([]string{"no qos map dscp 46 to traffic-class 5"}); err != nil {
		t.Fatal(err)
	}
	// Unmanaged lines are not drift.
	if err := r.lab.Device("leaf2").ConfigureOutOfBand([]string{"logging server 192.0.2.77"}); err != nil {
		t.Fatal(err)
	}
	out, _ = r.run(exitFindings, nil, "drift", "fabric")
	for _, want := range []string{"leaf1  ", "drifted", "--- leaf1 (last applied)", "+++ leaf1 (running)", "-qos map dscp 46 to traffic-class 5", "Drift: 1 drifted, 10 in-sync."} {
		if !strings.Contains(out, want) {
			t.Errorf("drift after a hand change lacks %q:\n%s", want, out)
		}
	}
	// The intent changes for leaf2 (its ECN threshold) and leaf1.
	b, err := os.ReadFile(filepath.Join("fabric", "qos.fab.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(b), "150KB", "200KB", 1)
	if changed == string(b) {
		t.Fatal("no 150KB threshold in the example to change")
	}
	if err := os.WriteFile(filepath.Join("fabric", "qos.fab.hcl"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ = r.run(exitFindings, nil, "drift", "fabric")
	if !strings.Contains(out, "conflict") || !strings.Contains(out, "pending") {
		t.Errorf("drift after an intent change:\n%s", out)
	}
	js, _ := r.run(exitFindings, nil, "drift", "fabric", "-json")
	var doc struct {
		FormatVersion int `json:"format_version"`
		Devices       []struct {
			Device, Status string
		}
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil || doc.FormatVersion != 1 || len(doc.Devices) != 11 {
		t.Errorf("drift -json: %v %+v", err, doc)
	}
	md, _ := r.run(exitFindings, nil, "drift", "fabric", "--markdown")
	if !strings.Contains(md, "| <code>leaf1</code> | arista&#95;eos | conflict |") || !strings.Contains(md, "```diff") {
		t.Errorf("drift --markdown:\n%s", md)
	}
	ro, _ := r.run(exitFindings, nil, "plan", "fabric", "-refresh-only")
	if !strings.Contains(ro, "conflict") {
		t.Errorf("plan -refresh-only:\n%s", ro)
	}
	// Apply brings everything back in sync.
	r.run(0, nil, "apply", "fabric", "-auto-approve")
	out, _ = r.run(0, nil, "drift", "fabric")
	if !strings.Contains(out, "Drift: 11 in-sync.") {
		t.Errorf("drift after the second apply:\n%s", out)
	}
}
