package sonic_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
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

func parseSONiC(t *testing.T, text []byte) *parsedDevice {
	var raw map[string]map[string]map[string]any
	if err := json.Unmarshal(text, &raw); err != nil {
		t.Fatalf("sonic render is not CONFIG_DB JSON: %v", err)
	}
	// Every field is a string but a list (an ACL table's ports), which
	// the round trip does not read.
	db := map[string]map[string]map[string]string{}
	for table, rows := range raw {
		db[table] = map[string]map[string]string{}
		for key, fields := range rows {
			db[table][key] = map[string]string{}
			for k, v := range fields {
				if s, ok := v.(string); ok {
					db[table][key][k] = s
				}
			}
		}
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

// TestRoundTrip parses trust, DSCP map, PFC, ECN, schedulers and MTU back
// out of the golden render of every device of this folder's fixture and
// compares them with the effective QoS of each port (moved from
// templates/roundtrip_test.go).
func TestRoundTrip(t *testing.T) {
	fx := platformtest.Of(filepath.Join("..", ".."), sonic.Platform())
	f, err := fx.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range fx.Devices(f) {
		text, err := os.ReadFile(fx.Golden(d.Name))
		if err != nil {
			t.Fatal(err)
		}
		compareRoundTrip(t, d, parseSONiC(t, text), true, false)
	}
}
