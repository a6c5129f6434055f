package lint

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// onDevice edits the QoS of every port of device dev (each port its own copy).
func onDevice(f *schema.Fabric, dev string, fn func(q *schema.PortQoS)) {
	for _, pt := range f.Device(dev).Ports {
		editQoS(pt, fn)
	}
}

// TestExistPriorities: what can exist on a device, per trust mode, map and
// NIC marking, in the base fabric (classes: 0 default, 3 RoCE, 6 control,
// 7 CNP) after one edit.
func TestExistPriorities(t *testing.T) {
	tests := []struct {
		name string
		edit func(f *schema.Fabric)
		dev  string
		want schema.PrioSet
	}{
		{"base switch: the DSCP map's image", nil, "spine1", schema.PrioSetOf(0, 3, 6, 7)},
		{"base NIC: its map and what it sends", nil, "gpu01", schema.PrioSetOf(0, 3, 6, 7)},
		{"trust none: priority 0 only", func(f *schema.Fabric) {
			onDevice(f, "spine1", func(q *schema.PortQoS) { q.Trust.V = schema.TrustNone })
		}, "spine1", schema.PrioSetOf(0)},
		{"no trust mode: priority 0 only", func(f *schema.Fabric) {
			onDevice(f, "spine1", func(q *schema.PortQoS) { q.Trust = schema.Value[schema.Trust]{} })
		}, "spine1", schema.PrioSetOf(0)},
		{"trust pcp on routed ports: PCP 0's priority", func(f *schema.Fabric) {
			onDevice(f, "spine1", func(q *schema.PortQoS) { q.Trust.V = schema.TrustPCP; q.PCP[0].V = 5 })
		}, "spine1", schema.PrioSetOf(5)},
		{"trust pcp on L2 ports towards routed NICs: untagged", func(f *schema.Fabric) {
			onDevice(f, "leaf1", func(q *schema.PortQoS) { q.Trust.V = schema.TrustPCP })
		}, "leaf1", schema.PrioSetOf(0)},
		{"trust pcp on an L2 link: the PCP map's image", func(f *schema.Fabric) {
			onDevice(f, "leaf1", func(q *schema.PortQoS) { q.Trust.V = schema.TrustPCP; q.PCP[2].V = 3 })
			f.Device("gpu01").Ports[0].IP = schema.Value[netip.Prefix]{}
		}, "leaf1", schema.PrioSetOf(0, 1, 3, 4, 5, 6, 7)},
		{"trust pcp where a NIC sends RoCE v1: tagged anywhere", func(f *schema.Fabric) {
			onDevice(f, "spine1", func(q *schema.PortQoS) { q.Trust.V = schema.TrustPCP; q.PCP[1].V = 0 })
			f.Device("gpu01").RDMA.Transport = schema.Value[schema.Transport]{V: schema.TransportRoCEv1, Set: true}
		}, "spine1", schema.PrioSetOf(0, 2, 3, 4, 5, 6, 7)},
		{"trust both: DSCP and PCP images", func(f *schema.Fabric) {
			onDevice(f, "spine1", func(q *schema.PortQoS) {
				q.Trust.V = schema.TrustBoth
				for p := range q.PCP {
					q.PCP[p].V = 1
				}
			})
		}, "spine1", schema.PrioSetOf(0, 1, 3, 6, 7)},
		{"default priority: every code point no class names", func(f *schema.Fabric) {
			onDevice(f, "spine1", func(q *schema.PortQoS) {
				for d := range q.DSCP {
					if q.DSCP[d].V == 0 && d != 0 {
						q.DSCP[d].V = 2
					}
				}
			})
		}, "spine1", schema.PrioSetOf(0, 2, 3, 6, 7)},
		{"dscp_map into an otherwise unused priority", func(f *schema.Fabric) {
			editQoS(port(f, "spine1:Ethernet2"), func(q *schema.PortQoS) { q.DSCP[32].V = 4 })
		}, "spine1", schema.PrioSetOf(0, 3, 4, 6, 7)},
		{"one port's map reaches the whole device", func(f *schema.Fabric) {
			editQoS(port(f, "spine1:Ethernet2"), func(q *schema.PortQoS) { q.DSCP[32].V = 4 })
		}, "spine2", schema.PrioSetOf(0, 3, 6, 7)},
		{"an ingress ACL re-mark adds nothing beyond the map", func(f *schema.Fabric) {
			port(f, "spine1:Ethernet1").ACLIn = []*schema.ACL{roceACL(32)}
		}, "spine1", schema.PrioSetOf(0, 3, 6, 7)},
		{"NIC cnp_priority", func(f *schema.Fabric) {
			f.Device("gpu01").RDMA.CNPPriority.V = 5
		}, "gpu01", schema.PrioSetOf(0, 3, 5, 6, 7)},
		{"NIC that trusts nothing still sends its classes", func(f *schema.Fabric) {
			onDevice(f, "gpu01", func(q *schema.PortQoS) { q.Trust.V = schema.TrustNone })
			f.Device("gpu01").RDMA.CNPPriority.V = 5
		}, "gpu01", schema.PrioSetOf(0, 3, 5)},
		{"NIC cnp_priority stays on the NIC", func(f *schema.Fabric) {
			f.Device("gpu01").RDMA.CNPPriority.V = 5
		}, "leaf1", schema.PrioSetOf(0, 3, 6, 7)},
		{"port without QoS: priority 0", func(f *schema.Fabric) {
			onDevice(f, "spine1", func(q *schema.PortQoS) { q.Trust.V = schema.TrustPCP; q.PCP[0].V = 5 })
			x := &fixture{line: 800}
			x.port(f.Device("spine1"), "Ethernet9", nil, "")
			f.Reindex()
		}, "spine1", schema.PrioSetOf(0, 5)},
		{"device without ports: nothing", func(f *schema.Fabric) {
			x := &fixture{line: 800}
			f.Devices = append(f.Devices, x.device("spare", schema.KindLeaf, f.Device("leaf1").Platform.V))
			f.Reindex()
		}, "spare", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := baseFabric()
			if tt.edit != nil {
				tt.edit(f)
			}
			e := NewExist(f)
			d := f.Device(tt.dev)
			if got := e.Priorities(d); got != tt.want {
				t.Errorf("Priorities(%s) = %s, want %s", tt.dev, got, tt.want)
			}
			for p := range 8 {
				if e.Priority(d, p) != tt.want.Has(p) {
					t.Errorf("Priority(%s, %d) = %v, want %v", tt.dev, p, !tt.want.Has(p), tt.want.Has(p))
				}
				if why := e.Why(d, p); (why == "") != tt.want.Has(p) {
					t.Errorf("Why(%s, %d) = %q, with priority %d existing %v", tt.dev, p, why, p, tt.want.Has(p))
				}
			}
		})
	}
}

// TestExistQueuesAndWhy: a renumbered queue map (priority 3 in queue 4)
// leaves queue 3 idle and queue 4 carrying RoCE only; Why names the maps.
func TestExistQueuesAndWhy(t *testing.T) {
	f := baseFabric()
	onDevice(f, "spine1", func(q *schema.PortQoS) { q.Queue[3].V = 4 })
	e := NewExist(f)
	pt := port(f, "spine1:Ethernet1")
	tests := []struct {
		queue int
		want  schema.PrioSet
	}{{0, schema.PrioSetOf(0)}, {3, 0}, {4, schema.PrioSetOf(3)}, {6, schema.PrioSetOf(6)}, {7, schema.PrioSetOf(7)}, {5, 0}, {12, schema.PrioSetOf(3)}}
	for _, tt := range tests {
		if got := e.QueuePriorities(pt, tt.queue); got != tt.want {
			t.Errorf("QueuePriorities(%s, %d) = %s, want %s", pt.ID(), tt.queue, got, tt.want)
		}
	}
	if got, want := e.Queues(pt), schema.PrioSetOf(0, 4, 6, 7); got != want {
		t.Errorf("Queues(%s) = %s, want %s", pt.ID(), got, want)
	}
	if got := e.QueuePriorities(nil, 0); got != 0 {
		t.Errorf("QueuePriorities(nil) = %s, want none", got)
	}
	want := `no port of spine1 classifies into priority 4 (trust "dscp": its DSCP map gives 0, 3, 6, 7)`
	if got := e.Why(f.Device("spine1"), 4); got != want {
		t.Errorf("Why = %q\nwant %q", got, want)
	}
	if got := e.Why(f.Device("spine1"), 3); got != "" {
		t.Errorf("Why(existing priority 3) = %q, want empty", got)
	}
	// Two kinds of port, each said once.
	editQoS(port(f, "spine1:Ethernet2"), func(q *schema.PortQoS) { q.Trust.V = schema.TrustNone })
	e = NewExist(f)
	got := e.Why(f.Device("spine1"), 4)
	if !strings.Contains(got, `trust "dscp": its DSCP map gives 0, 3, 6, 7; trust "none": everything is priority 0`) {
		t.Errorf("Why over two port kinds = %q", got)
	}
	gpu := f.Device("gpu01")
	if got := e.Why(gpu, 5); !strings.Contains(got, "no port of gpu01 classifies into priority 5 and it sends nothing in it") || !strings.Contains(got, "it sends in priority 3, 7") {
		t.Errorf("Why on a NIC = %q", got)
	}
}

// TestExistUnknown: a device the model does not know, a nil device and a
// nil model can carry every priority (nothing is hidden by mistake).
func TestExistUnknown(t *testing.T) {
	e := NewExist(baseFabric())
	stranger := &schema.Device{Name: "stranger"}
	var nilExist *Exist
	for _, got := range []schema.PrioSet{e.Priorities(stranger), e.Priorities(nil), nilExist.Priorities(stranger), NewExist(nil).Priorities(stranger)} {
		if got != allPrios {
			t.Errorf("unknown device: %s, want every priority", got)
		}
	}
	if !NewExist(nil).Anywhere(4) || !nilExist.Anywhere(4) {
		t.Error("Anywhere on no fabric: want true")
	}
	if e.Anywhere(4) || !e.Anywhere(3) {
		t.Errorf("Anywhere(4) = %v, Anywhere(3) = %v on the base fabric, want false, true", e.Anywhere(4), e.Anywhere(3))
	}
	if e.Why(nil, 4) != "" || e.Why(stranger, 4) != "" {
		t.Error("Why on an unknown device: want empty (every priority can exist)")
	}
}

// TestExistUseCoversRegistry: every rule of the registry says how the
// model bears on it (docs/rules.md's "Can exist."), and the table names
// no rule the registry lacks.
func TestExistUseCoversRegistry(t *testing.T) {
	used := map[string]bool{}
	for _, r := range Rules() {
		n, ok := existNoteOf(r.ID)
		if !ok || strings.TrimSpace(n.Text) == "" {
			t.Errorf("%s has no entry in existUse: say how the can-exist model bears on it", r.ID)
			continue
		}
		used[existKeyOf(r.ID)] = true
		if !strings.Contains(RuleMarkdown(r), "**Can exist.** "+n.Text) {
			t.Errorf("%s: its documentation misses its Can exist line", r.ID)
		}
	}
	for id, n := range existUse() {
		if !used[id] {
			t.Errorf("existUse has an entry for %s, which is no rule of the registry", id)
		}
		if n.Changed && (id == "PLT" || id == "IBQ") {
			t.Errorf("%s: a family entry cannot be a changed rule", id)
		}
		if !strings.HasSuffix(n.Text, ".") {
			t.Errorf("%s: %q is not a sentence", id, n.Text)
		}
	}
	if !strings.Contains(string(RulesMarkdown()), "## What can exist means") {
		t.Error("docs/rules.md has no What can exist means section")
	}
}
