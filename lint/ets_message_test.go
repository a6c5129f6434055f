package lint

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestETS001MessageListsQueues pins the ETS001 message to a readable list
// of the DWRR queues' weights (it once printed "50 0 0 60 0 0 s 0").
func TestETS001MessageListsQueues(t *testing.T) {
	f, diags := schema.Load(filepath.Join("..", "examples", "broken", "ets-sum"), schema.Options{Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	findings, err := Run(context.Background(), f, Options{Only: []string{"ETS001"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "core1:Ethernet1: DWRR weights sum to 110, not 100 (queue 0: 50, queue 3: 60)"
	var got []string
	for _, fd := range findings {
		got = append(got, fd.Summary)
		if strings.Contains(fd.Summary, " s ") || strings.Contains(fd.Summary, " 0 0 ") {
			t.Errorf("message still lists bare weights: %q", fd.Summary)
		}
	}
	if len(got) != 1 || got[0] != want {
		t.Errorf("ETS001 messages %q, want [%q]", got, want)
	}
}

// TestETS001NamesMissingDefaultClass: weights that fall short because no
// class has role "default" name that class, with its weight, in the
// message and the fix; a sum over 100 keeps the plain message.
func TestETS001NamesMissingDefaultClass(t *testing.T) {
	tests := []struct {
		dir, summary, fix string
	}{
		{"testdata/fixtures/ets001-fail-no-default-class", `no traffic_class has role "default"`, `role = "default", dscp = [0], priority = 0 and weight = 50`},
		{filepath.Join("..", "examples", "broken", "ets-sum"), "sum to 110, not 100", "Adjust the classes'"},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.dir), func(t *testing.T) {
			f, diags := schema.Load(tt.dir, schema.Options{Platforms: platforms.Catalog()})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			fs, err := Run(context.Background(), f, Options{Only: []string{"ETS001"}})
			if err != nil {
				t.Fatal(err)
			}
			if len(fs) != 1 || !strings.Contains(fs[0].Summary, tt.summary) || !strings.Contains(fs[0].Fix, tt.fix) {
				t.Fatalf("ETS001 findings %+v: want one saying %q with a fix saying %q", fs, tt.summary, tt.fix)
			}
		})
	}
}

// TestETS001IdleQueues: the weights of the queues that carry traffic are
// what must sum to 100, and the finding's detail names each idle queue
// and why nothing reaches it; a vector that sums to 100 only with its idle
// queues counted, or only without them, is no finding.
func TestETS001IdleQueues(t *testing.T) {
	tests := []struct {
		name           string
		edit           func(q *schema.PortQoS)
		summary, extra string
	}{
		{"RoCE moved to a queue of 60: 110 counted, queue 3 idle", func(q *schema.PortQoS) {
			q.Queue[3].V = 4
			q.Queues[4].Sched, q.Queues[4].Weight = q.Queues[3].Sched, q.Queues[3].Weight
			q.Queues[4].Weight.V = 60
		}, "spine1:Ethernet1: DWRR weights sum to 110, not 100 (queue 0: 30, queue 4: 60, queue 6: 20)",
			"Not counted, as no traffic can reach them: queue 3 (weight 50): no priority maps to it."},
		{"an absent priority keeps queue 3 idle", func(q *schema.PortQoS) {
			q.Queue[3].V, q.Queue[5].V = 4, 3
			q.Queues[4].Sched, q.Queues[4].Weight = q.Queues[3].Sched, q.Queues[3].Weight
			q.Queues[4].Weight.V = 60
		}, "DWRR weights sum to 110, not 100",
			`queue 3 (weight 50): priority 5 maps to it, but no port of spine1 classifies into priority 5 (trust "dscp": its DSCP map gives 0, 3, 6, 7)`},
		{"two absent priorities", func(q *schema.PortQoS) {
			q.Queue[3].V, q.Queue[5].V, q.Queue[4].V = 4, 3, 3
			q.Queues[4].Sched, q.Queues[4].Weight = q.Queues[3].Sched, q.Queues[3].Weight
			q.Queues[4].Weight.V = 60
		}, "DWRR weights sum to 110, not 100", "priorities 4, 5 map to it, none of which can exist: no port of spine1 classifies into priority 4"},
		{"idle queue's weight moved: 100 counted", func(q *schema.PortQoS) {
			q.Queue[3].V = 4
			q.Queues[4].Sched, q.Queues[4].Weight = q.Queues[3].Sched, q.Queues[3].Weight
		}, "", ""},
		{"configured 100, RoCE's queue idle: no finding", func(q *schema.PortQoS) {
			q.Trust.V = schema.TrustNone
		}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := baseFabric()
			onDevice(f, "spine1", tt.edit)
			fs, err := Run(context.Background(), f, Options{Only: []string{"ETS001"}})
			if err != nil {
				t.Fatal(err)
			}
			if tt.summary == "" {
				if len(fs) != 0 {
					t.Fatalf("want no ETS001 finding, got %q", fs[0].Summary)
				}
				return
			}
			if len(fs) != 1 || !strings.Contains(fs[0].Summary, tt.summary) || !strings.Contains(fs[0].Detail, tt.extra) {
				t.Fatalf("ETS001 findings %+v\nwant one saying %q with a detail saying %q", fs, tt.summary, tt.extra)
			}
		})
	}
}
