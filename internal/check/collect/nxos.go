package collect

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/schema"
)

// nxosCollector reads Cisco NX-OS through NX-API-shaped `| json` output
// (TABLE_…/ROW_… trees) and the running config for the QoS read-back.
// The FEC codeword counters and pre-FEC BER are not in what it reads.
type nxosCollector struct{}

var nxosCommands = []struct {
	cmd   string
	fams  []string
	parse func(string, map[string]*check.Port) error
}{
	{"show interface | json", []string{check.Oper, check.FCSErrors, check.RxErrors, check.LinkFlaps, check.RxBytes, check.TxBytes}, parseNXOSInterface},
	{"show interface transceiver details | json", []string{check.RxPower, check.TxPower, check.RxPowerLoAlarm, check.RxPowerLoWarn,
		check.TxPowerLoAlarm, check.TxPowerLoWarn, check.TxPowerHiWarn, check.TxPowerHiAlarm, check.Temperature, check.TempHiWarn, check.TempHiAlarm,
		check.Voltage, check.VoltLoWarn, check.VoltHiWarn}, parseNXOSTransceiver},
	{"show queuing interface | json", []string{check.QueueTxBytes, check.QueueDrops, check.QueueECN, check.PFCRx, check.PFCTx}, parseNXOSQueuing},
	{"show queuing pfc-queue detail | json", []string{check.WDStorms, check.WDRestored, check.WDStormed}, parseNXOSWatchdog},
}

func (nxosCollector) Commands() []string {
	var out []string
	for _, c := range nxosCommands {
		out = append(out, c.cmd)
	}
	return append(out, "show running-config")
}

func (nxosCollector) Collect(r Runner, dev *schema.Device) (*check.Device, error) {
	d := newDevice(dev)
	byName := portMap(d)
	for _, c := range nxosCommands {
		out, err := r.Run(c.cmd)
		if err != nil {
			return nil, err
		}
		if err := c.parse(out, byName); err != nil {
			return nil, fmt.Errorf("%s: %w", c.cmd, err)
		}
		source(d, c.cmd, c.fams...)
	}
	missing(d, check.FECUncorrected, check.FECCorrected, check.PreFECBER)
	return d, readback(r, d, schema.CiscoNXOS, "show running-config")
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

func decodeAny(out string) (any, error) {
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		return nil, err
	}
	if obj(v) == nil {
		return nil, fmt.Errorf("not a JSON object")
	}
	return v, nil
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

func parseNXOSInterface(out string, ports map[string]*check.Port) error {
	v, err := decodeAny(out)
	if err != nil {
		return err
	}
	for _, row := range rows(v, "interface") {
		name, _ := row["interface"].(string)
		p := ports[name]
		if p == nil {
			continue
		}
		if s, ok := row["state"].(string); ok {
			p.Oper = map[bool]string{true: "up", false: "down"}[s == "up"]
		}
		if s, ok := row["eth_speed"].(string); ok {
			p.Speed = nxosSpeed(s)
		}
		if n, ok := num(row["eth_lanes"]); ok && n < 64 {
			p.Lanes = int(n)
		}
		for key, fam := range map[string]string{"eth_crc": check.FCSErrors, "eth_inerr": check.RxErrors, "eth_link_flaps": check.LinkFlaps,
			"eth_inbytes": check.RxBytes, "eth_outbytes": check.TxBytes} {
			if n, ok := num(row[key]); ok {
				p.Counters[fam] = n
			}
		}
	}
	return nil
}

func parseNXOSTransceiver(out string, ports map[string]*check.Port) error {
	v, err := decodeAny(out)
	if err != nil {
		return err
	}
	for _, row := range rows(v, "interface") {
		name, _ := row["interface"].(string)
		p := ports[name]
		if p == nil {
			continue
		}
		// Cisco names its passive copper cables …-CUnM (QSFP-100G-CU3M).
		if t, _ := row["type"].(string); strings.Contains(strings.ToUpper(t), "-CU") {
			p.Copper = true
		}
		for _, lane := range rows(row, "lane") {
			n, ok := num(lane["lane_number"])
			if !ok || n > 64 {
				continue
			}
			l := int(n)
			if f, ok := flt(lane["rx_pwr"]); ok {
				p.Gauges[check.Key(check.RxPower, l)] = f
			}
			if f, ok := flt(lane["tx_pwr"]); ok {
				p.Gauges[check.Key(check.TxPower, l)] = f
			}
			for key, fam := range map[string]string{"temperature": check.Temperature, "voltage": check.Voltage,
				"rx_pwr_alrm_lo": check.RxPowerLoAlarm, "rx_pwr_warn_lo": check.RxPowerLoWarn, "tx_pwr_alrm_lo": check.TxPowerLoAlarm,
				"tx_pwr_warn_lo": check.TxPowerLoWarn, "tx_pwr_warn_hi": check.TxPowerHiWarn, "tx_pwr_alrm_hi": check.TxPowerHiAlarm,
				"temp_warn_hi": check.TempHiWarn, "temp_alrm_hi": check.TempHiAlarm, "volt_warn_lo": check.VoltLoWarn, "volt_warn_hi": check.VoltHiWarn} {
				if f, ok := flt(lane[key]); ok {
					p.Gauges[fam] = f
				}
			}
		}
	}
	return nil
}

func parseNXOSQueuing(out string, ports map[string]*check.Port) error {
	v, err := decodeAny(out)
	if err != nil {
		return err
	}
	for _, row := range rows(v, "queuing_interface") {
		name, _ := row["if_name_str"].(string)
		p := ports[name]
		if p == nil {
			continue
		}
		for _, g := range rows(row, "qosgrp_egress_stats") {
			q, ok := num(g["eq-qosgrp"])
			if !ok || q > 7 {
				continue
			}
			for _, e := range rows(g, "qosgrp_egress_stats_entry") {
				val, ok := num(e["eq-uc-stat-value"])
				if !ok {
					continue
				}
				switch e["eq-stat-type"] {
				case "Tx Byts":
					p.Counters[check.Key(check.QueueTxBytes, int(q))] = val
				case "WRED/AFD & Tail Drop Pkts":
					p.Counters[check.Key(check.QueueDrops, int(q))] = val
				case "ECN Pkts":
					p.Counters[check.Key(check.QueueECN, int(q))] = val
				}
			}
		}
		for _, c := range rows(row, "pfc_stats") {
			cos, ok := num(c["eq-pfc-cos"])
			if !ok || cos > 7 {
				continue
			}
			if n, ok := num(c["eq-pfc-rx-ppp"]); ok {
				p.Counters[check.Key(check.PFCRx, int(cos))] = n
			}
			if n, ok := num(c["eq-pfc-tx-ppp"]); ok {
				p.Counters[check.Key(check.PFCTx, int(cos))] = n
			}
		}
	}
	return nil
}

func parseNXOSWatchdog(out string, ports map[string]*check.Port) error {
	v, err := decodeAny(out)
	if err != nil {
		return err
	}
	for _, row := range rows(v, "pfc_queue") {
		name, _ := row["if_name_str"].(string)
		p := ports[name]
		if p == nil {
			continue
		}
		for _, q := range rows(row, "qosgrp_stats") {
			qn, ok := num(q["eq-qosgrp"])
			if !ok || qn > 7 {
				continue
			}
			if n, ok := num(q["q-shutdown"]); ok {
				p.Counters[check.Key(check.WDStorms, int(qn))] = n
			}
			if n, ok := num(q["q-restored"]); ok {
				p.Counters[check.Key(check.WDRestored, int(qn))] = n
			}
			if s, ok := q["eq-qosgrp-state"].(string); ok {
				p.Gauges[check.Key(check.WDStormed, int(qn))] = map[bool]float64{true: 1, false: 0}[strings.EqualFold(s, "stormed")]
			}
		}
	}
	return nil
}
