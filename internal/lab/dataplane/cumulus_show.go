package dataplane

import (
	"fmt"
	"strconv"
)

// cumulusExec answers the NVUE commands fabricgen check runs, each with
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
func cumulusExec(v *DeviceView, argv []string) (string, string, int, bool) {
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
				"lanes": p.Lanes, "mtu": 9214, "stats": map[string]any{"carrier-transitions": 2 * p.C(LinkDown), "in-bytes": p.C(RxBytes), "out-bytes": p.C(TxBytes),
					"in-pkts": p.C(RxPackets), "out-pkts": p.C(TxPackets), "in-errors": p.C(FCSErrors) + p.C(SymbolErrors), "in-drops": 0, "out-errors": 0, "out-drops": 0}}}
		}
		return jsonText(out), "", 0, true
	case len(args) == 4 && args[0] == "interface" && args[2] == "counters" && args[3] == "qos":
		p, ok := v.Port(args[1])
		if !ok {
			return "", "Error: The requested item does not exist.\n", 1, true
		}
		eq, pfc, ib := map[string]any{}, map[string]any{}, map[string]any{}
		for i := 0; i < 8; i++ {
			m, k := Metric(i), strconv.Itoa(i)
			eq[k] = map[string]any{"tx-frames": p.C(QueueTxPackets + m), "tx-bytes": p.C(QueueTxBytes + m), "tx-uc-buffer-discards": p.C(QueueDrops + m), "wred-discards": 0}
			pfc[k] = map[string]any{"rx-pause-frames": p.C(PFCRxFrames + m), "rx-pause-duration": p.C(PFCRxPauseUS + m),
				"tx-pause-frames": p.C(PFCTxFrames + m), "tx-pause-duration": p.C(PFCTxPauseUS + m)}
			ib[k] = map[string]any{"rx-frames": p.C(PrioRxPackets + m), "rx-buffer-discards": p.C(PrioRxDiscards + m), "rx-shared-buffer-discards": 0}
		}
		return jsonText(map[string]any{"egress-queue-stats": eq, "pfc-stats": pfc, "ingress-buffer-stats": ib,
			"port-stats": map[string]any{"rx-stats": map[string]any{"pause-frames": sum8(&p, PFCRxFrames)},
				"tx-stats": map[string]any{"ecn-marked-packets": sum8(&p, QueueECNMarked), "mc-buffer-discards": 0, "pause-frames": sum8(&p, PFCTxFrames)}}}), "", 0, true
	case len(args) == 5 && args[0] == "interface" && args[2] == "qos" && args[3] == "roce" && args[4] == "counters":
		p, ok := v.Port(args[1])
		if !ok {
			return "", "Error: The requested item does not exist.\n", 1, true
		}
		prio, q := v.roceClass(p.Name)
		m, mq := Metric(prio), Metric(q)
		out := map[string]any{
			"rx-stats": map[string]any{
				"rx-pfc-stats":  map[string]any{"pause-duration": p.C(PFCRxPauseUS + m), "pause-packets": p.C(PFCRxFrames + m)},
				"rx-roce-stats": map[string]any{"no-buffer-discard": p.C(PrioRxDiscards + m), "roce-packets": p.C(PrioRxPackets + m), "pg-max-usage": "0 Bytes"}},
			"tx-stats": map[string]any{
				"tx-cnp-stats":  map[string]any{"cnp-packets": 0, "unicast-no-buffer-discard": 0},
				"tx-ecn-stats":  map[string]any{"ecn-marked-packets": p.C(QueueECNMarked + mq)},
				"tx-pfc-stats":  map[string]any{"pause-duration": p.C(PFCTxPauseUS + m), "pause-packets": p.C(PFCTxFrames + m)},
				"tx-roce-stats": map[string]any{"roce-packets": p.C(QueueTxPackets + mq), "unicast-no-buffer-discard": p.C(QueueDrops + mq), "tc-max-usage": "0 Bytes"}}}
		return jsonText(out), "", 0, true
	case len(args) == 3 && args[0] == "platform" && args[1] == "transceiver":
		p, ok := v.Port(args[2])
		if !ok {
			return "", "Error: The requested item does not exist.\n", 1, true
		}
		if p.Copper {
			return jsonText(map[string]any{"identifier": "QSFP-DD", "vendor-name": "FABRICGEN-LAB", "cable-type": "Passive copper cable",
				"cable-length": fmt.Sprintf("%.0fm", max(1, p.CableLength))}), "", 0, true
		}
		pw := func(dbm float64) string { return fmt.Sprintf("%.4f mW / %.2f dBm", mw(dbm), dbm) }
		ch := map[string]any{}
		for l := range p.RxPower {
			tx := 0.0
			if l < len(p.TxPower) {
				tx = p.TxPower[l]
			}
			ch["channel-"+strconv.Itoa(l+1)] = map[string]any{
				"rx-power": map[string]any{"power": pw(p.RxPower[l]), "low-alarm-threshold": pw(RxLowAlarm), "low-warning-threshold": pw(RxLowWarn),
					"high-warning-threshold": pw(RxHighWarn), "high-alarm-threshold": pw(RxHighAlarm), "alarm": "off"},
				"tx-power": map[string]any{"power": pw(tx), "low-alarm-threshold": pw(TxLowAlarm), "low-warning-threshold": pw(TxLowWarn),
					"high-warning-threshold": pw(TxHighWarn), "high-alarm-threshold": pw(TxHighAlarm), "alarm": "off"}}
		}
		out := map[string]any{"identifier": "QSFP-DD", "vendor-name": "FABRICGEN-LAB", "channel": ch,
			"temperature": map[string]any{"temperature": fmt.Sprintf("%.2f C", p.Temp), "high-warning-threshold": fmt.Sprintf("%.2f C", TempHighWarn),
				"high-alarm-threshold": fmt.Sprintf("%.2f C", TempHighAlarm)},
			"voltage": map[string]any{"voltage": fmt.Sprintf("%.4f V", p.Vcc), "low-warning-threshold": fmt.Sprintf("%.4f V", VccLowWarn),
				"high-warning-threshold": fmt.Sprintf("%.4f V", VccHighWarn)}}
		return jsonText(out), "", 0, true
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
			tcs[strconv.Itoa(q)] = map[string]any{"status": st, "deadlock-count": p.C(WDStorms + Metric(q))}
		}
		return jsonText(map[string]any{"enable": p.Watchdog, "status": map[string]any{"traffic-class": tcs}}), "", 0, true
	}
	return "", "", 0, false
}

// roceClass is the priority and queue RoCE's code point gets on a
// switch port per its configuration (the intent's RoCE DSCP, 26 when the
// intent has no RoCE class).
func (v *DeviceView) roceClass(port string) (prio, queue int) {
	m := v.m
	m.rlock()
	defer m.mu.RUnlock()
	d := m.devs[v.name]
	if d == nil {
		return 3, 3
	}
	dscp := 26
	if m.f != nil {
		if c := m.f.ClassByRole("roce"); c != nil && len(c.DSCP) > 0 {
			dscp = c.DSCP[0]
		}
	}
	qp := d.swPort(port)
	prio, _ = qp.Classify(dscp, true)
	return prio, qp.Queue[prio]
}
