package juniperjunos

import (
	"errors"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/rendertest"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// TestJunosClassCount: a forwarding class is rendered only for a priority
// that carries traffic (classifier target, lossless, default priority),
// and the classes the switch then has (rendered, the QFX defaults they do
// not replace, mcast except on QFX10000) must fit the family's limit (12;
// 10 on QFX5200; 8 on QFX10000 before Junos 22.1R1, 16 from it), with at
// most six lossless ones, default fcoe and no-loss included.
func TestJunosClassCount(t *testing.T) {
	all8 := func(d *schema.Device) { d.Ports[0].QoS.Trust = rendertest.Set(schema.TrustBoth) } // 802.1p identity map: all 8 priorities
	beOn0 := func(f *schema.Fabric) {
		f.Classes = append(f.Classes, &schema.TrafficClass{Name: "best-effort", Priority: rendertest.Set(0), Queue: rendertest.Set(0)})
	}
	model := func(m string) func(d *schema.Device) {
		return func(d *schema.Device) {
			d.Model = rendertest.Set(m)
			fam, err := FamilyOf(m)
			if err != nil {
				t.Fatal(err)
			}
			d.Family = fam
		}
	}
	release := func(r string) func(d *schema.Device) {
		return func(d *schema.Device) {
			v, err := spec().ParseVersion(r)
			if err != nil {
				t.Fatal(err)
			}
			d.OSVersion = rendertest.Set(v)
		}
	}
	lossless := func(prios ...int) func(d *schema.Device) {
		return func(d *schema.Device) {
			q := d.Ports[0].QoS
			q.Lossless = schema.PrioSetOf(prios...)
			junosReach(q, prios...)
		}
	}
	tests := []struct {
		name    string
		fabric  func(f *schema.Fabric)
		mutate  []func(d *schema.Device)
		classes []string // the forwarding classes rendered ("class NAME queue-num"), in order
		err     string   // the refusal, when the render fails
	}{
		{name: "DSCP trust: the classifier's priorities only", classes: []string{"prio0", "prio3", "prio6"}},
		{name: "default priority", mutate: []func(d *schema.Device){func(d *schema.Device) {
			q := d.Ports[0].QoS
			for i := range q.DSCP {
				if i != 26 && i != 48 {
					q.DSCP[i] = rendertest.Set(2)
				}
			}
			q.Policies = []*schema.QoSPolicy{{Name: "p", DefaultPriority: rendertest.Set(5)}}
		}}, classes: []string{"prio2", "prio3", "prio5", "prio6"}},
		{name: "lossless priority nothing classifies", mutate: []func(d *schema.Device){func(d *schema.Device) { d.Ports[0].QoS.Lossless = schema.PrioSetOf(3, 5) }},
			classes: []string{"prio0", "prio3", "prio5", "prio6"}},
		{name: "PCP trust: the 802.1p map's priorities", mutate: []func(d *schema.Device){func(d *schema.Device) {
			q := d.Ports[0].QoS
			q.Trust = rendertest.Set(schema.TrustPCP)
			for i := range q.PCP {
				q.PCP[i] = rendertest.Set(0)
			}
			q.PCP[3], q.PCP[7] = rendertest.Set(3), rendertest.Set(7)
		}}, classes: []string{"prio0", "prio3", "prio7"}},
		{name: "MX under PCP trust: an ACL's re-marking target", mutate: []func(d *schema.Device){model("mx304"), func(d *schema.Device) {
			q := d.Ports[0].QoS
			q.Trust = rendertest.Set(schema.TrustPCP)
			for i := range q.PCP {
				q.PCP[i] = rendertest.Set(0)
			}
			q.DSCP[10] = rendertest.Set(4)
			d.Ports[0].ACLIn = []*schema.ACL{{Name: "mark", Rules: []*schema.ACLRule{{Seq: 10, Family: "ipv4", Protocol: rendertest.Set("ip"),
				Action: rendertest.Set(schema.ActionPermit), SetDSCP: rendertest.Set(10)}}}}
		}}, classes: []string{"prio0", "prio3", "prio4"}},

		{name: "all 8 priorities, prioN names, QFX5000", mutate: []func(d *schema.Device){all8, model("qfx5120-48y")},
			err: "13 forwarding classes on a QFX5000 switch (family qfx5000, model qfx5120-48y): the switch supports 12 forwarding classes, its default classes included; fabricgen would define prio0, prio1, prio2, prio3, prio4, prio5, prio6, prio7 beside the defaults best-effort, fcoe, no-loss, network-control, mcast"},
		{name: "all 8 priorities, best-effort on 0, QFX5000", fabric: beOn0, mutate: []func(d *schema.Device){all8, model("qfx5120-48y")},
			classes: []string{"best-effort", "prio1", "prio2", "prio3", "prio4", "prio5", "prio6", "prio7", "no-loss"}},
		{name: "all 8 priorities, best-effort on 0, default model", fabric: beOn0, mutate: []func(d *schema.Device){all8},
			classes: []string{"best-effort", "prio1", "prio2", "prio3", "prio4", "prio5", "prio6", "prio7", "no-loss"}},
		{name: "all 8 priorities, best-effort on 0, QFX5200", fabric: beOn0, mutate: []func(d *schema.Device){all8, model("qfx5200-32c")},
			err: "12 forwarding classes on a QFX5200 switch (family qfx5000, model qfx5200-32c): the switch supports 10 forwarding classes"},
		{name: "typical fabric fits QFX5200", mutate: []func(d *schema.Device){model("qfx5220-32cd")}, classes: []string{"prio0", "prio3", "prio6"}},
		{name: "all 8 priorities, QFX10000 before 22.1R1", fabric: beOn0, mutate: []func(d *schema.Device){all8, model("qfx10002-36q"), release("21.4R3")},
			err: "11 forwarding classes on a QFX10000 switch (family qfx10000, model qfx10002-36q, os_version 21.4R3): the switch supports 8 forwarding classes, its default classes included; fabricgen would define best-effort, prio1, prio2, prio3, prio4, prio5, prio6, prio7 beside the defaults fcoe, no-loss, network-control; if the switch runs Junos 22.1R1 or later (16 forwarding classes), set its os_version"},
		{name: "all 8 priorities, QFX10000 22.1R1", mutate: []func(d *schema.Device){all8, model("qfx10002-36q"), release("22.1R1")},
			classes: []string{"prio0", "prio1", "prio2", "prio3", "prio4", "prio5", "prio6", "prio7", "no-loss"}},
		{name: "all 8 priorities, QFX10000 at fabricgen's default release", mutate: []func(d *schema.Device){all8, model("qfx10002-36q")},
			classes: []string{"prio0", "prio1", "prio2", "prio3", "prio4", "prio5", "prio6", "prio7", "no-loss"}},
		{name: "typical fabric, QFX10000 before 22.1R1", mutate: []func(d *schema.Device){model("qfx10002-36q"), release("21.4R3")},
			classes: []string{"prio0", "prio3", "prio6"}},
		{name: "all 8 priorities, MX", mutate: []func(d *schema.Device){all8, model("mx304")},
			classes: []string{"prio0", "prio1", "prio2", "prio3", "prio4", "prio5", "prio6", "prio7"}},

		{name: "four lossless and the two defaults", mutate: []func(d *schema.Device){lossless(1, 2, 3, 4)},
			classes: []string{"prio0", "prio1", "prio2", "prio3", "prio4", "prio6"}},
		{name: "six lossless and the two defaults", mutate: []func(d *schema.Device){lossless(1, 2, 3, 4, 5, 6), func(d *schema.Device) {
			d.Ports[0].QoS.Queues[6] = schema.QueueQoS{}
		}}, err: "8 lossless forwarding classes (prio1, prio2, prio3, prio4, prio5, prio6, fcoe, no-loss) on a QFX5000 switch (family qfx5000): QFX switches support up to 6 lossless forwarding classes"},
		{name: "five lossless, no-loss's queue carries nothing", mutate: []func(d *schema.Device){lossless(1, 2, 3, 5, 6), func(d *schema.Device) {
			d.Ports[0].QoS.Queues[6] = schema.QueueQoS{}
		}}, err: "7 lossless forwarding classes (prio1, prio2, prio3, prio5, prio6, fcoe, no-loss)"},
		{name: "five lossless, a lossy priority on no-loss's queue", mutate: []func(d *schema.Device){lossless(1, 2, 3, 5, 6), func(d *schema.Device) {
			d.Ports[0].QoS.Queues[6] = schema.QueueQoS{}
			junosReach(d.Ports[0].QoS, 4)
		}}, classes: []string{"prio0", "prio1", "prio2", "prio3", "prio4", "prio5", "prio6", "no-loss"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, d := rendertest.TinyFabric(Platform(), "et-0/0/0")
			d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{}
			if tc.fabric != nil {
				tc.fabric(f)
			}
			for _, m := range tc.mutate {
				m(d)
			}
			f.Reindex()
			text, err := rendertest.Render(t, Platform(), f, d)
			if tc.err != "" {
				var ue *view.UnsupportedError
				if !errors.As(err, &ue) {
					t.Fatalf("want an UnsupportedError, got %v\n%s", err, text)
				}
				if !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %q does not say %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range strings.Split(text, "\n") {
				if f := strings.Fields(l); len(f) >= 6 && f[2] == "forwarding-classes" && f[5] == "queue-num" {
					got = append(got, f[4])
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.classes, " ") {
				t.Errorf("forwarding classes %v, want %v\n%s", got, tc.classes, text)
			}
			checkJunosQueuesOneDropAttribute(t, text, d.Family)
			checkJunosClassesUsed(t, text)
		})
	}
}

// checkJunosClassesUsed fails when the render names a forwarding class it
// does not define (classifier, scheduler map, filter) or defines a
// scheduler no scheduler-map entry uses.
func checkJunosClassesUsed(t *testing.T, text string) {
	t.Helper()
	defined := map[string]bool{"best-effort": true, "fcoe": true, "no-loss": true, "network-control": true, "mcast": true}
	schedulers, mapped := map[string]bool{}, map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) >= 6 && f[2] == "forwarding-classes" && f[5] == "queue-num":
			defined[f[4]] = true
		case len(f) >= 4 && f[2] == "schedulers":
			schedulers[f[3]] = true
		}
	}
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		for i := 0; i+1 < len(f); i++ {
			if f[i] == "forwarding-class" && !defined[f[i+1]] {
				t.Errorf("%q names forwarding class %s, which the render does not define", l, f[i+1])
			}
		}
		if len(f) >= 8 && f[2] == "scheduler-maps" && f[6] == "scheduler" {
			mapped[f[7]] = true
		}
	}
	for s := range schedulers {
		if !mapped[s] {
			t.Errorf("scheduler %s is defined but no scheduler-map entry uses it\n%s", s, text)
		}
	}
}
