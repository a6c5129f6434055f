package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/push/state"
)

// setIntent rewrites the example's ECN threshold of fabric/qos.fab.hcl to
// threshold ("150KB" is the example's own).
func setIntent(t *testing.T, threshold string) {
	t.Helper()
	p := filepath.Join("fabric", "qos.fab.hcl")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`\b(150|200)KB\b`)
	if !re.Match(b) {
		t.Fatal("no 150KB or 200KB threshold in the example to change")
	}
	if err := os.WriteFile(p, re.ReplaceAll(b, []byte(threshold)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// driftLine is the status word drift prints for device.
func driftLine(t *testing.T, out, device string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[0] == device {
			return f[1]
		}
	}
	t.Fatalf("drift does not list %s:\n%s", device, out)
	return ""
}

// TestRollbackIsOwnWork: apply, change the intent, apply, rollback: the
// restore is fabricgen's own work, so drift reports no drift and plan
// takes over nothing fabricgen put there; a second rollback changes
// nothing and keeps it so; a rollback to a backup holding a hand edit an
// apply repaired records the device's managed sections read back.
func TestRollbackIsOwnWork(t *testing.T) {
	r := newPushRig(t, "ai-training-2subnet")
	r.run(0, nil, "apply", "fabric", "-auto-approve")
	setIntent(t, "200KB")
	r.run(0, nil, "apply", "fabric", "-auto-approve")
	// The switches the change reached (EOS and NX-OS), by DIR and glob.
	o, _ := r.run(0, nil, "rollback", "fabric", "leaf*", "core1", "-auto-approve")
	if !strings.Contains(o, "Rollback: 3 restored") {
		t.Fatalf("rollback fabric leaf* core1:\n%s", o)
	}
	// The intent (200KB) is not on them any more: pending, not drift.
	o, _ = r.run(0, nil, "drift", "fabric")
	for _, d := range []string{"leaf1", "leaf2", "core1"} {
		if st := driftLine(t, o, d); st != "pending" {
			t.Errorf("drift after rollback with the intent changed: %s is %s, want pending:\n%s", d, st, o)
		}
	}
	o, _ = r.run(0, nil, "plan", "fabric")
	if strings.Contains(o, "takes over") {
		t.Errorf("plan after rollback takes over lines fabricgen put there:\n%s", o)
	}
	// With the intent back as it was, everything is in sync.
	setIntent(t, "150KB")
	o, _ = r.run(0, nil, "drift", "fabric")
	if !strings.Contains(o, "Drift: 11 in-sync.") {
		t.Errorf("drift after rollback with the intent it restored:\n%s", o)
	}
	r.run(0, nil, "plan", "fabric", "-detailed-exitcode")

	// A second rollback on top of the first changes nothing, and the
	// record stays.
	o, _ = r.run(0, nil, "rollback", "fabric", "leaf1", "-auto-approve")
	if !strings.Contains(o, "already matches backup") {
		t.Errorf("second rollback:\n%s", o)
	}
	o, _ = r.run(0, nil, "drift", "fabric")
	if !strings.Contains(o, "Drift: 11 in-sync.") {
		t.Errorf("drift after the second rollback:\n%s", o)
	}

	// A hand edit, repaired by apply, then rolled back to: the backup
	// holds lines no apply recorded; the rollback records what it
	// restored, read back from the device.
	if err := r.lab.Device("leaf1").ConfigureOutOfBand([]string{"no qos map dscp 46 to traffic-class 5"}); err != nil {
		t.Fatal(err)
	}
	r.run(0, nil, "apply", "fabric", "-auto-approve")
	o, _ = r.run(0, nil, "rollback", "fabric", "leaf1", "-auto-approve")
	if !strings.Contains(o, "read back from the device") {
		t.Errorf("rollback to the hand-edited backup does not say what it recorded:\n%s", o)
	}
	o, _ = r.run(0, nil, "drift", "fabric")
	if st := driftLine(t, o, "leaf1"); st == "drifted" || st == "conflict" {
		t.Errorf("drift after rollback reports the restore as drift (%s):\n%s", st, o)
	}
	o, _ = r.run(0, nil, "plan", "fabric")
	if strings.Contains(o, "takes over") {
		t.Errorf("plan after rollback takes over lines the rollback put there:\n%s", o)
	}

	// A host rolled back to the backup taken before fabricgen first
	// applied it is as it was before fabricgen: no record, pending.
	o, _ = r.run(0, nil, "rollback", "fabric", "gpu01-cx6", "-auto-approve")
	if !strings.Contains(o, "Rollback: 1 restored") || !strings.Contains(o, "before fabricgen first applied") {
		t.Errorf("rollback of a host to its brownfield backup:\n%s", o)
	}
	o, _ = r.run(0, nil, "drift", "fabric")
	if st := driftLine(t, o, "gpu01-cx6"); st != "pending" {
		t.Errorf("drift after a rollback to before the first apply: gpu01-cx6 is %s, want pending:\n%s", st, o)
	}
	r.run(0, nil, "apply", "fabric", "-auto-approve")
	o, _ = r.run(0, nil, "drift", "fabric")
	if st := driftLine(t, o, "gpu01-cx6"); st != "in-sync" {
		t.Errorf("drift after applying again: gpu01-cx6 is %s:\n%s", st, o)
	}
}

// TestRollbackEditedRecord: the last-applied record kept beside a backup
// is never trusted blindly. Signed (FABRICGEN_PLAN_KEY), an edited one is
// refused by name; unsigned, one claiming what the device does not hold
// is not used. Either way the restore goes on and records what it read
// back, never the edited value.
func TestRollbackEditedRecord(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"signed", map[string]string{"FABRICGEN_PLAN_KEY": "state-key"}, "signature does not match"},
		{"unsigned", nil, "read back from the device"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newPushRig(t, "ai-training-2subnet")
			r.run(0, tc.env, "apply", "fabric", "-auto-approve")
			setIntent(t, "200KB")
			r.run(0, tc.env, "apply", "fabric", "-auto-approve")
			st := state.ForFabric("fabric")
			bs, err := st.Backups("leaf1")
			if err != nil || len(bs) == 0 {
				t.Fatalf("backups of leaf1: %v %v", bs, err)
			}
			side := strings.TrimSuffix(bs[len(bs)-1].Path, ".cfg") + ".applied.json"
			b, err := os.ReadFile(side)
			if err != nil {
				t.Fatalf("no record beside the backup: %v", err)
			}
			edited := bytes.ReplaceAll(b, []byte("150000"), []byte("999999"))
			if bytes.Equal(edited, b) {
				t.Fatalf("the record beside the backup has no 150000:\n%s", b)
			}
			if err := os.WriteFile(side, edited, 0o600); err != nil {
				t.Fatal(err)
			}
			o, _ := r.run(0, tc.env, "rollback", "fabric", "leaf1", "-auto-approve")
			if !strings.Contains(o, "Rollback: 1 restored") || !strings.Contains(o, tc.want) {
				t.Errorf("rollback with an edited record lacks %q:\n%s", tc.want, o)
			}
			rec, err := os.ReadFile(filepath.Join("fabric", ".fabricgen", "applied", "leaf1.json"))
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(rec, []byte("999999")) || !bytes.Contains(rec, []byte("150000")) {
				t.Errorf("the last-applied record took the edited value or lacks the restored one:\n%s", rec)
			}
			o, _ = r.run(0, tc.env, "drift", "fabric")
			if s := driftLine(t, o, "leaf1"); s != "pending" {
				t.Errorf("drift: leaf1 is %s, want pending:\n%s", s, o)
			}
		})
	}
}

// TestRollbackArgs: DIR is the first argument only when more follow and
// it is a directory holding *.fab.hcl files; --fabric makes every
// argument a device, so a device named like a fabric directory works.
func TestRollbackArgs(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, d := range []string{"fab", "spine"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "x.fab.hcl"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll("plain", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		args      []string
		fabricSet bool
		dir       string
		devs      []string
	}{
		{"device only", []string{"leaf1"}, false, ".", []string{"leaf1"}},
		{"dir then devices", []string{"fab", "leaf1", "leaf2"}, false, "fab", []string{"leaf1", "leaf2"}},
		{"a single argument is a device, even named like a fabric directory", []string{"spine"}, false, ".", []string{"spine"}},
		{"a device named like a fabric directory, after DIR", []string{"fab", "spine"}, false, "fab", []string{"spine"}},
		{"a directory without intent files is a device", []string{"plain", "leaf1"}, false, ".", []string{"plain", "leaf1"}},
		{"a missing directory is a device", []string{"nowhere", "leaf1"}, false, ".", []string{"nowhere", "leaf1"}},
		{"--fabric: every argument is a device", []string{"spine", "leaf1"}, true, "fab", []string{"spine", "leaf1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fabric := "."
			if tc.fabricSet {
				fabric = "fab"
			}
			dir, devs := rollbackArgs(tc.args, fabric, tc.fabricSet)
			if dir != tc.dir || strings.Join(devs, " ") != strings.Join(tc.devs, " ") {
				t.Errorf("rollbackArgs(%q) = %q %q, want %q %q", tc.args, dir, devs, tc.dir, tc.devs)
			}
		})
	}
}

// shellWords splits a command line the way a POSIX shell does, with sh
// itself.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	out, err := exec.Command("sh", "-c", `eval "set -- $1"; for a; do printf '%s\0' "$a"; done`, "sh", line).Output()
	if err != nil {
		t.Fatalf("sh cannot split %q: %v", line, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

// TestPrintedRollbackRuns: the restore command plan prints for a device
// an interrupted apply left carries the plan's connection flags, quoted,
// and works exactly as printed.
func TestPrintedRollbackRuns(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil && os.Getenv("CI") != "true" {
		t.Skip("sh (a POSIX shell, to split the printed command) is not installed")
	}
	r := newPushRig(t, "ai-training-2subnet")
	// The inventory under a name that must be quoted.
	inv, err := os.ReadFile(r.common[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("lab inventory.json", inv, 0o600); err != nil {
		t.Fatal(err)
	}
	r.common[1] = "lab inventory.json"
	r.run(0, nil, "apply", "fabric", "-auto-approve")
	st := state.ForFabric("fabric")
	app, err := st.Applied("leaf1")
	if err != nil || app == nil {
		t.Fatalf("no last-applied record of leaf1: %v", err)
	}
	setIntent(t, "200KB")
	r.run(0, nil, "apply", "fabric", "-auto-approve")
	bs, err := st.Backups("leaf1")
	if err != nil || len(bs) == 0 {
		t.Fatalf("backups: %v", err)
	}
	// A killed apply: its record stays, and the device matches neither
	// its backup nor the intent.
	if err := st.WriteInFlight(state.InFlight{Run: "fabricgen-20261201-000000-killed", Holder: state.Me("fabricgen apply", time.Now()), Device: "leaf1",
		Platform: app.Platform, Started: time.Now(), Step: "commit", Backup: bs[len(bs)-1].Path, Rendered: app.Rendered}); err != nil {
		t.Fatal(err)
	}
	if err := r.lab.Device("leaf1").ConfigureOutOfBand([]string{"no qos map dscp 46 to traffic-class 5"}); err != nil {
		t.Fatal(err)
	}
	s, out, errb := pushStreams("")
	run(r.ctx, append([]string{"plan", "fabric"}, r.common...), s)
	all := strings.Join(strings.Fields(out.String()+errb.String()), " ")
	m := regexp.MustCompile(`restore the device with (fabricgen rollback .*?) \(backup `).FindStringSubmatch(all)
	if m == nil {
		t.Fatalf("plan prints no restore command:\n%s%s", out, errb)
	}
	words := shellWords(t, m[1])
	for _, want := range []string{"--inventory", "lab inventory.json", "--known-hosts"} {
		if !strings.Contains(strings.Join(words, "\x00"), want) {
			t.Errorf("the printed command %q lacks %q", m[1], want)
		}
	}
	s, out, errb = pushStreams("yes\n")
	if code := run(r.ctx, words[1:], s); code != 0 || !strings.Contains(out.String(), "Rollback: 1 restored") {
		t.Fatalf("the printed command %q: exit %d\n%s\n%s", m[1], code, out, errb)
	}
	if rec, err := st.InFlight("leaf1"); err != nil || rec != nil {
		t.Errorf("the in-flight record stays after the printed rollback: %v", err)
	}
}
