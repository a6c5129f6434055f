package lint

import (
	"context"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// In the fixture (4 NICs, 2 leaves, 2 spines) there are 4 same-leaf ordered
// pairs with one path each and 8 cross-leaf ordered pairs with two (one per
// spine): 20 paths; a packet never U-turns at a spine back to its own leaf.
func TestWalkPathCounts(t *testing.T) {
	w, err := NewWalk(context.Background(), baseFabric())
	if err != nil {
		t.Fatal(err)
	}
	for fl := Flow(0); fl < numFlows; fl++ {
		var total int64
		w.Egresses(fl, func(o *Out) {
			if o.Source {
				total += o.Paths
			}
		})
		if total != 20 {
			t.Errorf("%s: %d paths from the NICs, want 20", fl, total)
		}
		var received int64
		w.Ingresses(fl, func(a *At) {
			if a.Receiver {
				received += a.Paths
			}
			if a.Port.ID() == "spine1:Ethernet1" && a.Paths != 4 {
				t.Errorf("%s: %d paths through spine1:Ethernet1, want 4 (2 NICs on leaf1 × 2 NICs on leaf2)", fl, a.Paths)
			}
		})
		if received != 20 {
			t.Errorf("%s: %d paths received, want 20", fl, received)
		}
	}
}

func TestTraceThroughRemark(t *testing.T) {
	f := baseFabric()
	editQoS(port(f, "spine2:Ethernet1"), func(q *schema.PortQoS) { q.Trust.V = schema.TrustNone })
	fs, err := Run(context.Background(), f, Options{Only: []string{"QOS001"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 {
		t.Fatalf("want 1 finding, got %d: %+v", len(fs), fs)
	}
	got := fs[0].TraceString()
	want := "gpu01:eth0 → leaf1:Ethernet1 → spine2:Ethernet1 (DSCP 26 → 0: no trust dscp) → leaf2:Ethernet50 → gpu03:eth0"
	if got != want {
		t.Errorf("trace\n got %s\nwant %s", got, want)
	}
	// RoCE data and CNP each cross spine2:Ethernet1 on 4 paths (leaf1's two NICs to leaf2's two).
	if got := fs[0].PathsString(); got != "4 paths of RoCE data and 4 of CNP" {
		t.Errorf("paths = %q, want 4 of each flow", got)
	}
	if !strings.Contains(fs[0].Summary, "leaves with DSCP 0") {
		t.Errorf("message %q does not say the DSCP is reset", fs[0].Summary)
	}
}

func TestHopSemantics(t *testing.T) {
	f := baseFabric()
	in, out := port(f, "spine1:Ethernet1"), port(f, "spine1:Ethernet2")
	h := Traverse(in, out, Packet{DSCP: 26})
	if h.Ingress.Priority != 3 || !h.Ingress.Lossless || h.Egress.Queue != 3 || h.Egress.ECN == nil || h.Leave.DSCP != 26 {
		t.Errorf("RoCE hop: %+v", h)
	}
	h = Traverse(in, out, Packet{DSCP: 56})
	if h.Ingress.Priority != 7 || h.Ingress.Lossless || h.Egress.Sched != schema.SchedStrict {
		t.Errorf("CNP hop: %+v", h)
	}
	in.ACLIn = []*schema.ACL{roceACL(0)}
	h = Traverse(in, out, Packet{DSCP: 26})
	if h.Leave.DSCP != 0 || h.Ingress.Priority != 0 || !h.Ingress.Classified || h.Note() != "DSCP 26 → 0: acl roce-mark seq 10" {
		t.Errorf("re-marking hop: %+v note %q", h, h.Note())
	}
	h = Traverse(nil, port(f, "gpu01:eth0"), Packet{DSCP: 26, PCP: 3})
	if h.Egress.Queue != 3 || h.Leave.DSCP != 26 {
		t.Errorf("NIC source hop: %+v", h)
	}
}

func TestRunHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, baseFabric(), Options{}); err == nil {
		t.Error("Run with a cancelled context succeeded")
	}
	if _, err := Run(context.Background(), nil, Options{}); err == nil {
		t.Error("Run(nil fabric) succeeded")
	}
}

// TestDualHomedTraceNeverSelf: a dual-homed NIC's representative trace
// never ends at the NIC it started from when another receiver exists.
func TestDualHomedTraceNeverSelf(t *testing.T) {
	f := baseFabric()
	dualHome(f)
	editQoS(port(f, "spine1:Ethernet1"), func(q *schema.PortQoS) { q.Trust.V = schema.TrustNone })
	fs, err := Run(context.Background(), f, Options{Only: []string{"QOS001"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) == 0 {
		t.Fatal("no QOS001 finding")
	}
	for _, fd := range fs {
		tr := fd.Trace
		if len(tr) < 2 {
			t.Fatalf("short trace %v", tr)
		}
		first, last := tr[0].Port, tr[len(tr)-1].Port
		if strings.Split(first, ":")[0] == strings.Split(last, ":")[0] {
			t.Errorf("trace from a NIC to itself: %s", fd.TraceString())
		}
	}
}

// TestPathCountsPerFlow: a cause that hits RoCE data and CNP says how many
// paths of each, never one number under "RoCE data".
func TestPathCountsPerFlow(t *testing.T) {
	f := baseFabric()
	editQoS(port(f, "spine2:Ethernet1"), func(q *schema.PortQoS) { q.Trust.V = schema.TrustNone })
	fs, err := Run(context.Background(), f, Options{Only: []string{"QOS001"}})
	if err != nil || len(fs) != 1 {
		t.Fatalf("%v %+v", err, fs)
	}
	want := []FlowPaths{{Flow: "RoCE data", Paths: 4}, {Flow: "CNP", Paths: 4}}
	if len(fs[0].Paths) != 2 || fs[0].Paths[0] != want[0] || fs[0].Paths[1] != want[1] {
		t.Errorf("paths %+v, want %+v", fs[0].Paths, want)
	}
	var b strings.Builder
	if err := Diagnostics(fs).WriteText(&b, nil, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "(4 paths of RoCE data and 4 of CNP share this problem)") || strings.Contains(b.String(), "8 paths") {
		t.Errorf("text output adds the flows up or does not name them:\n%s", b.String())
	}
}
