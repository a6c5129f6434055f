package cisconxos

import (
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/check/readings"
	"github.com/fabricgen/fabricgen/internal/check/collect"
	"github.com/fabricgen/fabricgen/schema"
)

// collector reads Cisco NX-OS through NX-API-shaped `| json` output
// (TABLE_…/ROW_… trees) and the running config for the QoS read-back.
// The FEC codeword counters and pre-FEC BER are not in what it reads.
type collector struct{}

var collectNxosCommands = []collect.DeviceCommand{
	{Cmd: "show interface | json", Fams: []string{readings.Oper, readings.FCSErrors, readings.RxErrors, readings.LinkFlaps, readings.RxBytes, readings.TxBytes}, Parse: collectParseNXOSInterface},
	{Cmd: "show interface transceiver details | json", Fams: collect.DOMFamilies(), Parse: collectParseNXOSTransceiver},
	{Cmd: "show queuing interface | json", Fams: []string{readings.QueueTxBytes, readings.QueueDrops, readings.QueueECN, readings.PFCRx, readings.PFCTx}, Parse: collectParseNXOSQueuing},
	{Cmd: "show queuing pfc-queue detail | json", Fams: []string{readings.WDStorms, readings.WDRestored, readings.WDStormed}, Parse: collectParseNXOSWatchdog},
}

func (collector) Commands() []string {
	return collect.CommandList(collectNxosCommands, "show running-config")
}

func (collector) Collect(r collect.Runner, dev *schema.Device) (*readings.Device, error) {
	return collect.CollectDevice(r, dev, collectNxosCommands, read, "show running-config", readings.FECUncorrected, readings.FECCorrected, readings.PreFECBER)
}

// collectRows returns TABLE_x.ROW_x as a list (NX-API gives a lone row as an object).
func collectRows(v any, table string) []map[string]any {
	t := collect.Obj(collect.Obj(v)["TABLE_"+table])
	var out []map[string]any
	switch r := t["ROW_"+table].(type) {
	case []any:
		for _, x := range r {
			if m := collect.Obj(x); m != nil {
				out = append(out, m)
			}
		}
	case map[string]any:
		out = append(out, r)
	}
	return out
}

// collectNxosSpeed reads "400 Gb/s".
func collectNxosSpeed(s string) int64 {
	f := strings.Fields(s)
	if len(f) == 2 && f[1] == "Gb/s" {
		if n, err := strconv.ParseInt(f[0], 10, 64); err == nil && n < 1e6 {
			return n * 1e9
		}
	}
	return 0
}

// collectNxosWalk decodes NX-API output and calls fn for each TABLE_table row
// whose nameKey is a port.
func collectNxosWalk(out, table, nameKey string, ports map[string]*readings.Port, fn func(*readings.Port, map[string]any)) error {
	v, err := collect.DecodeAny(out)
	if err != nil {
		return err
	}
	collect.RowsByPort(collectRows(v, table), func(row map[string]any) string {
		name, _ := row[nameKey].(string)
		return name
	}, ports, fn)
	return nil
}

var (
	collectNxosInterfaceFields = []collect.Field{{Key: "eth_crc", Fam: readings.FCSErrors}, {Key: "eth_inerr", Fam: readings.RxErrors}, {Key: "eth_link_flaps", Fam: readings.LinkFlaps},
		{Key: "eth_inbytes", Fam: readings.RxBytes}, {Key: "eth_outbytes", Fam: readings.TxBytes}}
	collectNxosLaneFields = []collect.Field{{Key: "temperature", Fam: readings.Temperature}, {Key: "voltage", Fam: readings.Voltage},
		{Key: "rx_pwr_alrm_lo", Fam: readings.RxPowerLoAlarm}, {Key: "rx_pwr_warn_lo", Fam: readings.RxPowerLoWarn}, {Key: "tx_pwr_alrm_lo", Fam: readings.TxPowerLoAlarm},
		{Key: "tx_pwr_warn_lo", Fam: readings.TxPowerLoWarn}, {Key: "tx_pwr_warn_hi", Fam: readings.TxPowerHiWarn}, {Key: "tx_pwr_alrm_hi", Fam: readings.TxPowerHiAlarm},
		{Key: "temp_warn_hi", Fam: readings.TempHiWarn}, {Key: "temp_alrm_hi", Fam: readings.TempHiAlarm}, {Key: "volt_warn_lo", Fam: readings.VoltLoWarn}, {Key: "volt_warn_hi", Fam: readings.VoltHiWarn}}
)

func collectParseNXOSInterface(out string, ports map[string]*readings.Port) error {
	return collectNxosWalk(out, "interface", "interface", ports, func(p *readings.Port, row map[string]any) {
		if s, ok := row["state"].(string); ok {
			p.Oper = collect.UpDown(s == "up")
		}
		if s, ok := row["eth_speed"].(string); ok {
			p.Speed = collectNxosSpeed(s)
		}
		if n, ok := collect.Num(row["eth_lanes"]); ok && n < 64 {
			p.Lanes = int(n)
		}
		collect.Fill(p.Counters, row, collect.Num, collectNxosInterfaceFields...)
	})
}

func collectParseNXOSTransceiver(out string, ports map[string]*readings.Port) error {
	return collectNxosWalk(out, "interface", "interface", ports, func(p *readings.Port, row map[string]any) {
		// Cisco names its passive copper cables …-CUnM (QSFP-100G-CU3M).
		if t, _ := row["type"].(string); strings.Contains(strings.ToUpper(t), "-CU") {
			p.Copper = true
		}
		for _, lane := range collectRows(row, "lane") {
			l, ok := collect.NumIndex(collect.Num, lane["lane_number"], 64)
			if !ok {
				continue
			}
			collect.FillAt(p.Gauges, lane, collect.Flt, l, collect.Field{Key: "rx_pwr", Fam: readings.RxPower}, collect.Field{Key: "tx_pwr", Fam: readings.TxPower})
			collect.Fill(p.Gauges, lane, collect.Flt, collectNxosLaneFields...)
		}
	})
}

func collectParseNXOSQueuing(out string, ports map[string]*readings.Port) error {
	return collectNxosWalk(out, "queuing_interface", "if_name_str", ports, func(p *readings.Port, row map[string]any) {
		for _, g := range collectRows(row, "qosgrp_egress_stats") {
			q, ok := collect.NumIndex(collect.Num, g["eq-qosgrp"], 7)
			if !ok {
				continue
			}
			for _, e := range collectRows(g, "qosgrp_egress_stats_entry") {
				val, ok := collect.Num(e["eq-uc-stat-value"])
				if !ok {
					continue
				}
				switch e["eq-stat-type"] {
				case "Tx Byts":
					p.Counters[readings.Key(readings.QueueTxBytes, q)] = val
				case "WRED/AFD & Tail Drop Pkts":
					p.Counters[readings.Key(readings.QueueDrops, q)] = val
				case "ECN Pkts":
					p.Counters[readings.Key(readings.QueueECN, q)] = val
				}
			}
		}
		for _, c := range collectRows(row, "pfc_stats") {
			if cos, ok := collect.NumIndex(collect.Num, c["eq-pfc-cos"], 7); ok {
				collect.FillAt(p.Counters, c, collect.Num, cos, collect.Field{Key: "eq-pfc-rx-ppp", Fam: readings.PFCRx}, collect.Field{Key: "eq-pfc-tx-ppp", Fam: readings.PFCTx})
			}
		}
	})
}

func collectParseNXOSWatchdog(out string, ports map[string]*readings.Port) error {
	return collectNxosWalk(out, "pfc_queue", "if_name_str", ports, func(p *readings.Port, row map[string]any) {
		for _, q := range collectRows(row, "qosgrp_stats") {
			qn, ok := collect.NumIndex(collect.Num, q["eq-qosgrp"], 7)
			if !ok {
				continue
			}
			collect.FillAt(p.Counters, q, collect.Num, qn, collect.Field{Key: "q-shutdown", Fam: readings.WDStorms}, collect.Field{Key: "q-restored", Fam: readings.WDRestored})
			if s, ok := q["eq-qosgrp-state"].(string); ok {
				p.Gauges[readings.Key(readings.WDStormed, qn)] = collect.Flag(strings.EqualFold(s, "stormed"))
			}
		}
	})
}
