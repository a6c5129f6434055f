package push

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// truth re-reads the device after a run and says whether the reported
// outcome is what the device has ("" when it is): applied and unchanged
// mean a fresh plan of the same intent is empty and no change of ours
// waits for confirmation; rolled back means every line fabricgen manages
// equals the backup (before); failed must name the command that restores
// the device.
func truth(t *testing.T, r *rig, platform schema.Platform, res Result, before string) string {
	t.Helper()
	dev := r.lab.Device(res.Device)
	dl, err := platforms.Dialect(platform)
	if err != nil {
		t.Fatal(err)
	}
	var rendered string
	for _, in := range r.inputs {
		if in.Device.Name == res.Device {
			rendered = string(in.Rendered)
		}
	}
	now, err := fetchDirect(r, res.Device, dl, rendered)
	if err != nil {
		t.Fatalf("%s: re-read the device after the run: %v", res.Device, err)
	}
	atIntent := func() bool {
		p, err := Plan(context.Background(), r.f, r.inputs, "truth", r.opts)
		if err != nil {
			t.Fatalf("plan after the run: %v", err)
		}
		for _, d := range p.Devices {
			if d.Name == res.Device {
				return d.Changes.Empty() && d.Error == ""
			}
		}
		t.Fatalf("%s: not in the plan", res.Device)
		return false
	}
	atBackup := func() bool {
		if dl.Host {
			return config.Digest(now, dl) == config.Digest(before, dl)
		}
		cmp, err := config.CompareRestore(res.Device, now, before, rendered, dl)
		if err != nil {
			t.Fatal(err)
		}
		return cmp.Changes.Empty()
	}
	switch res.Status {
	case StatusApplied, StatusUnchanged:
		if !atIntent() {
			return "reported " + string(res.Status) + " but a fresh plan of the intent is not empty: the device is not at the intent"
		}
		if timerPending(dev) {
			return "reported " + string(res.Status) + " but a change still waits for confirmation (the device will roll it back)"
		}
	case StatusRolledBack:
		if !atBackup() {
			return "reported rolled back but the managed sections differ from the backup:\n" + config.Unified("backup", "now", config.Normalize(before, dl), config.Normalize(now, dl)).Text
		}
	case StatusFailed, StatusInterrupted:
		if res.Restore == "" {
			return "reported " + string(res.Status) + " without a restore command"
		}
		if atIntent() && !timerPending(dev) {
			return "reported " + string(res.Status) + " but the device is fully applied and nothing waits for confirmation"
		}
		if atBackup() {
			return "reported " + string(res.Status) + " but the device is back at its backup"
		}
	case StatusRefused, StatusStale:
		if !atBackup() {
			return "reported " + string(res.Status) + " (nothing changed) but the managed sections differ from the backup"
		}
	}
	return ""
}

// readBack reads the device as apply does (a host: every setting its
// script sets), for truth's backup.
func readBack(t *testing.T, r *rig, d testDevice) string {
	t.Helper()
	dl, err := platforms.Dialect(d.platform)
	if err != nil {
		t.Fatal(err)
	}
	out, err := fetchDirect(r, d.name, dl, d.rendered)
	if err != nil {
		t.Fatalf("%s: read the device: %v", d.name, err)
	}
	return out
}

// timerPending reports whether the lab device has a commit waiting for
// its confirm timer, from what its own CLI prints.
func timerPending(dev *lab.Device) bool {
	return dev.PendingConfirm()
}

// TestCommitTimerExpiresDuringConfirm (issue 21, item 1): the device's
// own confirm timer (EOS commit timer, Junos commit confirmed, NVUE apply
// --confirm) runs out after verify read the device as converged, while
// the confirm command is on its way: the device rolled our change back by
// itself and the confirm confirms nothing. Apply must find that out by
// reading the device back after the confirm, and report rolled back — not
// applied.
func TestCommitTimerExpiresDuringConfirm(t *testing.T) {
	// The line that confirms (Junos: a commit in the exclusive candidate
	// fabricgen holds from stage to confirm): confirmPatterns.
	for _, pc := range platformCases(t) {
		pattern, ok := confirmPattern(pc)
		if !ok {
			continue
		}
		t.Run(string(pc.dev.platform), func(t *testing.T) {
			r := newRig(t, pc.dev)
			dev := r.lab.Device(pc.dev.name)
			before := readBack(t, r, pc.dev)
			p := r.plan()
			opts := r.applyOpts()
			var once sync.Once
			var armed lab.Armed
			opts.Events = func(e Event) {
				if e.Step == "confirm" {
					once.Do(func() {
						var err error
						if armed, err = dev.Before(pattern, lab.Happening{ExpireTimers: true}); err != nil {
							t.Error(err)
						}
					})
				}
			}
			res, err := Apply(context.Background(), p, r.f, r.inputs, opts)
			if err != nil {
				t.Fatal(err)
			}
			if armed == (lab.Armed{}) || !armed.Ran() {
				t.Fatalf("the confirm (%s) never reached the device: %s (%s)", pattern, res[0].Status, res[0].Reason)
			}
			t.Logf("%s: %s", res[0].Status, res[0].Reason)
			if why := truth(t, r, pc.dev.platform, res[0], before); why != "" {
				t.Fatalf("false outcome: %s (%s)", why, res[0].Reason)
			}
			if res[0].Status != StatusRolledBack {
				t.Errorf("%s (%s), want rolled back", res[0].Status, res[0].Reason)
			}
		})
	}
}

// TestCommitTimerExpiresDuringVerifyRead: as above, but the timer runs
// out while the verify read is in flight on a slow device, so the read
// may show either state.
func TestCommitTimerExpiresDuringVerifyRead(t *testing.T) {
	for _, pc := range platformCases(t) {
		if !hasTimer(pc) {
			continue
		}
		t.Run(string(pc.dev.platform), func(t *testing.T) {
			r := newRig(t, pc.dev)
			dev := r.lab.Device(pc.dev.name)
			before := readBack(t, r, pc.dev)
			dl, _ := platforms.Dialect(pc.dev.platform)
			p := r.plan()
			opts := r.applyOpts()
			var once sync.Once
			var armed lab.Armed
			opts.Events = func(e Event) {
				if e.Step == "verify" {
					once.Do(func() {
						var err error
						armed, err = dev.Before("^(run )?"+regexp.QuoteMeta(dl.ShowRunning), lab.Happening{ExpireTimers: true})
						if err != nil {
							t.Error(err)
						}
					})
				}
			}
			dev.SetFault(lab.Fault{Delay: 20 * time.Millisecond})
			res, err := Apply(context.Background(), p, r.f, r.inputs, opts)
			dev.ClearFault()
			if err != nil {
				t.Fatal(err)
			}
			if armed == (lab.Armed{}) || !armed.Ran() {
				t.Fatalf("the verify read never came: %s (%s)", res[0].Status, res[0].Reason)
			}
			t.Logf("%s: %s", res[0].Status, res[0].Reason)
			if why := truth(t, r, pc.dev.platform, res[0], before); why != "" {
				t.Fatalf("false outcome: %s (%s)", why, res[0].Reason)
			}
			if res[0].Status != StatusRolledBack {
				t.Errorf("%s (%s), want rolled back", res[0].Status, res[0].Reason)
			}
		})
	}
}

// TestSlowDeviceOutcomeIsTrue (issue 21 item 9): the device turns slow
// (answers later than apply's per-command timeout) right at the last
// command of the change — the confirm, the apply-patch, a host's or
// NX-OS's last line — which it does carry out. Apply gives up on the
// answer; whatever it then reports must be what the device has, read back
// once it answers again: at once, or only after apply's first reconnect
// has failed.
func TestSlowDeviceOutcomeIsTrue(t *testing.T) {
	for _, pc := range platformCases(t) {
		for _, later := range []bool{false, true} {
			name := string(pc.dev.platform) + "/answers-again-at-once"
			if later {
				name = string(pc.dev.platform) + "/answers-again-later"
			}
			t.Run(name, func(t *testing.T) {
				r := newRig(t, pc.dev)
				dev := r.lab.Device(pc.dev.name)
				before := readBack(t, r, pc.dev)
				p := r.plan()
				pattern, ok := confirmPattern(pc)
				if pc.dialect().Transaction == dialect.TxnGCU {
					pattern, ok = `^sudo config apply-patch`, true
				}
				if !ok {
					// NX-OS and hosts take the change line by line: the
					// last line.
					cmds := p.Devices[0].Changes.Commands()
					pattern = "^" + regexp.QuoteMeta(cmds[len(cmds)-1])
				}
				const timeout = 800 * time.Millisecond
				opts := r.applyOpts()
				opts.Timeout = timeout
				armed, err := dev.Before(pattern, lab.Happening{Delay: 2 * timeout})
				if err != nil {
					t.Fatal(err)
				}
				// The device answers again a while after it turned slow:
				// soon after apply gave up on the answer, or only after
				// apply's first attempts to reconnect.
				again := 3 * timeout / 2
				if later {
					again = 5 * timeout
				}
				go func() {
					select {
					case <-armed.Done():
						time.Sleep(again)
						dev.ClearFault()
					case <-time.After(time.Minute):
					}
				}()
				res, err := Apply(context.Background(), p, r.f, r.inputs, opts)
				dev.ClearFault()
				if err != nil {
					t.Fatal(err)
				}
				if !armed.Ran() {
					t.Fatalf("%q never reached the device: %s (%s)", pattern, res[0].Status, res[0].Reason)
				}
				t.Logf("%s: %s | restore: %s", res[0].Status, res[0].Reason, res[0].Restore)
				if why := truth(t, r, pc.dev.platform, res[0], before); why != "" {
					t.Fatalf("false outcome: %s (%s; restore: %s)", why, res[0].Reason, res[0].Restore)
				}
			})
		}
	}
}

// TestRdmaCMLoadIsReported (issue 21 item 9): a linux_dcb change loads
// rdma_cm (modprobe rdma_cm, a setup line) and then fails; the rollback
// sets every setting back, and rightly leaves the module loaded (another
// RDMA user may hold it) — so the report must say it stays loaded, since
// "matches its backup" covers only the script's settings. On nvidia_mlnx
// MLNX_OFED loads it at boot: nothing to say.
func TestRdmaCMLoadIsReported(t *testing.T) {
	for _, pc := range platformCases(t) {
		if !pc.pl.Spec.Host {
			continue
		}
		t.Run(string(pc.dev.platform), func(t *testing.T) {
			r := newRig(t, pc.dev)
			dev := r.lab.Device(pc.dev.name)
			loadedBefore := strings.Contains(dev.RunningConfig(), "module rdma_cm loaded")
			before := readBack(t, r, pc.dev)
			p := r.plan()
			// A line after rdma_cm is loaded: the tunable, else the
			// case's reject line.
			reject := `^ethtool --set-tunable`
			if !strings.Contains(pc.dev.rendered, "ethtool --set-tunable") {
				reject = pc.reject
			}
			dev.SetFault(lab.Fault{Reject: reject})
			res, err := Apply(context.Background(), p, r.f, r.inputs, r.applyOpts())
			dev.ClearFault()
			if err != nil {
				t.Fatal(err)
			}
			if why := truth(t, r, pc.dev.platform, res[0], before); why != "" {
				t.Fatalf("false outcome: %s (%s)", why, res[0].Reason)
			}
			loadedAfter := strings.Contains(dev.RunningConfig(), "module rdma_cm loaded")
			said := strings.Contains(res[0].Reason, "rdma_cm kernel module stays loaded")
			t.Logf("rdma_cm loaded before %v, after %v: %s: %s", loadedBefore, loadedAfter, res[0].Status, res[0].Reason)
			if res[0].Status != StatusRolledBack {
				t.Errorf("%s, want rolled back", res[0].Status)
			}
			if said != (loadedAfter && !loadedBefore) {
				t.Errorf("rdma_cm loaded before %v, after %v, but the report says so: %v (%s)", loadedBefore, loadedAfter, said, res[0].Reason)
			}
		})
	}
}
