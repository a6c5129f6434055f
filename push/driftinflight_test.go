package push

import (
	"context"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
)

// TestDriftReportsAChangeInFlight: a Cumulus switch fabricgen applied
// reads as the intent, but an NVUE apply waits for confirmation (a run
// that lost its session after nv config apply --confirm, another
// administrator's): NVUE rolls it back by itself when its timer expires,
// so the switch is not in sync for sure. Drift reports the change in
// flight, as plan and apply do (the transaction's leftovers), never
// in-sync.
func TestDriftReportsAChangeInFlight(t *testing.T) {
	for _, pc := range platformCases(t) {
		if pc.dialect().Transaction != dialect.TxnNVUE {
			continue
		}
		r := newRig(t, pc.dev)
		dev := r.lab.Device(pc.dev.name)
		res, err := Apply(context.Background(), r.plan(), r.f, r.inputs, r.applyOpts())
		if err != nil || res[0].Status != StatusApplied {
			t.Fatalf("apply: %v %s (%s)", err, res[0].Status, res[0].Reason)
		}
		dr, err := Drift(context.Background(), r.inputs, r.opts)
		if err != nil || dr[0].Status != DriftInSync {
			t.Fatalf("drift right after the apply: %v %s (%s), want in-sync", err, dr[0].Status, dr[0].Error)
		}
		if err := dev.ConfigureOutOfBand([]string{"nv set system message pre-login 'maintenance'", "nv config apply --confirm 300s -y"}); err != nil {
			t.Fatal(err)
		}
		dr, err = Drift(context.Background(), r.inputs, r.opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %s", dr[0].Status, dr[0].Error)
		if dr[0].Status != DriftInFlight {
			t.Errorf("drift while an NVUE apply waits for confirmation: %s, want %s", dr[0].Status, DriftInFlight)
		}
		if !strings.Contains(dr[0].Error, "waiting for confirmation") {
			t.Errorf("drift does not say an apply waits for confirmation: %q", dr[0].Error)
		}
	}
}
