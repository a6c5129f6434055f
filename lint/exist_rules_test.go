package lint

import (
	"context"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// TestRulesAskExist: the rules that speak of a priority or a queue report
// only traffic that can exist. Each case edits spine1 of the base fabric
// (classes: 0 default, 3 RoCE lossless, 6 control, 7 CNP) and counts the
// places one rule reports; the pairs differ in whether the priority the
// finding is about can exist on spine1.
func TestRulesAskExist(t *testing.T) {
	moveRoCE := func(q *schema.PortQoS) { q.Queue[3].V = 4 }
	in := func(dscp, prio int) func(q *schema.PortQoS) {
		return func(q *schema.PortQoS) { q.DSCP[dscp].V = prio }
	}
	both := func(fs ...func(q *schema.PortQoS)) func(q *schema.PortQoS) {
		return func(q *schema.PortQoS) {
			for _, f := range fs {
				f(q)
			}
		}
	}
	// lossless5InCNPQueue makes priority 5 lossless and puts it in CNP's queue 7.
	lossless5InCNPQueue := func(q *schema.PortQoS) { q.Lossless = q.Lossless.With(5); q.Queue[5].V = 7 }
	zeroWeight5 := func(q *schema.PortQoS) {
		q.Queues[5].Sched = schema.Value[schema.SchedMode]{V: schema.SchedDWRR, Set: true}
		q.Queues[5].Weight = schema.Value[int]{V: 0, Set: true, Src: schema.Range{Filename: "w.fab.hcl", Start: schema.Pos{Line: 5}}}
	}
	strictRoCE := func(q *schema.PortQoS) {
		q.Queues[3].Sched = schema.Value[schema.SchedMode]{V: schema.SchedStrict, Set: true, Src: schema.Range{Filename: "s.fab.hcl", Start: schema.Pos{Line: 3}}}
	}
	dropRoCE := func(q *schema.PortQoS) {
		e := *q.Queues[3].ECN.V
		e.Mark = schema.Value[bool]{V: false, Set: true, Src: schema.Range{Filename: "e.fab.hcl", Start: schema.Pos{Line: 2}}}
		q.Queues[3].ECN.V = &e
	}
	smallPool := func(q *schema.PortQoS) {
		q.Buffer.IngressLosslessPool = schema.Value[int64]{V: 1_000_000, Set: true, Src: schema.Range{Filename: "b.fab.hcl", Start: schema.Pos{Line: 1}}}
	}
	noRoCEHere := in(26, 0) // spine1 classifies RoCE's DSCP as default: priority 3 cannot exist there
	tests := []struct {
		name, rule string
		edit       func(q *schema.PortQoS)
		only       string // edit only this port of spine1 ("" every port)
		want       int    // places reported
	}{
		{"QOS003: lossy priority 4 absent shares RoCE's queue", "QOS003", moveRoCE, "", 0},
		{"QOS003: lossy priority 4 present shares RoCE's queue", "QOS003", both(moveRoCE, in(32, 4)), "", 2},
		{"QOS003: lossless priority 5 absent in CNP's queue", "QOS003", lossless5InCNPQueue, "", 0},
		{"QOS003: lossless priority 5 present in CNP's queue", "QOS003", both(lossless5InCNPQueue, in(40, 5)), "", 2},
		{"ETS002: zero weight on a queue nothing reaches", "ETS002", zeroWeight5, "", 0},
		{"ETS002: zero weight on a queue priority 5 reaches", "ETS002", both(zeroWeight5, in(40, 5)), "", 2},
		{"ETS002: priority 5 from another port of the device", "ETS002", zeroWeight5, "", -1},
		{"ETS003: strict RoCE queue where RoCE exists", "ETS003", strictRoCE, "", 2},
		{"ETS003: strict RoCE queue where priority 3 cannot exist", "ETS003", both(strictRoCE, noRoCEHere), "", 0},
		{"ECN005: WRED drop on the RoCE queue", "ECN005", dropRoCE, "", 2},
		{"ECN005: WRED drop where priority 3 cannot exist", "ECN005", both(dropRoCE, noRoCEHere), "", 0},
		{"ECN003: ECN max above XOFF on the RoCE queue", "ECN003", smallPool, "", 2},
		{"ECN003: the same where priority 3 cannot exist", "ECN003", both(smallPool, noRoCEHere), "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := baseFabric()
			want := tt.want
			if want < 0 {
				// Both ports weigh queue 5 zero; only Ethernet1's map
				// reaches priority 5, whose traffic can leave by either.
				onDevice(f, "spine1", tt.edit)
				editQoS(port(f, "spine1:Ethernet1"), in(40, 5))
				want = 2
			} else {
				onDevice(f, "spine1", tt.edit)
			}
			fs, err := Run(context.Background(), f, Options{Only: []string{tt.rule}})
			if err != nil {
				t.Fatal(err)
			}
			got := 0
			for _, fd := range fs {
				if fd.Device != "spine1" {
					t.Errorf("%s on %s: %s", tt.rule, fd.Device, fd.Summary)
				}
				got += fd.Count
			}
			if got != want {
				t.Errorf("%s: %d places reported, want %d: %+v", tt.rule, got, want, fs)
			}
		})
	}
}
