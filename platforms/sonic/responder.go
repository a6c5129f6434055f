package sonic

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
)

// answerExec answers the SONiC commands fabricgen check runs:
//
//	sonic-db-cli COUNTERS_DB HGETALL COUNTERS_PORT_NAME_MAP    port → oid (a Python dict, as sonic-db-cli prints it)
//	sonic-db-cli COUNTERS_DB HGETALL COUNTERS_QUEUE_NAME_MAP   "PORT:Q" → oid
//	sonic-db-dump -n COUNTERS_DB -y -k COUNTERS:oid:*          SAI_PORT_STAT_* and SAI_QUEUE_STAT_*, PFC_WD_* per key
//	sonic-db-dump -n COUNTERS_DB -y -k RATES:oid:*             FEC_PRE_BER per port
//	sonic-db-dump -n STATE_DB -y -k TRANSCEIVER_DOM_*          TRANSCEIVER_DOM_SENSOR|PORT and TRANSCEIVER_DOM_THRESHOLD|PORT
//	                                                          (none for a passive copper cable: xcvrd has no DOM to publish [M])
//	sonic-db-dump -n APPL_DB -y -k PORT_TABLE:*                oper_status, speed, lanes, fec, flap_count
//	show queue counters --json                                 queuestat -j: PORT.UCn.{totalpacket, totalbytes, droppacket, dropbytes}
//
// sonic-db-dump prints {"KEY": {"type": "hash", "value": {...}}}, every
// value a string.
func answerExec(v *dataplane.DeviceView, argv []string) (string, string, int, bool) {
	if o, e, st, ok := answerLLDP(v, argv); ok {
		return o, e, st, true
	}
	args := strings.Join(argv, " ")
	ports := v.Ports()
	portOID := func(i int) string { return fmt.Sprintf("oid:0x1000000000%03x", i+1) }
	queueOID := func(i, q int) string { return fmt.Sprintf("oid:0x15000000%04x%02x", i+1, q) }
	u := func(x uint64) string { return fmt.Sprint(x) }
	switch args {
	case "sonic-db-cli COUNTERS_DB HGETALL COUNTERS_PORT_NAME_MAP":
		m := map[string]string{}
		for i, p := range ports {
			m[p.Name] = portOID(i)
		}
		return answerPyDict(m), "", 0, true
	case "sonic-db-cli COUNTERS_DB HGETALL COUNTERS_QUEUE_NAME_MAP":
		m := map[string]string{}
		for i, p := range ports {
			for q := 0; q < 8; q++ {
				m[fmt.Sprintf("%s:%d", p.Name, q)] = queueOID(i, q)
			}
		}
		return answerPyDict(m), "", 0, true
	case "sonic-db-dump -n COUNTERS_DB -y -k COUNTERS:oid:*":
		out := map[string]any{}
		for i := range ports {
			p := &ports[i]
			st := map[string]string{"SAI_PORT_STAT_IF_IN_OCTETS": u(p.C(dataplane.RxBytes)), "SAI_PORT_STAT_IF_OUT_OCTETS": u(p.C(dataplane.TxBytes)),
				"SAI_PORT_STAT_IF_IN_UCAST_PKTS": u(p.C(dataplane.RxPackets)), "SAI_PORT_STAT_IF_OUT_UCAST_PKTS": u(p.C(dataplane.TxPackets)),
				"SAI_PORT_STAT_IF_IN_ERRORS": u(p.C(dataplane.FCSErrors) + p.C(dataplane.SymbolErrors)), "SAI_PORT_STAT_ETHER_STATS_CRC_ALIGN_ERRORS": u(p.C(dataplane.FCSErrors)),
				"SAI_PORT_STAT_IF_IN_FEC_CORRECTABLE_FRAMES": u(p.C(dataplane.FECCorrected)), "SAI_PORT_STAT_IF_IN_FEC_NOT_CORRECTABLE_FRAMES": u(p.C(dataplane.FECUncorrected)),
				"SAI_PORT_STAT_IF_IN_FEC_SYMBOL_ERRORS": u(p.C(dataplane.SymbolErrors))}
			for pr := 0; pr < 8; pr++ {
				st[fmt.Sprintf("SAI_PORT_STAT_PFC_%d_RX_PKTS", pr)] = u(p.C(dataplane.PFCRxFrames + dataplane.Metric(pr)))
				st[fmt.Sprintf("SAI_PORT_STAT_PFC_%d_TX_PKTS", pr)] = u(p.C(dataplane.PFCTxFrames + dataplane.Metric(pr)))
			}
			out["COUNTERS:"+portOID(i)] = map[string]any{"type": "hash", "value": st}
			for q := 0; q < 8; q++ {
				m := dataplane.Metric(q)
				qs := map[string]string{"SAI_QUEUE_STAT_PACKETS": u(p.C(dataplane.QueueTxPackets + m)), "SAI_QUEUE_STAT_BYTES": u(p.C(dataplane.QueueTxBytes + m)),
					"SAI_QUEUE_STAT_DROPPED_PACKETS": u(p.C(dataplane.QueueDrops + m)), "SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS": u(p.C(dataplane.QueueECNMarked + m))}
				if p.Watchdog {
					status := "operational"
					if p.Stormed[q] {
						status = "stormed"
					}
					qs["PFC_WD_STATUS"] = status
					qs["PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED"] = u(p.C(dataplane.WDStorms + m))
					qs["PFC_WD_QUEUE_STATS_DEADLOCK_RESTORED"] = u(p.C(dataplane.WDRestored + m))
					qs["PFC_WD_QUEUE_STATS_TX_DROPPED_PACKETS"] = u(p.C(dataplane.WDDropped + m))
				}
				out["COUNTERS:"+queueOID(i, q)] = map[string]any{"type": "hash", "value": qs}
			}
		}
		return dataplane.JSONText(out), "", 0, true
	case "sonic-db-dump -n COUNTERS_DB -y -k RATES:oid:*":
		out := map[string]any{}
		for i := range ports {
			out["RATES:"+portOID(i)] = map[string]any{"type": "hash", "value": map[string]string{
				"FEC_PRE_BER": fmt.Sprintf("%.2e", ports[i].PreFECBER), "FEC_POST_BER": "0.00e+00"}}
		}
		return dataplane.JSONText(out), "", 0, true
	case "sonic-db-dump -n STATE_DB -y -k TRANSCEIVER_DOM_*":
		out := map[string]any{}
		f := func(x float64) string { return fmt.Sprintf("%.4f", x) }
		for i := range ports {
			p := &ports[i]
			if p.Copper {
				continue
			}
			sensor := map[string]string{"temperature": f(p.Temp), "voltage": f(p.Vcc)}
			for l := range p.RxPower {
				sensor[fmt.Sprintf("rx%dpower", l+1)] = f(p.RxPower[l])
			}
			for l := range p.TxPower {
				sensor[fmt.Sprintf("tx%dpower", l+1)] = f(p.TxPower[l])
			}
			out["TRANSCEIVER_DOM_SENSOR|"+p.Name] = map[string]any{"type": "hash", "value": sensor}
			out["TRANSCEIVER_DOM_THRESHOLD|"+p.Name] = map[string]any{"type": "hash", "value": map[string]string{
				"rxpowerlowalarm": f(dataplane.RxLowAlarm), "rxpowerlowwarning": f(dataplane.RxLowWarn), "rxpowerhighwarning": f(dataplane.RxHighWarn), "rxpowerhighalarm": f(dataplane.RxHighAlarm),
				"txpowerlowalarm": f(dataplane.TxLowAlarm), "txpowerlowwarning": f(dataplane.TxLowWarn), "txpowerhighwarning": f(dataplane.TxHighWarn), "txpowerhighalarm": f(dataplane.TxHighAlarm),
				"temphighwarning": f(dataplane.TempHighWarn), "temphighalarm": f(dataplane.TempHighAlarm), "vcclowwarning": f(dataplane.VccLowWarn), "vcchighwarning": f(dataplane.VccHighWarn),
				"vcclowalarm": f(dataplane.VccLowAlarm), "vcchighalarm": f(dataplane.VccHighAlarm)}}
		}
		return dataplane.JSONText(out), "", 0, true
	case "sonic-db-dump -n APPL_DB -y -k PORT_TABLE:*":
		out := map[string]any{}
		for i := range ports {
			p := &ports[i]
			state := "up"
			if !p.Up {
				state = "down"
			}
			lanes := make([]string, p.Lanes)
			for l := range lanes {
				lanes[l] = fmt.Sprint(i*8 + l)
			}
			out["PORT_TABLE:"+p.Name] = map[string]any{"type": "hash", "value": map[string]string{"oper_status": state, "admin_status": "up",
				"speed": fmt.Sprint(p.Speed / 1e6), "lanes": strings.Join(lanes, ","), "fec": p.FEC, "flap_count": u(p.C(dataplane.LinkDown)), "mtu": "9214"}}
		}
		return dataplane.JSONText(out), "", 0, true
	case "show queue counters --json":
		out := map[string]any{}
		for i := range ports {
			p := &ports[i]
			qs := map[string]any{}
			for q := 0; q < 8; q++ {
				m := dataplane.Metric(q)
				qs[fmt.Sprintf("UC%d", q)] = map[string]string{"totalpacket": u(p.C(dataplane.QueueTxPackets + m)), "totalbytes": u(p.C(dataplane.QueueTxBytes + m)),
					"droppacket": u(p.C(dataplane.QueueDrops + m)), "dropbytes": u(p.C(dataplane.QueueDrops+m) * dataplane.RoCEPacket)}
			}
			out[p.Name] = qs
		}
		return dataplane.JSONText(out), "", 0, true
	}
	return "", "", 0, false
}

// answerPyDict prints a string map as Python prints a dict (sonic-db-cli HGETALL).
func answerPyDict(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("'%s': '%s'", k, m[k])
	}
	return "{" + strings.Join(parts, ", ") + "}\n"
}
