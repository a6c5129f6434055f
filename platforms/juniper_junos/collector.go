package juniperjunos

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/check/readings"
	"github.com/fabricgen/fabricgen/internal/check/collect"
	"github.com/fabricgen/fabricgen/schema"
)

// collector reads Junos through `| display json` (the RPC reply as
// JSON: every leaf a [{"data": …}] array) and `show configuration |
// display set` for the QoS read-back. Junos has no PFC watchdog counters
// and no pre-FEC BER in these replies.
type collector struct{}

var collectJunosCommands = []collect.DeviceCommand{
	{Cmd: "show interfaces extensive | display json", Fams: []string{readings.Oper, readings.FCSErrors, readings.RxErrors, readings.LinkFlaps, readings.RxBytes, readings.TxBytes,
		readings.FECCorrected, readings.FECUncorrected, readings.QueueTxBytes, readings.QueueDrops, readings.QueueECN, readings.PFCRx, readings.PFCTx}, Parse: collectParseJunosExtensive},
	{Cmd: "show interfaces diagnostics optics | display json", Fams: collect.DOMFamilies(), Parse: collectParseJunosOptics},
}

const collectJunosReadback = "show configuration | display set | no-more"

func (collector) Commands() []string {
	return collect.CommandList(collectJunosCommands, collectJunosReadback)
}

func (collector) Collect(r collect.Runner, dev *schema.Device) (*readings.Device, error) {
	return collect.CollectDevice(r, dev, collectJunosCommands, read, collectJunosReadback, readings.WDStorms, readings.PreFECBER)
}

// collectJdata is the first {"data": …} of a Junos JSON leaf.
func collectJdata(v any) (string, bool) {
	a, _ := v.([]any)
	if len(a) == 0 {
		return "", false
	}
	s, ok := collect.Obj(a[0])["data"].(string)
	return s, ok
}

// collectJfirst is the first object of a Junos JSON container.
func collectJfirst(v any) map[string]any {
	a, _ := v.([]any)
	if len(a) == 0 {
		return nil
	}
	return collect.Obj(a[0])
}

// collectJlist is every object of a Junos JSON container.
func collectJlist(v any) []map[string]any {
	a, _ := v.([]any)
	var out []map[string]any
	for _, x := range a {
		if m := collect.Obj(x); m != nil {
			out = append(out, m)
		}
	}
	return out
}

func collectJnum(v any) (uint64, bool) {
	s, ok := collectJdata(v)
	if !ok {
		return 0, false
	}
	return collect.Num(s)
}

func collectJflt(v any) (float64, bool) {
	s, ok := collectJdata(v)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.Fields(s + " x")[0], 64)
	return f, err == nil
}

// collectJunosWalk decodes a Junos reply and calls fn for each
// interface-information[0].physical-interface[] that is a port.
func collectJunosWalk(out string, ports map[string]*readings.Port, fn func(*readings.Port, map[string]any)) error {
	v, err := collect.DecodeAny(out)
	if err != nil {
		return err
	}
	info := collectJfirst(collect.Obj(v)["interface-information"])
	if info == nil {
		return fmt.Errorf("no interface-information")
	}
	collect.RowsByPort(collectJlist(info["physical-interface"]), func(i map[string]any) string {
		name, _ := collectJdata(i["name"])
		return name
	}, ports, fn)
	return nil
}

// collectJcelsius reads a Junos leaf's junos:celsius attribute.
func collectJcelsius(v any) (float64, bool) {
	t := collectJfirst(v)
	if t == nil {
		return 0, false
	}
	return collect.Flt(collect.Obj(t["attributes"])["junos:celsius"])
}

var collectJunosOpticsFields = []collect.Field{{Key: "module-voltage", Fam: readings.Voltage}, {Key: "module-voltage-low-warn-threshold", Fam: readings.VoltLoWarn},
	{Key: "module-voltage-high-warn-threshold", Fam: readings.VoltHiWarn}, {Key: "laser-rx-power-low-alarm-threshold-dbm", Fam: readings.RxPowerLoAlarm},
	{Key: "laser-rx-power-low-warn-threshold-dbm", Fam: readings.RxPowerLoWarn}, {Key: "laser-tx-power-low-alarm-threshold-dbm", Fam: readings.TxPowerLoAlarm},
	{Key: "laser-tx-power-low-warn-threshold-dbm", Fam: readings.TxPowerLoWarn}, {Key: "laser-tx-power-high-warn-threshold-dbm", Fam: readings.TxPowerHiWarn},
	{Key: "laser-tx-power-high-alarm-threshold-dbm", Fam: readings.TxPowerHiAlarm}}

func collectParseJunosExtensive(out string, ports map[string]*readings.Port) error {
	return collectJunosWalk(out, ports, func(p *readings.Port, i map[string]any) {
		if s, ok := collectJdata(i["oper-status"]); ok {
			p.Oper = collect.UpDown(s == "up")
		}
		if s, ok := collectJdata(i["speed"]); ok {
			if n, err := strconv.ParseInt(strings.TrimSuffix(s, "Gbps"), 10, 64); err == nil && n < 1e6 {
				p.Speed = n * 1e9
			}
		}
		if n, ok := collectJnum(i["physical-interface-lanes"]); ok && n < 64 {
			p.Lanes = int(n)
		}
		if f := collectJfirst(i["interface-flapped"]); f != nil {
			if n, ok := collect.Num(collect.Obj(f["attributes"])["junos:flap-count"]); ok {
				p.Counters[readings.LinkFlaps] = n
			}
		}
		collect.Fill(p.Counters, collectJfirst(i["traffic-statistics"]), collectJnum, collect.Field{Key: "input-bytes", Fam: readings.RxBytes}, collect.Field{Key: "output-bytes", Fam: readings.TxBytes})
		collect.Fill(p.Counters, collectJfirst(i["input-error-list"]), collectJnum, collect.Field{Key: "framing-errors", Fam: readings.FCSErrors}, collect.Field{Key: "input-errors", Fam: readings.RxErrors})
		collect.Fill(p.Counters, collectJfirst(i["ethernet-fec-statistics"]), collectJnum, collect.Field{Key: "fec_ccw_count", Fam: readings.FECCorrected}, collect.Field{Key: "fec_nccw_count", Fam: readings.FECUncorrected})
		for _, q := range collectJlist(collectJfirst(i["queue-counters"])["queue"]) {
			if qn, ok := collect.NumIndex(collectJnum, q["queue-number"], 7); ok {
				collect.FillAt(p.Counters, q, collectJnum, qn, collect.Field{Key: "queue-counters-queued-bytes", Fam: readings.QueueTxBytes},
					collect.Field{Key: "queue-counters-tail-drop-packets", Fam: readings.QueueDrops}, collect.Field{Key: "queue-counters-ecn-ce-packets", Fam: readings.QueueECN})
			}
		}
		for _, pf := range collectJlist(collectJfirst(i["mac-priority-flow-control-statistics"])["priority-flow-control-statistics"]) {
			if pr, ok := collect.NumIndex(collectJnum, pf["priority"], 7); ok {
				collect.FillAt(p.Counters, pf, collectJnum, pr, collect.Field{Key: "pfc-received", Fam: readings.PFCRx}, collect.Field{Key: "pfc-sent", Fam: readings.PFCTx})
			}
		}
	})
}

func collectParseJunosOptics(out string, ports map[string]*readings.Port) error {
	return collectJunosWalk(out, ports, func(p *readings.Port, i map[string]any) {
		od := collectJfirst(i["optics-diagnostics"])
		if od == nil {
			return
		}
		collect.Fill(p.Gauges, od, collectJcelsius, collect.Field{Key: "module-temperature", Fam: readings.Temperature},
			collect.Field{Key: "module-temperature-high-warn-threshold", Fam: readings.TempHiWarn}, collect.Field{Key: "module-temperature-high-alarm-threshold", Fam: readings.TempHiAlarm})
		collect.Fill(p.Gauges, od, collectJflt, collectJunosOpticsFields...)
		for _, l := range collectJlist(od["optics-diagnostics-lane-values"]) {
			if n, ok := collect.NumIndex(collectJnum, l["lane-index"], 63); ok {
				collect.FillAt(p.Gauges, l, collectJflt, n+1, collect.Field{Key: "laser-rx-optical-power-dbm", Fam: readings.RxPower}, collect.Field{Key: "laser-output-power-dbm", Fam: readings.TxPower})
			}
		}
	})
}
