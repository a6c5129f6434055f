package push

import (
	"context"
	"fmt"
	"regexp"
	"sort"
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

// faultCase is one row of the fault matrix: something that goes wrong
// during an apply, armed on the lab device before Apply runs.
type faultCase struct {
	name string
	// applies reports whether the fault exists on the platform.
	applies func(pc platformCase) bool
	// arm sets the fault up; it may set opts.Events and opts.Timeout.
	// It returns what to check the device against when the outcome is
	// refused because someone else changed it (nil: the backup).
	arm func(t *testing.T, r *rig, pc platformCase, opts *ApplyOptions) (theirs []string)
}

// confirmPatterns is the line that confirms, per transaction with a
// confirm timer.
var confirmPatterns = map[dialect.Transaction]string{
	dialect.TxnSession:         `^configure session fabricgen-\S+ commit$`,
	dialect.TxnCommitConfirmed: `^commit comment fabricgen-`,
	dialect.TxnNVUE:            `^nv config apply --confirm-yes`,
}

// confirmPattern is the line that confirms the case's change, if its
// transaction has a confirm timer.
func confirmPattern(pc platformCase) (string, bool) {
	p, ok := confirmPatterns[pc.dialect().Transaction]
	return p, ok
}

func hasTimer(pc platformCase) bool   { _, ok := confirmPattern(pc); return ok }
func everyPlatform(platformCase) bool { return true }

// faultCases are the fault matrix's rows.
func faultCases() []faultCase {
	return []faultCase{
		{name: "timer expires as the confirm arrives", applies: hasTimer,
			arm: func(t *testing.T, r *rig, pc platformCase, opts *ApplyOptions) []string {
				dev := r.lab.Device(pc.dev.name)
				var once sync.Once
				opts.Events = func(e Event) {
					if e.Step == "confirm" {
						once.Do(func() {
							if _, err := dev.Before(confirmPatterns[pc.dialect().Transaction], lab.Happening{ExpireTimers: true}); err != nil {
								t.Error(err)
							}
						})
					}
				}
				return nil
			}},
		{name: "timer expires during the verify read", applies: hasTimer,
			arm: func(t *testing.T, r *rig, pc platformCase, opts *ApplyOptions) []string {
				dev := r.lab.Device(pc.dev.name)
				dl, _ := platforms.Dialect(pc.dev.platform)
				var once sync.Once
				opts.Events = func(e Event) {
					if e.Step == "verify" {
						once.Do(func() {
							if _, err := dev.Before("^(run )?"+regexp.QuoteMeta(dl.ShowRunning), lab.Happening{ExpireTimers: true}); err != nil {
								t.Error(err)
							}
						})
					}
				}
				return nil
			}},
		{name: "another admin changes a managed line before the commit",
			applies: func(pc platformCase) bool { _, err := lostUpdates(pc); return err == nil },
			arm: func(t *testing.T, r *rig, pc platformCase, opts *ApplyOptions) []string {
				lus, err := lostUpdates(pc)
				if err != nil {
					t.Fatal(err)
				}
				lu := lus[0]
				armLostUpdate(t, r.lab.Device(pc.dev.name), lu, opts)
				return lu.Theirs
			}},
		{name: "slow at the last command, answers again later", applies: everyPlatform,
			arm: func(t *testing.T, r *rig, pc platformCase, opts *ApplyOptions) []string {
				dev := r.lab.Device(pc.dev.name)
				pattern := lastCommandPattern(t, r, pc)
				const timeout = 800 * time.Millisecond
				opts.Timeout = timeout
				armed, err := dev.Before(pattern, lab.Happening{Delay: 2 * timeout})
				if err != nil {
					t.Fatal(err)
				}
				go func() {
					select {
					case <-armed.Done():
						time.Sleep(5 * timeout)
						dev.ClearFault()
					case <-time.After(time.Minute):
					}
				}()
				return nil
			}},
		{name: "a command of the change is rejected", applies: everyPlatform,
			arm: func(t *testing.T, r *rig, pc platformCase, opts *ApplyOptions) []string {
				r.lab.Device(pc.dev.name).SetFault(lab.Fault{Reject: pc.reject})
				return nil
			}},
		{name: "the connection drops mid-change", applies: everyPlatform,
			arm: func(t *testing.T, r *rig, pc platformCase, opts *ApplyOptions) []string {
				n := pc.dropAfter
				if n == 0 {
					n = 3
				}
				r.lab.Device(pc.dev.name).SetFault(lab.Fault{DropAfter: n})
				return nil
			}},
	}
}

// lastCommandPattern matches the last command of the change: the confirm,
// SONiC's apply-patch, or the last line NX-OS and hosts take one by one.
func lastCommandPattern(t *testing.T, r *rig, pc platformCase) string {
	if p, ok := confirmPattern(pc); ok {
		return p
	}
	if pc.dialect().Transaction == dialect.TxnGCU {
		return `^sudo config apply-patch`
	}
	p := r.plan()
	cmds := p.Devices[0].Changes.Commands()
	return "^" + regexp.QuoteMeta(cmds[len(cmds)-1])
}

// TestFaultMatrix plays every fault of faultCases on every platform it
// applies to and re-reads the device after each run: every outcome apply
// reports — applied, unchanged, rolled back, refused, failed — must be
// what the device has (truth; a refusal for another administrator's
// change: the device as before plus their change, compared with a twin
// that got only theirs). The summary table is logged; any false outcome
// fails the test, naming the cell.
func TestFaultMatrix(t *testing.T) {
	type cell struct{ status, verdict string }
	table := map[string]map[schema.Platform]cell{}
	var falseOutcomes []string
	var mu sync.Mutex
	for _, fc := range faultCases() {
		for _, pc := range platformCases(t) {
			if !fc.applies(pc) {
				continue
			}
			t.Run(fc.name+"/"+string(pc.dev.platform), func(t *testing.T) {
				r := newRig(t, pc.dev)
				dev := r.lab.Device(pc.dev.name)
				before := readBack(t, r, pc.dev)
				p := r.plan()
				opts := r.applyOpts()
				theirs := fc.arm(t, r, pc, &opts)
				res, err := Apply(context.Background(), p, r.f, r.inputs, opts)
				dev.ClearFault()
				if err != nil {
					t.Fatal(err)
				}
				verdict := ""
				switch {
				case theirs != nil && res[0].Status == StatusApplied:
					verdict = "reported applied over another administrator's change to a managed line"
				case theirs != nil && res[0].Status != StatusFailed:
					// Refused or rolled back: nothing of ours, and their
					// change still there — the device equals a twin that
					// got only theirs.
					twin := newRig(t, pc.dev)
					td := twin.lab.Device(pc.dev.name)
					if err := td.ConfigureOutOfBand(theirs); err != nil {
						t.Fatal(err)
					}
					if strings.Contains(res[0].Reason, "rdma_cm kernel module stays loaded") {
						if err := td.ConfigureOutOfBand([]string{"modprobe rdma_cm"}); err != nil {
							t.Fatal(err)
						}
					}
					dl, _ := platforms.Dialect(pc.dev.platform)
					if !sameNormalized(dl, td.RunningConfig(), dev.RunningConfig()) {
						verdict = "reported " + string(res[0].Status) + ", but the device is not its state before plus the other administrator's change"
					}
				default:
					verdict = truth(t, r, pc.dev.platform, res[0], before)
				}
				mu.Lock()
				defer mu.Unlock()
				if table[fc.name] == nil {
					table[fc.name] = map[schema.Platform]cell{}
				}
				c := cell{status: string(res[0].Status), verdict: "verified"}
				if verdict != "" {
					c.verdict = "FALSE"
					falseOutcomes = append(falseOutcomes, fmt.Sprintf("%s on %s: %s (%s: %s)", fc.name, pc.dev.platform, verdict, res[0].Status, res[0].Reason))
					t.Errorf("false outcome: %s (%s: %s)", verdict, res[0].Status, res[0].Reason)
				}
				table[fc.name][pc.dev.platform] = c
			})
		}
	}
	// The summary: one row per fault, one column per platform; every
	// cell names the outcome and that it was verified against the device.
	var b strings.Builder
	var plats []schema.Platform
	for _, pl := range platforms.Needing("push dialect") {
		plats = append(plats, pl.Name)
	}
	fmt.Fprintf(&b, "%-56s", "fault")
	for _, p := range plats {
		fmt.Fprintf(&b, " | %-22s", p)
	}
	b.WriteString("\n")
	names := make([]string, 0, len(table))
	for n := range table {
		names = append(names, n)
	}
	sort.Strings(names)
	cells := 0
	for _, n := range names {
		fmt.Fprintf(&b, "%-56s", n)
		for _, p := range plats {
			c, ok := table[n][p]
			s := "-"
			if ok {
				cells++
				s = c.status + " (" + c.verdict + ")"
			}
			fmt.Fprintf(&b, " | %-22s", s)
		}
		b.WriteString("\n")
	}
	t.Logf("fault matrix, %d runs, %d false outcome(s):\n%s", cells, len(falseOutcomes), b.String())
	for _, n := range names {
		for p, c := range table[n] {
			if c.verdict != "verified" && c.verdict != "FALSE" {
				t.Errorf("%s on %s: outcome %s was not verified against the device", n, p, c.status)
			}
		}
	}
	if len(falseOutcomes) > 0 {
		t.Errorf("%d false outcome(s):\n%s", len(falseOutcomes), strings.Join(falseOutcomes, "\n"))
	}
}

// sameNormalized reports whether two configs are equal once normalised.
func sameNormalized(dl *dialect.Dialect, a, b string) bool {
	return config.Normalize(a, dl) == config.Normalize(b, dl)
}
