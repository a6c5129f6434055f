package platformtest

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// The round-trip tests of the switch folders parse their renders back
// with a small test-only reader of their own (an oracle independent of
// the folder's reader.go) into a ParsedDevice, and compare it with the
// intent here.

// ParsedQueue is what a render says about one egress queue.
type ParsedQueue struct {
	Sched              string // "strict", "dwrr" or ""
	Weight             int
	ECNMin, ECNMax     int64
	ECNProb            int
	ECNMark, ECNParsed bool
}

// ParsedPort is what a render says about one port.
type ParsedPort struct {
	MTU    int
	Trust  string
	PFC    []int
	Queues [8]ParsedQueue
}

// ParsedDevice is what a render says about a device. DSCP is DSCP→priority
// (EOS, SONiC) or -1 when the platform only names queues (NX-OS), and
// DSCPQueue is DSCP→queue.
type ParsedDevice struct {
	DSCP      [64]int
	DSCPQueue [64]int
	Ports     map[string]*ParsedPort
}

// NewParsed returns an empty ParsedDevice, every DSCP unmapped (-1).
func NewParsed() *ParsedDevice {
	p := &ParsedDevice{Ports: map[string]*ParsedPort{}}
	for i := range p.DSCP {
		p.DSCP[i], p.DSCPQueue[i] = -1, -1
	}
	return p
}

// Atoi is strconv.Atoi, failing t.
func Atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("parsing %q: %v", s, err)
	}
	return n
}

// ParseSize reads "150 kbytes" / "150000 bytes" style thresholds.
func ParseSize(t *testing.T, n, unit string) int64 {
	v := int64(Atoi(t, n))
	switch unit {
	case "kbytes":
		// A platform that renders kbytes writes bytes/1024 rounded down.
		return v * 1024
	case "bytes":
		return v
	}
	t.Fatalf("unknown size unit %q", unit)
	return 0
}

// ParseRanges reads "1,3-5" into [1 3 4 5].
func ParseRanges(t *testing.T, s string) []int {
	var out []int
	for _, part := range strings.Split(s, ",") {
		if a, b, ok := strings.Cut(part, "-"); ok {
			for i := Atoi(t, a); i <= Atoi(t, b); i++ {
				out = append(out, i)
			}
			continue
		}
		out = append(out, Atoi(t, part))
	}
	return out
}

// ParseECN reads the random-detect words shared by EOS and NX-OS.
func ParseECN(t *testing.T, f []string, q *ParsedQueue) {
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "minimum-threshold":
			q.ECNMin = ParseSize(t, f[i+1], f[i+2])
		case "maximum-threshold":
			q.ECNMax = ParseSize(t, f[i+1], f[i+2])
		case "max-mark-probability", "drop-probability":
			q.ECNProb = Atoi(t, f[i+1])
		case "ecn":
			q.ECNMark = true
		}
	}
	q.ECNParsed = true
}

// CompareRoundTrip checks a parsed render against the effective QoS of
// each port of d.
// CompareRoundTrip compares what a render says about a device (got) with
// the effective QoS of each of its ports: MTU, trust, DSCP to priority
// (withPriority) and to queue, PFC priorities, ECN (thresholds rounded
// down to whole KiB when wholeKiB) and schedulers.
func CompareRoundTrip(t *testing.T, d *schema.Device, got *ParsedDevice, withPriority, wholeKiB bool) {
	t.Helper()
	for _, port := range d.Ports {
		q := port.QoS
		gp := got.Ports[port.Name]
		if gp == nil {
			t.Errorf("%s: port %s missing from the render", d.Name, port.Name)
			continue
		}
		where := d.Name + ":" + port.Name
		if q.MTU.V != 0 && gp.MTU != q.MTU.V {
			t.Errorf("%s: mtu %d in render, %d in intent", where, gp.MTU, q.MTU.V)
		}
		if q.Trust.V != "" && gp.Trust != string(q.Trust.V) {
			t.Errorf("%s: trust %q in render, %q in intent", where, gp.Trust, q.Trust.V)
		}
		for dscp := 0; dscp < 64; dscp++ {
			want := q.DSCP[dscp].V
			if withPriority && got.DSCP[dscp] != want {
				t.Errorf("%s: DSCP %d → priority %d in render, %d in intent", where, dscp, got.DSCP[dscp], want)
			}
			wq := q.Queue[want].V
			if !q.Queue[want].Set {
				wq = want
			}
			if got.DSCPQueue[dscp] != wq {
				t.Errorf("%s: DSCP %d → queue %d in render, %d in intent", where, dscp, got.DSCPQueue[dscp], wq)
			}
		}
		if fmt.Sprint(gp.PFC) != fmt.Sprint(q.Lossless.List()) && (len(gp.PFC) != 0 || q.Lossless != 0) {
			t.Errorf("%s: PFC priorities %v in render, %v in intent", where, gp.PFC, q.Lossless.List())
		}
		for qid := 0; qid < 8; qid++ {
			wq, gq := q.Queues[qid], gp.Queues[qid]
			if e := wq.ECN.V; e != nil {
				prob := e.Probability.V
				if !e.Probability.Set {
					prob = 100
				}
				wantMin, wantMax := e.Min.V, e.Max.V
				if wholeKiB {
					// Whole KiB, rounded down: at or below the intent
					// whether NX-OS counts a kbyte as 1,000 or 1,024.
					wantMin, wantMax = wantMin/1024*1024, wantMax/1024*1024
				}
				if !gq.ECNParsed || gq.ECNMin != wantMin || gq.ECNMax != wantMax || gq.ECNProb != prob || gq.ECNMark != (!e.Mark.Set || e.Mark.V) {
					t.Errorf("%s: queue %d ECN %+v in render, want %d–%d B p%d", where, qid, gq, wantMin, wantMax, prob)
				}
			} else if gq.ECNParsed {
				t.Errorf("%s: queue %d has ECN in render, none in intent", where, qid)
			}
			if wq.Sched.V == schema.SchedStrict && gq.Sched != "strict" {
				t.Errorf("%s: queue %d scheduler %q in render, strict in intent", where, qid, gq.Sched)
			}
			if wq.Sched.V == schema.SchedDWRR && (gq.Sched != "dwrr" || gq.Weight != wq.Weight.V) {
				t.Errorf("%s: queue %d %s/%d in render, dwrr/%d in intent", where, qid, gq.Sched, gq.Weight, wq.Weight.V)
			}
		}
	}
}
