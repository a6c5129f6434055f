package cisconxos

import (
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
)

// answerShow answers the Cisco NX-OS commands fabricgen check runs, each
// with `| json`, in NX-API's TABLE_/ROW_ shape:
//
//	show interface                       TABLE_interface.ROW_interface[]: state, eth_speed, eth_bw, eth_crc, eth_inerr, eth_link_flaps, bytes
//	show interface transceiver details   TABLE_interface.ROW_interface[].TABLE_lane.ROW_lane[]: rx_pwr, tx_pwr and their thresholds, temperature, voltage
//	                                     (a passive copper cable: type QSFP-…-CUnM and no TABLE_lane, no DOM [M])
//	show queuing interface               TABLE_queuing_interface.ROW_queuing_interface[]: per qos-group egress Tx/Dropped/ECN, per cos PFC rx/tx
//	show queuing pfc-queue detail        TABLE_pfc_queue.ROW_pfc_queue[]: per qos-group watchdog state, shutdown and restored counts
//
// NX-OS shows FEC codewords and the pre-FEC BER only in commands this
// lab does not emulate, so check does not evaluate those there.
func answerShow(v *dataplane.DeviceView, line string) (string, int, bool) {
	cmd, ok := strings.CutSuffix(line, " | json")
	if !ok {
		return "", 0, false
	}
	ports := v.Ports()
	switch cmd {
	case "show lldp neighbors detail":
		return answerLLDP(v), 0, true
	case "show interface":
		var rows []any
		for i := range ports {
			p := &ports[i]
			state := "up"
			if !p.Up {
				state = "down"
			}
			rows = append(rows, map[string]any{"interface": p.Name, "state": state, "admin_state": "up",
				"eth_speed": fmt.Sprintf("%d Gb/s", p.Speed/1e9), "eth_bw": p.Speed / 1000, "eth_lanes": p.Lanes,
				"eth_crc": p.C(dataplane.FCSErrors), "eth_inerr": p.C(dataplane.FCSErrors) + p.C(dataplane.SymbolErrors), "eth_link_flaps": p.C(dataplane.LinkDown),
				"eth_inbytes": p.C(dataplane.RxBytes), "eth_outbytes": p.C(dataplane.TxBytes), "eth_inpkts": p.C(dataplane.RxPackets), "eth_outpkts": p.C(dataplane.TxPackets)})
		}
		return dataplane.JSONText(map[string]any{"TABLE_interface": map[string]any{"ROW_interface": rows}}), 0, true
	case "show interface transceiver details":
		var rows []any
		for i := range ports {
			p := &ports[i]
			if p.Copper {
				rows = append(rows, map[string]any{"interface": p.Name, "sfp": "present", "type": fmt.Sprintf("QSFP-%dG-CU%.0fM", p.Speed/1e9, max(1, p.CableLength)),
					"name": "FABRICGEN-LAB", "cable_type": "Passive copper"})
				continue
			}
			var lanes []any
			for l := range p.RxPower {
				tx := 0.0
				if l < len(p.TxPower) {
					tx = p.TxPower[l]
				}
				lanes = append(lanes, map[string]any{"lane_number": l + 1,
					"temperature": dataplane.Round(p.Temp, 2), "temp_alrm_hi": dataplane.TempHighAlarm, "temp_warn_hi": dataplane.TempHighWarn, "temp_warn_lo": dataplane.TempLowWarn, "temp_alrm_lo": dataplane.TempLowAlarm,
					"voltage": dataplane.Round(p.Vcc, 4), "volt_alrm_hi": dataplane.VccHighAlarm, "volt_warn_hi": dataplane.VccHighWarn, "volt_warn_lo": dataplane.VccLowWarn, "volt_alrm_lo": dataplane.VccLowAlarm,
					"tx_pwr": dataplane.Round(tx, 2), "tx_pwr_alrm_hi": dataplane.TxHighAlarm, "tx_pwr_warn_hi": dataplane.TxHighWarn, "tx_pwr_warn_lo": dataplane.TxLowWarn, "tx_pwr_alrm_lo": dataplane.TxLowAlarm,
					"rx_pwr": dataplane.Round(p.RxPower[l], 2), "rx_pwr_alrm_hi": dataplane.RxHighAlarm, "rx_pwr_warn_hi": dataplane.RxHighWarn, "rx_pwr_warn_lo": dataplane.RxLowWarn, "rx_pwr_alrm_lo": dataplane.RxLowAlarm})
			}
			rows = append(rows, map[string]any{"interface": p.Name, "sfp": "present", "type": "QSFP-DD-400G-DR4", "name": "FABRICGEN-LAB",
				"TABLE_lane": map[string]any{"ROW_lane": lanes}})
		}
		return dataplane.JSONText(map[string]any{"TABLE_interface": map[string]any{"ROW_interface": rows}}), 0, true
	case "show queuing interface":
		var rows []any
		for i := range ports {
			p := &ports[i]
			var groups, pfc []any
			for q := 0; q < 8; q++ {
				m := dataplane.Metric(q)
				entry := func(typ string, val uint64) map[string]any {
					return map[string]any{"eq-stat-type": typ, "eq-stat-units": "Packets", "eq-uc-stat-value": val}
				}
				stats := []any{entry("Tx Pkts", p.C(dataplane.QueueTxPackets+m)),
					map[string]any{"eq-stat-type": "Tx Byts", "eq-stat-units": "Bytes", "eq-uc-stat-value": p.C(dataplane.QueueTxBytes + m)},
					entry("WRED/AFD & Tail Drop Pkts", p.C(dataplane.QueueDrops+m)), entry("ECN Pkts", p.C(dataplane.QueueECNMarked+m))}
				groups = append(groups, map[string]any{"eq-qosgrp": q, "TABLE_qosgrp_egress_stats_entry": map[string]any{"ROW_qosgrp_egress_stats_entry": stats}})
				pfc = append(pfc, map[string]any{"eq-pfc-cos": q, "eq-pfc-rx-ppp": p.C(dataplane.PFCRxFrames + m), "eq-pfc-tx-ppp": p.C(dataplane.PFCTxFrames + m)})
			}
			rows = append(rows, map[string]any{"if_name_str": p.Name,
				"TABLE_qosgrp_egress_stats": map[string]any{"ROW_qosgrp_egress_stats": groups},
				"TABLE_pfc_stats":           map[string]any{"ROW_pfc_stats": pfc}})
		}
		return dataplane.JSONText(map[string]any{"TABLE_queuing_interface": map[string]any{"ROW_queuing_interface": rows}}), 0, true
	case "show queuing pfc-queue detail":
		var rows []any
		for i := range ports {
			p := &ports[i]
			var qs []any
			for q := 0; q < 8; q++ {
				state := "Ok"
				if p.Stormed[q] {
					state = "Stormed"
				}
				qs = append(qs, map[string]any{"eq-qosgrp": q, "eq-qosgrp-state": state, "q-shutdown": p.C(dataplane.WDStorms + dataplane.Metric(q)),
					"q-restored": p.C(dataplane.WDRestored + dataplane.Metric(q)), "q-pkt-dropped": p.C(dataplane.WDDropped + dataplane.Metric(q))})
			}
			rows = append(rows, map[string]any{"if_name_str": p.Name, "watchdog": map[bool]string{true: "Enabled", false: "Disabled"}[p.Watchdog],
				"TABLE_qosgrp_stats": map[string]any{"ROW_qosgrp_stats": qs}})
		}
		return dataplane.JSONText(map[string]any{"glb-wd-status": "Enabled", "TABLE_pfc_queue": map[string]any{"ROW_pfc_queue": rows}}), 0, true
	}
	return "", 0, false
}
