package push

import (
	"context"
	"strings"
	"testing"
)

// TestRollbackReportsRdmaCMStaysLoaded: fabricgen rollback of a host whose
// apply loaded rdma_cm (the backup was read without it: default_roce_tos
// unset) restores the settings and says, as apply's own rollback does,
// that the module stays loaded and how to unload it — never only
// "restored". A host that had the module loaded before gets no such note.
func TestRollbackReportsRdmaCMStaysLoaded(t *testing.T) {
	for _, pc := range platformCases(t) {
		if !pc.pl.Spec.Host {
			continue
		}
		t.Run(string(pc.dev.platform), func(t *testing.T) {
			r := newRig(t, pc.dev)
			dev := r.lab.Device(pc.dev.name)
			loadedBefore := strings.Contains(dev.RunningConfig(), "module rdma_cm loaded")
			if strings.Contains(pc.dev.rendered, "modprobe rdma_cm") && loadedBefore {
				t.Fatal("a host whose script loads rdma_cm starts with it loaded: the note is not tested")
			}
			res, err := Apply(context.Background(), r.plan(), r.f, r.inputs, r.applyOpts())
			if err != nil || res[0].Status != StatusApplied {
				t.Fatalf("apply: %v %s (%s)", err, res[0].Status, res[0].Reason)
			}
			targets := []RollbackTarget{{Device: r.f.Device(pc.dev.name), Backup: res[0].Backup, Scope: pc.dev.rendered, ScopeVerified: true}}
			pv, err := PreviewRollback(context.Background(), targets, r.opts)
			if err != nil || pv[0].Error != "" {
				t.Fatalf("preview: %v %s", err, pv[0].Error)
			}
			rres, err := Rollback(context.Background(), targets, pv, r.applyOpts())
			if err != nil {
				t.Fatal(err)
			}
			loadedAfter := strings.Contains(dev.RunningConfig(), "module rdma_cm loaded")
			said := strings.Contains(rres[0].Reason, "rdma_cm kernel module stays loaded")
			t.Logf("rdma_cm loaded before %v, after %v: %s: %s", loadedBefore, loadedAfter, rres[0].Status, rres[0].Reason)
			if rres[0].Status != StatusRestored {
				t.Errorf("rollback: %s, want restored", rres[0].Status)
			}
			if said != (loadedAfter && !loadedBefore) {
				t.Errorf("rdma_cm loaded before %v, after %v, but the rollback's report says so: %v (%s)", loadedBefore, loadedAfter, said, rres[0].Reason)
			}
			if said && !strings.Contains(rres[0].Reason, "modprobe -r rdma_cm") {
				t.Errorf("the note does not say how to unload it: %s", rres[0].Reason)
			}
		})
	}
}
