package push

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
	"golang.org/x/crypto/ssh"
)

// applyOpts are the rig's apply options with a fresh backup folder.
func (r *rig) applyOpts() ApplyOptions {
	o := ApplyOptions{Options: r.opts}
	o.State.BackupRoot = filepath.Join(r.dir, "backups")
	return o
}

// sameManaged fails unless the device's normalised config equals want.
func sameConfig(t *testing.T, dl *dialect.Dialect, what, want, got string) {
	t.Helper()
	if a, b := config.Normalize(want, dl), config.Normalize(got, dl); a != b {
		t.Errorf("%s:\n%s", what, config.Unified("want", "got", a, b).Text)
	}
}

// txnIs picks the cases whose platform has transaction txn.
func txnIs(txn dialect.Transaction) func(platformCase) bool {
	return func(pc platformCase) bool { return pc.dialect().Transaction == txn }
}

// evilLine is a command an attacker adds to a plan file, in the syntax of
// the platforms with dialect dl's transaction.
func evilLine(dl *dialect.Dialect) string {
	switch {
	case dl.Host:
		return "touch /tmp/evil"
	case dl.ConfigDB:
		return `{"op":"add","path":"/NTP_SERVER/203.0.113.66","value":{}}`
	case dl.Transaction == dialect.TxnCommitConfirmed:
		return "set system login user evil class super-user"
	case dl.Transaction == dialect.TxnNVUE:
		return "nv set system aaa user evil role system-admin"
	}
	return "username evil privilege 15 secret evil"
}

// TestEditedPlanNeverReachesTheDevice: a line added by hand to a saved
// plan's change set is refused for every platform ("plan file does not
// match its intent"), nothing is sent, and the device never sees it.
func TestEditedPlanNeverReachesTheDevice(t *testing.T) {
	for _, pc := range platformCases(t) {
		t.Run(string(pc.dev.platform), func(t *testing.T) {
			r := newRig(t, pc.dev)
			dev := r.lab.Device(pc.dev.name)
			before := dev.RunningConfig()
			p := r.plan()
			d := p.Devices[0]
			if d.Status != planfile.StatusChange {
				t.Fatalf("plan: %s %s", d.Status, d.Error)
			}
			evil := evilLine(pc.dialect())
			d.Changes.Blocks = append(d.Changes.Blocks, config.Block{Lines: []string{evil}})
			res, err := Apply(context.Background(), p, r.f, r.inputs, r.applyOpts())
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Status != StatusRefused || !strings.Contains(res[0].Reason, "plan file does not match its intent") {
				t.Fatalf("edited plan: %s (%s), want refused", res[0].Status, res[0].Reason)
			}
			dl, _ := platforms.Dialect(pc.dev.platform)
			sameConfig(t, dl, "the device changed after a refused plan", before, dev.RunningConfig())
			for _, h := range dev.History() {
				if strings.Contains(h, "evil") {
					t.Errorf("the device received %q", h)
				}
			}
			if _, err := os.Stat(filepath.Join(r.dir, "backups")); err == nil {
				t.Error("a refused device got a backup")
			}
		})
	}
}

// TestPlanMustMatchTheIntent: a plan whose rendered config, platform,
// address or device list no longer matches the intent and the inventory
// changes nothing.
func TestPlanMustMatchTheIntent(t *testing.T) {
	pc := caseWhere(t, "a checkpoint platform", func(pc platformCase) bool { return pc.dialect().Transaction == dialect.TxnCheckpoint })
	var other schema.Platform
	for _, pl := range platforms.Needing("push dialect") {
		if pl.Name != pc.dev.platform {
			other = pl.Name
			break
		}
	}
	tests := []struct {
		name string
		edit func(r *rig, p *planfile.Plan) []Input
		want string
	}{
		{"rendered config changed", func(r *rig, p *planfile.Plan) []Input {
			in := append([]Input(nil), r.inputs...)
			in[0].Rendered = append(append([]byte(nil), in[0].Rendered...), "logging server 203.0.113.9\n"...)
			return in
		}, "rendered now differs"},
		{"plan platform edited", func(r *rig, p *planfile.Plan) []Input {
			p.Devices[0].Platform = string(other)
			return r.inputs
		}, "platform"},
		{"inventory points elsewhere", func(r *rig, p *planfile.Plan) []Input {
			r.opts.Inventory = map[string]string{pc.dev.name: "127.0.0.1:9"}
			return r.inputs
		}, "the plan was made against 127.0.0.1:"},
		{"device not in the intent", func(r *rig, p *planfile.Plan) []Input { return nil }, "not in the intent"},
		// The diff is what a reviewer reads: a plan whose diff says
		// something else than the change it carries is refused.
		{"recorded diff edited", func(r *rig, p *planfile.Plan) []Input {
			p.Devices[0].Diff.Text = "--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n"
			p.Devices[0].Diff.Added, p.Devices[0].Diff.Removed = 1, 1
			return r.inputs
		}, "the diff in the plan (+1 -1) differs"},
		// An unsigned plan's status is derived again: "unchanged"
		// written over a device with changes does not skip it.
		{"status edited to unchanged", func(r *rig, p *planfile.Plan) []Input {
			p.Devices[0].Status = planfile.StatusUnchanged
			p.Devices[0].Changes = nil
			return r.inputs
		}, "the plan says " + pc.dev.name + " is unchanged, but the intent and the running config give a change"},
		{"status edited to unchanged, diff emptied", func(r *rig, p *planfile.Plan) []Input {
			p.Devices[0].Status = planfile.StatusUnchanged
			p.Devices[0].Changes, p.Devices[0].Diff = nil, config.Diff{}
			return r.inputs
		}, "is unchanged, but"},
		{"unchanged device, inventory points elsewhere", func(r *rig, p *planfile.Plan) []Input {
			p.Devices[0].Status, p.Devices[0].Changes = planfile.StatusUnchanged, nil
			r.opts.Inventory = map[string]string{pc.dev.name: "127.0.0.1:9"}
			return r.inputs
		}, "refusing to check a device other than the one planned"},
		{"recorded diff text only edited", func(r *rig, p *planfile.Plan) []Input {
			p.Devices[0].Diff.Text = strings.Replace(p.Devices[0].Diff.Text, "+", "+ ", 1)
			return r.inputs
		}, "the diff in the plan"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, pc.dev)
			dev := r.lab.Device(pc.dev.name)
			before := dev.RunningConfig()
			p := r.plan()
			inputs := tc.edit(r, p)
			res, err := Apply(context.Background(), p, r.f, inputs, r.applyOpts())
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Status != StatusRefused || !strings.Contains(res[0].Reason, tc.want) {
				t.Fatalf("%s (%s), want refused with %q", res[0].Status, res[0].Reason, tc.want)
			}
			if tc.name == "inventory points elsewhere" && !strings.Contains(res[0].Reason, "127.0.0.1:9") {
				t.Errorf("the refusal does not name both addresses: %s", res[0].Reason)
			}
			dl, _ := platforms.Dialect(pc.dev.platform)
			sameConfig(t, dl, "device changed", before, dev.RunningConfig())
		})
	}
	// A device that is unchanged indeed stays unchanged, trusted plan or
	// not.
	r := newRig(t, pc.dev)
	if res := r.apply(r.plan(), filepath.Join(r.dir, "backups")); res[0].Status != StatusApplied {
		t.Fatalf("apply: %s (%s)", res[0].Status, res[0].Reason)
	}
	for _, trust := range []bool{false, true} {
		p := r.plan()
		o := r.applyOpts()
		o.TrustPlan = trust
		res, err := Apply(context.Background(), p, r.f, r.inputs, o)
		if err != nil || res[0].Status != StatusUnchanged {
			t.Errorf("TrustPlan=%v: an unchanged device: %v %s (%s)", trust, err, res[0].Status, res[0].Reason)
		}
	}
	p := r.plan()
	r.f.Digest = "changed"
	if _, err := Apply(context.Background(), p, r.f, r.inputs, r.applyOpts()); err == nil || !strings.Contains(err.Error(), "intent changed since plan") {
		t.Errorf("apply with another intent digest: %v", err)
	}
}

// TestConcurrentAppliesNeverBothWin: two runs with different intents
// change the same switch at once from two state directories (two
// operators, two machines: no shared lock). The device ends with exactly
// one intent, and a run that reports "applied" is the one whose intent
// the device has.
func TestConcurrentAppliesNeverBothWin(t *testing.T) {
	for _, pc := range platformCases(t) {
		if platforms.IsHost(pc.dev.platform) {
			continue // hosts have no device-side transaction; the local lock is their guard
		}
		t.Run(string(pc.dev.platform), func(t *testing.T) {
			r := newRig(t, pc.dev)
			other := otherIntent(t, pc.dev.platform, pc.dev.rendered)
			rB := *r
			rB.inputs = []Input{{Device: r.inputs[0].Device, Rendered: []byte(other)}}
			rB.opts.State = state.ForFabric(t.TempDir())
			pA, pB := r.plan(), rB.plan()
			var wg sync.WaitGroup
			var resA, resB []Result
			var errA, errB error
			wg.Add(2)
			go func() { defer wg.Done(); resA, errA = Apply(context.Background(), pA, r.f, r.inputs, r.applyOpts()) }()
			go func() { defer wg.Done(); resB, errB = Apply(context.Background(), pB, rB.f, rB.inputs, rB.applyOpts()) }()
			wg.Wait()
			if errA != nil || errB != nil {
				t.Fatal(errA, errB)
			}
			t.Logf("A: %s (%s); B: %s (%s)", resA[0].Status, resA[0].Reason, resB[0].Status, resB[0].Reason)
			if resA[0].Status == StatusApplied && resB[0].Status == StatusApplied {
				t.Fatal("both runs report applied")
			}
			dl, _ := platforms.Dialect(pc.dev.platform)
			now, err := fetchDirect(r, pc.dev.name, dl, pc.dev.rendered)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				res      Result
				rendered string
			}{{resA[0], pc.dev.rendered}, {resB[0], other}} {
				if c.res.Status != StatusApplied {
					continue
				}
				cmp, err := config.Compare(pc.dev.name, now, c.rendered, dl)
				if err != nil {
					t.Fatal(err)
				}
				if !cmp.Changes.Empty() {
					t.Errorf("a run reported applied but the device does not have its intent:\n%s", cmp.Diff.Text)
				}
			}
		})
	}
}

// otherIntent is a variant of a rendered config (another ECN threshold
// or MTU) for the concurrency test.
func otherIntent(t *testing.T, p schema.Platform, rendered string) string {
	t.Helper()
	mtus := []string{"9214", "9216"}
	if mustDialect(p).ConfigDB {
		mtus = []string{`"9214"`, `"9100"`} // CONFIG_DB holds strings
	}
	for _, m := range mtus {
		to := strings.Replace(m, strings.Trim(m, `"`), "9000", 1)
		if out := strings.Replace(rendered, m, to, 1); out != rendered {
			return out
		}
	}
	t.Fatalf("no MTU to vary in the %s fixture: the concurrency test needs a second intent", p)
	return ""
}

// TestInterruptFinishesDevicesInFlight: after the first interrupt no new
// device starts, the device already changing finishes, and Apply says it
// was interrupted.
func TestInterruptFinishesDevicesInFlight(t *testing.T) {
	pc := caseWhere(t, "a checkpoint platform", func(pc platformCase) bool { return pc.dialect().Transaction == dialect.TxnCheckpoint })
	first, second := pc.dev, pc.dev
	first.name, second.name = "leaf1", "leaf2"
	r := newRig(t, first, second)
	p := r.plan()
	r.lab.Device("leaf1").SetFault(lab.Fault{Delay: 30 * time.Millisecond})
	intr := make(chan struct{})
	opts := r.applyOpts()
	opts.Parallelism = 1
	opts.Interrupt = intr
	opts.Events = func(e Event) {
		if e.Device == "leaf1" && e.Step == "stage" {
			select {
			case <-intr:
			default:
				close(intr)
			}
		}
	}
	res, err := Apply(context.Background(), p, r.f, r.inputs, opts)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("Apply: %v, want ErrInterrupted", err)
	}
	if res[0].Status != StatusApplied || res[1].Status != StatusSkipped {
		t.Fatalf("leaf1 %s (%s), leaf2 %s (%s); want applied, skipped", res[0].Status, res[0].Reason, res[1].Status, res[1].Reason)
	}
	if rec, _ := r.opts.State.InFlight("leaf1"); rec != nil {
		t.Error("a finished device kept its in-flight record")
	}
}

// TestHardStopSaysWhatTheDeviceHas: a run stopped at once mid-change
// reports the device as interrupted with the command that restores it,
// keeps the in-flight record, the next plan refuses the device, and
// rollback restores the backup and clears the record.
func TestHardStopSaysWhatTheDeviceHas(t *testing.T) {
	for _, pc := range platformCases(t) {
		t.Run(string(pc.dev.platform), func(t *testing.T) {
			r := newRig(t, pc.dev)
			dev := r.lab.Device(pc.dev.name)
			dl, _ := platforms.Dialect(pc.dev.platform)
			before, err := fetchDirect(r, pc.dev.name, dl, pc.dev.rendered)
			if err != nil {
				t.Fatal(err)
			}
			p := r.plan()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			opts := r.applyOpts()
			// Stop at once while the change is being staged: from the
			// stage step on the lab holds back every answer (ClearFault
			// below releases them), so the change cannot finish before
			// the stop however fast or loaded the machine is.
			var once sync.Once
			opts.Events = func(e Event) {
				if e.Step == "stage" {
					once.Do(func() {
						dev.SetFault(lab.Fault{Delay: time.Hour})
						time.AfterFunc(60*time.Millisecond, cancel)
					})
				}
			}
			res, err := Apply(ctx, p, r.f, r.inputs, opts)
			dev.ClearFault()
			if !errors.Is(err, ErrInterrupted) {
				t.Fatalf("Apply: %v", err)
			}
			got := res[0]
			t.Logf("%s: %s | restore: %s", got.Status, got.Reason, got.Restore)
			if got.Status != StatusInterrupted || got.Reason == "" {
				t.Fatalf("status %s (%s), want interrupted with what the device has", got.Status, got.Reason)
			}
			if pc.dialect().Transaction != dialect.TxnCommitConfirmed && got.Restore == "" {
				t.Error("no restore command")
			}
			// Read with the backup folder the run used: a record's
			// backup is looked up there, by its name.
			rec, err := r.applyOpts().State.InFlight(pc.dev.name)
			if err != nil || rec == nil {
				t.Fatalf("in-flight record after a hard stop: %v %v", rec, err)
			}
			if d := r.plan().Devices[0]; d.Status == planfile.StatusError && !strings.Contains(d.Error, "fabricgen rollback") {
				t.Errorf("plan after a hard stop: %s", d.Error)
			}
			// Restore with rollback, and check the device equals its backup.
			targets := []RollbackTarget{{Device: r.f.Devices[0], Backup: rec.Backup, Scope: rec.Rendered}}
			pv, err := PreviewRollback(context.Background(), targets, r.opts)
			if err != nil || pv[0].Error != "" {
				t.Fatalf("preview: %v %s", err, pv[0].Error)
			}
			rres, err := Rollback(context.Background(), targets, pv, r.applyOpts())
			if err != nil {
				t.Fatal(err)
			}
			if rres[0].Status != StatusRestored {
				t.Fatalf("rollback: %s (%s)", rres[0].Status, rres[0].Reason)
			}
			now, err := fetchDirect(r, pc.dev.name, dl, pc.dev.rendered)
			if err != nil {
				t.Fatal(err)
			}
			if !dl.Host {
				cmp, _ := config.CompareRestore(pc.dev.name, now, before, pc.dev.rendered, dl)
				if !cmp.Changes.Empty() {
					t.Errorf("after rollback the managed sections differ from the backup:\n%s", cmp.Diff.Text)
				}
			} else if config.Normalize(now, dl) != config.Normalize(before, dl) {
				t.Errorf("host settings differ from the backup after rollback")
			}
			if rec, _ := r.opts.State.InFlight(pc.dev.name); rec != nil {
				t.Error("rollback kept the in-flight record")
			}
			if d := r.plan().Devices[0]; d.Status != planfile.StatusChange {
				t.Errorf("plan after rollback: %s (%s), want change", d.Status, d.Error)
			}
		})
	}
}

// TestKilledRunIsFoundNextTime: a run killed mid-change (its in-flight
// record left behind, the device half-changed) makes the next plan report
// the device and apply refuse it, naming the rollback command; a device
// the killed run left clean has the record removed and is applied.
func TestKilledRunIsFoundNextTime(t *testing.T) {
	// A platform whose changes apply line by line.
	pc := caseWhere(t, "a checkpoint platform", func(pc platformCase) bool { return pc.dialect().Transaction == dialect.TxnCheckpoint })
	r := newRig(t, pc.dev)
	dev := r.lab.Device(pc.dev.name)
	dl, _ := platforms.Dialect(pc.dev.platform)
	before, err := fetchDirect(r, pc.dev.name, dl, pc.dev.rendered)
	if err != nil {
		t.Fatal(err)
	}
	// Plan and apply look for a record's backup in the backup folder
	// they are given (the rig's --backup-dir), never where the record
	// says.
	r.opts.State = r.applyOpts().State
	backup, err := r.opts.State.SaveBackup(pc.dev.name, before, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	rec := state.InFlight{Run: "fabricgen-20261201-000000-deadbeef", Holder: state.Me("fabricgen apply", time.Now()),
		Device: pc.dev.name, Platform: string(pc.dev.platform), Step: "stage", Backup: backup, Rendered: pc.dev.rendered}
	if err := r.opts.State.WriteInFlight(rec); err != nil {
		t.Fatal(err)
	}
	// Clean device: the record goes and the device is applied.
	p := r.plan()
	if p.Devices[0].Status != planfile.StatusChange {
		t.Fatalf("plan with a clean interrupted device: %s %s", p.Devices[0].Status, p.Devices[0].Error)
	}
	// Half-changed device: one line of the intent, not the rest.
	if err := dev.ConfigureOutOfBand([]string{"interface Ethernet1/1", "  mtu 9216"}); err != nil {
		t.Fatal(err)
	}
	p = r.plan()
	if d := p.Devices[0]; d.Status != planfile.StatusError || !strings.Contains(d.Error, "interrupted") || !strings.Contains(d.Error, r.opts.rollbackCommand(pc.dev.name)) || !strings.Contains(d.Error, " "+pc.dev.name+" ") {
		t.Fatalf("plan of a half-changed device: %s (%s)", d.Status, d.Error)
	}
	res, err := Apply(context.Background(), p, r.f, r.inputs, r.applyOpts())
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Status == StatusApplied {
		t.Fatal("apply changed a device an interrupted run left half-changed")
	}
	// Back to the backup by hand: the next apply clears the record.
	if err := dev.ConfigureOutOfBand([]string{"interface Ethernet1/1", "  no mtu 9216"}); err != nil {
		t.Fatal(err)
	}
	p = r.plan()
	res, err = Apply(context.Background(), p, r.f, r.inputs, r.applyOpts())
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Status != StatusApplied {
		t.Fatalf("apply after the device is clean again: %s (%s)", res[0].Status, res[0].Reason)
	}
	if got, _ := r.opts.State.InFlight(pc.dev.name); got != nil {
		t.Error("the interrupted run's record is still there")
	}
	if a, _ := r.opts.State.Applied(pc.dev.name); a == nil || a.Rendered != pc.dev.rendered {
		t.Error("no last-applied record after apply")
	}
}

// TestBackupsArePruned: --keep-backups keeps the newest N per device.
func TestBackupsArePruned(t *testing.T) {
	pc := caseWhere(t, "a switch", func(pc platformCase) bool { return !pc.pl.Spec.Host })
	r := newRig(t, pc.dev)
	dev := r.lab.Device(pc.dev.name)
	opts := r.applyOpts()
	opts.KeepBackups = 2
	for i := range 4 {
		if i > 0 {
			// Change something managed so there is a change to apply.
			if err := dev.ConfigureOutOfBand(pc.oob); err != nil {
				t.Fatal(err)
			}
			if err := dev.ConfigureOutOfBand([]string{"no qos map dscp 26 to traffic-class 3"}); err != nil {
				t.Fatal(err)
			}
		}
		p := r.plan()
		if p.Devices[0].Status != planfile.StatusChange {
			t.Fatalf("round %d: nothing to change", i)
		}
		res, err := Apply(context.Background(), p, r.f, r.inputs, opts)
		if err != nil || res[0].Status != StatusApplied {
			t.Fatalf("round %d: %v %s %s", i, err, res[0].Status, res[0].Reason)
		}
	}
	bs, err := opts.State.Backups(pc.dev.name)
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 2 {
		t.Errorf("%d backups kept, want 2", len(bs))
	}
}

// TestRollbackRemovesWhatApplyCreated: after an apply, rollback puts the
// managed sections back to the backup — the class-maps, policy-maps and
// ACLs apply created are removed — and leaves other lines alone.
func TestRollbackRemovesWhatApplyCreated(t *testing.T) {
	for _, pc := range platformCases(t) {
		t.Run(string(pc.dev.platform), func(t *testing.T) {
			r := newRig(t, pc.dev)
			dev := r.lab.Device(pc.dev.name)
			dl, _ := platforms.Dialect(pc.dev.platform)
			before, err := fetchDirect(r, pc.dev.name, dl, pc.dev.rendered)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Apply(context.Background(), r.plan(), r.f, r.inputs, r.applyOpts())
			if err != nil || res[0].Status != StatusApplied {
				t.Fatalf("apply: %v %s %s", err, res[0].Status, res[0].Reason)
			}
			if err := dev.ConfigureOutOfBand(pc.oob); err != nil {
				t.Fatal(err)
			}
			afterOOB := dev.RunningConfig()
			// The scope is the intent's render, as fabricgen rollback
			// takes it for a device without a record: verified.
			targets := []RollbackTarget{{Device: r.f.Devices[0], Backup: res[0].Backup, Scope: pc.dev.rendered, ScopeVerified: true}}
			pv, err := PreviewRollback(context.Background(), targets, r.opts)
			if err != nil || pv[0].Error != "" {
				t.Fatalf("preview: %v %s", err, pv[0].Error)
			}
			if !pv[0].Changes() {
				t.Fatal("the preview shows nothing to restore")
			}
			rres, err := Rollback(context.Background(), targets, pv, r.applyOpts())
			if err != nil || rres[0].Status != StatusRestored {
				t.Fatalf("rollback: %v %s (%s)", err, rres[0].Status, rres[0].Reason)
			}
			now, err := fetchDirect(r, pc.dev.name, dl, pc.dev.rendered)
			if err != nil {
				t.Fatal(err)
			}
			if dl.Host {
				if config.Normalize(now, dl) == config.Normalize(afterOOB, dl) {
					t.Error("host settings unchanged by rollback")
				}
				return
			}
			cmp, err := config.CompareRestore(pc.dev.name, now, before, pc.dev.rendered, dl)
			if err != nil {
				t.Fatal(err)
			}
			if !cmp.Changes.Empty() {
				t.Errorf("managed sections differ from the backup after rollback:\n%s", cmp.Diff.Text)
			}
			// The other administrator's change stays.
			if !strings.Contains(dev.RunningConfig(), oobMarker(pc)) {
				t.Errorf("rollback removed another administrator's change %q", pc.oob)
			}
		})
	}
}

// oobMarker is a piece of text the out-of-band change leaves in the
// running config.
// (the documentation address it names, else its last word).
func oobMarker(pc platformCase) string {
	if m := reDocAddress.FindString(strings.Join(pc.oob, "\n")); m != "" {
		return m
	}
	f := strings.Fields(pc.oob[len(pc.oob)-1])
	return f[len(f)-1]
}

var reDocAddress = regexp.MustCompile(`192\.0\.2\.\d+`)

// injections are payloads a hostile name or template could carry into a
// command line; none may run on the device. A payload in quotes gets out
// of a quoted word; a control character edits the line the terminal
// holds (^C drops it, a backspace deletes what came before).
var injections = []string{"$(reboot)", "`reboot`", "x;reboot", "x|reboot", "x&&reboot", "x\nreboot", "${IFS}reboot",
	"$(touch${IFS}/tmp/pwned)", "'$(reboot)'", "\"$(reboot)\"", "x'; reboot; '", "\x03reboot", strings.Repeat("\x7f", 80) + "reboot"}

// runsUnquoted reports whether bash, given `echo WORD` with the payload
// appended to WORD, runs the payload: every one does except a newline
// (the line ends there), ${IFS}reboot (an argument) and a payload in
// single quotes.
func runsUnquoted(payload string) bool {
	return !strings.Contains(payload, "\n") && payload != "${IFS}reboot" && !strings.Contains(payload, "'")
}

// injected reports whether a command the device's shell ran is a payload's.
func injected(argv []string) bool {
	return len(argv) > 0 && (strings.HasPrefix(argv[0], "reboot") || strings.HasPrefix(argv[0], "touch"))
}

// shellInjection is how a payload enters one shell platform's render:
// hosts carry it in an interface name, Cumulus in an nv set value (as a
// hostile override template could write them: the loader refuses such
// names), SONiC in a CONFIG_DB string (a port's FEC), which goes through
// the shell inside the JSON patch file apply writes.
func shellInjection(t *testing.T, pc platformCase, payload string) string {
	t.Helper()
	var hostile string
	switch dl := pc.dialect(); {
	case dl.Host:
		hostile = strings.ReplaceAll(pc.dev.rendered, pc.dev.ports[0], pc.dev.ports[0]+payload)
	case dl.Transaction == dialect.TxnNVUE:
		const line = "traffic-class 3 bw-percent 50\n"
		hostile = strings.Replace(pc.dev.rendered, line, "traffic-class 3 bw-percent 50"+payload+"\n", 1)
	case dl.ConfigDB:
		q, err := json.Marshal("rs" + payload)
		if err != nil {
			t.Fatal(err)
		}
		hostile = strings.Replace(pc.dev.rendered, `"fec": "rs"`, `"fec": `+string(q), 1)
	default:
		return ""
	}
	if hostile == pc.dev.rendered {
		t.Fatalf("%s: the payload found no place in the render: the case proves nothing", pc.dev.platform)
	}
	return hostile
}

// TestNoInjectedCommandRuns: renders carrying shell payloads on every
// platform the lab runs a shell for (hosts, Cumulus, SONiC) are planned
// and applied; the device's shell never runs the payload (the lab records
// every command its shells run, in $(...) and backquotes too).
func TestNoInjectedCommandRuns(t *testing.T) {
	for _, pc := range platformCases(t) {
		if dl := pc.dialect(); !dl.Host && !dl.ConfigDB && dl.Transaction != dialect.TxnNVUE {
			continue
		}
		for _, payload := range injections {
			t.Run(string(pc.dev.platform)+"/"+payload, func(t *testing.T) {
				dev := pc.dev
				dev.rendered = shellInjection(t, pc, payload)
				r := newRig(t, dev)
				p := r.plan()
				var res []Result
				if p.Devices[0].Status == planfile.StatusChange {
					var err error
					if res, err = Apply(context.Background(), p, r.f, r.inputs, r.applyOpts()); err != nil {
						t.Fatal(err)
					}
				}
				for _, argv := range r.lab.Device(pc.dev.name).ExecutedArgv() {
					if injected(argv) {
						t.Fatalf("the device's shell ran %q (plan: %s %s; apply: %+v)", argv, p.Devices[0].Status, p.Devices[0].Error, res)
					}
				}
				t.Logf("plan: %s %s; apply: %+v", p.Devices[0].Status, p.Devices[0].Error, res)
				// The detector works: the same payload typed into the
				// device's shell directly is seen running.
				typeRaw(t, r, pc.dev.name, "echo x"+payload)
				ran := false
				for _, argv := range r.lab.Device(pc.dev.name).ExecutedArgv() {
					ran = ran || injected(argv)
				}
				if !ran && runsUnquoted(payload) {
					t.Errorf("control: the payload typed unquoted was not seen running")
				}
			})
		}
	}
}

// TestNoInjectedConfigLine: on the CLI platforms (EOS, NX-OS, Junos) a
// rendered line in a managed section that carries a second command — after
// a ^C or ^U (the terminal drops what came before), after backspaces, or
// after NX-OS's ";" command separator — is planned and applied: the second
// command never reaches the device's configuration.
func TestNoInjectedConfigLine(t *testing.T) {
	evil := map[dialect.Transaction]string{
		dialect.TxnSession:         "username evil privilege 15 secret evil",
		dialect.TxnCheckpoint:      "username evil password evil role network-admin",
		dialect.TxnCommitConfirmed: "set system login user evil class super-user",
	}
	for _, pc := range platformCases(t) {
		cmd, ok := evil[pc.dialect().Transaction]
		if !ok {
			continue
		}
		line := regexp.MustCompile(`(?m)^.*` + strings.TrimPrefix(pc.reject, "^") + `.*$`).FindString(pc.dev.rendered)
		if line == "" {
			t.Fatalf("%s: no line matching %s in the render", pc.dev.platform, pc.reject)
		}
		payloads := map[string]string{
			"ctrl-c":    "\x03" + cmd,
			"ctrl-u":    "\x15" + cmd,
			"backspace": strings.Repeat("\x7f", len(line)+8) + cmd,
			"question":  " ?",
		}
		if pc.dialect().Transaction == dialect.TxnCheckpoint {
			payloads["semicolon"] = " ; " + cmd
		}
		for name, payload := range payloads {
			t.Run(string(pc.dev.platform)+"/"+name, func(t *testing.T) {
				dev := pc.dev
				dev.rendered = strings.Replace(pc.dev.rendered, line, line+payload, 1)
				r := newRig(t, dev)
				p := r.plan()
				var res []Result
				if p.Devices[0].Status == planfile.StatusChange {
					var err error
					if res, err = Apply(context.Background(), p, r.f, r.inputs, r.applyOpts()); err != nil {
						t.Fatal(err)
					}
				}
				t.Logf("plan: %s %s; apply: %+v", p.Devices[0].Status, p.Devices[0].Error, res)
				if run := r.lab.Device(pc.dev.name).RunningConfig(); strings.Contains(run, "evil") {
					t.Fatalf("the injected command reached the configuration of %s", pc.dev.name)
				}
				if p.Devices[0].Status != planfile.StatusError || !strings.Contains(p.Devices[0].Error, "refusing to send") {
					t.Errorf("plan: %s %q, want the device refused, naming the line", p.Devices[0].Status, p.Devices[0].Error)
				}
			})
		}
	}
}

// typeRaw types line into an interactive shell of the lab device, as a
// person at a terminal would (control characters and all), then logs out.
func typeRaw(t *testing.T, r *rig, device, line string) {
	t.Helper()
	cfg := &ssh.ClientConfig{User: "admin", Auth: []ssh.AuthMethod{ssh.Password(testSecret)},
		HostKeyCallback: r.opts.HostKeys.Callback(), Timeout: time.Minute}
	cl, err := ssh.Dial("tcp", r.lab.Addr(device), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	sess, err := cl.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if err := sess.RequestPty("xterm", 200, 1000, ssh.TerminalModes{ssh.ECHO: 1}); err != nil {
		t.Fatal(err)
	}
	in, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sess.Stdout = &out
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(in, line+"\r"+"exit\r"); err != nil {
		t.Fatal(err)
	}
	_ = sess.Wait()
}

// TestNXOSRollsBackFromEveryMode: a command rejected inside each
// configuration mode the NX-OS templates enter rolls the device back to
// its checkpoint; scrapligo's built-in NX-OS platform does not know the
// (config-sys-qos)# prompt, and the rollback then failed. The render is
// the change matrix's leaf2 (QoS and ACLs), so every mode is entered.
//
// It runs on every checkpoint platform (NX-OS and its copies), with its
// folder's render (QoS and ACLs).
func TestNXOSRollsBackFromEveryMode(t *testing.T) {
	for _, pc := range casesWhere(t, "a checkpoint platform", func(pc platformCase) bool {
		return pc.dialect().Transaction == dialect.TxnCheckpoint
	}) {
		t.Run(string(pc.dev.platform), func(t *testing.T) { nxosRollsBackFromEveryMode(t, pc) })
	}
}

func nxosRollsBackFromEveryMode(t *testing.T, pc platformCase) {
	rendered := pc.dev.rendered
	for _, tc := range []struct{ reject, mode string }{
		{`^service-policy type queuing output`, "config-sys-qos"},
		{`^random-detect minimum-threshold`, "config-pmap-c-que"},
		{`^class type queuing c-out-8q-q6`, "config-pmap-que"},
		{`^match dscp 26`, "config-cmap-qos"},
		{`^priority-flow-control mode on`, "config-if"},
		{`^pause pfc-cos`, "config-pmap-c-nqos"},
		{`^class type network-qos c-8q-nq3`, "config-pmap-nqos"},
		{`^set qos-group 3`, "config-pmap-c-qos"},
		{`^class FG-DSCP-cnp`, "config-pmap-qos"},
		{`^30 permit icmp any any`, "config-acl"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			if !regexp.MustCompile(`(?m)^\s*` + strings.TrimPrefix(tc.reject, "^")).MatchString(rendered) {
				t.Fatalf("the render has no line matching %s: the case proves nothing", tc.reject)
			}
			r := newRig(t, pc.dev)
			dev := r.lab.Device(pc.dev.name)
			before := dev.RunningConfig()
			p := r.plan()
			dev.SetFault(lab.Fault{Reject: tc.reject})
			res, err := Apply(context.Background(), p, r.f, r.inputs, r.applyOpts())
			dev.ClearFault()
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Status != StatusRolledBack {
				t.Fatalf("%s (%s), want rolled back", res[0].Status, res[0].Reason)
			}
			if !strings.Contains(res[0].Reason, "the device rejected") {
				t.Errorf("the result does not say the command was rejected: %s", res[0].Reason)
			}
			sameConfig(t, pc.dialect(), "device after rollback", before, dev.RunningConfig())
		})
	}
}

// TestOutOfBandChangeDuringApply: another administrator changes a line
// fabricgen does not manage (a logging server) while apply stages: on EOS
// the session would commit a copy of the config from before their change,
// so the session is aborted and the device refused, their change kept; on
// NX-OS (changes apply line by line) apply goes on and reports their
// change, which is kept. A change to a line fabricgen manages is refused
// on every platform: TestManagedLineChangedDuringStage.
func TestOutOfBandChangeDuringApply(t *testing.T) {
	for _, pc := range casesWhere(t, "a config-session or checkpoint platform", func(pc platformCase) bool {
		txn := pc.dialect().Transaction
		return txn == dialect.TxnSession || txn == dialect.TxnCheckpoint
	}) {
		t.Run(string(pc.dev.platform), func(t *testing.T) {
			r := newRig(t, pc.dev)
			dev := r.lab.Device(pc.dev.name)
			p := r.plan()
			opts := r.applyOpts()
			var once sync.Once
			done := make(chan error, 1)
			dev.SetFault(lab.Fault{Delay: 5 * time.Millisecond})
			opts.Events = func(e Event) {
				if e.Step != "stage" {
					return
				}
				once.Do(func() {
					go func() {
						// Once the change is being staged, change the
						// device as another administrator would.
						deadline := time.Now().Add(time.Minute)
						for time.Now().Before(deadline) {
							for _, h := range dev.History() {
								if strings.HasPrefix(h, "configure session fabricgen-") || strings.HasPrefix(h, "interface Ethernet") {
									done <- dev.ConfigureOutOfBand(pc.oob)
									return
								}
							}
							time.Sleep(time.Millisecond)
						}
						done <- errors.New("the change was never staged")
					}()
				})
			}
			res, err := Apply(context.Background(), p, r.f, r.inputs, opts)
			dev.ClearFault()
			if err != nil {
				t.Fatal(err)
			}
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %s", res[0].Status, res[0].Reason)
			if !strings.Contains(dev.RunningConfig(), "192.0.2.99") {
				t.Fatal("the other administrator's change was lost")
			}
			switch pc.dialect().Transaction {
			case dialect.TxnSession:
				if res[0].Status != StatusRefused || !strings.Contains(res[0].Reason, "changed while the change was staged") {
					t.Errorf("EOS: %s (%s), want refused", res[0].Status, res[0].Reason)
				}
			default:
				if res[0].Status != StatusApplied || !strings.Contains(res[0].Reason, "does not manage changed during the apply") {
					t.Errorf("%s: %s (%s), want applied with a note", pc.dev.platform, res[0].Status, res[0].Reason)
				}
			}
		})
	}
}

// TestCommitTimerExpiresDuringVerify: the device's own confirm timer
// fires while apply verifies (EOS commit timer, Junos commit confirmed,
// NVUE apply --confirm): the device rolled back by itself, and apply must
// not undo that undo (Junos rollback 1 + commit would re-commit the
// change); it reports the device rolled back and equal to its backup.
func TestCommitTimerExpiresDuringVerify(t *testing.T) {
	for _, pc := range platformCases(t) {
		if !hasTimer(pc) {
			continue
		}
		t.Run(string(pc.dev.platform), func(t *testing.T) {
			r := newRig(t, pc.dev)
			dev := r.lab.Device(pc.dev.name)
			before := dev.RunningConfig()
			p := r.plan()
			opts := r.applyOpts()
			var once sync.Once
			opts.Events = func(e Event) {
				if e.Step == "verify" {
					once.Do(dev.ExpireTimers)
				}
			}
			res, err := Apply(context.Background(), p, r.f, r.inputs, opts)
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Status != StatusRolledBack {
				t.Fatalf("%s (%s), want rolled back", res[0].Status, res[0].Reason)
			}
			dl, _ := platforms.Dialect(pc.dev.platform)
			sameConfig(t, dl, "device after its timer rolled it back", before, dev.RunningConfig())
		})
	}
}

// TestEditedAppliedRecordRemovesNothing: a last-applied record edited by
// hand (issue 21 item 7: another team's "ip access-list MGMT-SSH"
// appended to .fabricgen/applied/spine2.json made the next apply delete
// it) does not make plan or apply remove anything the device does not
// bear out. Without a key, a stanza only the record claims stays managed
// only when the device holds exactly what the record says; with
// FABRICGEN_PLAN_KEY the record must carry a matching signature, and an
// edited one is refused naming the file.
func TestEditedAppliedRecordRemovesNothing(t *testing.T) {
	// The cases are in the syntax of the first platform with the
	// property; $port is the host's first port.
	eos := caseWhere(t, "a config-session platform", txnIs(dialect.TxnSession))
	nxos := caseWhere(t, "a checkpoint platform", txnIs(dialect.TxnCheckpoint))
	sonic := caseWhere(t, "a CONFIG_DB platform", func(pc platformCase) bool { return pc.dialect().ConfigDB })
	mlnx := caseWhere(t, "a host with MLNX_OFED's ECN sysfs", func(pc platformCase) bool {
		return pc.pl.Spec.Host && strings.Contains(pc.dev.rendered, "/ecn/roce_np/enable/")
	})
	tests := []struct {
		name     string
		pc       platformCase
		theirs   []string // what another team configures out of band
		claim    string   // what the edit appends to the record
		survives string   // a line of theirs that must stay
		key      bool
		// kept, when set, is the claim plan must list as held back: the
		// claim is an exact copy of what the device holds, which
		// VerifiedScope bears out, so only --trust-records removes it.
		kept string
		// edit, when set, makes the claim instead of appending claim
		// (SONiC's record is one JSON document).
		edit func(t *testing.T, rendered string) string
	}{
		{name: "eos: another team's ACL claimed", pc: eos,
			theirs: []string{"ip access-list MGMT-SSH", "   10 permit tcp any any eq ssh"},
			claim:  "ip access-list MGMT-SSH\n", survives: "ip access-list MGMT-SSH"},
		{name: "eos: another team's ACL claimed with other entries", pc: eos,
			theirs: []string{"ip access-list MGMT-SSH", "   10 permit tcp any any eq ssh"},
			claim:  "ip access-list MGMT-SSH\n   10 permit tcp any any eq 23\n", survives: "10 permit tcp any any eq ssh"},
		{name: "eos: an interface the render does not configure claimed", pc: eos,
			theirs: []string{"interface Ethernet30/1", "   mtu 9000"},
			claim:  "interface Ethernet30/1\n   mtu 9214\n", survives: "mtu 9000"},
		{name: "nxos: another team's ACL claimed", pc: nxos,
			theirs: []string{"ip access-list MGMT-SSH", "  10 permit tcp any any eq 22"},
			claim:  "ip access-list MGMT-SSH\n", survives: "ip access-list MGMT-SSH"},
		{name: "mlnx: a setting the host has otherwise claimed", pc: mlnx,
			theirs: []string{"echo 0 > /sys/class/net/$port/ecn/roce_np/enable/5"},
			claim:  "echo 1 > /sys/class/net/$port/ecn/roce_np/enable/5\n", survives: "echo 0 > /sys/class/net/$port/ecn/roce_np/enable/5"},
		{name: "sonic: another team's WRED profile claimed", pc: sonic,
			theirs:   []string{`[{"op":"add","path":"/WRED_PROFILE/OTHER-TEAM","value":{"ecn":"ecn_none","wred_green_enable":"false"}}]`},
			survives: "OTHER-TEAM",
			edit: func(t *testing.T, rendered string) string {
				var doc map[string]map[string]map[string]any
				if err := json.Unmarshal([]byte(rendered), &doc); err != nil {
					t.Fatal(err)
				}
				doc["WRED_PROFILE"]["OTHER-TEAM"] = map[string]any{"ecn": "ecn_all"}
				b, _ := json.Marshal(doc)
				return string(b)
			}},
		{name: "eos: an exact copy of another team's ACL claimed", pc: eos,
			theirs: []string{"ip access-list MGMT-SSH", "   10 permit tcp 10.0.0.0/8 any eq ssh"},
			claim:  "!\nip access-list MGMT-SSH\n   10 permit tcp 10.0.0.0/8 any eq ssh\n", survives: "ip access-list MGMT-SSH",
			kept: "ip access-list MGMT-SSH"},
		{name: "eos: an exact copy of an interface the render does not configure claimed", pc: eos,
			theirs: []string{"interface Ethernet30/1", "   mtu 9000"},
			claim:  "interface Ethernet30/1\n   mtu 9000\n", survives: "mtu 9000", kept: "interface Ethernet30/1"},
		{name: "nxos: an exact copy of another team's ACL claimed", pc: nxos,
			theirs: []string{"ip access-list MGMT-SSH", "  10 permit tcp 10.0.0.0/8 any eq 22"},
			claim:  "ip access-list MGMT-SSH\n  10 permit tcp 10.0.0.0/8 any eq 22\n", survives: "ip access-list MGMT-SSH",
			kept: "ip access-list MGMT-SSH"},
		{name: "mlnx: an exact copy of a host setting claimed", pc: mlnx,
			theirs: []string{"echo 0 > /sys/class/net/$port/ecn/roce_np/enable/5"},
			claim:  "echo 0 > /sys/class/net/$port/ecn/roce_np/enable/5\n", survives: "echo 0 > /sys/class/net/$port/ecn/roce_np/enable/5",
			kept: "echo 0 > /sys/class/net/$port/ecn/roce_np/enable/5"},
		{name: "sonic: an exact copy of another team's WRED profile claimed", pc: sonic,
			theirs:   []string{`[{"op":"add","path":"/WRED_PROFILE/OTHER-TEAM","value":{"ecn":"ecn_none","wred_green_enable":"false"}}]`},
			survives: "OTHER-TEAM", kept: "WRED_PROFILE|OTHER-TEAM",
			edit: func(t *testing.T, rendered string) string {
				var doc map[string]map[string]map[string]any
				if err := json.Unmarshal([]byte(rendered), &doc); err != nil {
					t.Fatal(err)
				}
				doc["WRED_PROFILE"]["OTHER-TEAM"] = map[string]any{"ecn": "ecn_none", "wred_green_enable": "false"}
				b, _ := json.Marshal(doc)
				return string(b)
			}},
		{name: "eos, signed records: the edit is refused", pc: eos, key: true,
			theirs: []string{"ip access-list MGMT-SSH", "   10 permit tcp any any eq ssh"},
			claim:  "ip access-list MGMT-SSH\n   10 permit tcp any any eq ssh\n", survives: "ip access-list MGMT-SSH"},
	}
	for _, tc := range tests {
		if tc.pc.pl.Spec.Host {
			port := func(s string) string { return strings.ReplaceAll(s, "$port", tc.pc.dev.ports[0]) }
			for i := range tc.theirs {
				tc.theirs[i] = port(tc.theirs[i])
			}
			tc.claim, tc.survives, tc.kept = port(tc.claim), port(tc.survives), port(tc.kept)
		}
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.pc.dev)
			if tc.key {
				r.opts.State.Key = []byte("record-key")
			}
			name := tc.pc.dev.name
			dev := r.lab.Device(name)
			if res := r.apply(r.plan(), filepath.Join(r.dir, "backups")); res[0].Status != StatusApplied {
				t.Fatalf("apply: %s (%s)", res[0].Status, res[0].Reason)
			}
			if err := dev.ConfigureOutOfBand(tc.theirs); err != nil {
				t.Fatal(err)
			}
			// The edit, as by hand: the record rewritten without a key.
			rec, err := r.opts.State.Applied(name)
			if err != nil || rec == nil {
				t.Fatalf("applied record: %+v %v", rec, err)
			}
			if tc.edit != nil {
				rec.Rendered = tc.edit(t, rec.Rendered)
			} else {
				rec.Rendered += tc.claim
			}
			unsigned := r.opts.State
			unsigned.Key = nil
			if err := unsigned.WriteApplied(*rec); err != nil {
				t.Fatal(err)
			}
			if tc.key {
				b, _ := os.ReadFile(filepath.Join(r.opts.State.Path, "applied", name+".json"))
				b = bytes.Replace(b, []byte("\n}"), []byte(",\n  \"signature\": \""+rec.Signature+"\"\n}"), 1)
				_ = os.WriteFile(filepath.Join(r.opts.State.Path, "applied", name+".json"), b, 0o600)
			}
			p := r.plan()
			d := p.Devices[0]
			if tc.key {
				if d.Status != planfile.StatusError || !strings.Contains(d.Error, name+".json: its signature does not match") {
					t.Fatalf("plan with an edited signed record: %s (%s)", d.Status, d.Error)
				}
				return
			}
			if d.Status != planfile.StatusUnchanged {
				t.Fatalf("plan after the record was edited: %s %s\n%s", d.Status, d.Error, d.Diff.Text)
			}
			if tc.kept != "" {
				want := "kept: " + tc.kept + " — only the unsigned record .fabricgen/applied/" + name + ".json says fabricgen made it; set FABRICGEN_PLAN_KEY"
				if len(d.Kept) != 1 || !strings.HasPrefix(d.Kept[0], want) || !strings.Contains(d.Kept[0], "--trust-records") {
					t.Errorf("plan's kept notes %q, want one starting %q", d.Kept, want)
				}
			} else if len(d.Kept) > 0 {
				t.Errorf("plan's kept notes %q for a claim the device does not bear out", d.Kept)
			}
			res := r.apply(p, filepath.Join(r.dir, "backups"))
			if res[0].Status != StatusUnchanged {
				t.Fatalf("apply: %s (%s)", res[0].Status, res[0].Reason)
			}
			if !strings.Contains(dev.RunningConfig()+dev.Export(), tc.survives) {
				t.Errorf("%q was removed from the device", tc.survives)
			}
			if tc.kept == "" {
				return
			}
			// --trust-records takes the record at its word: the claim
			// the device bears out is acted on (removed; on a host whose
			// baseline lacks the setting's old value, refused).
			r.opts.TrustRecords = true
			if p = r.plan(); p.Devices[0].Status == planfile.StatusUnchanged || len(p.Devices[0].Kept) > 0 {
				t.Fatalf("plan --trust-records: %s %s kept %q\n%s", p.Devices[0].Status, p.Devices[0].Error, p.Devices[0].Kept, p.Devices[0].Diff.Text)
			}
		})
	}
}

// TestDay2RemovalNeedsATrustedRecord: an ACL with the user's name dropped
// from the intent is removed by the next apply when the last-applied
// record is signed (FABRICGEN_PLAN_KEY) or --trust-records is given; with
// neither, only the unsigned record says fabricgen made it, so the
// removal is held back and plan lists it, naming the record and the ways
// to have it removed. An FG-… object is fabricgen's by its name and is
// removed either way.
func TestDay2RemovalNeedsATrustedRecord(t *testing.T) {
	// EOS and NX-OS text: the first platform of each transaction.
	eos := caseWhere(t, "a config-session platform", txnIs(dialect.TxnSession))
	nxos := caseWhere(t, "a checkpoint platform", txnIs(dialect.TxnCheckpoint))
	platforms := []struct {
		pc     platformCase
		acl    string // the user-named ACL the first intent renders
		owned  string // an FG-… ACL the first intent renders too
		header string
	}{
		{eos, "ip access-list TEAM-ROCE\n   10 permit udp any any eq 4791\n", "ip access-list FG-EXTRA\n   10 permit udp any any eq 4792\n", "ip access-list TEAM-ROCE"},
		{nxos, "ip access-list TEAM-ROCE\n  10 permit udp any any eq 4791\n", "ip access-list FG-EXTRA\n  10 permit udp any any eq 4792\n", "ip access-list TEAM-ROCE"},
	}
	modes := []struct {
		name         string
		key, trust   bool
		removed      bool
		wantKeptNote bool
	}{
		{name: "signed record", key: true, removed: true},
		{name: "unsigned record, --trust-records", trust: true, removed: true},
		{name: "unsigned record", removed: false, wantKeptNote: true},
	}
	for _, pl := range platforms {
		for _, m := range modes {
			t.Run(string(pl.pc.dev.platform)+": "+m.name, func(t *testing.T) {
				dev := pl.pc.dev
				final := dev.rendered
				dev.rendered = final + pl.acl + pl.owned
				r := newRig(t, dev)
				if m.key {
					r.opts.State.Key = []byte("record-key")
				}
				if res := r.apply(r.plan(), filepath.Join(r.dir, "backups")); res[0].Status != StatusApplied {
					t.Fatalf("first apply: %s (%s)", res[0].Status, res[0].Reason)
				}
				lab := r.lab.Device(dev.name)
				if !strings.Contains(lab.RunningConfig(), pl.header) {
					t.Fatalf("the first apply did not create %q", pl.header)
				}
				// Day 2: both ACLs dropped from the intent.
				r.inputs[0].Rendered = []byte(final)
				r.opts.TrustRecords = m.trust
				p := r.plan()
				d := p.Devices[0]
				if d.Status != planfile.StatusChange {
					t.Fatalf("plan: %s %s, want the FG-EXTRA removal at least", d.Status, d.Error)
				}
				if !strings.Contains(d.Diff.Text, "-ip access-list FG-EXTRA") {
					t.Errorf("plan does not remove fabricgen's FG-EXTRA:\n%s", d.Diff.Text)
				}
				if got := strings.Contains(d.Diff.Text, "-"+pl.header); got != m.removed {
					t.Errorf("plan removes %q: %v, want %v:\n%s", pl.header, got, m.removed, d.Diff.Text)
				}
				note := "kept: " + pl.header + " — only the unsigned record .fabricgen/applied/" + dev.name + ".json says fabricgen made it"
				if got := len(d.Kept) == 1 && strings.HasPrefix(d.Kept[0], note); got != m.wantKeptNote {
					t.Errorf("plan's kept notes %q, want %q: %v", d.Kept, note, m.wantKeptNote)
				}
				ao := r.applyOpts()
				res, err := Apply(context.Background(), p, r.f, r.inputs, ao)
				if err != nil {
					t.Fatal(err)
				}
				if res[0].Status != StatusApplied {
					t.Fatalf("apply: %s (%s)", res[0].Status, res[0].Reason)
				}
				running := lab.RunningConfig()
				if strings.Contains(running, "FG-EXTRA") {
					t.Error("apply left fabricgen's FG-EXTRA")
				}
				if got := !strings.Contains(running, pl.header); got != m.removed {
					t.Errorf("apply removed %q: %v, want %v", pl.header, got, m.removed)
				}
			})
		}
	}
}

// TestApplyRefusesATrustMismatch: a plan made with --trust-records is
// applied only with the flag (an unsigned plan file could be edited to
// say so), and one made without it only without.
func TestApplyRefusesATrustMismatch(t *testing.T) {
	for _, tc := range []struct {
		plan, apply bool
		want        string
	}{
		{true, false, "the plan was made with --trust-records"},
		{false, true, "apply was given --trust-records but the plan was made without it"},
	} {
		t.Run(fmt.Sprintf("plan %v, apply %v", tc.plan, tc.apply), func(t *testing.T) {
			r := newRig(t, caseWhere(t, "a switch", func(pc platformCase) bool { return !pc.pl.Spec.Host }).dev)
			r.opts.TrustRecords = tc.plan
			p := r.plan()
			ao := r.applyOpts()
			ao.TrustRecords = tc.apply
			res, err := Apply(context.Background(), p, r.f, r.inputs, ao)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "nothing was sent") || res != nil {
				t.Fatalf("apply: %v %v, want the refusal %q", res, err, tc.want)
			}
		})
	}
}

// TestRollbackHoldsBackRecordOnlyClaims: rolling back an apply whose
// last-applied record is unsigned removes what the apply created that the
// intent re-derives (a user-named ACL the intent renders), but not an
// exact copy of another team's ACL pasted into the record: the preview
// lists it as kept. --trust-records removes it (the device bears the
// claim out).
func TestRollbackHoldsBackRecordOnlyClaims(t *testing.T) {
	for _, tc := range []struct {
		name  string
		trust bool
	}{{"unsigned record", false}, {"unsigned record, --trust-records", true}} {
		t.Run(tc.name, func(t *testing.T) {
			// EOS text: the platforms of EOS's transaction.
			d := caseWhere(t, "a config-session platform", func(pc platformCase) bool { return pc.dialect().Transaction == dialect.TxnSession }).dev
			d.rendered += "ip access-list TEAM-ROCE\n   10 permit udp any any eq 4791\n"
			r := newRig(t, d)
			res, err := Apply(context.Background(), r.plan(), r.f, r.inputs, r.applyOpts())
			if err != nil || res[0].Status != StatusApplied {
				t.Fatalf("apply: %v %+v", err, res)
			}
			dev := r.lab.Device(d.name)
			theirs := []string{"ip access-list MGMT-SSH", "   10 permit tcp 10.0.0.0/8 any eq ssh"}
			if err := dev.ConfigureOutOfBand(theirs); err != nil {
				t.Fatal(err)
			}
			rec, err := r.opts.State.Applied(d.name)
			if err != nil || rec == nil {
				t.Fatalf("applied record: %v", err)
			}
			rec.Rendered += "!\n" + strings.Join(theirs, "\n") + "\n"
			if err := r.opts.State.WriteApplied(*rec); err != nil {
				t.Fatal(err)
			}
			rec, _ = r.opts.State.Applied(d.name)
			targets := []RollbackTarget{{Device: r.f.Devices[0], Backup: res[0].Backup, Scope: rec.ReadScript(),
				ScopeVerified: rec.Verified, TrustRecords: tc.trust, Intent: d.rendered}}
			pv, err := PreviewRollback(context.Background(), targets, r.opts)
			if err != nil || pv[0].Error != "" {
				t.Fatalf("preview: %v %s", err, pv[0].Error)
			}
			if wantKept := !tc.trust; (len(pv[0].Kept) == 1 && pv[0].Kept[0] == "ip access-list MGMT-SSH") != wantKept {
				t.Errorf("preview kept %q, want MGMT-SSH listed: %v", pv[0].Kept, wantKept)
			}
			rres, err := Rollback(context.Background(), targets, pv, r.applyOpts())
			if err != nil || rres[0].Status != StatusRestored {
				t.Fatalf("rollback: %v %+v", err, rres)
			}
			running := dev.RunningConfig()
			if strings.Contains(running, "TEAM-ROCE") {
				t.Error("rollback left the ACL the apply created (the intent renders it)")
			}
			if got := strings.Contains(running, "ip access-list MGMT-SSH"); got == tc.trust {
				t.Errorf("another team's ACL on the device after rollback: %v, want %v", got, !tc.trust)
			}
		})
	}
}
