package dataplane

import (
	"strconv"
	"strings"
)

// eosShow answers the Arista EOS commands fabricgen check runs, each with
// `| json`, in the shapes eAPI returns (field names as Arista's ANTA
// tests read them):
//
//	show interfaces                               interfaces.IF.{lineProtocolStatus, bandwidth, lanes, interfaceCounters}
//	show interfaces counters errors               interfaceErrorCounters.IF.{fcsErrors, symbolErrors, …}
//	show interfaces phy detail                    interfacePhyStatuses.IF.phyStatuses[].{fec, preFecBer}
//	show interfaces transceiver dom thresholds    interfaces.IF.parameters.{rxPower, txPower, temperature, voltage}
//	                                              (a passive copper cable has no DOM: its interface is left out [M])
//	show priority-flow-control counters detail    interfaces.IF.priorities.P.{rxFrames, txFrames}
//	show priority-flow-control counters watchdog  interfaces.IF.txQueues.Q.{stuckCount, recoveryCount}
//	show qos interfaces ecn counters queue        intfQueueCounters.IF.queueCounters.Q ("-": no ECN)
//	show interfaces counters queue detail         egressQueueCounters.interfaces.IF.ucastQueues.trafficClasses.TCn
func eosShow(v *DeviceView, line string) (string, int, bool) {
	cmd, ok := strings.CutSuffix(line, " | json")
	if !ok {
		return "", 0, false
	}
	ports := v.Ports()
	switch cmd {
	case "show interfaces":
		ifs := map[string]any{}
		for i := range ports {
			p := &ports[i]
			status, proto := "connected", "up"
			if !p.Up {
				status, proto = "notconnect", "down"
			}
			ifs[p.Name] = map[string]any{"name": p.Name, "lineProtocolStatus": proto, "interfaceStatus": status, "bandwidth": p.Speed,
				"lanes": p.Lanes, "mtu": 9214, "forwardingModel": "routed",
				"interfaceCounters": map[string]any{"inOctets": p.C(RxBytes), "outOctets": p.C(TxBytes), "inUcastPkts": p.C(RxPackets),
					"outUcastPkts": p.C(TxPackets), "linkStatusChanges": 2 * p.C(LinkDown), "totalInErrors": p.C(FCSErrors) + p.C(SymbolErrors),
					"inputErrorsDetail": map[string]any{"fcsErrors": p.C(FCSErrors), "symbolErrors": p.C(SymbolErrors), "alignmentErrors": 0, "runtFrames": 0, "giantFrames": 0}}}
		}
		return jsonText(map[string]any{"interfaces": ifs}), 0, true
	case "show interfaces counters errors":
		ifs := map[string]any{}
		for i := range ports {
			p := &ports[i]
			ifs[p.Name] = map[string]any{"fcsErrors": p.C(FCSErrors), "symbolErrors": p.C(SymbolErrors), "alignmentErrors": 0,
				"inErrors": p.C(FCSErrors) + p.C(SymbolErrors), "outErrors": 0, "frameTooLongs": 0, "frameTooShorts": 0}
		}
		return jsonText(map[string]any{"interfaceErrorCounters": ifs}), 0, true
	case "show interfaces phy detail":
		ifs := map[string]any{}
		for i := range ports {
			p := &ports[i]
			state := "linkUp"
			if !p.Up {
				state = "linkDown"
			}
			ifs[p.Name] = map[string]any{"phyStatuses": []any{map[string]any{
				"phyState": map[string]any{"value": state, "changes": 2 * p.C(LinkDown)},
				"fec": map[string]any{"encoding": "reedSolomon544",
					"correctedCodewords":   map[string]any{"value": p.C(FECCorrected), "changes": p.C(FECCorrected)},
					"uncorrectedCodewords": map[string]any{"value": p.C(FECUncorrected), "changes": p.C(FECUncorrected)}},
				"preFecBer": map[string]any{"value": p.PreFECBER}}}}
		}
		return jsonText(map[string]any{"interfacePhyStatuses": ifs}), 0, true
	case "show interfaces transceiver dom thresholds":
		ifs := map[string]any{}
		for i := range ports {
			p := &ports[i]
			if p.Copper {
				continue
			}
			ch := func(vals []float64) map[string]any {
				out := map[string]any{}
				for j, x := range vals {
					out[strconv.Itoa(j+1)] = round(x, 2)
				}
				return out
			}
			th := func(la, lw, hw, ha float64) map[string]any {
				return map[string]any{"lowAlarm": la, "lowAlarmOverridden": false, "lowWarn": lw, "lowWarnOverridden": false,
					"highWarn": hw, "highWarnOverridden": false, "highAlarm": ha, "highAlarmOverridden": false}
			}
			ifs[p.Name] = map[string]any{"displayName": p.Name, "mediaType": "400GBASE-DR4", "vendorSn": "LAB" + strconv.Itoa(len(p.Name)*7919),
				"parameters": map[string]any{
					"rxPower":     map[string]any{"unit": "dBm", "channels": ch(p.RxPower), "threshold": th(RxLowAlarm, RxLowWarn, RxHighWarn, RxHighAlarm)},
					"txPower":     map[string]any{"unit": "dBm", "channels": ch(p.TxPower), "threshold": th(TxLowAlarm, TxLowWarn, TxHighWarn, TxHighAlarm)},
					"temperature": map[string]any{"unit": "C", "channels": map[string]any{"-": round(p.Temp, 2)}, "threshold": th(TempLowAlarm, TempLowWarn, TempHighWarn, TempHighAlarm)},
					"voltage":     map[string]any{"unit": "V", "channels": map[string]any{"-": round(p.Vcc, 4)}, "threshold": th(VccLowAlarm, VccLowWarn, VccHighWarn, VccHighAlarm)}}}
		}
		return jsonText(map[string]any{"interfaces": ifs}), 0, true
	case "show priority-flow-control counters detail":
		ifs := map[string]any{}
		for i := range ports {
			p := &ports[i]
			prios := map[string]any{}
			for pr := 0; pr < 8; pr++ {
				prios[strconv.Itoa(pr)] = map[string]any{"rxFrames": p.C(PFCRxFrames + Metric(pr)), "txFrames": p.C(PFCTxFrames + Metric(pr))}
			}
			ifs[p.Name] = map[string]any{"priorities": prios}
		}
		return jsonText(map[string]any{"interfaces": ifs}), 0, true
	case "show priority-flow-control counters watchdog":
		// An interface appears only after its first watchdog event.
		ifs := map[string]any{}
		for i := range ports {
			p := &ports[i]
			qs := map[string]any{}
			for q := 0; q < 8; q++ {
				if n := p.C(WDStorms + Metric(q)); n > 0 || p.Stormed[q] {
					qs[strconv.Itoa(q)] = map[string]any{"stuckCount": n, "recoveryCount": p.C(WDRestored + Metric(q))}
				}
			}
			if len(qs) > 0 {
				ifs[p.Name] = map[string]any{"txQueues": qs}
			}
		}
		return jsonText(map[string]any{"interfaces": ifs}), 0, true
	case "show qos interfaces ecn counters queue":
		ifs := map[string]any{}
		ecn := v.ecnQueues()
		for i := range ports {
			p := &ports[i]
			qs := map[string]any{}
			for q := 0; q < 8; q++ {
				if ecn(p.Name, q) {
					qs[strconv.Itoa(q)] = strconv.FormatUint(p.C(QueueECNMarked+Metric(q)), 10)
				} else {
					qs[strconv.Itoa(q)] = "-"
				}
			}
			ifs[p.Name] = map[string]any{"queueCounters": qs}
		}
		return jsonText(map[string]any{"intfQueueCounters": ifs}), 0, true
	case "show interfaces counters queue detail":
		ifs := map[string]any{}
		for i := range ports {
			p := &ports[i]
			tcs := map[string]any{}
			for q := 0; q < 8; q++ {
				m := Metric(q)
				tcs["TC"+strconv.Itoa(q)] = map[string]any{"dropPrecedences": map[string]any{"DP0": map[string]any{
					"enqueuedPackets": p.C(QueueTxPackets + m), "enqueuedBytes": p.C(QueueTxBytes + m),
					"droppedPackets": p.C(QueueDrops + m), "droppedBytes": p.C(QueueDrops+m) * rocePacket}}}
			}
			ifs[p.Name] = map[string]any{"ucastQueues": map[string]any{"trafficClasses": tcs}}
		}
		return jsonText(map[string]any{"egressQueueCounters": map[string]any{"interfaces": ifs}}), 0, true
	}
	return "", 0, false
}

// round rounds x to n decimals.
func round(x float64, n int) float64 {
	p := 1.0
	for range n {
		p *= 10
	}
	if x < 0 {
		return -float64(int64(-x*p+0.5)) / p
	}
	return float64(int64(x*p+0.5)) / p
}

// ecnQueues reports, per port and queue, whether the configuration marks ECN.
func (v *DeviceView) ecnQueues() func(port string, q int) bool {
	m := v.m
	m.mu.RLock()
	d := m.devs[v.name]
	m.mu.RUnlock()
	return func(port string, q int) bool {
		if d == nil || q < 0 || q > 7 {
			return false
		}
		m.rlock()
		defer m.mu.RUnlock()
		return d.swPort(port).ECN[q]
	}
}
