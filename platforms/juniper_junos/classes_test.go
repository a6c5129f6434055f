package juniperjunos

import (
	"errors"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/rendertest"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// TestJunosClassesNeverMixDropAttributes: lossy and lossless forwarding
// classes never share a queue, QFX's default lossless classes (fcoe on
// queue 3, no-loss on queue 4) included, for intents that renumber queues
// or move the lossless class; a queue the intent itself mixes is refused.
func TestJunosClassesNeverMixDropAttributes(t *testing.T) {
	const (
		fcoeLossy   = "set class-of-service forwarding-classes class fcoe queue-num 3\n"
		noLossLossy = "set class-of-service forwarding-classes class no-loss queue-num 4\n"
	)
	swap := func(q *schema.PortQoS, a, b int) { q.Queue[a], q.Queue[b] = q.Queue[b], q.Queue[a] }
	reach := func(d *schema.Device, prios ...int) { junosReach(d.Ports[0].QoS, prios...) }
	tests := []struct {
		name   string
		mutate func(d *schema.Device)
		want   []string // lines the render has
		absent []string // lines it must not have
		err    string   // the refusal, when the render fails
	}{
		{name: "lossy prio4 on the no-loss queue", mutate: func(d *schema.Device) { reach(d, 4) },
			want: []string{noLossLossy, "# no-loss: QFX's default lossless class, redeclared without no-loss (lossy)"}, absent: []string{"class fcoe "}},
		{name: "prio4 carries nothing: no class, no-loss stays lossless", mutate: func(*schema.Device) {},
			absent: []string{"class prio4 ", "class no-loss ", "class fcoe ", "# no-loss:"}},
		{name: "lossless on 3 and 4", mutate: func(d *schema.Device) { d.Ports[0].QoS.Lossless = schema.PrioSetOf(3, 4) },
			absent: []string{"class fcoe ", "class no-loss ", "# no-loss:"}},
		{name: "lossless moved to queue 5, lossy prio5 on queue 3", mutate: func(d *schema.Device) { swap(d.Ports[0].QoS, 3, 5); reach(d, 4, 5) },
			want: []string{fcoeLossy, noLossLossy, "set class-of-service forwarding-classes class prio3 queue-num 5 no-loss\n"}},
		{name: "lossless priority 5 on queue 5", mutate: func(d *schema.Device) { d.Ports[0].QoS.Lossless = schema.PrioSetOf(5); reach(d, 4) },
			want: []string{fcoeLossy, noLossLossy, "class prio5 queue-num 5 no-loss\n"}},
		{name: "nothing on queue 4", mutate: func(d *schema.Device) { d.Ports[0].QoS.Queue[4] = rendertest.Set(5) },
			absent: []string{"class no-loss ", "class fcoe "}},
		{name: "MX has no default lossless classes", mutate: func(d *schema.Device) { d.Family = FamilyMX },
			absent: []string{"class no-loss ", "class fcoe "}},
		{name: "QFX10000 has them", mutate: func(d *schema.Device) { d.Family = FamilyQFX10000; reach(d, 4) },
			want: []string{noLossLossy}},
		{name: "lossy priority on the lossless queue", mutate: func(d *schema.Device) { d.Ports[0].QoS.Queue[4] = rendertest.Set(3); reach(d, 4) },
			err: "queue 3 with lossless priorities 3 and lossy priorities 4: Junos requires every forwarding class of a queue to have the same packet drop attribute"},
		{name: "lossy priority nothing reaches on the lossless queue", mutate: func(d *schema.Device) { d.Ports[0].QoS.Queue[4] = rendertest.Set(3) },
			want: []string{"class prio3 queue-num 3 no-loss\n"}, absent: []string{"class prio4 "}},
		{name: "lossy priority reached by the 802.1p classifier on the lossless queue", mutate: func(d *schema.Device) {
			q := d.Ports[0].QoS
			q.Queue[4] = rendertest.Set(3)
			q.Trust = rendertest.Set(schema.TrustPCP)
		}, err: "queue 3 with lossless priorities 3 and lossy priorities 4"},
		{name: "lossless on the network-control queue", mutate: func(d *schema.Device) { swap(d.Ports[0].QoS, 3, 7) },
			err: "lossless priorities 3 on queue 7: queue 7 carries the QFX default lossy forwarding class network-control"},
		{name: "lossless on the best-effort queue", mutate: func(d *schema.Device) {
			q := d.Ports[0].QoS
			swap(q, 0, 3)
		}, err: "lossless priorities 3 on queue 0: queue 0 carries the QFX default lossy forwarding class best-effort"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, d := rendertest.TinyFabric(Platform(), "et-0/0/0")
			d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{}
			tc.mutate(d)
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
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("missing %q in\n%s", strings.TrimSpace(w), text)
				}
			}
			for _, a := range tc.absent {
				if strings.Contains(text, a) {
					t.Errorf("unexpected %q in\n%s", strings.TrimSpace(a), text)
				}
			}
			checkJunosQueuesOneDropAttribute(t, text, d.Family)
		})
	}
}

// checkJunosQueuesOneDropAttribute fails when two forwarding classes of one
// queue differ in no-loss, counting QFX's default classes the render does
// not redeclare.
func checkJunosQueuesOneDropAttribute(t *testing.T, text string, fam schema.HardwareFamily) {
	t.Helper()
	type class struct {
		queue  string
		noLoss bool
	}
	classes := map[string]class{}
	if fam == "" || IsQFX(fam) {
		classes["best-effort"] = class{"0", false}
		classes["fcoe"] = class{"3", true}
		classes["no-loss"] = class{"4", true}
		classes["network-control"] = class{"7", false}
	}
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		if len(f) >= 7 && f[2] == "forwarding-classes" && f[5] == "queue-num" {
			classes[f[4]] = class{f[6], len(f) > 7 && f[7] == "no-loss"}
		}
	}
	byQueue := map[string]map[bool][]string{}
	for name, c := range classes {
		if byQueue[c.queue] == nil {
			byQueue[c.queue] = map[bool][]string{}
		}
		byQueue[c.queue][c.noLoss] = append(byQueue[c.queue][c.noLoss], name)
	}
	for q, m := range byQueue {
		if len(m[true]) > 0 && len(m[false]) > 0 {
			t.Errorf("queue %s has lossless classes %v and lossy classes %v", q, m[true], m[false])
		}
	}
}

// TestJunosShapers: the strict-high queue gets fabricgen's default cap,
// with a comment, unless its shaper replaces it; another queue's shaper is
// its shaping-rate (refused on QFX10000).
func TestJunosShapers(t *testing.T) {
	const (
		defaultComment = "# FABRICGEN-Q6: fabricgen's default cap on a strict-high queue"
		defaultCap     = "set class-of-service schedulers FABRICGEN-Q6 shaping-rate percent 5\n"
	)
	shape := func(q int, bps int64) func(d *schema.Device) {
		return func(d *schema.Device) { d.Ports[0].QoS.Queues[q].Shaper = rendertest.Set(bps) }
	}
	tests := []struct {
		name   string
		family schema.HardwareFamily
		mutate func(d *schema.Device)
		want   []string
		absent []string
		err    string
	}{
		{name: "default cap", mutate: func(*schema.Device) {}, want: []string{defaultComment, defaultCap}},
		{name: "default cap on QFX10000", family: FamilyQFX10000, mutate: func(*schema.Device) {},
			want: []string{defaultComment, "set class-of-service schedulers FABRICGEN-Q6 transmit-rate percent 5\n"}},
		{name: "strict shaper replaces the cap", mutate: shape(6, 10e9),
			want: []string{"set class-of-service schedulers FABRICGEN-Q6 shaping-rate 10g\n"}, absent: []string{defaultComment, "percent 5\n"}},
		{name: "strict shaper on QFX10000", family: FamilyQFX10000, mutate: shape(6, 2500e6),
			want: []string{"set class-of-service schedulers FABRICGEN-Q6 transmit-rate 2500m\n"}, absent: []string{defaultComment, "percent 5\n"}},
		{name: "strict shaper on MX", family: FamilyMX, mutate: shape(6, 400e9),
			want: []string{"set class-of-service schedulers FABRICGEN-Q6 shaping-rate 400g\n"}, absent: []string{defaultComment}},
		{name: "DWRR queue shaper", mutate: shape(0, 40e9), want: []string{
			"set class-of-service schedulers FABRICGEN-Q0 transmit-rate percent 50\nset class-of-service schedulers FABRICGEN-Q0 shaping-rate 40g\n",
			defaultCap}},
		{name: "shaper alone", mutate: func(d *schema.Device) { shape(1, 1500e3)(d); junosReach(d.Ports[0].QoS, 1) }, want: []string{
			"set class-of-service schedulers FABRICGEN-Q1 shaping-rate 1500k\n",
			"set class-of-service scheduler-maps FABRICGEN forwarding-class prio1 scheduler FABRICGEN-Q1\n"}},
		{name: "shaper on a queue nothing reaches", mutate: shape(1, 1500e3),
			absent: []string{"FABRICGEN-Q1", "class prio1 "}},
		{name: "DWRR queue nothing reaches", mutate: func(d *schema.Device) {
			d.Ports[0].QoS.Queues[2] = schema.QueueQoS{Sched: rendertest.Set(schema.SchedDWRR), Weight: rendertest.Set(10)}
		}, absent: []string{"FABRICGEN-Q2", "class prio2 "}},
		{name: "shaper on a QFX10000 queue nothing reaches", family: FamilyQFX10000, mutate: shape(1, 40e9),
			absent: []string{"FABRICGEN-Q1"}},
		{name: "DWRR queue shaper on QFX10000", family: FamilyQFX10000, mutate: shape(0, 40e9),
			err: "queue 0 shaper 40G: fabricgen caps a QFX10000 queue only when it is strict-high"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, d := rendertest.TinyFabric(Platform(), "et-0/0/0")
			d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{}
			d.Family = tc.family
			tc.mutate(d)
			text, err := rendertest.Render(t, Platform(), f, d)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v does not say %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("missing %q in\n%s", strings.TrimSpace(w), text)
				}
			}
			for _, a := range tc.absent {
				if strings.Contains(text, a) {
					t.Errorf("unexpected %q in\n%s", strings.TrimSpace(a), text)
				}
			}
		})
	}
}

// junosReach maps DSCP 40+P to each priority P, so the DSCP classifier
// reaches it and the render gives it a forwarding class.
func junosReach(q *schema.PortQoS, prios ...int) {
	for _, p := range prios {
		q.DSCP[40+p] = rendertest.Set(p)
	}
}
