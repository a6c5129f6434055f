package importer

import (
	"reflect"
	"testing"
)

// TestSameQoS changes one field at a time: each change must make the
// two readings differ, and the sources never count.
func TestSameQoS(t *testing.T) {
	one, two := 1, 2
	yes := true
	base := func() *QoS {
		return &QoS{Trust: "dscp", DSCP: map[int]int{26: 3}, DefaultPriority: &one, PCP: map[int]int{3: 3}, Queue: map[int]int{3: 3},
			PFC: []int{3}, PFCSet: true, Queues: map[int]*Queue{3: {Sched: "dwrr", Weight: &one, ECN: &ECN{MinBytes: 1, MaxBytes: 2, MinFill: &one}}},
			Watchdog: &Watchdog{DetectionMS: 200}, MTU: 9214, LinkPause: &yes, Buffer: &Buffer{XOFF: 1, DynamicThreshold: &one}}
	}
	a, b := base(), base()
	b.Src = []Span{{File: "x", From: 1}}
	if !SameQoS(a, b) {
		t.Fatal("the same reading with other sources differs")
	}
	for name, change := range map[string]func(q *QoS){
		"trust":            func(q *QoS) { q.Trust = "pcp" },
		"dscp":             func(q *QoS) { q.DSCP[26] = 4 },
		"default_priority": func(q *QoS) { q.DefaultPriority = &two },
		"no default":       func(q *QoS) { q.DefaultPriority = nil },
		"pcp":              func(q *QoS) { q.PCP[4] = 4 },
		"queue":            func(q *QoS) { q.Queue[3] = 4 },
		"pfc":              func(q *QoS) { q.PFC = []int{3, 4} },
		"pfc set":          func(q *QoS) { q.PFCSet = false },
		"queue weight":     func(q *QoS) { q.Queues[3].Weight = &two },
		"queue ecn":        func(q *QoS) { q.Queues[3].ECN.MinFill = &two },
		"queue ecn off":    func(q *QoS) { q.Queues[3].ECNOff = true },
		"queue added":      func(q *QoS) { q.Queues[4] = &Queue{} },
		"watchdog":         func(q *QoS) { q.Watchdog = &Watchdog{DetectionMS: 100} },
		"watchdog off":     func(q *QoS) { q.WatchdogOff = true },
		"mtu":              func(q *QoS) { q.MTU = 9000 },
		"link pause":       func(q *QoS) { q.LinkPause = nil },
		"buffer":           func(q *QoS) { q.Buffer.DynamicThreshold = &two },
	} {
		c := base()
		change(c)
		if SameQoS(a, c) || SameQoS(c, a) {
			t.Errorf("%s: a changed reading is still the same", name)
		}
	}
	// A field added to QoS, Queue, ECN or Buffer must be compared too.
	for typ, n := range map[reflect.Type]int{reflect.TypeFor[QoS](): 14, reflect.TypeFor[Queue](): 5, reflect.TypeFor[ECN](): 7, reflect.TypeFor[Buffer](): 6} {
		if typ.NumField() != n {
			t.Errorf("%s has %d fields, SameQoS compares %d: compare the new one", typ, typ.NumField(), n)
		}
	}
}
