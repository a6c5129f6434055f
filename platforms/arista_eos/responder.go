package aristaeos

import (
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
)

// answerShow answers the Arista EOS commands fabricgen check runs, each with
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
//	show lldp neighbors                           lldpNeighbors[].{port, neighborDevice, neighborPort} (import, lldp.go)
func answerShow(v *dataplane.DeviceView, line string) (string, int, bool) {
	cmd, ok := strings.CutSuffix(line, " | json")
	if !ok {
		return "", 0, false
	}
	ports := v.Ports()
	switch cmd {
	case "show lldp neighbors":
		return answerLLDP(v), 0, true
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
				"interfaceCounters": map[string]any{"inOctets": p.C(dataplane.RxBytes), "outOctets": p.C(dataplane.TxBytes), "inUcastPkts": p.C(dataplane.RxPackets),
					"outUcastPkts": p.C(dataplane.TxPackets), "linkStatusChanges": 2 * p.C(dataplane.LinkDown), "totalInErrors": p.C(dataplane.FCSErrors) + p.C(dataplane.SymbolErrors),
					"inputErrorsDetail": map[string]any{"fcsErrors": p.C(dataplane.FCSErrors), "symbolErrors": p.C(dataplane.SymbolErrors), "alignmentErrors": 0, "runtFrames": 0, "giantFrames": 0}}}
		}
		return dataplane.JSONText(map[string]any{"interfaces": ifs}), 0, true
	case "show interfaces counters errors":
		ifs := map[string]any{}
		for i := range ports {
			p := &ports[i]
			ifs[p.Name] = map[string]any{"fcsErrors": p.C(dataplane.FCSErrors), "symbolErrors": p.C(dataplane.SymbolErrors), "alignmentErrors": 0,
				"inErrors": p.C(dataplane.FCSErrors) + p.C(dataplane.SymbolErrors), "outErrors": 0, "frameTooLongs": 0, "frameTooShorts": 0}
		}
		return dataplane.JSONText(map[string]any{"interfaceErrorCounters": ifs}), 0, true
	case "show interfaces phy detail":
		ifs := map[string]any{}
		for i := range ports {
			p := &ports[i]
			state := "linkUp"
			if !p.Up {
				state = "linkDown"
			}
			ifs[p.Name] = map[string]any{"phyStatuses": []any{map[string]any{
				"phyState": map[string]any{"value": state, "changes": 2 * p.C(dataplane.LinkDown)},
				"fec": map[string]any{"encoding": "reedSolomon544",
					"correctedCodewords":   map[string]any{"value": p.C(dataplane.FECCorrected), "changes": p.C(dataplane.FECCorrected)},
					"uncorrectedCodewords": map[string]any{"value": p.C(dataplane.FECUncorrected), "changes": p.C(dataplane.FECUncorrected)}},
				"preFecBer": map[string]any{"value": p.PreFECBER}}}}
		}
		return dataplane.JSONText(map[string]any{"interfacePhyStatuses": ifs}), 0, true
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
					out[strconv.Itoa(j+1)] = dataplane.Round(x, 2)
				}
				return out
			}
			th := func(la, lw, hw, ha float64) map[string]any {
				return map[string]any{"lowAlarm": la, "lowAlarmOverridden": false, "lowWarn": lw, "lowWarnOverridden": false,
					"highWarn": hw, "highWarnOverridden": false, "highAlarm": ha, "highAlarmOverridden": false}
			}
			ifs[p.Name] = map[string]any{"displayName": p.Name, "mediaType": "400GBASE-DR4", "vendorSn": "LAB" + strconv.Itoa(len(p.Name)*7919),
				"parameters": map[string]any{
					"rxPower":     map[string]any{"unit": "dBm", "channels": ch(p.RxPower), "threshold": th(dataplane.RxLowAlarm, dataplane.RxLowWarn, dataplane.RxHighWarn, dataplane.RxHighAlarm)},
					"txPower":     map[string]any{"unit": "dBm", "channels": ch(p.TxPower), "threshold": th(dataplane.TxLowAlarm, dataplane.TxLowWarn, dataplane.TxHighWarn, dataplane.TxHighAlarm)},
					"temperature": map[string]any{"unit": "C", "channels": map[string]any{"-": dataplane.Round(p.Temp, 2)}, "threshold": th(dataplane.TempLowAlarm, dataplane.TempLowWarn, dataplane.TempHighWarn, dataplane.TempHighAlarm)},
					"voltage":     map[string]any{"unit": "V", "channels": map[string]any{"-": dataplane.Round(p.Vcc, 4)}, "threshold": th(dataplane.VccLowAlarm, dataplane.VccLowWarn, dataplane.VccHighWarn, dataplane.VccHighAlarm)}}}
		}
		return dataplane.JSONText(map[string]any{"interfaces": ifs}), 0, true
	case "show priority-flow-control counters detail":
		ifs := map[string]any{}
		for i := range ports {
			p := &ports[i]
			prios := map[string]any{}
			for pr := 0; pr < 8; pr++ {
				prios[strconv.Itoa(pr)] = map[string]any{"rxFrames": p.C(dataplane.PFCRxFrames + dataplane.Metric(pr)), "txFrames": p.C(dataplane.PFCTxFrames + dataplane.Metric(pr))}
			}
			ifs[p.Name] = map[string]any{"priorities": prios}
		}
		return dataplane.JSONText(map[string]any{"interfaces": ifs}), 0, true
	case "show priority-flow-control counters watchdog":
		// An interface appears only after its first watchdog event.
		ifs := map[string]any{}
		for i := range ports {
			p := &ports[i]
			qs := map[string]any{}
			for q := 0; q < 8; q++ {
				if n := p.C(dataplane.WDStorms + dataplane.Metric(q)); n > 0 || p.Stormed[q] {
					qs[strconv.Itoa(q)] = map[string]any{"stuckCount": n, "recoveryCount": p.C(dataplane.WDRestored + dataplane.Metric(q))}
				}
			}
			if len(qs) > 0 {
				ifs[p.Name] = map[string]any{"txQueues": qs}
			}
		}
		return dataplane.JSONText(map[string]any{"interfaces": ifs}), 0, true
	case "show qos interfaces ecn counters queue":
		ifs := map[string]any{}
		ecn := v.ECNQueues()
		for i := range ports {
			p := &ports[i]
			qs := map[string]any{}
			for q := 0; q < 8; q++ {
				if ecn(p.Name, q) {
					qs[strconv.Itoa(q)] = strconv.FormatUint(p.C(dataplane.QueueECNMarked+dataplane.Metric(q)), 10)
				} else {
					qs[strconv.Itoa(q)] = "-"
				}
			}
			ifs[p.Name] = map[string]any{"queueCounters": qs}
		}
		return dataplane.JSONText(map[string]any{"intfQueueCounters": ifs}), 0, true
	case "show interfaces counters queue detail":
		ifs := map[string]any{}
		for i := range ports {
			p := &ports[i]
			tcs := map[string]any{}
			for q := 0; q < 8; q++ {
				m := dataplane.Metric(q)
				tcs["TC"+strconv.Itoa(q)] = map[string]any{"dropPrecedences": map[string]any{"DP0": map[string]any{
					"enqueuedPackets": p.C(dataplane.QueueTxPackets + m), "enqueuedBytes": p.C(dataplane.QueueTxBytes + m),
					"droppedPackets": p.C(dataplane.QueueDrops + m), "droppedBytes": p.C(dataplane.QueueDrops+m) * dataplane.RoCEPacket}}}
			}
			ifs[p.Name] = map[string]any{"ucastQueues": map[string]any{"trafficClasses": tcs}}
		}
		return dataplane.JSONText(map[string]any{"egressQueueCounters": map[string]any{"interfaces": ifs}}), 0, true
	}
	return "", 0, false
}
