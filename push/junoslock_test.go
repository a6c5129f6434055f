package push

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/state"
)

// TestJunosLockHeldByAnotherRunIsRefused: two applies on the same Junos
// device from two checkouts (two state directories). While A holds the
// exclusive configuration lock (its candidate is loaded, its commit is
// next), B runs from start to end: the device refuses B's configure
// exclusive. B sent nothing, so it is refused, saying another session
// holds the exclusive configuration lock — never "rolled back" — and A
// applies.
func TestJunosLockHeldByAnotherRunIsRefused(t *testing.T) {
	for _, pc := range platformCases(t) {
		if pc.dialect().Transaction != dialect.TxnCommitConfirmed {
			continue
		}
		r := newRig(t, pc.dev)
		dev := r.lab.Device(pc.dev.name)
		rB := *r
		rB.opts.State = state.ForFabric(t.TempDir())
		pA, pB := r.plan(), rB.plan()
		var resB []Result
		var errB error
		var once sync.Once
		var sentByB []string
		optsA := r.applyOpts()
		optsA.Events = func(e Event) {
			if e.Step != "commit" {
				return
			}
			once.Do(func() {
				n := len(dev.History())
				resB, errB = Apply(context.Background(), pB, rB.f, rB.inputs, rB.applyOpts())
				sentByB = dev.History()[n:]
			})
		}
		resA, err := Apply(context.Background(), pA, r.f, r.inputs, optsA)
		if err != nil || errB != nil {
			t.Fatal(err, errB)
		}
		if resB == nil {
			t.Fatal("A never reached its commit")
		}
		t.Logf("A: %s (%s); B: %s (%s)", resA[0].Status, resA[0].Reason, resB[0].Status, resB[0].Reason)
		if resA[0].Status != StatusApplied {
			t.Errorf("A: %s (%s), want applied", resA[0].Status, resA[0].Reason)
		}
		if resB[0].Status != StatusRefused {
			t.Errorf("B: %s, want refused", resB[0].Status)
		}
		for _, want := range []string{"another session holds the exclusive configuration lock", "nothing was sent"} {
			if !strings.Contains(resB[0].Reason, want) {
				t.Errorf("B's reason does not say %q: %s", want, resB[0].Reason)
			}
		}
		if regexp.MustCompile(`rolled back|matches its backup`).MatchString(resB[0].Reason) {
			t.Errorf("B says it rolled back although it sent nothing: %s", resB[0].Reason)
		}
		for _, l := range sentByB {
			if strings.HasPrefix(l, "set cli ") {
				continue // the login's terminal settings, not configuration
			}
			if strings.HasPrefix(l, "set ") || strings.HasPrefix(l, "delete ") || strings.HasPrefix(l, "commit") || strings.HasPrefix(l, "rollback") {
				t.Errorf("B sent %q while A held the lock", l)
			}
		}
	}
}
