package cisconxos_test

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
	cisconxos "github.com/fabricgen/fabricgen/platforms/cisco_nxos"
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

func parseRanges(t *testing.T, s string) []int {
	var out []int
	for _, part := range strings.Split(s, ",") {
		if a, b, ok := strings.Cut(part, "-"); ok {
			for i := atoi(t, a); i <= atoi(t, b); i++ {
				out = append(out, i)
			}
			continue
		}
		out = append(out, atoi(t, part))
	}
	return out
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

func parseNXOS(t *testing.T, text []byte) *parsedDevice {
	p := newParsed()
	classDSCP := map[string][]int{}
	var pfc []int
	queues := [8]parsedQueue{}
	var (
		class, policy string
		queue         *parsedQueue
		port          *parsedPort
	)
	ports := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if indent == 0 {
			policy, class, queue, port = "", "", nil, nil
		}
		switch {
		case strings.HasPrefix(line, "class-map type qos "):
			class = f[4]
		case class != "" && indent == 2 && strings.HasPrefix(strings.TrimSpace(line), "match dscp "):
			classDSCP[class] = parseRanges(t, f[2])
		case line == "policy-map type qos FABRICGEN-IN":
			policy = "in"
		case policy == "in" && indent == 2 && f[0] == "class":
			class = f[1]
		case policy == "in" && indent == 4 && f[0] == "set" && f[1] == "qos-group":
			for _, d := range classDSCP[class] {
				p.dscpQueue[d] = atoi(t, f[2])
			}
		case strings.HasPrefix(line, "policy-map type queuing "):
			policy = "queuing"
		case policy == "queuing" && indent == 2:
			n := strings.TrimPrefix(f[3], "c-out-8q-q")
			if n == "-default" {
				n = "0"
			}
			queue = &queues[atoi(t, n)]
		case queue != nil && strings.TrimSpace(line) == "priority level 1":
			queue.sched = "strict"
		case queue != nil && strings.HasPrefix(strings.TrimSpace(line), "bandwidth remaining percent "):
			queue.sched, queue.weight = "dwrr", atoi(t, f[3])
		case queue != nil && f[0] == "random-detect":
			parseECN(t, f, queue)
		case strings.HasPrefix(line, "policy-map type network-qos "):
			policy = "nq"
		case policy == "nq" && f[0] == "pause":
			for _, c := range f[2:] {
				pfc = append(pfc, atoi(t, c))
			}
		case strings.HasPrefix(line, "interface "):
			port = &parsedPort{trust: "dscp"}
			p.ports[f[1]] = port
			ports[f[1]] = false
		case port != nil && strings.HasPrefix(line, "  mtu "):
			port.mtu = atoi(t, f[1])
		case port != nil && line == "  priority-flow-control mode on":
			port.pfc = append([]int(nil), pfc...)
		}
	}
	for _, pp := range p.ports {
		pp.queues = queues
		if pp.pfc != nil {
			pp.pfc = append([]int(nil), pfc...)
		}
	}
	return p
}

// TestRoundTrip parses trust, DSCP map, PFC, ECN, schedulers and MTU back
// out of the golden render of every device of this folder's fixture and
// compares them with the effective QoS of each port (moved from
// templates/roundtrip_test.go).
func TestRoundTrip(t *testing.T) {
	fx := platformtest.Of(filepath.Join("..", ".."), cisconxos.Platform())
	f, err := fx.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range fx.Devices(f) {
		text, err := os.ReadFile(fx.Golden(d.Name))
		if err != nil {
			t.Fatal(err)
		}
		compareRoundTrip(t, d, parseNXOS(t, text), false, true)
	}
}
