package nvidiacumulus

import (
	"fmt"
	"strconv"

	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
)

// answerExec answers the NVUE commands fabricgen check runs, each with
// -o json (NVUE's object tree):
//
//	nv show interface                         IF.link.{state, speed, fec, lanes, stats.{carrier-transitions, in-bytes, in-errors, …}}
//	nv show interface IF counters qos         egress-queue-stats.TC.{tx-frames, tx-bytes, tx-uc-buffer-discards, wred-discards},
//	                                          pfc-stats.SP.{rx-pause-frames, rx-pause-duration, tx-pause-frames, tx-pause-duration},
//	                                          ingress-buffer-stats.PG.{rx-frames, rx-buffer-discards, …} (CL 5.5+)
//	nv show interface IF qos roce counters    rx-stats/tx-stats: pfc (pause-packets, pause-duration), roce, ecn, cnp (RoCE priority only)
//	nv show platform transceiver IF           channel.channel-N.{rx-power, tx-power}, temperature, voltage, with thresholds
//	                                          (a passive copper cable: cable-type and length, no channel, temperature or voltage [M])
//	nv show interface IF qos pfc-watchdog     status.traffic-class.TC.{status, deadlock-count}
//
// NVUE's RoCE counters cover the RoCE priority only and count packets;
// the QoS counters have every traffic class's bytes and every switch
// priority's pauses. FEC codewords and the pre-FEC BER are not in these
// views.
func answerExec(v *dataplane.DeviceView, argv []string) (string, string, int, bool) {
	if o, e, st, ok := answerLLDP(v, argv); ok {
		return o, e, st, true
	}
	if len(argv) < 4 || argv[0] != "nv" || argv[1] != "show" || argv[len(argv)-2] != "-o" || argv[len(argv)-1] != "json" {
		return "", "", 0, false
	}
	args := argv[2 : len(argv)-2]
	switch {
	case len(args) == 1 && args[0] == "interface":
		out := map[string]any{}
		for _, p := range v.Ports() {
			state := "up"
			if !p.Up {
				state = "down"
			}
			out[p.Name] = map[string]any{"type": "swp", "link": map[string]any{"state": state, "speed": fmt.Sprintf("%dG", p.Speed/1e9), "fec": p.FEC,
				"lanes": p.Lanes, "mtu": 9214, "stats": map[string]any{"carrier-transitions": 2 * p.C(dataplane.LinkDown), "in-bytes": p.C(dataplane.RxBytes), "out-bytes": p.C(dataplane.TxBytes),
					"in-pkts": p.C(dataplane.RxPackets), "out-pkts": p.C(dataplane.TxPackets), "in-errors": p.C(dataplane.FCSErrors) + p.C(dataplane.SymbolErrors), "in-drops": 0, "out-errors": 0, "out-drops": 0}}}
		}
		return dataplane.JSONText(out), "", 0, true
	case len(args) == 4 && args[0] == "interface" && args[2] == "counters" && args[3] == "qos":
		p, ok := v.Port(args[1])
		if !ok {
			return "", "Error: The requested item does not exist.\n", 1, true
		}
		eq, pfc, ib := map[string]any{}, map[string]any{}, map[string]any{}
		for i := 0; i < 8; i++ {
			m, k := dataplane.Metric(i), strconv.Itoa(i)
			eq[k] = map[string]any{"tx-frames": p.C(dataplane.QueueTxPackets + m), "tx-bytes": p.C(dataplane.QueueTxBytes + m), "tx-uc-buffer-discards": p.C(dataplane.QueueDrops + m), "wred-discards": 0}
			pfc[k] = map[string]any{"rx-pause-frames": p.C(dataplane.PFCRxFrames + m), "rx-pause-duration": p.C(dataplane.PFCRxPauseUS + m),
				"tx-pause-frames": p.C(dataplane.PFCTxFrames + m), "tx-pause-duration": p.C(dataplane.PFCTxPauseUS + m)}
			ib[k] = map[string]any{"rx-frames": p.C(dataplane.PrioRxPackets + m), "rx-buffer-discards": p.C(dataplane.PrioRxDiscards + m), "rx-shared-buffer-discards": 0}
		}
		return dataplane.JSONText(map[string]any{"egress-queue-stats": eq, "pfc-stats": pfc, "ingress-buffer-stats": ib,
			"port-stats": map[string]any{"rx-stats": map[string]any{"pause-frames": dataplane.Sum8(&p, dataplane.PFCRxFrames)},
				"tx-stats": map[string]any{"ecn-marked-packets": dataplane.Sum8(&p, dataplane.QueueECNMarked), "mc-buffer-discards": 0, "pause-frames": dataplane.Sum8(&p, dataplane.PFCTxFrames)}}}), "", 0, true
	case len(args) == 5 && args[0] == "interface" && args[2] == "qos" && args[3] == "roce" && args[4] == "counters":
		p, ok := v.Port(args[1])
		if !ok {
			return "", "Error: The requested item does not exist.\n", 1, true
		}
		prio, q := v.RoCEClass(p.Name)
		m, mq := dataplane.Metric(prio), dataplane.Metric(q)
		out := map[string]any{
			"rx-stats": map[string]any{
				"rx-pfc-stats":  map[string]any{"pause-duration": p.C(dataplane.PFCRxPauseUS + m), "pause-packets": p.C(dataplane.PFCRxFrames + m)},
				"rx-roce-stats": map[string]any{"no-buffer-discard": p.C(dataplane.PrioRxDiscards + m), "roce-packets": p.C(dataplane.PrioRxPackets + m), "pg-max-usage": "0 Bytes"}},
			"tx-stats": map[string]any{
				"tx-cnp-stats":  map[string]any{"cnp-packets": 0, "unicast-no-buffer-discard": 0},
				"tx-ecn-stats":  map[string]any{"ecn-marked-packets": p.C(dataplane.QueueECNMarked + mq)},
				"tx-pfc-stats":  map[string]any{"pause-duration": p.C(dataplane.PFCTxPauseUS + m), "pause-packets": p.C(dataplane.PFCTxFrames + m)},
				"tx-roce-stats": map[string]any{"roce-packets": p.C(dataplane.QueueTxPackets + mq), "unicast-no-buffer-discard": p.C(dataplane.QueueDrops + mq), "tc-max-usage": "0 Bytes"}}}
		return dataplane.JSONText(out), "", 0, true
	case len(args) == 3 && args[0] == "platform" && args[1] == "transceiver":
		p, ok := v.Port(args[2])
		if !ok {
			return "", "Error: The requested item does not exist.\n", 1, true
		}
		if p.Copper {
			return dataplane.JSONText(map[string]any{"identifier": "QSFP-DD", "vendor-name": "FABRICGEN-LAB", "cable-type": "Passive copper cable",
				"cable-length": fmt.Sprintf("%.0fm", max(1, p.CableLength))}), "", 0, true
		}
		pw := func(dbm float64) string { return fmt.Sprintf("%.4f mW / %.2f dBm", dataplane.MilliWatts(dbm), dbm) }
		ch := map[string]any{}
		for l := range p.RxPower {
			tx := 0.0
			if l < len(p.TxPower) {
				tx = p.TxPower[l]
			}
			ch["channel-"+strconv.Itoa(l+1)] = map[string]any{
				"rx-power": map[string]any{"power": pw(p.RxPower[l]), "low-alarm-threshold": pw(dataplane.RxLowAlarm), "low-warning-threshold": pw(dataplane.RxLowWarn),
					"high-warning-threshold": pw(dataplane.RxHighWarn), "high-alarm-threshold": pw(dataplane.RxHighAlarm), "alarm": "off"},
				"tx-power": map[string]any{"power": pw(tx), "low-alarm-threshold": pw(dataplane.TxLowAlarm), "low-warning-threshold": pw(dataplane.TxLowWarn),
					"high-warning-threshold": pw(dataplane.TxHighWarn), "high-alarm-threshold": pw(dataplane.TxHighAlarm), "alarm": "off"}}
		}
		out := map[string]any{"identifier": "QSFP-DD", "vendor-name": "FABRICGEN-LAB", "channel": ch,
			"temperature": map[string]any{"temperature": fmt.Sprintf("%.2f C", p.Temp), "high-warning-threshold": fmt.Sprintf("%.2f C", dataplane.TempHighWarn),
				"high-alarm-threshold": fmt.Sprintf("%.2f C", dataplane.TempHighAlarm)},
			"voltage": map[string]any{"voltage": fmt.Sprintf("%.4f V", p.Vcc), "low-warning-threshold": fmt.Sprintf("%.4f V", dataplane.VccLowWarn),
				"high-warning-threshold": fmt.Sprintf("%.4f V", dataplane.VccHighWarn)}}
		return dataplane.JSONText(out), "", 0, true
	case len(args) == 4 && args[0] == "interface" && args[2] == "qos" && args[3] == "pfc-watchdog":
		p, ok := v.Port(args[1])
		if !ok {
			return "", "Error: The requested item does not exist.\n", 1, true
		}
		tcs := map[string]any{}
		for q := 0; q < 8; q++ {
			st := "ok"
			if p.Stormed[q] {
				st = "stormed"
			}
			tcs[strconv.Itoa(q)] = map[string]any{"status": st, "deadlock-count": p.C(dataplane.WDStorms + dataplane.Metric(q))}
		}
		return dataplane.JSONText(map[string]any{"enable": p.Watchdog, "status": map[string]any{"traffic-class": tcs}}), "", 0, true
	}
	return "", "", 0, false
}
