package sonic_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/platforms/sonic"
)

func parseSONiC(t *testing.T, text []byte) *platformtest.ParsedDevice {
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
	p := platformtest.NewParsed()
	tcQueue := map[string]string{}
	for k, v := range db["TC_TO_QUEUE_MAP"][sonic.SONiCMapName] {
		tcQueue[k] = v
	}
	for d, tc := range db["DSCP_TO_TC_MAP"][sonic.SONiCMapName] {
		p.DSCP[platformtest.Atoi(t, d)] = platformtest.Atoi(t, tc)
		p.DSCPQueue[platformtest.Atoi(t, d)] = platformtest.Atoi(t, tcQueue[tc])
	}
	for name, row := range db["PORT"] {
		pp := &platformtest.ParsedPort{}
		if row["mtu"] != "" {
			pp.MTU = platformtest.Atoi(t, row["mtu"])
		}
		qm := db["PORT_QOS_MAP"][name]
		if qm["dscp_to_tc_map"] != "" {
			pp.Trust = "dscp"
		}
		if qm["pfc_enable"] != "" {
			pp.PFC = platformtest.ParseRanges(t, qm["pfc_enable"])
		}
		for q := 0; q < 8; q++ {
			row := db["QUEUE"][name+"|"+strconv.Itoa(q)]
			if s := db["SCHEDULER"][row["scheduler"]]; s != nil {
				pp.Queues[q].Sched = strings.ToLower(s["type"])
				if s["weight"] != "" {
					pp.Queues[q].Weight = platformtest.Atoi(t, s["weight"])
				}
			}
			if w := db["WRED_PROFILE"][row["wred_profile"]]; w != nil {
				pq := &pp.Queues[q]
				pq.ECNParsed = true
				pq.ECNMin = int64(platformtest.Atoi(t, w["green_min_threshold"]))
				pq.ECNMax = int64(platformtest.Atoi(t, w["green_max_threshold"]))
				pq.ECNProb = platformtest.Atoi(t, w["green_drop_probability"])
				pq.ECNMark = w["ecn"] == "ecn_all"
			}
		}
		p.Ports[name] = pp
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
		platformtest.CompareRoundTrip(t, d, parseSONiC(t, text), true, false)
	}
}
