package sonic

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/check/readings"
	"github.com/fabricgen/fabricgen/internal/check/collect"
	"github.com/fabricgen/fabricgen/schema"
)

// collector reads SONiC from its Redis databases (sonic-db-cli for
// the name maps, sonic-db-dump -y for whole tables as JSON: COUNTERS_DB
// port and queue counters, PFC watchdog state and FEC rates, STATE_DB
// transceiver DOM and thresholds, APPL_DB port state), `show queue
// counters --json`, and CONFIG_DB (sonic-cfggen) for the read-back.
type collector struct{}

func (collector) Commands() []string {
	return []string{"sonic-db-cli COUNTERS_DB HGETALL COUNTERS_PORT_NAME_MAP", "sonic-db-cli COUNTERS_DB HGETALL COUNTERS_QUEUE_NAME_MAP",
		"sonic-db-dump -n COUNTERS_DB -y -k 'COUNTERS:oid:*'", "sonic-db-dump -n COUNTERS_DB -y -k 'RATES:oid:*'",
		"sonic-db-dump -n STATE_DB -y -k 'TRANSCEIVER_DOM_*'", "sonic-db-dump -n APPL_DB -y -k 'PORT_TABLE:*'",
		"show queue counters --json", "sonic-cfggen -d --print-data"}
}

func (c collector) Collect(r collect.Runner, dev *schema.Device) (*readings.Device, error) {
	d := collect.NewDevice(dev)
	byName := collect.PortMap(d)
	cmds := c.Commands()
	outs := make([]string, len(cmds)-1)
	for i, cmd := range cmds[:len(cmds)-1] {
		out, err := r.Run(cmd)
		if err != nil {
			return nil, err
		}
		outs[i] = out
	}
	portOIDs, err := collectParsePyDict(outs[0])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmds[0], err)
	}
	queueOIDs, err := collectParsePyDict(outs[1])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmds[1], err)
	}
	steps := []struct {
		i     int
		fams  []string
		parse func(string) error
	}{
		{2, []string{readings.FCSErrors, readings.RxErrors, readings.FECCorrected, readings.FECUncorrected, readings.PFCRx, readings.PFCTx, readings.QueueECN, readings.WDStorms,
			readings.WDRestored, readings.WDStormed, readings.RxBytes, readings.TxBytes}, func(s string) error { return collectParseSONiCCounters(s, byName, portOIDs, queueOIDs) }},
		{3, []string{readings.PreFECBER}, func(s string) error { return collectParseSONiCRates(s, byName, portOIDs) }},
		{4, []string{readings.RxPower, readings.TxPower, readings.RxPowerLoAlarm, readings.RxPowerLoWarn, readings.TxPowerLoAlarm, readings.TxPowerLoWarn,
			readings.TxPowerHiWarn, readings.TxPowerHiAlarm, readings.Temperature, readings.TempHiWarn, readings.TempHiAlarm, readings.Voltage, readings.VoltLoWarn, readings.VoltHiWarn},
			func(s string) error { return collectParseSONiCDOM(s, byName) }},
		{5, []string{readings.Oper, readings.LinkFlaps}, func(s string) error { return collectParseSONiCPortTable(s, byName) }},
		{6, []string{readings.QueueTxBytes, readings.QueueDrops}, func(s string) error { return collectParseSONiCQueueCounters(s, byName) }},
	}
	for _, st := range steps {
		if err := st.parse(outs[st.i]); err != nil {
			return nil, fmt.Errorf("%s: %w", cmds[st.i], err)
		}
		collect.Source(d, cmds[st.i], st.fams...)
	}
	return d, collect.Readback(r, d, read, cmds[len(cmds)-1])
}

var collectRePyPair = regexp.MustCompile(`'((?:[^'\\]|\\.)*)'\s*:\s*'((?:[^'\\]|\\.)*)'`)

// collectParsePyDict reads a Python dict of strings as sonic-db-cli HGETALL prints it.
func collectParsePyDict(out string) (map[string]string, error) {
	s := strings.TrimSpace(out)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return nil, fmt.Errorf("not a dict: %.60q", s)
	}
	m := map[string]string{}
	for _, p := range collectRePyPair.FindAllStringSubmatch(s, -1) {
		m[p[1]] = p[2]
	}
	return m, nil
}

// collectDbDump reads sonic-db-dump -y output: KEY → collect.Field → value.
func collectDbDump(out string) (map[string]map[string]string, error) {
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
	collectSonicPortFields = []collect.Field{{Key: "SAI_PORT_STAT_ETHER_STATS_CRC_ALIGN_ERRORS", Fam: readings.FCSErrors}, {Key: "SAI_PORT_STAT_IF_IN_ERRORS", Fam: readings.RxErrors},
		{Key: "SAI_PORT_STAT_IF_IN_FEC_CORRECTABLE_FRAMES", Fam: readings.FECCorrected}, {Key: "SAI_PORT_STAT_IF_IN_FEC_NOT_CORRECTABLE_FRAMES", Fam: readings.FECUncorrected},
		{Key: "SAI_PORT_STAT_IF_IN_OCTETS", Fam: readings.RxBytes}, {Key: "SAI_PORT_STAT_IF_OUT_OCTETS", Fam: readings.TxBytes}}
	collectSonicThresholdFields = []collect.Field{{Key: "rxpowerlowalarm", Fam: readings.RxPowerLoAlarm}, {Key: "rxpowerlowwarning", Fam: readings.RxPowerLoWarn},
		{Key: "txpowerlowalarm", Fam: readings.TxPowerLoAlarm}, {Key: "txpowerlowwarning", Fam: readings.TxPowerLoWarn}, {Key: "txpowerhighwarning", Fam: readings.TxPowerHiWarn},
		{Key: "txpowerhighalarm", Fam: readings.TxPowerHiAlarm}, {Key: "temphighwarning", Fam: readings.TempHiWarn}, {Key: "temphighalarm", Fam: readings.TempHiAlarm},
		{Key: "vcclowwarning", Fam: readings.VoltLoWarn}, {Key: "vcchighwarning", Fam: readings.VoltHiWarn}}
)

// collectFltString reads a Redis collect.Field as float64.
func collectFltString(s string) (float64, bool) {
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

func collectParseSONiCCounters(out string, ports map[string]*readings.Port, portOIDs, queueOIDs map[string]string) error {
	db, err := collectDbDump(out)
	if err != nil {
		return err
	}
	for name, oid := range portOIDs {
		p := ports[name]
		st := db["COUNTERS:"+oid]
		if p == nil || st == nil {
			continue
		}
		collect.Fill(p.Counters, st, collect.U64, collectSonicPortFields...)
		for pr := 0; pr < 8; pr++ {
			collect.FillAt(p.Counters, st, collect.U64, pr, collect.Field{Key: fmt.Sprintf("SAI_PORT_STAT_PFC_%d_RX_PKTS", pr), Fam: readings.PFCRx},
				collect.Field{Key: fmt.Sprintf("SAI_PORT_STAT_PFC_%d_TX_PKTS", pr), Fam: readings.PFCTx})
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
		collect.FillAt(p.Counters, st, collect.U64, q, collect.Field{Key: "SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS", Fam: readings.QueueECN})
		if s, ok := st["PFC_WD_STATUS"]; ok {
			p.Gauges[readings.Key(readings.WDStormed, q)] = collect.Flag(s == "stormed")
			n, _ := collect.U64(st["PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED"])
			p.Counters[readings.Key(readings.WDStorms, q)] = n
			n, _ = collect.U64(st["PFC_WD_QUEUE_STATS_DEADLOCK_RESTORED"])
			p.Counters[readings.Key(readings.WDRestored, q)] = n
		}
	}
	return nil
}

func collectParseSONiCRates(out string, ports map[string]*readings.Port, portOIDs map[string]string) error {
	db, err := collectDbDump(out)
	if err != nil {
		return err
	}
	for name, oid := range portOIDs {
		p := ports[name]
		if p == nil {
			continue
		}
		if f, err := strconv.ParseFloat(db["RATES:"+oid]["FEC_PRE_BER"], 64); err == nil && f >= 0 {
			p.Gauges[readings.PreFECBER] = f
		}
	}
	return nil
}

var collectReDOMPower = regexp.MustCompile(`^(rx|tx)(\d+)power$`)

func collectParseSONiCDOM(out string, ports map[string]*readings.Port) error {
	db, err := collectDbDump(out)
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
			collect.Fill(p.Gauges, m, collectFltString, collect.Field{Key: "temperature", Fam: readings.Temperature}, collect.Field{Key: "voltage", Fam: readings.Voltage})
			for key := range m {
				if mm := collectReDOMPower.FindStringSubmatch(key); mm != nil {
					lane, _ := strconv.Atoi(mm[2])
					fam := readings.RxPower
					if mm[1] == "tx" {
						fam = readings.TxPower
					}
					if lane < 64 {
						collect.FillAt(p.Gauges, m, collectFltString, lane, collect.Field{Key: key, Fam: fam})
					}
				}
			}
		case "TRANSCEIVER_DOM_THRESHOLD":
			collect.Fill(p.Gauges, m, collectFltString, collectSonicThresholdFields...)
		}
	}
	return nil
}

func collectParseSONiCPortTable(out string, ports map[string]*readings.Port) error {
	db, err := collectDbDump(out)
	if err != nil {
		return err
	}
	for key, m := range db {
		p := ports[strings.TrimPrefix(key, "PORT_TABLE:")]
		if p == nil || !strings.HasPrefix(key, "PORT_TABLE:") {
			continue
		}
		p.Oper = collect.UpDown(m["oper_status"] == "up")
		if n, ok := collect.U64(m["speed"]); ok && n < 1e9 {
			p.Speed = int64(n) * 1e6
		}
		if l := m["lanes"]; l != "" {
			p.Lanes = len(strings.Split(l, ","))
		}
		p.FEC = m["fec"]
		if n, ok := collect.U64(m["flap_count"]); ok {
			p.Counters[readings.LinkFlaps] = n
		}
	}
	return nil
}

func collectParseSONiCQueueCounters(out string, ports map[string]*readings.Port) error {
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
			if n, ok := collect.U64(m["totalbytes"]); ok {
				p.Counters[readings.Key(readings.QueueTxBytes, q)] = n
			}
			if n, ok := collect.U64(m["droppacket"]); ok {
				p.Counters[readings.Key(readings.QueueDrops, q)] = n
			}
		}
	}
	return nil
}
