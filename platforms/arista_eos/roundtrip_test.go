package aristaeos_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	aristaeos "github.com/fabricgen/fabricgen/platforms/arista_eos"
	"github.com/fabricgen/fabricgen/schema"
)

// parsedQueue is what a render says about one egress queue.
type parsedQueue struct {
	sched              string // "strict", "dwrr" or ""
	weight             int
	ecnMin, ecnMax     int64
	ecnProb            int
	ecnMark, ecnParsed bool
}

// parsedPort is what a render says about one port.
type parsedPort struct {
	mtu    int
	trust  string
	pfc    []int
	queues [8]parsedQueue
}

// parsedDevice is what a render says about a device. dscp is DSCP→priority
// (EOS, SONiC) or -1 when the platform only names queues (NX-OS), and
// dscpQueue is DSCP→queue.
type parsedDevice struct {
	dscp      [64]int
	dscpQueue [64]int
	ports     map[string]*parsedPort
}

func newParsed() *parsedDevice {
	p := &parsedDevice{ports: map[string]*parsedPort{}}
	for i := range p.dscp {
		p.dscp[i], p.dscpQueue[i] = -1, -1
	}
	return p
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("parsing %q: %v", s, err)
	}
	return n
}

// parseSize reads "150 kbytes" / "150000 bytes" style thresholds.
func parseSize(t *testing.T, n, unit string) int64 {
	v := int64(atoi(t, n))
	switch unit {
	case "kbytes":
		// NX-OS is the only platform rendered in kbytes: fabricgen writes
		// bytes/1024 rounded down (see nxosKBytes).
		return v * 1024
	case "bytes":
		return v
	}
	t.Fatalf("unknown size unit %q", unit)
	return 0
}

// parseECN reads the random-detect words shared by EOS and NX-OS.
func parseECN(t *testing.T, f []string, q *parsedQueue) {
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "minimum-threshold":
			q.ecnMin = parseSize(t, f[i+1], f[i+2])
		case "maximum-threshold":
			q.ecnMax = parseSize(t, f[i+1], f[i+2])
		case "max-mark-probability", "drop-probability":
			q.ecnProb = atoi(t, f[i+1])
		case "ecn":
			q.ecnMark = true
		}
	}
	q.ecnParsed = true
}

// compareRoundTrip checks a parsed render against the effective QoS of
// each port of d.
func compareRoundTrip(t *testing.T, d *schema.Device, got *parsedDevice, withPriority, wholeKiB bool) {
	t.Helper()
	for _, port := range d.Ports {
		q := port.QoS
		gp := got.ports[port.Name]
		if gp == nil {
			t.Errorf("%s: port %s missing from the render", d.Name, port.Name)
			continue
		}
		where := d.Name + ":" + port.Name
		if q.MTU.V != 0 && gp.mtu != q.MTU.V {
			t.Errorf("%s: mtu %d in render, %d in intent", where, gp.mtu, q.MTU.V)
		}
		if q.Trust.V != "" && gp.trust != string(q.Trust.V) {
			t.Errorf("%s: trust %q in render, %q in intent", where, gp.trust, q.Trust.V)
		}
		for dscp := 0; dscp < 64; dscp++ {
			want := q.DSCP[dscp].V
			if withPriority && got.dscp[dscp] != want {
				t.Errorf("%s: DSCP %d → priority %d in render, %d in intent", where, dscp, got.dscp[dscp], want)
			}
			wq := q.Queue[want].V
			if !q.Queue[want].Set {
				wq = want
			}
			if got.dscpQueue[dscp] != wq {
				t.Errorf("%s: DSCP %d → queue %d in render, %d in intent", where, dscp, got.dscpQueue[dscp], wq)
			}
		}
		if fmt.Sprint(gp.pfc) != fmt.Sprint(q.Lossless.List()) && (len(gp.pfc) != 0 || q.Lossless != 0) {
			t.Errorf("%s: PFC priorities %v in render, %v in intent", where, gp.pfc, q.Lossless.List())
		}
		for qid := 0; qid < 8; qid++ {
			wq, gq := q.Queues[qid], gp.queues[qid]
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
				if !gq.ecnParsed || gq.ecnMin != wantMin || gq.ecnMax != wantMax || gq.ecnProb != prob || gq.ecnMark != (!e.Mark.Set || e.Mark.V) {
					t.Errorf("%s: queue %d ECN %+v in render, want %d–%d B p%d", where, qid, gq, wantMin, wantMax, prob)
				}
			} else if gq.ecnParsed {
				t.Errorf("%s: queue %d has ECN in render, none in intent", where, qid)
			}
			if wq.Sched.V == schema.SchedStrict && gq.sched != "strict" {
				t.Errorf("%s: queue %d scheduler %q in render, strict in intent", where, qid, gq.sched)
			}
			if wq.Sched.V == schema.SchedDWRR && (gq.sched != "dwrr" || gq.weight != wq.Weight.V) {
				t.Errorf("%s: queue %d %s/%d in render, dwrr/%d in intent", where, qid, gq.sched, gq.weight, wq.Weight.V)
			}
		}
	}
}

func parseEOS(t *testing.T, text []byte) *parsedDevice {
	p := newParsed()
	tcQueue := [8]int{}
	var port *parsedPort
	var queue *parsedQueue
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "qos map dscp "):
			tc := atoi(t, f[len(f)-1])
			for _, v := range f[3 : len(f)-3] {
				p.dscp[atoi(t, v)] = tc
			}
		case strings.HasPrefix(line, "qos map traffic-class "):
			tcQueue[atoi(t, f[3])] = atoi(t, f[6])
		case strings.HasPrefix(line, "interface "):
			port = &parsedPort{}
			p.ports[f[1]] = port
			queue = nil
		case port != nil && strings.HasPrefix(line, "   mtu "):
			port.mtu = atoi(t, f[1])
		case port != nil && strings.HasPrefix(line, "   qos trust "):
			port.trust = map[string]string{"dscp": "dscp", "cos": "pcp"}[f[2]]
		case port != nil && line == "   no qos trust":
			port.trust = "none"
		case port != nil && strings.HasPrefix(line, "   priority-flow-control priority "):
			if f[3] == "no-drop" {
				port.pfc = append(port.pfc, atoi(t, f[2]))
			}
		case port != nil && strings.HasPrefix(line, "   tx-queue "):
			queue = &port.queues[atoi(t, f[1])]
		case queue != nil && line == "      priority strict":
			queue.sched = "strict"
		case queue != nil && line == "      no priority":
			queue.sched = "dwrr"
		case queue != nil && strings.HasPrefix(line, "      bandwidth percent "):
			queue.weight = atoi(t, f[2])
		case queue != nil && strings.HasPrefix(line, "      random-detect "):
			parseECN(t, f, queue)
			queue.ecnMark = f[1] == "ecn"
		}
	}
	for d, pr := range p.dscp {
		if pr >= 0 {
			p.dscpQueue[d] = tcQueue[pr]
		}
	}
	return p
}

// TestRoundTrip parses trust, DSCP map, PFC, ECN, schedulers and MTU back
// out of the golden render of every device of this folder's fixture and
// compares them with the effective QoS of each port (moved from
// templates/roundtrip_test.go).
func TestRoundTrip(t *testing.T) {
	fx := platformtest.Of(filepath.Join("..", ".."), aristaeos.Platform())
	f, err := fx.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range fx.Devices(f) {
		text, err := os.ReadFile(fx.Golden(d.Name))
		if err != nil {
			t.Fatal(err)
		}
		compareRoundTrip(t, d, parseEOS(t, text), true, false)
	}
}

// TestRoundTripDetectsDrift proves the comparison fails when a render and
// the intent disagree.
func TestRoundTripDetectsDrift(t *testing.T) {
	fx := platformtest.Of(filepath.Join("..", ".."), aristaeos.Platform())
	f, err := fx.Load()
	if err != nil {
		t.Fatal(err)
	}
	d := fx.Devices(f)[0]
	text, err := os.ReadFile(fx.Golden(d.Name))
	if err != nil {
		t.Fatal(err)
	}
	broken := bytes.Replace(text, []byte("qos map dscp 26 to traffic-class 3"), []byte("qos map dscp 26 to traffic-class 1"), 1)
	if bytes.Equal(broken, text) {
		t.Fatal("render lacks the DSCP 26 map line this test edits")
	}
	ft := &testing.T{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		compareRoundTrip(ft, d, parseEOS(ft, broken), true, false)
	}()
	<-done
	if !ft.Failed() {
		t.Error("the round-trip comparison accepted a render that maps DSCP 26 to the wrong priority")
	}
}
