package collect

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/schema"
)

// junosCollector reads Junos through `| display json` (the RPC reply as
// JSON: every leaf a [{"data": …}] array) and `show configuration |
// display set` for the QoS read-back. Junos has no PFC watchdog counters
// and no pre-FEC BER in these replies.
type junosCollector struct{}

var junosCommands = []deviceCommand{
	{"show interfaces extensive | display json", []string{check.Oper, check.FCSErrors, check.RxErrors, check.LinkFlaps, check.RxBytes, check.TxBytes,
		check.FECCorrected, check.FECUncorrected, check.QueueTxBytes, check.QueueDrops, check.QueueECN, check.PFCRx, check.PFCTx}, parseJunosExtensive},
	{"show interfaces diagnostics optics | display json", domFamilies, parseJunosOptics},
}

const junosReadback = "show configuration | display set | no-more"

func (junosCollector) Commands() []string { return commandList(junosCommands, junosReadback) }

func (junosCollector) Collect(r Runner, dev *schema.Device) (*check.Device, error) {
	return collectDevice(r, dev, junosCommands, schema.JuniperJunos, junosReadback, check.WDStorms, check.PreFECBER)
}

// jdata is the first {"data": …} of a Junos JSON leaf.
func jdata(v any) (string, bool) {
	a, _ := v.([]any)
	if len(a) == 0 {
		return "", false
	}
	s, ok := obj(a[0])["data"].(string)
	return s, ok
}

// jfirst is the first object of a Junos JSON container.
func jfirst(v any) map[string]any {
	a, _ := v.([]any)
	if len(a) == 0 {
		return nil
	}
	return obj(a[0])
}

// jlist is every object of a Junos JSON container.
func jlist(v any) []map[string]any {
	a, _ := v.([]any)
	var out []map[string]any
	for _, x := range a {
		if m := obj(x); m != nil {
			out = append(out, m)
		}
	}
	return out
}

func jnum(v any) (uint64, bool) {
	s, ok := jdata(v)
	if !ok {
		return 0, false
	}
	return num(s)
}

func jflt(v any) (float64, bool) {
	s, ok := jdata(v)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.Fields(s + " x")[0], 64)
	return f, err == nil
}

// junosWalk decodes a Junos reply and calls fn for each
// interface-information[0].physical-interface[] that is a port.
func junosWalk(out string, ports map[string]*check.Port, fn func(*check.Port, map[string]any)) error {
	v, err := decodeAny(out)
	if err != nil {
		return err
	}
	info := jfirst(obj(v)["interface-information"])
	if info == nil {
		return fmt.Errorf("no interface-information")
	}
	rowsByPort(jlist(info["physical-interface"]), func(i map[string]any) string {
		name, _ := jdata(i["name"])
		return name
	}, ports, fn)
	return nil
}

// jcelsius reads a Junos leaf's junos:celsius attribute.
func jcelsius(v any) (float64, bool) {
	t := jfirst(v)
	if t == nil {
		return 0, false
	}
	return flt(obj(t["attributes"])["junos:celsius"])
}

var junosOpticsFields = []field{{"module-voltage", check.Voltage}, {"module-voltage-low-warn-threshold", check.VoltLoWarn},
	{"module-voltage-high-warn-threshold", check.VoltHiWarn}, {"laser-rx-power-low-alarm-threshold-dbm", check.RxPowerLoAlarm},
	{"laser-rx-power-low-warn-threshold-dbm", check.RxPowerLoWarn}, {"laser-tx-power-low-alarm-threshold-dbm", check.TxPowerLoAlarm},
	{"laser-tx-power-low-warn-threshold-dbm", check.TxPowerLoWarn}, {"laser-tx-power-high-warn-threshold-dbm", check.TxPowerHiWarn},
	{"laser-tx-power-high-alarm-threshold-dbm", check.TxPowerHiAlarm}}

func parseJunosExtensive(out string, ports map[string]*check.Port) error {
	return junosWalk(out, ports, func(p *check.Port, i map[string]any) {
		if s, ok := jdata(i["oper-status"]); ok {
			p.Oper = upDown(s == "up")
		}
		if s, ok := jdata(i["speed"]); ok {
			if n, err := strconv.ParseInt(strings.TrimSuffix(s, "Gbps"), 10, 64); err == nil && n < 1e6 {
				p.Speed = n * 1e9
			}
		}
		if n, ok := jnum(i["physical-interface-lanes"]); ok && n < 64 {
			p.Lanes = int(n)
		}
		if f := jfirst(i["interface-flapped"]); f != nil {
			if n, ok := num(obj(f["attributes"])["junos:flap-count"]); ok {
				p.Counters[check.LinkFlaps] = n
			}
		}
		fill(p.Counters, jfirst(i["traffic-statistics"]), jnum, field{"input-bytes", check.RxBytes}, field{"output-bytes", check.TxBytes})
		fill(p.Counters, jfirst(i["input-error-list"]), jnum, field{"framing-errors", check.FCSErrors}, field{"input-errors", check.RxErrors})
		fill(p.Counters, jfirst(i["ethernet-fec-statistics"]), jnum, field{"fec_ccw_count", check.FECCorrected}, field{"fec_nccw_count", check.FECUncorrected})
		for _, q := range jlist(jfirst(i["queue-counters"])["queue"]) {
			if qn, ok := numIndex(jnum, q["queue-number"], 7); ok {
				fillAt(p.Counters, q, jnum, qn, field{"queue-counters-queued-bytes", check.QueueTxBytes},
					field{"queue-counters-tail-drop-packets", check.QueueDrops}, field{"queue-counters-ecn-ce-packets", check.QueueECN})
			}
		}
		for _, pf := range jlist(jfirst(i["mac-priority-flow-control-statistics"])["priority-flow-control-statistics"]) {
			if pr, ok := numIndex(jnum, pf["priority"], 7); ok {
				fillAt(p.Counters, pf, jnum, pr, field{"pfc-received", check.PFCRx}, field{"pfc-sent", check.PFCTx})
			}
		}
	})
}

func parseJunosOptics(out string, ports map[string]*check.Port) error {
	return junosWalk(out, ports, func(p *check.Port, i map[string]any) {
		od := jfirst(i["optics-diagnostics"])
		if od == nil {
			return
		}
		fill(p.Gauges, od, jcelsius, field{"module-temperature", check.Temperature},
			field{"module-temperature-high-warn-threshold", check.TempHiWarn}, field{"module-temperature-high-alarm-threshold", check.TempHiAlarm})
		fill(p.Gauges, od, jflt, junosOpticsFields...)
		for _, l := range jlist(od["optics-diagnostics-lane-values"]) {
			if n, ok := numIndex(jnum, l["lane-index"], 63); ok {
				fillAt(p.Gauges, l, jflt, n+1, field{"laser-rx-optical-power-dbm", check.RxPower}, field{"laser-output-power-dbm", check.TxPower})
			}
		}
	})
}
