package collect

import (
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/schema"
)

// nxosCollector reads Cisco NX-OS through NX-API-shaped `| json` output
// (TABLE_…/ROW_… trees) and the running config for the QoS read-back.
// The FEC codeword counters and pre-FEC BER are not in what it reads.
type nxosCollector struct{}

var nxosCommands = []deviceCommand{
	{"show interface | json", []string{check.Oper, check.FCSErrors, check.RxErrors, check.LinkFlaps, check.RxBytes, check.TxBytes}, parseNXOSInterface},
	{"show interface transceiver details | json", domFamilies, parseNXOSTransceiver},
	{"show queuing interface | json", []string{check.QueueTxBytes, check.QueueDrops, check.QueueECN, check.PFCRx, check.PFCTx}, parseNXOSQueuing},
	{"show queuing pfc-queue detail | json", []string{check.WDStorms, check.WDRestored, check.WDStormed}, parseNXOSWatchdog},
}

func (nxosCollector) Commands() []string { return commandList(nxosCommands, "show running-config") }

func (nxosCollector) Collect(r Runner, dev *schema.Device) (*check.Device, error) {
	return collectDevice(r, dev, nxosCommands, schema.CiscoNXOS, "show running-config", check.FECUncorrected, check.FECCorrected, check.PreFECBER)
}

// rows returns TABLE_x.ROW_x as a list (NX-API gives a lone row as an object).
func rows(v any, table string) []map[string]any {
	t := obj(obj(v)["TABLE_"+table])
	var out []map[string]any
	switch r := t["ROW_"+table].(type) {
	case []any:
		for _, x := range r {
			if m := obj(x); m != nil {
				out = append(out, m)
			}
		}
	case map[string]any:
		out = append(out, r)
	}
	return out
}

// nxosSpeed reads "400 Gb/s".
func nxosSpeed(s string) int64 {
	f := strings.Fields(s)
	if len(f) == 2 && f[1] == "Gb/s" {
		if n, err := strconv.ParseInt(f[0], 10, 64); err == nil && n < 1e6 {
			return n * 1e9
		}
	}
	return 0
}

// nxosWalk decodes NX-API output and calls fn for each TABLE_table row
// whose nameKey is a port.
func nxosWalk(out, table, nameKey string, ports map[string]*check.Port, fn func(*check.Port, map[string]any)) error {
	v, err := decodeAny(out)
	if err != nil {
		return err
	}
	rowsByPort(rows(v, table), func(row map[string]any) string {
		name, _ := row[nameKey].(string)
		return name
	}, ports, fn)
	return nil
}

var (
	nxosInterfaceFields = []field{{"eth_crc", check.FCSErrors}, {"eth_inerr", check.RxErrors}, {"eth_link_flaps", check.LinkFlaps},
		{"eth_inbytes", check.RxBytes}, {"eth_outbytes", check.TxBytes}}
	nxosLaneFields = []field{{"temperature", check.Temperature}, {"voltage", check.Voltage},
		{"rx_pwr_alrm_lo", check.RxPowerLoAlarm}, {"rx_pwr_warn_lo", check.RxPowerLoWarn}, {"tx_pwr_alrm_lo", check.TxPowerLoAlarm},
		{"tx_pwr_warn_lo", check.TxPowerLoWarn}, {"tx_pwr_warn_hi", check.TxPowerHiWarn}, {"tx_pwr_alrm_hi", check.TxPowerHiAlarm},
		{"temp_warn_hi", check.TempHiWarn}, {"temp_alrm_hi", check.TempHiAlarm}, {"volt_warn_lo", check.VoltLoWarn}, {"volt_warn_hi", check.VoltHiWarn}}
)

func parseNXOSInterface(out string, ports map[string]*check.Port) error {
	return nxosWalk(out, "interface", "interface", ports, func(p *check.Port, row map[string]any) {
		if s, ok := row["state"].(string); ok {
			p.Oper = upDown(s == "up")
		}
		if s, ok := row["eth_speed"].(string); ok {
			p.Speed = nxosSpeed(s)
		}
		if n, ok := num(row["eth_lanes"]); ok && n < 64 {
			p.Lanes = int(n)
		}
		fill(p.Counters, row, num, nxosInterfaceFields...)
	})
}

func parseNXOSTransceiver(out string, ports map[string]*check.Port) error {
	return nxosWalk(out, "interface", "interface", ports, func(p *check.Port, row map[string]any) {
		// Cisco names its passive copper cables …-CUnM (QSFP-100G-CU3M).
		if t, _ := row["type"].(string); strings.Contains(strings.ToUpper(t), "-CU") {
			p.Copper = true
		}
		for _, lane := range rows(row, "lane") {
			l, ok := numIndex(num, lane["lane_number"], 64)
			if !ok {
				continue
			}
			fillAt(p.Gauges, lane, flt, l, field{"rx_pwr", check.RxPower}, field{"tx_pwr", check.TxPower})
			fill(p.Gauges, lane, flt, nxosLaneFields...)
		}
	})
}

func parseNXOSQueuing(out string, ports map[string]*check.Port) error {
	return nxosWalk(out, "queuing_interface", "if_name_str", ports, func(p *check.Port, row map[string]any) {
		for _, g := range rows(row, "qosgrp_egress_stats") {
			q, ok := numIndex(num, g["eq-qosgrp"], 7)
			if !ok {
				continue
			}
			for _, e := range rows(g, "qosgrp_egress_stats_entry") {
				val, ok := num(e["eq-uc-stat-value"])
				if !ok {
					continue
				}
				switch e["eq-stat-type"] {
				case "Tx Byts":
					p.Counters[check.Key(check.QueueTxBytes, q)] = val
				case "WRED/AFD & Tail Drop Pkts":
					p.Counters[check.Key(check.QueueDrops, q)] = val
				case "ECN Pkts":
					p.Counters[check.Key(check.QueueECN, q)] = val
				}
			}
		}
		for _, c := range rows(row, "pfc_stats") {
			if cos, ok := numIndex(num, c["eq-pfc-cos"], 7); ok {
				fillAt(p.Counters, c, num, cos, field{"eq-pfc-rx-ppp", check.PFCRx}, field{"eq-pfc-tx-ppp", check.PFCTx})
			}
		}
	})
}

func parseNXOSWatchdog(out string, ports map[string]*check.Port) error {
	return nxosWalk(out, "pfc_queue", "if_name_str", ports, func(p *check.Port, row map[string]any) {
		for _, q := range rows(row, "qosgrp_stats") {
			qn, ok := numIndex(num, q["eq-qosgrp"], 7)
			if !ok {
				continue
			}
			fillAt(p.Counters, q, num, qn, field{"q-shutdown", check.WDStorms}, field{"q-restored", check.WDRestored})
			if s, ok := q["eq-qosgrp-state"].(string); ok {
				p.Gauges[check.Key(check.WDStormed, qn)] = flag(strings.EqualFold(s, "stormed"))
			}
		}
	})
}
