package push

import (
	"context"
	"errors"
	"path/filepath"
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
)

// hostLockDir is the host's lock as the host transaction takes it
// (platforms/internal/hostpush, which push cannot import).
const hostLockDir = "/run/lock/fabricgen.lock"

// checkout is one working copy of the fabric: its own rendered script
// and its own state directory (so its own fabric lock).
type checkout struct {
	name     string
	rendered string
	opts     Options
	inputs   []Input
}

// hostCheckouts returns two checkouts of one host: A with the golden
// render, B with another MTU and other ETS weights.
func hostCheckouts(t *testing.T, r *rig, pc platformCase) [2]*checkout {
	t.Helper()
	b := strings.Replace(pc.dev.rendered, " mtu 4200", " mtu 4300", 1)
	b = strings.Replace(b, "tc-bw 0:50 1:0 2:0 3:50", "tc-bw 0:40 1:0 2:0 3:60", 1)
	b = strings.Replace(b, "--tcbw 50,0,0,50,", "--tcbw 40,0,0,60,", 1)
	if !strings.Contains(b, "mtu 4300") || (!strings.Contains(b, "3:60") && !strings.Contains(b, "40,0,0,60")) {
		t.Fatalf("%s: intent B is the same as A", pc.dev.name)
	}
	var out [2]*checkout
	for i, rendered := range []string{pc.dev.rendered, b} {
		c := &checkout{name: string(rune('A' + i)), rendered: rendered, opts: r.opts}
		c.opts.State = state.ForFabric(filepath.Join(r.dir, "checkout"+c.name))
		c.inputs = []Input{{Device: r.f.Devices[0], Rendered: []byte(rendered)}}
		out[i] = c
	}
	return out
}

// TestHostTwoCheckouts: two applies of different intents from two
// checkouts (two state directories, so no shared fabric lock) change one
// host at once. The host's own lock keeps them apart: never both
// applied, never one's rollback undoing the other's apply, and the host
// ends at the intent of the one that reports applied (or its backup).
func TestHostTwoCheckouts(t *testing.T) {
	for _, pc := range platformCases(t) {
		if !platforms.IsHost(pc.dev.platform) {
			continue
		}
		t.Run(string(pc.dev.platform), func(t *testing.T) {
			r := newRig(t, pc.dev)
			dev := r.lab.Device(pc.dev.name)
			dl, _ := platforms.Dialect(pc.dev.platform)
			before, err := fetchDirect(r, pc.dev.name, dl, pc.dev.rendered)
			if err != nil {
				t.Fatal(err)
			}
			cs := hostCheckouts(t, r, pc)
			plans := make([]*planfile.Plan, 2)
			for i, c := range cs {
				if plans[i], err = Plan(context.Background(), r.f, c.inputs, "test", c.opts); err != nil {
					t.Fatal(err)
				}
				if plans[i].Devices[0].Status != planfile.StatusChange {
					t.Fatalf("checkout %s: plan %s %s", c.name, plans[i].Devices[0].Status, plans[i].Devices[0].Error)
				}
			}
			// Every command takes a while, and one of the first run's
			// commands is refused, so it rolls back while the other
			// runs: the audit's false "applied".
			dev.SetFault(lab.Fault{Delay: 10 * time.Millisecond})
			res := make([]Result, 2)
			var wg sync.WaitGroup
			for i, c := range cs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					opts := ApplyOptions{Options: c.opts}
					rs, err := Apply(context.Background(), plans[i], r.f, c.inputs, opts)
					if err != nil {
						t.Error(err)
						return
					}
					res[i] = rs[0]
				}()
				time.Sleep(30 * time.Millisecond)
			}
			wg.Wait()
			dev.ClearFault()
			for i, c := range cs {
				t.Logf("%s: %s (%s)", c.name, res[i].Status, res[i].Reason)
			}
			if res[0].Status == StatusApplied && res[1].Status == StatusApplied {
				t.Fatal("both checkouts report applied")
			}
			now, err := fetchDirect(r, pc.dev.name, dl, pc.dev.rendered)
			if err != nil {
				t.Fatal(err)
			}
			state := "before"
			for i, c := range cs {
				cmp, err := config.CompareHost(pc.dev.name, mustFetch(t, r, pc.dev.name, dl, c.rendered), c.rendered, dl)
				if err != nil {
					t.Fatal(err)
				}
				if cmp.Changes.Empty() {
					state = "intent " + c.name
				}
				if res[i].Status == StatusApplied && !cmp.Changes.Empty() {
					t.Errorf("checkout %s reports applied, but the host is not at its intent:\n%s", c.name, cmp.Diff.Text)
				}
			}
			if res[0].Status != StatusApplied && res[1].Status != StatusApplied && config.Digest(now, dl) != config.Digest(before, dl) {
				t.Errorf("neither applied, but the host is not at its backup (%s)", state)
			}
			for i, c := range cs {
				if res[i].Status == StatusApplied {
					continue
				}
				if res[i].Status != StatusRefused || !strings.Contains(res[i].Reason, "lock") {
					t.Errorf("checkout %s: %s (%s), want refused by the host's lock", c.name, res[i].Status, res[i].Reason)
				}
				if rec, _ := c.opts.State.InFlight(pc.dev.name); rec != nil {
					t.Errorf("checkout %s keeps an in-flight record after losing", c.name)
				}
			}
			// The lock is gone: another apply goes through.
			p, err := Plan(context.Background(), r.f, cs[1].inputs, "test", cs[1].opts)
			if err != nil || p.Devices[0].Status == planfile.StatusError {
				t.Fatalf("plan after both: %v %s", err, p.Devices[0].Error)
			}
			if p.Devices[0].Status == planfile.StatusChange {
				rs, err := Apply(context.Background(), p, r.f, cs[1].inputs, ApplyOptions{Options: cs[1].opts})
				if err != nil || rs[0].Status != StatusApplied {
					t.Fatalf("apply after both: %v %s %s", err, rs[0].Status, rs[0].Reason)
				}
			}
		})
	}
}

func mustFetch(t *testing.T, r *rig, name string, dl *dialect.Dialect, script string) string {
	t.Helper()
	s, err := fetchDirect(r, name, dl, script)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestHardStopListsWhatWasTaken: stopped at once in the middle of a
// change on the platforms that apply line by line with no transaction to
// discard (NX-OS, hosts), apply says exactly which lines the device took
// — each of them is in the device's history, and no line of the change
// the device received is missing from the report except the one in
// flight — instead of "may be partly applied".
func TestHardStopListsWhatWasTaken(t *testing.T) {
	for _, pc := range platformCases(t) {
		if pc.dialect().Transaction != dialect.TxnCheckpoint && !pc.pl.Spec.Host {
			continue
		}
		t.Run(string(pc.dev.platform), func(t *testing.T) {
			r := newRig(t, pc.dev)
			dev := r.lab.Device(pc.dev.name)
			p := r.plan()
			change := p.Devices[0].Changes.Commands()
			if len(change) < 3 {
				t.Fatalf("the change has %d commands: too short to stop in the middle", len(change))
			}
			stopAt := min(3, len(change)-1)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			dev.SetFault(lab.Fault{Delay: 15 * time.Millisecond})
			start := len(dev.History())
			// Stop once the device has received the third line of the
			// change (the second of a three-line change).
			// received is how many lines of the change, in order, the
			// device has received (a host's line comes with the exit
			// status echo after it).
			received := func() int {
				n := 0
				for _, h := range dev.History()[start:] {
					if n < len(change) && (h == change[n] || strings.HasPrefix(h, change[n]+"; echo ")) {
						n++
					}
				}
				return n
			}
			go func() {
				for ctx.Err() == nil {
					if received() >= stopAt {
						cancel()
						return
					}
					time.Sleep(time.Millisecond)
				}
			}()
			res, err := Apply(ctx, p, r.f, r.inputs, r.applyOpts())
			dev.ClearFault()
			if !errors.Is(err, ErrInterrupted) {
				t.Fatalf("Apply: %v (%+v)", err, res)
			}
			got := res[0]
			t.Logf("%s: %s | restore: %s", got.Status, got.Reason, got.Restore)
			if got.Status != StatusInterrupted {
				t.Fatalf("%s, want interrupted", got.Status)
			}
			if strings.Contains(got.Reason, "may be") && !strings.Contains(got.Reason, "may or may not have taken effect") {
				t.Errorf("the report guesses: %s", got.Reason)
			}
			_, list, ok := strings.Cut(got.Reason, " were taken: ")
			if !ok {
				t.Fatalf("the report lists no lines taken: %s", got.Reason)
			}
			list, _, _ = strings.Cut(list, "; the next, ")
			taken := strings.Split(list, "; ")
			for i, l := range taken {
				if i >= len(change) || change[i] != l {
					t.Fatalf("reported line %d is %q, not the change's", i, l)
				}
			}
			// Every line received was answered and reported, but the
			// one in flight.
			if n := received(); len(taken) != n && len(taken) != n-1 {
				t.Errorf("the device received %d lines of the change, the report lists %d as taken", n, len(taken))
			}
			if !strings.Contains(got.Restore, "rollback") {
				t.Errorf("restore: %q", got.Restore)
			}
			if platforms.IsHost(pc.dev.platform) && !strings.Contains(got.Restore, "rollback "+config.ShellQuote(r.dir)+" ") {
				t.Errorf("the restore command does not name the fabric: %q", got.Restore)
			}
		})
	}
}

// TestStaleHostLockIsReported: a lock a killed run from another checkout
// left on a host makes plan report the device, naming the run, its holder
// and how to remove the lock, and apply refuse it with nothing changed;
// once the lock is removed the host is applied.
func TestStaleHostLockIsReported(t *testing.T) {
	pc := caseWhere(t, "a host platform", func(pc platformCase) bool { return platforms.IsHost(pc.dev.platform) })
	r := newRig(t, pc.dev)
	dev := r.lab.Device(pc.dev.name)
	const run = "fabricgen-20261201-000000-0badc0de"
	if err := dev.ConfigureOutOfBand([]string{"mkdir " + hostLockDir + " && printf '%s\\n' run=" + run + " 'holder=pid 4242 (ops@jump1, \"fabricgen apply\", since 2026-12-01T00:00:00Z)' > " + hostLockDir + "/owner"}); err != nil {
		t.Fatal(err)
	}
	before := dev.RunningConfig()
	p := r.plan()
	d := p.Devices[0]
	for _, want := range []string{run, "ops@jump1", "rm -r " + hostLockDir} {
		if d.Status != planfile.StatusError || !strings.Contains(d.Error, want) {
			t.Errorf("plan: %s %q, want an error naming %q", d.Status, d.Error, want)
		}
	}
	// A plan made before the lock appeared is refused at apply.
	if err := dev.ConfigureOutOfBand([]string{"rm -rf " + hostLockDir}); err != nil {
		t.Fatal(err)
	}
	p = r.plan()
	if err := dev.ConfigureOutOfBand([]string{"mkdir " + hostLockDir + " && printf '%s\\n' run=" + run + " > " + hostLockDir + "/owner"}); err != nil {
		t.Fatal(err)
	}
	res, err := Apply(context.Background(), p, r.f, r.inputs, r.applyOpts())
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Status != StatusRefused || !strings.Contains(res[0].Reason, run) || !strings.Contains(res[0].Reason, "nothing was sent") {
		t.Errorf("apply: %s (%s), want refused naming the lock's run", res[0].Status, res[0].Reason)
	}
	if dev.RunningConfig() != before {
		t.Error("the host changed although it was refused")
	}
	if rec, _ := r.opts.State.InFlight(pc.dev.name); rec != nil {
		t.Errorf("a refused host keeps an in-flight record (step %s)", rec.Step)
	}
	if err := dev.ConfigureOutOfBand([]string{"rm -rf " + hostLockDir}); err != nil {
		t.Fatal(err)
	}
	res, err = Apply(context.Background(), r.plan(), r.f, r.inputs, r.applyOpts())
	if err != nil || res[0].Status != StatusApplied {
		t.Fatalf("apply once the lock is gone: %v %+v", err, res)
	}
}
