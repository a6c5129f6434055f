package view

import (
	"slices"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/schema"
)

func lineAt(line int32) schema.Range {
	if line == 0 {
		return schema.Range{}
	}
	return schema.Range{Filename: "q.fab.hcl", Start: schema.Pos{Line: line}, End: schema.Pos{Line: line}}
}

func lineOf(r schema.Range) int32 {
	if r.IsZero() {
		return 0
	}
	return r.Start.Line
}

// TestWatchdogRefusal: a watchdog value is refused at the profile's line
// that sets it, with the attachment (and the values it is checked
// against) related; a value the profile leaves at its default is refused
// at the attachment; nothing related repeats the refused line.
func TestWatchdogRefusal(t *testing.T) {
	full := &schema.Watchdog{Name: "wd", Range: lineAt(1),
		Detection:    schema.Value[time.Duration]{Set: true, Src: lineAt(2)},
		PollInterval: schema.Value[time.Duration]{Set: true, Src: lineAt(3)},
		Action:       schema.Value[schema.WatchdogAction]{V: "forward", Set: true, Src: lineAt(4)},
	}
	bare := &schema.Watchdog{Name: "bare", Range: lineAt(1)}
	attached := func(w *schema.Watchdog, at int32) *schema.PortQoS {
		return &schema.PortQoS{Watchdog: schema.Value[*schema.Watchdog]{V: w, Set: true, Src: lineAt(at)}}
	}
	d := &schema.Device{Name: "x1", Range: lineAt(90), Platform: schema.Value[schema.Platform]{V: "nvidia_cumulus"}}
	cases := []struct {
		name    string
		q       *schema.PortQoS
		field   func(*schema.Watchdog) schema.Range
		also    []func(*schema.Watchdog) schema.Range
		line    int32
		related []int32
	}{
		{"action at its line", attached(full, 60), WDAction, nil, 4, []int32{60}},
		{"detection with the poll it counts", attached(full, 60), WDDetection, []func(*schema.Watchdog) schema.Range{WDPoll}, 2, []int32{3, 60}},
		{"default value at the attachment", attached(bare, 60), WDAction, []func(*schema.Watchdog) schema.Range{WDPoll}, 60, nil},
		{"unset restoration at the attachment", attached(full, 60), WDRestoration, nil, 60, nil},
		{"attachment without a line", attached(full, 0), WDAction, nil, 4, nil},
		{"the field is its own also", attached(full, 60), WDPoll, []func(*schema.Watchdog) schema.Range{WDPoll}, 3, []int32{60}},
		{"no watchdog", &schema.PortQoS{Watchdog: schema.Value[*schema.Watchdog]{Set: true, Src: lineAt(61)}}, WDAction, nil, 61, nil},
		{"no QoS: the device", nil, WDAction, nil, 90, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ue := WatchdogRefusal(d, c.q, "pfc_watchdog value", "reason", c.field, c.also...)
			if got := lineOf(ue.Src); got != c.line {
				t.Errorf("refused at line %d, want %d", got, c.line)
			}
			var rel []int32
			for _, r := range ue.Related {
				if r.Range == ue.Src || r.Message == "" {
					t.Errorf("related %v repeats the refused line or says nothing", r)
				}
				rel = append(rel, lineOf(r.Range))
			}
			if !slices.Equal(rel, c.related) {
				t.Errorf("related lines %v, want %v", rel, c.related)
			}
			if ue.Device != "x1" || ue.Platform != "nvidia_cumulus" {
				t.Errorf("refusal of %s (%s), want x1 (nvidia_cumulus)", ue.Device, ue.Platform)
			}
		})
	}
}

// TestQueueValueSrc: an ECN threshold is refused at the profile's
// threshold line (at the profile's attachment when the profile leaves it
// unset), and a DWRR weight at the weight line, else at the scheduler line
// that made the queue weighted; out-of-range queues and ports without QoS
// give no line rather than a panic.
func TestQueueValueSrc(t *testing.T) {
	ecn := &schema.ECNProfile{Name: "roce", Min: schema.Value[int64]{Set: true, Src: lineAt(20)}}
	q := &schema.PortQoS{}
	q.Queues[3].ECN = schema.Value[*schema.ECNProfile]{V: ecn, Set: true, Src: lineAt(30)}
	q.Queues[5].Sched = schema.Value[schema.SchedMode]{V: schema.SchedDWRR, Set: true, Src: lineAt(40)}
	q.Queues[6].Sched = schema.Value[schema.SchedMode]{V: schema.SchedDWRR, Set: true, Src: lineAt(41)}
	q.Queues[6].Weight = schema.Value[int]{V: 0, Set: true, Src: lineAt(42)}
	d := &schema.Device{Name: "x1", Ports: []*schema.Port{{Name: "p0"}, {Name: "p1", QoS: q}}}
	cases := []struct {
		name string
		got  schema.Range
		want int32
	}{
		{"min threshold", ECNSrc(d, 3, ECNMin), 20},
		{"unset max threshold: the profile's attachment", ECNSrc(d, 3, ECNMax), 30},
		{"unset probability: the profile's attachment", ECNSrc(d, 3, ECNProbability), 30},
		{"queue without a profile", ECNSrc(d, 4, ECNMin), 0},
		{"queue out of range", ECNSrc(d, 8, ECNMin), 0},
		{"negative queue", ECNSrc(d, -1, ECNMin), 0},
		{"weight set", QueueWeightSrc(d, 6), 42},
		{"weight unset: the scheduler", QueueWeightSrc(d, 5), 40},
		{"neither", QueueWeightSrc(d, 2), 0},
	}
	for _, c := range cases {
		if got := lineOf(c.got); got != c.want {
			t.Errorf("%s: line %d, want %d", c.name, got, c.want)
		}
	}
}
