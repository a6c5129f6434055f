package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hostilePlan is a plan file of the interrupt fabric (one device of the
// plain switch platform, plainSwitch) whose dir is dir, for the cases
// that never reach a device.
func hostilePlan(t *testing.T, dir string) string {
	t.Helper()
	pl, _ := plainSwitch(t)
	b, _ := json.Marshal(map[string]any{
		"format_version": 2, "tool_version": "test", "fabric": "lab", "dir": dir,
		"intent_digest": "0000", "devices": []map[string]any{{
			"name": "leaf1", "platform": pl.Name, "address": "", "status": "change",
			"rendered": "", "rendered_sha256": "", "diff": map[string]any{"added": 0, "removed": 0},
		}},
	})
	return string(b)
}

// writeAt writes body to rel under dir.
func writeAt(t *testing.T, dir, rel, body string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestStateAndPlanPathsStayInside runs the binary on state records and
// plan files that name paths outside where they belong: each is refused,
// exit 1, naming the file and what to do, before any device is contacted.
// (Issue 21 item 6: a record's backup "/etc/passwd" made rollback
// "restore the managed sections of backup /etc/passwd"; a plan's dir
// "../../other/fabric" made apply load that fabric and write its state
// there.)
func TestStateAndPlanPathsStayInside(t *testing.T) {
	bin := relBinary(t)
	const stamp = "20261201T101500.000000000Z.cfg"
	pl, _ := plainSwitch(t) // the platform of writeInterruptFabric's leaf1
	inflight := func(backup, device string) string {
		b, _ := json.Marshal(map[string]any{"run": "fabricgen-20261201-101500-deadbeef", "device": device, "platform": pl.Name,
			"step": "stage", "backup": backup, "rendered": "{}"})
		return string(b)
	}
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, dir string)
		args  []string
		want  []string
		never []string
	}{
		{"in-flight backup /etc/passwd", func(t *testing.T, dir string) {
			writeAt(t, dir, "fabric/.fabricgen/inflight/leaf1.json", inflight("/etc/passwd", "leaf1"))
		}, []string{"rollback", "leaf1", "--fabric", "fabric", "-auto-approve", "--insecure-ignore-host-key"}, []string{"leaf1.json", `backup "/etc/passwd" is not a backup fabricgen writes`, "remove it"}, []string{"root:"}},
		{"in-flight backup through ..", func(t *testing.T, dir string) {
			writeAt(t, dir, "fabric/.fabricgen/inflight/leaf1.json", inflight("fabric/.fabricgen/backups/leaf1/../../../../outside.cfg", "leaf1"))
		}, []string{"rollback", "leaf1", "--fabric", "fabric", "-auto-approve", "--insecure-ignore-host-key"}, []string{"leaf1.json", "is not a backup fabricgen writes"}, nil},
		{"in-flight backup under another --backup-dir", func(t *testing.T, dir string) {
			writeAt(t, dir, "fabric/.fabricgen/inflight/leaf1.json", inflight("/elsewhere/leaf1/"+stamp, "leaf1"))
			writeAt(t, dir, "elsewhere-is-not-read/leaf1/"+stamp, "")
		}, []string{"rollback", "leaf1", "--fabric", "fabric", "-auto-approve", "--insecure-ignore-host-key"}, []string{"/elsewhere/leaf1/" + stamp, "pass --backup-dir", "--to FILE"}, nil},
		{"in-flight record of another device", func(t *testing.T, dir string) {
			writeAt(t, dir, "fabric/.fabricgen/inflight/leaf1.json", inflight("", "../spine1"))
		}, []string{"rollback", "leaf1", "--fabric", "fabric", "-auto-approve", "--insecure-ignore-host-key"}, []string{"leaf1.json", `names device "../spine1", not leaf1`}, nil},
		{"in-flight record is a link", func(t *testing.T, dir string) {
			writeAt(t, dir, "victim.json", inflight("", "leaf1"))
			if err := os.MkdirAll(filepath.Join(dir, "fabric/.fabricgen/inflight"), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(dir, "victim.json"), filepath.Join(dir, "fabric/.fabricgen/inflight/leaf1.json")); err != nil {
				t.Fatal(err)
			}
		}, []string{"rollback", "leaf1", "--fabric", "fabric", "-auto-approve", "--insecure-ignore-host-key"}, []string{"leaf1.json", "symlink in the state directory"}, nil},
		{"plan dir leaves the working directory", func(t *testing.T, dir string) {
			writeAt(t, dir, "plan.json", hostilePlan(t, "../../../../other/fabric"))
		}, []string{"apply", "plan.json", "--insecure-ignore-host-key"}, []string{"plan.json", `dir "../../../../other/fabric" leaves the working directory`, "--fabric DIR"}, nil},
		{"plan dir is a link out", func(t *testing.T, dir string) {
			other := t.TempDir()
			writeInterruptFabric(t, other, "")
			if err := os.Symlink(filepath.Join(other, "fabric"), filepath.Join(dir, "link")); err != nil {
				t.Fatal(err)
			}
			writeAt(t, dir, "plan.json", hostilePlan(t, "link"))
		}, []string{"apply", "plan.json", "--insecure-ignore-host-key"}, []string{"plan.json", `dir "link" leads out of the working directory through a symlink`}, nil},
		// --fabric names the fabric; the plan's dir is not followed and
		// its intent digest is checked against the fabric.
		{"plan dir replaced by --fabric", func(t *testing.T, dir string) {
			writeAt(t, dir, "plan.json", hostilePlan(t, "../../../../other/fabric"))
		}, []string{"apply", "plan.json", "--fabric", "fabric", "--insecure-ignore-host-key"}, []string{"intent changed since plan", "in fabric has digest"}, []string{"leaves the working directory"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeInterruptFabric(t, dir, "")
			c.setup(t, dir)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, c.args...)
			cmd.Dir = dir
			cmd.Env = relEnv()
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != exitFailed {
				t.Errorf("exit %v, want status 1:\n%s%s", err, stdout.String(), stderr.String())
			}
			all := stdout.String() + stderr.String()
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("output lacks %q:\n%s", w, all)
				}
			}
			for _, w := range c.never {
				if strings.Contains(all, w) {
					t.Errorf("output has %q:\n%s", w, all)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "..", "other")); err == nil {
				t.Error("apply wrote outside the working directory")
			}
		})
	}
}

// TestUnsignedPlanStatusIsDerived: a device's status edited to
// "unchanged" in an unsigned plan does not make apply skip it (issue 21
// item 7: it reported "Apply: 1 unchanged" and exited 0): apply derives
// the status again, refuses the device and exits 1; the device keeps its
// config. An honest plan of unchanged devices still applies with exit 0.
func TestUnsignedPlanStatusIsDerived(t *testing.T) {
	r := newPushRig(t, "ai-training-2subnet")
	r.run(0, nil, "plan", "fabric", "-out", "plan.json")
	raw, err := os.ReadFile("plan.json")
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	edited := ""
	for _, d := range p["devices"].([]any) {
		dm := d.(map[string]any)
		if dm["status"] == "change" {
			edited = dm["name"].(string)
			dm["status"] = "unchanged"
			delete(dm, "changes")
			break
		}
	}
	if edited == "" {
		t.Fatal("no changing device in the plan")
	}
	b, _ := json.Marshal(p)
	if err := os.WriteFile("edited.json", b, 0o600); err != nil {
		t.Fatal(err)
	}
	before := r.lab.Device(edited).RunningConfig()
	out, _ := r.run(exitFailed, nil, "apply", "edited.json", "--device", edited)
	if !strings.Contains(out, "the plan says "+edited+" is unchanged, but the intent and the running config give a change") || !strings.Contains(out, "1 refused") {
		t.Errorf("apply of a plan whose status was edited:\n%s", out)
	}
	if after := r.lab.Device(edited).RunningConfig(); after != before {
		t.Error("the device changed")
	}
	// A device left out of an unsigned plan is not applied, and apply
	// says so.
	devs := p["devices"].([]any)
	left := devs[len(devs)-1].(map[string]any)["name"].(string)
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	p["devices"] = p["devices"].([]any)[:len(devs)-1]
	b, _ = json.Marshal(p)
	if err := os.WriteFile("trimmed.json", b, 0o600); err != nil {
		t.Fatal(err)
	}
	_, errOut := r.run(0, nil, "apply", "trimmed.json")
	if !strings.Contains(errOut, "trimmed.json does not list 1 device(s) of the intent, which are not applied: "+left) {
		t.Errorf("apply of a plan that leaves %s out does not say so:\n%s", left, errOut)
	}
	r.run(0, nil, "plan", "fabric", "-out", "rest.json")
	r.run(0, nil, "apply", "rest.json")
	r.run(0, nil, "plan", "fabric", "-out", "again.json")
	out, _ = r.run(0, nil, "apply", "again.json")
	if !strings.Contains(out, "unchanged") || strings.Contains(out, "refused") {
		t.Errorf("an honest plan of unchanged devices:\n%s", out)
	}
}

// TestEditedAppliedRecordCLI: another team's ACL appended to a committed
// last-applied record (issue 21 item 7) is not deleted by the next plan
// and apply; with FABRICGEN_PLAN_KEY the records are signed and the
// edited one is refused, naming the file. An exact copy of the ACL the
// device holds (readable in the committed backups) is not removed either
// without --trust-records: plan lists it as kept, naming the record; a
// plan made with --trust-records removes it, and only an apply given the
// flag too applies that plan.
func TestEditedAppliedRecordCLI(t *testing.T) {
	for _, tc := range []struct {
		name  string
		env   map[string]string
		claim string
		exact bool
	}{
		{"unsigned", nil, "ip access-list MGMT-SSH\n", false},
		{"unsigned exact copy", nil, "!\nip access-list MGMT-SSH\n   10 permit tcp 10.0.0.0/8 any eq ssh\n", true},
		{"signed", map[string]string{"FABRICGEN_PLAN_KEY": "record-key"}, "ip access-list MGMT-SSH\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newPushRig(t, "ai-training-2subnet")
			r.run(0, tc.env, "apply", "fabric", "-auto-approve")
			if err := r.lab.Device("leaf1").ConfigureOutOfBand([]string{"ip access-list MGMT-SSH", "   10 permit tcp 10.0.0.0/8 any eq ssh"}); err != nil {
				t.Fatal(err)
			}
			recPath := filepath.Join("fabric", ".fabricgen", "applied", "leaf1.json")
			raw, err := os.ReadFile(recPath)
			if err != nil {
				t.Fatal(err)
			}
			var rec map[string]any
			if err := json.Unmarshal(raw, &rec); err != nil {
				t.Fatal(err)
			}
			if _, signed := rec["signature"]; signed != (tc.env != nil) {
				t.Errorf("record signed: %v, want %v", signed, tc.env != nil)
			}
			rec["rendered"] = rec["rendered"].(string) + tc.claim
			b, _ := json.MarshalIndent(rec, "", "  ")
			if err := os.WriteFile(recPath, b, 0o600); err != nil {
				t.Fatal(err)
			}
			if tc.env != nil {
				out, errOut := r.run(exitFailed, tc.env, "plan", "fabric")
				if !strings.Contains(out+errOut, "leaf1.json: its signature does not match") {
					t.Errorf("plan with an edited signed record:\n%s%s", out, errOut)
				}
				out, _ = r.run(exitFailed, tc.env, "apply", "fabric", "-auto-approve")
				if !strings.Contains(out, "leaf1.json: its signature does not match") {
					t.Errorf("apply with an edited signed record:\n%s", out)
				}
			} else {
				out, _ := r.run(0, tc.env, "plan", "fabric", "-detailed-exitcode")
				kept := "kept: ip access-list MGMT-SSH — only the unsigned record .fabricgen/applied/leaf1.json says fabricgen made it; set FABRICGEN_PLAN_KEY so fabricgen signs its records, remove it by hand, or pass --trust-records after reviewing the record (git log -p .fabricgen/applied)"
				if strings.Contains(out, kept) != tc.exact {
					t.Errorf("plan after the record was edited (the note %q wanted: %v):\n%s", kept, tc.exact, out)
				}
				md, _ := r.run(0, tc.env, "plan", "fabric", "--markdown")
				if strings.Contains(md, "kept: ip access-list MGMT-SSH") != tc.exact {
					t.Errorf("plan --markdown after the record was edited (the note wanted: %v):\n%s", tc.exact, md)
				}
				out, _ = r.run(0, tc.env, "apply", "fabric", "-auto-approve")
				if !strings.Contains(out, "No changes.") {
					t.Errorf("apply after the record was edited:\n%s", out)
				}
			}
			if !strings.Contains(r.lab.Device("leaf1").RunningConfig(), "ip access-list MGMT-SSH") {
				t.Error("another team's ACL was deleted")
			}
			if !tc.exact {
				return
			}
			// After review, --trust-records takes the record at its word;
			// an apply not given the flag refuses such a plan.
			r.run(2, tc.env, "plan", "fabric", "--trust-records", "-detailed-exitcode", "-out", "trusted.json")
			_, errOut := r.run(exitFailed, tc.env, "apply", "trusted.json")
			if !strings.Contains(errOut, "the plan was made with --trust-records") || !strings.Contains(errOut, "nothing was sent") {
				t.Errorf("apply of a --trust-records plan without the flag:\n%s", errOut)
			}
			if !strings.Contains(r.lab.Device("leaf1").RunningConfig(), "ip access-list MGMT-SSH") {
				t.Error("an apply without --trust-records deleted the ACL")
			}
			r.run(0, tc.env, "apply", "trusted.json", "--trust-records")
			if strings.Contains(r.lab.Device("leaf1").RunningConfig(), "ip access-list MGMT-SSH") {
				t.Error("apply --trust-records of the reviewed plan kept the ACL")
			}
		})
	}
}

// TestApplyPlanElsewhere: a plan made at the repository root applies from
// another directory with --fabric (the digest names the fabric, and the
// state goes to that fabric's state directory); without it apply says to
// pass --fabric.
func TestApplyPlanElsewhere(t *testing.T) {
	r := newPushRig(t, "ai-training-2subnet")
	r.run(0, nil, "plan", "fabric", "-out", "plan.json", "--device", "leaf2")
	if err := os.Mkdir("ci", 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir("ci")
	_, errOut := r.run(exitFailed, nil, "apply", filepath.Join("..", "plan.json"))
	if !strings.Contains(errOut, `the plan's dir "fabric" is not below the working directory`) || !strings.Contains(errOut, "--fabric DIR") {
		t.Errorf("apply from another directory without --fabric:\n%s", errOut)
	}
	out, _ := r.run(0, nil, "apply", filepath.Join("..", "plan.json"), "--fabric", filepath.Join("..", "fabric"))
	if !strings.Contains(out, "applied") {
		t.Errorf("apply --fabric:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join("..", "fabric", ".fabricgen", "applied", "leaf2.json")); err != nil {
		t.Errorf("the record is not in the fabric's state directory: %v", err)
	}
}
