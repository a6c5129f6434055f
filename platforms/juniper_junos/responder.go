package juniperjunos

import (
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
)

// answerShow answers the Junos commands fabricgen check runs, each with
// `| display json`, in Junos' JSON rendering of the XML RPC reply (every
// leaf an array of {"data": value}):
//
//	show interfaces extensive             interface-information[].physical-interface[]: name, oper-status, speed,
//	                                      traffic-statistics, input-error-list (framing-errors = CRC), interface-flapped count,
//	                                      ethernet-fec-statistics (fec_ccw_count, fec_nccw_count), queue-counters,
//	                                      mac-priority-flow-control-statistics
//	show interfaces diagnostics optics    interface-information[].physical-interface[].optics-diagnostics[]: module temperature,
//	                                      voltage and their thresholds, per lane laser-output-power-dbm, laser-rx-optical-power-dbm
//	                                      (a passive copper cable has no optics-diagnostics [M])
//
// Junos has no PFC watchdog counters and no pre-FEC BER in these
// replies: check reports those as not evaluated there.
func answerShow(v *dataplane.DeviceView, line string) (string, int, bool) {
	cmd, ok := strings.CutSuffix(line, " | display json")
	if !ok {
		cmd, ok = strings.CutSuffix(line, " | display json | no-more")
	}
	if !ok {
		return "", 0, false
	}
	d := func(x any) []any { return []any{map[string]any{"data": fmt.Sprint(x)}} }
	ports := v.Ports()
	switch cmd {
	case "show lldp neighbors":
		return answerLLDP(v), 0, true
	case "show interfaces extensive":
		var ifs []any
		for i := range ports {
			p := &ports[i]
			state := "up"
			if !p.Up {
				state = "down"
			}
			var queues, pfc []any
			for q := 0; q < 8; q++ {
				m := dataplane.Metric(q)
				queues = append(queues, map[string]any{"queue-number": d(q), "queue-counters-queued-packets": d(p.C(dataplane.QueueTxPackets + m)),
					"queue-counters-queued-bytes": d(p.C(dataplane.QueueTxBytes + m)), "queue-counters-tail-drop-packets": d(p.C(dataplane.QueueDrops + m)),
					"queue-counters-ecn-ce-packets": d(p.C(dataplane.QueueECNMarked + m))})
				pfc = append(pfc, map[string]any{"priority": d(q), "pfc-received": d(p.C(dataplane.PFCRxFrames + m)), "pfc-sent": d(p.C(dataplane.PFCTxFrames + m))})
			}
			ifs = append(ifs, map[string]any{"name": d(p.Name), "admin-status": d("up"), "oper-status": d(state),
				"speed": d(fmt.Sprintf("%dGbps", p.Speed/1e9)), "physical-interface-lanes": d(p.Lanes),
				"interface-flapped":                    []any{map[string]any{"data": "2026-01-01 00:00:00 UTC", "attributes": map[string]any{"junos:flap-count": fmt.Sprint(p.C(dataplane.LinkDown))}}},
				"traffic-statistics":                   []any{map[string]any{"input-bytes": d(p.C(dataplane.RxBytes)), "output-bytes": d(p.C(dataplane.TxBytes))}},
				"input-error-list":                     []any{map[string]any{"input-errors": d(p.C(dataplane.FCSErrors) + p.C(dataplane.SymbolErrors)), "framing-errors": d(p.C(dataplane.FCSErrors))}},
				"ethernet-fec-statistics":              []any{map[string]any{"fec_ccw_count": d(p.C(dataplane.FECCorrected)), "fec_nccw_count": d(p.C(dataplane.FECUncorrected))}},
				"queue-counters":                       []any{map[string]any{"queue": queues}},
				"mac-priority-flow-control-statistics": []any{map[string]any{"priority-flow-control-statistics": pfc}}})
		}
		return dataplane.JSONText(map[string]any{"interface-information": []any{map[string]any{"physical-interface": ifs}}}), 0, true
	case "show interfaces diagnostics optics":
		var ifs []any
		for i := range ports {
			p := &ports[i]
			if p.Copper {
				ifs = append(ifs, map[string]any{"name": d(p.Name)})
				continue
			}
			var lanes []any
			for l := range p.RxPower {
				tx := 0.0
				if l < len(p.TxPower) {
					tx = p.TxPower[l]
				}
				lanes = append(lanes, map[string]any{"lane-index": d(l), "laser-output-power-dbm": d(fmt.Sprintf("%.2f", tx)),
					"laser-rx-optical-power-dbm": d(fmt.Sprintf("%.2f", p.RxPower[l]))})
			}
			diagn := map[string]any{
				"module-temperature":                      []any{map[string]any{"data": fmt.Sprintf("%.0f degrees C", p.Temp), "attributes": map[string]any{"junos:celsius": fmt.Sprintf("%.1f", p.Temp)}}},
				"module-voltage":                          d(fmt.Sprintf("%.4f", p.Vcc)),
				"module-temperature-high-warn-threshold":  []any{map[string]any{"data": "70 degrees C", "attributes": map[string]any{"junos:celsius": fmt.Sprint(dataplane.TempHighWarn)}}},
				"module-temperature-high-alarm-threshold": []any{map[string]any{"data": "75 degrees C", "attributes": map[string]any{"junos:celsius": fmt.Sprint(dataplane.TempHighAlarm)}}},
				"module-voltage-low-warn-threshold":       d(dataplane.VccLowWarn), "module-voltage-high-warn-threshold": d(dataplane.VccHighWarn),
				"laser-rx-power-low-alarm-threshold-dbm": d(dataplane.RxLowAlarm), "laser-rx-power-low-warn-threshold-dbm": d(dataplane.RxLowWarn),
				"laser-tx-power-low-alarm-threshold-dbm": d(dataplane.TxLowAlarm), "laser-tx-power-low-warn-threshold-dbm": d(dataplane.TxLowWarn),
				"laser-tx-power-high-warn-threshold-dbm": d(dataplane.TxHighWarn), "laser-tx-power-high-alarm-threshold-dbm": d(dataplane.TxHighAlarm),
				"optics-diagnostics-lane-values": lanes}
			ifs = append(ifs, map[string]any{"name": d(p.Name), "optics-diagnostics": []any{diagn}})
		}
		return dataplane.JSONText(map[string]any{"interface-information": []any{map[string]any{"physical-interface": ifs}}}), 0, true
	}
	return "", 0, false
}
