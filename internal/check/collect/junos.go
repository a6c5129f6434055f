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

var junosCommands = []struct {
	cmd   string
	fams  []string
	parse func(string, map[string]*check.Port) error
}{
	{"show interfaces extensive | display json", []string{check.Oper, check.FCSErrors, check.RxErrors, check.LinkFlaps, check.RxBytes, check.TxBytes,
		check.FECCorrected, check.FECUncorrected, check.QueueTxBytes, check.QueueDrops, check.QueueECN, check.PFCRx, check.PFCTx}, parseJunosExtensive},
	{"show interfaces diagnostics optics | display json", []string{check.RxPower, check.TxPower, check.RxPowerLoAlarm, check.RxPowerLoWarn,
		check.TxPowerLoAlarm, check.TxPowerLoWarn, check.TxPowerHiWarn, check.TxPowerHiAlarm, check.Temperature, check.TempHiWarn, check.TempHiAlarm,
		check.Voltage, check.VoltLoWarn, check.VoltHiWarn}, parseJunosOptics},
}

func (junosCollector) Commands() []string {
	var out []string
	for _, c := range junosCommands {
		out = append(out, c.cmd)
	}
	return append(out, "show configuration | display set | no-more")
}

func (junosCollector) Collect(r Runner, dev *schema.Device) (*check.Device, error) {
	d := newDevice(dev)
	byName := portMap(d)
	for _, c := range junosCommands {
		out, err := r.Run(c.cmd)
		if err != nil {
			return nil, err
		}
		if err := c.parse(out, byName); err != nil {
			return nil, fmt.Errorf("%s: %w", c.cmd, err)
		}
		source(d, c.cmd, c.fams...)
	}
	missing(d, check.WDStorms, check.PreFECBER)
	return d, readback(r, d, schema.JuniperJunos, "show configuration | display set | no-more")
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

// junosInterfaces is interface-information[0].physical-interface[].
func junosInterfaces(out string) ([]map[string]any, error) {
	v, err := decodeAny(out)
	if err != nil {
		return nil, err
	}
	info := jfirst(obj(v)["interface-information"])
	if info == nil {
		return nil, fmt.Errorf("no interface-information")
	}
	return jlist(info["physical-interface"]), nil
}

func parseJunosExtensive(out string, ports map[string]*check.Port) error {
	ifs, err := junosInterfaces(out)
	if err != nil {
		return err
	}
	for _, i := range ifs {
		name, _ := jdata(i["name"])
		p := ports[name]
		if p == nil {
			continue
		}
		if s, ok := jdata(i["oper-status"]); ok {
			p.Oper = map[bool]string{true: "up", false: "down"}[s == "up"]
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
		set := func(m map[string]any, key, fam string) {
			if n, ok := jnum(m[key]); ok {
				p.Counters[fam] = n
			}
		}
		ts := jfirst(i["traffic-statistics"])
		set(ts, "input-bytes", check.RxBytes)
		set(ts, "output-bytes", check.TxBytes)
		ie := jfirst(i["input-error-list"])
		set(ie, "framing-errors", check.FCSErrors)
		set(ie, "input-errors", check.RxErrors)
		fec := jfirst(i["ethernet-fec-statistics"])
		set(fec, "fec_ccw_count", check.FECCorrected)
		set(fec, "fec_nccw_count", check.FECUncorrected)
		for _, q := range jlist(jfirst(i["queue-counters"])["queue"]) {
			qn, ok := jnum(q["queue-number"])
			if !ok || qn > 7 {
				continue
			}
			set(q, "queue-counters-queued-bytes", check.Key(check.QueueTxBytes, int(qn)))
			set(q, "queue-counters-tail-drop-packets", check.Key(check.QueueDrops, int(qn)))
			set(q, "queue-counters-ecn-ce-packets", check.Key(check.QueueECN, int(qn)))
		}
		for _, pf := range jlist(jfirst(i["mac-priority-flow-control-statistics"])["priority-flow-control-statistics"]) {
			pr, ok := jnum(pf["priority"])
			if !ok || pr > 7 {
				continue
			}
			set(pf, "pfc-received", check.Key(check.PFCRx, int(pr)))
			set(pf, "pfc-sent", check.Key(check.PFCTx, int(pr)))
		}
	}
	return nil
}

func parseJunosOptics(out string, ports map[string]*check.Port) error {
	ifs, err := junosInterfaces(out)
	if err != nil {
		return err
	}
	for _, i := range ifs {
		name, _ := jdata(i["name"])
		p := ports[name]
		od := jfirst(i["optics-diagnostics"])
		if p == nil || od == nil {
			continue
		}
		if t := jfirst(od["module-temperature"]); t != nil {
			if f, ok := flt(obj(t["attributes"])["junos:celsius"]); ok {
				p.Gauges[check.Temperature] = f
			}
		}
		for key, fam := range map[string]string{"module-voltage": check.Voltage, "module-voltage-low-warn-threshold": check.VoltLoWarn,
			"module-voltage-high-warn-threshold": check.VoltHiWarn, "laser-rx-power-low-alarm-threshold-dbm": check.RxPowerLoAlarm,
			"laser-rx-power-low-warn-threshold-dbm": check.RxPowerLoWarn, "laser-tx-power-low-alarm-threshold-dbm": check.TxPowerLoAlarm,
			"laser-tx-power-low-warn-threshold-dbm": check.TxPowerLoWarn, "laser-tx-power-high-warn-threshold-dbm": check.TxPowerHiWarn,
			"laser-tx-power-high-alarm-threshold-dbm": check.TxPowerHiAlarm} {
			if f, ok := jflt(od[key]); ok {
				p.Gauges[fam] = f
			}
		}
		for key, fam := range map[string]string{"module-temperature-high-warn-threshold": check.TempHiWarn, "module-temperature-high-alarm-threshold": check.TempHiAlarm} {
			if t := jfirst(od[key]); t != nil {
				if f, ok := flt(obj(t["attributes"])["junos:celsius"]); ok {
					p.Gauges[fam] = f
				}
			}
		}
		for _, l := range jlist(od["optics-diagnostics-lane-values"]) {
			n, ok := jnum(l["lane-index"])
			if !ok || n > 63 {
				continue
			}
			if f, ok := jflt(l["laser-rx-optical-power-dbm"]); ok {
				p.Gauges[check.Key(check.RxPower, int(n)+1)] = f
			}
			if f, ok := jflt(l["laser-output-power-dbm"]); ok {
				p.Gauges[check.Key(check.TxPower, int(n)+1)] = f
			}
		}
	}
	return nil
}
