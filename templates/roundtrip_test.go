package templates

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms/sonic"
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

func parseSONiC(t *testing.T, text []byte) *parsedDevice {
	var db map[string]map[string]map[string]string
	if err := json.Unmarshal(text, &db); err != nil {
		t.Fatalf("sonic render is not a string-valued CONFIG_DB: %v", err)
	}
	// Releases before 202111 write references as "[TABLE|name]".
	for _, rows := range db {
		for _, fields := range rows {
			for k, v := range fields {
				if strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
					if _, name, ok := strings.Cut(v[1:len(v)-1], "|"); ok {
						fields[k] = name
					}
				}
			}
		}
	}
	p := newParsed()
	tcQueue := map[string]string{}
	for k, v := range db["TC_TO_QUEUE_MAP"][sonic.SONiCMapName] {
		tcQueue[k] = v
	}
	for d, tc := range db["DSCP_TO_TC_MAP"][sonic.SONiCMapName] {
		p.dscp[atoi(t, d)] = atoi(t, tc)
		p.dscpQueue[atoi(t, d)] = atoi(t, tcQueue[tc])
	}
	for name, row := range db["PORT"] {
		pp := &parsedPort{}
		if row["mtu"] != "" {
			pp.mtu = atoi(t, row["mtu"])
		}
		qm := db["PORT_QOS_MAP"][name]
		if qm["dscp_to_tc_map"] != "" {
			pp.trust = "dscp"
		}
		if qm["pfc_enable"] != "" {
			pp.pfc = parseRanges(t, qm["pfc_enable"])
		}
		for q := 0; q < 8; q++ {
			row := db["QUEUE"][name+"|"+strconv.Itoa(q)]
			if s := db["SCHEDULER"][row["scheduler"]]; s != nil {
				pp.queues[q].sched = strings.ToLower(s["type"])
				if s["weight"] != "" {
					pp.queues[q].weight = atoi(t, s["weight"])
				}
			}
			if w := db["WRED_PROFILE"][row["wred_profile"]]; w != nil {
				pq := &pp.queues[q]
				pq.ecnParsed = true
				pq.ecnMin = int64(atoi(t, w["green_min_threshold"]))
				pq.ecnMax = int64(atoi(t, w["green_max_threshold"]))
				pq.ecnProb = atoi(t, w["green_drop_probability"])
				pq.ecnMark = w["ecn"] == "ecn_all"
			}
		}
		p.ports[name] = pp
	}
	return p
}

// compareRoundTrip checks a parsed render against the effective QoS of
// each port of d.
func compareRoundTrip(t *testing.T, d *schema.Device, got *parsedDevice, withPriority bool) {
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
				if d.Platform.V == schema.CiscoNXOS {
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

// TestRoundTrip parses trust, DSCP map, PFC, ECN, schedulers and MTU back
// out of every EOS, NX-OS and SONiC render and compares them with the
// effective QoS of each port.
func TestRoundTrip(t *testing.T) {
	r := newTestRenderer(t)
	checked := map[schema.Platform]int{}
	for _, ex := range exampleNames(t) {
		f := loadExample(t, ex)
		for _, d := range sampleDevices(f) {
			var parse func(*testing.T, []byte) *parsedDevice
			withPrio := true
			switch d.Platform.V {
			case schema.AristaEOS:
				parse = parseEOS
			case schema.CiscoNXOS:
				parse, withPrio = parseNXOS, false
			case schema.SONiC:
				parse = parseSONiC
			default:
				continue
			}
			o, err := r.Render(f, d)
			if err != nil {
				continue // the error is pinned by TestGolden
			}
			compareRoundTrip(t, d, parse(t, o.Text), withPrio)
			checked[d.Platform.V]++
		}
	}
	for _, p := range []schema.Platform{schema.AristaEOS, schema.CiscoNXOS, schema.SONiC} {
		if checked[p] == 0 {
			t.Errorf("no %s render was round-tripped", p)
		}
	}
}

// TestRoundTripDetectsDrift proves the comparison fails when a render and
// the intent disagree.
func TestRoundTripDetectsDrift(t *testing.T) {
	f := loadExample(t, "ai-training-2subnet")
	r := newTestRenderer(t)
	d := f.Device("leaf1")
	o, err := r.Render(f, d)
	if err != nil {
		t.Fatal(err)
	}
	broken := bytes.Replace(o.Text, []byte("qos map dscp 46 to traffic-class 5"), []byte("qos map dscp 46 to traffic-class 1"), 1)
	if bytes.Equal(broken, o.Text) {
		t.Fatal("render lacks the DSCP 46 map line this test edits")
	}
	ft := &testing.T{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		compareRoundTrip(ft, d, parseEOS(ft, broken), true)
	}()
	<-done
	if !ft.Failed() {
		t.Error("the round-trip comparison accepted a render that maps DSCP 46 to the wrong priority")
	}
}
