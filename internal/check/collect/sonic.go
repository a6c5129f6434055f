package collect

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/schema"
)

// sonicCollector reads SONiC from its Redis databases (sonic-db-cli for
// the name maps, sonic-db-dump -y for whole tables as JSON: COUNTERS_DB
// port and queue counters, PFC watchdog state and FEC rates, STATE_DB
// transceiver DOM and thresholds, APPL_DB port state), `show queue
// counters --json`, and CONFIG_DB (sonic-cfggen) for the read-back.
type sonicCollector struct{}

func (sonicCollector) Commands() []string {
	return []string{"sonic-db-cli COUNTERS_DB HGETALL COUNTERS_PORT_NAME_MAP", "sonic-db-cli COUNTERS_DB HGETALL COUNTERS_QUEUE_NAME_MAP",
		"sonic-db-dump -n COUNTERS_DB -y -k 'COUNTERS:oid:*'", "sonic-db-dump -n COUNTERS_DB -y -k 'RATES:oid:*'",
		"sonic-db-dump -n STATE_DB -y -k 'TRANSCEIVER_DOM_*'", "sonic-db-dump -n APPL_DB -y -k 'PORT_TABLE:*'",
		"show queue counters --json", "sonic-cfggen -d --print-data"}
}

func (c sonicCollector) Collect(r Runner, dev *schema.Device) (*check.Device, error) {
	d := newDevice(dev)
	byName := portMap(d)
	cmds := c.Commands()
	outs := make([]string, len(cmds)-1)
	for i, cmd := range cmds[:len(cmds)-1] {
		out, err := r.Run(cmd)
		if err != nil {
			return nil, err
		}
		outs[i] = out
	}
	portOIDs, err := parsePyDict(outs[0])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmds[0], err)
	}
	queueOIDs, err := parsePyDict(outs[1])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmds[1], err)
	}
	steps := []struct {
		i     int
		fams  []string
		parse func(string) error
	}{
		{2, []string{check.FCSErrors, check.RxErrors, check.FECCorrected, check.FECUncorrected, check.PFCRx, check.PFCTx, check.QueueECN, check.WDStorms,
			check.WDRestored, check.WDStormed, check.RxBytes, check.TxBytes}, func(s string) error { return parseSONiCCounters(s, byName, portOIDs, queueOIDs) }},
		{3, []string{check.PreFECBER}, func(s string) error { return parseSONiCRates(s, byName, portOIDs) }},
		{4, []string{check.RxPower, check.TxPower, check.RxPowerLoAlarm, check.RxPowerLoWarn, check.TxPowerLoAlarm, check.TxPowerLoWarn,
			check.TxPowerHiWarn, check.TxPowerHiAlarm, check.Temperature, check.TempHiWarn, check.TempHiAlarm, check.Voltage, check.VoltLoWarn, check.VoltHiWarn},
			func(s string) error { return parseSONiCDOM(s, byName) }},
		{5, []string{check.Oper, check.LinkFlaps}, func(s string) error { return parseSONiCPortTable(s, byName) }},
		{6, []string{check.QueueTxBytes, check.QueueDrops}, func(s string) error { return parseSONiCQueueCounters(s, byName) }},
	}
	for _, st := range steps {
		if err := st.parse(outs[st.i]); err != nil {
			return nil, fmt.Errorf("%s: %w", cmds[st.i], err)
		}
		source(d, cmds[st.i], st.fams...)
	}
	return d, readback(r, d, schema.SONiC, cmds[len(cmds)-1])
}

var rePyPair = regexp.MustCompile(`'((?:[^'\\]|\\.)*)'\s*:\s*'((?:[^'\\]|\\.)*)'`)

// parsePyDict reads a Python dict of strings as sonic-db-cli HGETALL prints it.
func parsePyDict(out string) (map[string]string, error) {
	s := strings.TrimSpace(out)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return nil, fmt.Errorf("not a dict: %.60q", s)
	}
	m := map[string]string{}
	for _, p := range rePyPair.FindAllStringSubmatch(s, -1) {
		m[p[1]] = p[2]
	}
	return m, nil
}

// dbDump reads sonic-db-dump -y output: KEY → field → value.
func dbDump(out string) (map[string]map[string]string, error) {
	var raw map[string]struct {
		Value map[string]any `json:"value"`
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		return nil, err
	}
	res := map[string]map[string]string{}
	for k, v := range raw {
		m := map[string]string{}
		for f, x := range v.Value {
			if s, ok := x.(string); ok {
				m[f] = s
			}
		}
		res[k] = m
	}
	return res, nil
}

var (
	sonicPortFields = []field{{"SAI_PORT_STAT_ETHER_STATS_CRC_ALIGN_ERRORS", check.FCSErrors}, {"SAI_PORT_STAT_IF_IN_ERRORS", check.RxErrors},
		{"SAI_PORT_STAT_IF_IN_FEC_CORRECTABLE_FRAMES", check.FECCorrected}, {"SAI_PORT_STAT_IF_IN_FEC_NOT_CORRECTABLE_FRAMES", check.FECUncorrected},
		{"SAI_PORT_STAT_IF_IN_OCTETS", check.RxBytes}, {"SAI_PORT_STAT_IF_OUT_OCTETS", check.TxBytes}}
	sonicThresholdFields = []field{{"rxpowerlowalarm", check.RxPowerLoAlarm}, {"rxpowerlowwarning", check.RxPowerLoWarn},
		{"txpowerlowalarm", check.TxPowerLoAlarm}, {"txpowerlowwarning", check.TxPowerLoWarn}, {"txpowerhighwarning", check.TxPowerHiWarn},
		{"txpowerhighalarm", check.TxPowerHiAlarm}, {"temphighwarning", check.TempHiWarn}, {"temphighalarm", check.TempHiAlarm},
		{"vcclowwarning", check.VoltLoWarn}, {"vcchighwarning", check.VoltHiWarn}}
)

// fltString reads a Redis field as float64.
func fltString(s string) (float64, bool) {
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// u64 reads a counter, commas allowed.
func u64(s string) (uint64, bool) {
	n, err := strconv.ParseUint(strings.ReplaceAll(strings.TrimSpace(s), ",", ""), 10, 64)
	return n, err == nil
}

func parseSONiCCounters(out string, ports map[string]*check.Port, portOIDs, queueOIDs map[string]string) error {
	db, err := dbDump(out)
	if err != nil {
		return err
	}
	for name, oid := range portOIDs {
		p := ports[name]
		st := db["COUNTERS:"+oid]
		if p == nil || st == nil {
			continue
		}
		fill(p.Counters, st, u64, sonicPortFields...)
		for pr := 0; pr < 8; pr++ {
			fillAt(p.Counters, st, u64, pr, field{fmt.Sprintf("SAI_PORT_STAT_PFC_%d_RX_PKTS", pr), check.PFCRx},
				field{fmt.Sprintf("SAI_PORT_STAT_PFC_%d_TX_PKTS", pr), check.PFCTx})
		}
	}
	for key, oid := range queueOIDs {
		name, qs, ok := strings.Cut(key, ":")
		q, err := strconv.Atoi(qs)
		p := ports[name]
		st := db["COUNTERS:"+oid]
		if !ok || err != nil || q < 0 || q > 7 || p == nil || st == nil {
			continue
		}
		fillAt(p.Counters, st, u64, q, field{"SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS", check.QueueECN})
		if s, ok := st["PFC_WD_STATUS"]; ok {
			p.Gauges[check.Key(check.WDStormed, q)] = flag(s == "stormed")
			n, _ := u64(st["PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED"])
			p.Counters[check.Key(check.WDStorms, q)] = n
			n, _ = u64(st["PFC_WD_QUEUE_STATS_DEADLOCK_RESTORED"])
			p.Counters[check.Key(check.WDRestored, q)] = n
		}
	}
	return nil
}

func parseSONiCRates(out string, ports map[string]*check.Port, portOIDs map[string]string) error {
	db, err := dbDump(out)
	if err != nil {
		return err
	}
	for name, oid := range portOIDs {
		p := ports[name]
		if p == nil {
			continue
		}
		if f, err := strconv.ParseFloat(db["RATES:"+oid]["FEC_PRE_BER"], 64); err == nil && f >= 0 {
			p.Gauges[check.PreFECBER] = f
		}
	}
	return nil
}

var reDOMPower = regexp.MustCompile(`^(rx|tx)(\d+)power$`)

func parseSONiCDOM(out string, ports map[string]*check.Port) error {
	db, err := dbDump(out)
	if err != nil {
		return err
	}
	for key, m := range db {
		table, name, ok := strings.Cut(key, "|")
		p := ports[name]
		if !ok || p == nil {
			continue
		}
		switch table {
		case "TRANSCEIVER_DOM_SENSOR":
			fill(p.Gauges, m, fltString, field{"temperature", check.Temperature}, field{"voltage", check.Voltage})
			for key := range m {
				if mm := reDOMPower.FindStringSubmatch(key); mm != nil {
					lane, _ := strconv.Atoi(mm[2])
					fam := check.RxPower
					if mm[1] == "tx" {
						fam = check.TxPower
					}
					if lane < 64 {
						fillAt(p.Gauges, m, fltString, lane, field{key, fam})
					}
				}
			}
		case "TRANSCEIVER_DOM_THRESHOLD":
			fill(p.Gauges, m, fltString, sonicThresholdFields...)
		}
	}
	return nil
}

func parseSONiCPortTable(out string, ports map[string]*check.Port) error {
	db, err := dbDump(out)
	if err != nil {
		return err
	}
	for key, m := range db {
		p := ports[strings.TrimPrefix(key, "PORT_TABLE:")]
		if p == nil || !strings.HasPrefix(key, "PORT_TABLE:") {
			continue
		}
		p.Oper = upDown(m["oper_status"] == "up")
		if n, ok := u64(m["speed"]); ok && n < 1e9 {
			p.Speed = int64(n) * 1e6
		}
		if l := m["lanes"]; l != "" {
			p.Lanes = len(strings.Split(l, ","))
		}
		p.FEC = m["fec"]
		if n, ok := u64(m["flap_count"]); ok {
			p.Counters[check.LinkFlaps] = n
		}
	}
	return nil
}

func parseSONiCQueueCounters(out string, ports map[string]*check.Port) error {
	var v map[string]map[string]map[string]string
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		return err
	}
	for name, qs := range v {
		p := ports[name]
		if p == nil {
			continue
		}
		for qn, m := range qs {
			q, err := strconv.Atoi(strings.TrimPrefix(qn, "UC"))
			if err != nil || !strings.HasPrefix(qn, "UC") || q < 0 || q > 7 {
				continue
			}
			if n, ok := u64(m["totalbytes"]); ok {
				p.Counters[check.Key(check.QueueTxBytes, q)] = n
			}
			if n, ok := u64(m["droppacket"]); ok {
				p.Counters[check.Key(check.QueueDrops, q)] = n
			}
		}
	}
	return nil
}
