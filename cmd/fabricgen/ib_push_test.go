package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
)

// TestInfiniBandPushRoundTrip: on an InfiniBand fabric, plan and apply
// reach the subnet manager hosts only (the switches and HCAs are the
// subnet manager's to program, and are listed as skipped), write
// OpenSM's files, have OpenSM re-read them and read its tables back;
// a second plan finds nothing to change; drift is clean; another
// administrator's edit of opensm.conf is drift, and apply puts the
// intent back; rollback restores the backup taken before the first
// apply (no files), proven by reading them back.
func TestInfiniBandPushRoundTrip(t *testing.T) {
	r := newPushRig(t, "ib-cluster")
	out, _ := r.run(exitFindings, nil, "plan", "fabric", "-detailed-exitcode")
	for _, want := range []string{"+++ sm01 (fabricgen)", "+### /etc/opensm/opensm.conf", "+qos TRUE", "+### /etc/opensm/qos-policy.conf", "### /etc/opensm/partitions.conf", "sm02", "leaf1–leaf4, spine1–spine2 (an InfiniBand switch", "gpu01–gpu08, stor01–stor02 (an InfiniBand host"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan lacks %q:\n%s", want, out)
		}
	}
	out, _ = r.run(0, nil, "apply", "fabric", "--auto-approve")
	if strings.Count(out, "applied") < 2 || strings.Contains(out, "rolled back") || strings.Contains(out, "failed") {
		t.Fatalf("apply:\n%s", out)
	}
	out, _ = r.run(0, nil, "plan", "fabric", "-detailed-exitcode")
	if !strings.Contains(out, "No changes") {
		t.Errorf("a second plan after apply:\n%s", out)
	}
	out, _ = r.run(0, nil, "drift", "fabric")
	if strings.Contains(out, "drifted") {
		t.Errorf("drift after apply:\n%s", out)
	}

	// Another administrator lowers max_op_vls on sm01 (a later line of
	// an option wins) and has OpenSM re-read its files.
	if err := r.lab.Device("sm01").ConfigureOutOfBand([]string{
		"printf '%s\\n' 'max_op_vls 2' >> /etc/opensm/opensm.conf",
		"pkill -HUP -x opensm",
	}); err != nil {
		t.Fatal(err)
	}
	out, _ = r.run(exitFindings, nil, "drift", "fabric")
	if !strings.Contains(out, "sm01") || !strings.Contains(out, "max_op_vls 2") {
		t.Errorf("drift after another admin's edit:\n%s", out)
	}
	out, _ = r.run(exitFindings, nil, "plan", "fabric", "-detailed-exitcode")
	if !strings.Contains(out, "-max_op_vls 2") || strings.Contains(out, "+++ sm02") {
		t.Errorf("plan after another admin's edit of sm01:\n%s", out)
	}
	out, _ = r.run(0, nil, "apply", "fabric", "--auto-approve")
	if !strings.Contains(out, "applied") {
		t.Fatalf("apply over the edit:\n%s", out)
	}
	out, _ = r.run(0, nil, "plan", "fabric", "-detailed-exitcode")
	if !strings.Contains(out, "No changes") {
		t.Errorf("plan after re-apply:\n%s", out)
	}

	// Rollback restores sm01's newest backup (the files as the second
	// apply found them, with the other administrator's line), then its
	// first (no files at all), proven by reading the files back.
	out, _ = r.run(0, nil, "rollback", "sm01", "--fabric", "fabric", "-auto-approve")
	if !strings.Contains(out, "restored") {
		t.Fatalf("rollback sm01:\n%s", out)
	}
	if got := r.lab.Device("sm01").RunningConfig(); !strings.Contains(got, "max_op_vls 2") {
		t.Errorf("sm01 after rollback to the newest backup:\n%s", got)
	}
	backups, err := filepath.Glob(filepath.Join("fabric", ".fabricgen", "backups", "sm01", "*.cfg"))
	if err != nil || len(backups) < 2 {
		t.Fatalf("sm01's backups: %v %v", backups, err)
	}
	sort.Strings(backups)
	out, _ = r.run(0, nil, "rollback", "sm01", "--fabric", "fabric", "--to", backups[0], "-auto-approve")
	if !strings.Contains(out, "restored") {
		t.Fatalf("rollback sm01 to its first backup:\n%s", out)
	}
	if got := r.lab.Device("sm01").RunningConfig(); strings.Contains(got, "/etc/opensm/opensm.conf") {
		t.Errorf("sm01 still has opensm.conf after the rollback to the backup taken before any file was written:\n%s", got)
	}
	out, _ = r.run(exitFindings, nil, "plan", "fabric", "-detailed-exitcode")
	if !strings.Contains(out, "+++ sm01") || strings.Contains(out, "+++ sm02") {
		t.Errorf("plan after the rollback of sm01:\n%s", out)
	}
}

// TestInfiniBandApplyAdversity: the subnet manager host's file swap
// under the faults a real host has. Each case starts from a fresh lab.
//   - OpenSM cannot be told to re-read its files (the signal is refused):
//     the new files are taken out again and the host reads back as it was
//     (rolled back), while the other SM host applies.
//   - smpquery streams without end while verify reads the tables back:
//     the read is bounded, the change is undone.
//   - Another administrator edits opensm.conf between plan and apply:
//     the saved plan is refused for that host, nothing is written there.
func TestInfiniBandApplyAdversity(t *testing.T) {
	// A fault on one SM host: it ends rolled back (a second plan still
	// changes it), the other applies.
	for _, c := range []struct {
		name, dev, other string
		fault            lab.Fault
		args             []string
		says             string
	}{
		{"signal refused", "sm01", "sm02", lab.Fault{Reject: "^pkill"}, nil, "pkill"},
		{"smpquery streams", "sm02", "sm01", lab.Fault{Stream: "^smpquery"}, []string{"--max-device-output", "1"}, "smpquery"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newPushRig(t, "ib-cluster")
			r.lab.Device(c.dev).SetFault(c.fault)
			out, _ := r.run(exitFailed, nil, append([]string{"apply", "fabric", "--auto-approve"}, c.args...)...)
			if !regexp.MustCompile(c.dev+`\s+opensm\s+rolled back`).MatchString(out) || !regexp.MustCompile(c.other+`\s+opensm\s+applied`).MatchString(out) || !strings.Contains(out, c.says) {
				t.Errorf("apply with %s on %s:\n%s", c.name, c.dev, out)
			}
			r.lab.Device(c.dev).SetFault(lab.Fault{})
			out, _ = r.run(exitFindings, nil, "plan", "fabric", "-detailed-exitcode")
			if !strings.Contains(out, "+++ "+c.dev) || strings.Contains(out, "+++ "+c.other) {
				t.Errorf("plan after %s rolled back:\n%s", c.dev, out)
			}
		})
	}
	t.Run("changed since plan", func(t *testing.T) {
		r := newPushRig(t, "ib-cluster")
		r.run(exitFindings, nil, "plan", "fabric", "-out", "plan.json", "-detailed-exitcode")
		if err := r.lab.Device("sm01").ConfigureOutOfBand([]string{"printf '%s\\n' 'max_op_vls 2' > /etc/opensm/opensm.conf"}); err != nil {
			t.Fatal(err)
		}
		out, _ := r.run(exitFailed, nil, "apply", "plan.json")
		if !regexp.MustCompile(`sm01\s+opensm\s+stale`).MatchString(out) || !regexp.MustCompile(`sm02\s+opensm\s+applied`).MatchString(out) {
			t.Errorf("apply of a plan made before another admin's edit:\n%s", out)
		}
		if got := r.lab.Device("sm01").RunningConfig(); !strings.Contains(got, "max_op_vls 2") || strings.Contains(got, "qos TRUE") {
			t.Errorf("sm01 after the refused apply:\n%s", got)
		}
	})
	t.Run("tables not as the files say", func(t *testing.T) {
		// An override template sets max_op_vls 1: OpenSM takes the
		// files and masks every SL onto VL0 without a word. apply reads
		// the tables back, sees SL3 is not on VL3, and puts the old
		// files back once OpenSM says its sweep is done (SUBNET UP) and the tables
		// still differ.
		tmpl, err := os.ReadFile(filepath.Join(repoRoot(t), "platforms", "opensm", "templates", "device.tmpl"))
		if err != nil {
			t.Fatal(err)
		}
		r := newPushRig(t, "ib-cluster")
		if err := os.MkdirAll(filepath.Join("tmpl", "opensm"), 0o755); err != nil {
			t.Fatal(err)
		}
		bad := strings.Replace(string(tmpl), "max_op_vls {{.MaxOpVLs}}", "max_op_vls 1", 1)
		if err := os.WriteFile(filepath.Join("tmpl", "opensm", "device.tmpl"), []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		out, _ := r.run(exitFailed, nil, "apply", "fabric", "--auto-approve", "--device", "sm01", "--templates", "tmpl")
		if !regexp.MustCompile(`sm01\s+opensm\s+rolled back`).MatchString(out) || !strings.Contains(out, "maps SL to VL") || !strings.Contains(out, "finished its sweep after SIGHUP") {
			t.Errorf("apply of files whose tables OpenSM masks:\n%s", out)
		}
		if got := r.lab.Device("sm01").RunningConfig(); strings.Contains(got, "/etc/opensm/opensm.conf") {
			t.Errorf("sm01 keeps the new files after the rollback:\n%s", got)
		}
	})
}

// TestInfiniBandApplyKeepsTheirEdit: another administrator edits a
// subnet manager file in the instant before apply swaps its own in (the
// lab runs their edit right before the swap line). The swap checks the
// live file and renames in one shell line, so their file is kept, the
// files swapped before it are put back, and apply says it was refused;
// a second run (after plan) applies over the new state.
func TestInfiniBandApplyKeepsTheirEdit(t *testing.T) {
	r := newPushRig(t, "ib-cluster")
	armed, err := r.lab.Device("sm01").Before(`&& mv -f -- \S+/qos-policy\.conf `, lab.Happening{
		OutOfBand: []string{"printf '%s\\n' '# qos-level notes by the storage team' > /etc/opensm/qos-policy.conf"},
	})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := r.run(exitFailed, nil, "apply", "fabric", "--auto-approve", "--device", "sm01")
	if !armed.Ran() {
		t.Fatal("the edit before the swap of qos-policy.conf never ran")
	}
	if !regexp.MustCompile(`sm01\s+opensm\s+refused`).MatchString(out) || !strings.Contains(out, "/etc/opensm/qos-policy.conf changed after apply read it") {
		t.Errorf("apply with another administrator's edit of qos-policy.conf in flight:\n%s", out)
	}
	got := r.lab.Device("sm01").RunningConfig()
	if !strings.Contains(got, "storage team") || strings.Contains(got, "qos TRUE") {
		t.Errorf("sm01 after the refused apply: their policy must be kept, opensm.conf (swapped first) put back:\n%s", got)
	}
	out, _ = r.run(0, nil, "apply", "fabric", "--auto-approve", "--device", "sm01")
	if !strings.Contains(out, "applied") {
		t.Errorf("the second apply:\n%s", out)
	}
}
