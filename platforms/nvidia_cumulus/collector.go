package nvidiacumulus

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/check/readings"
	"github.com/fabricgen/fabricgen/internal/check/collect"
	"github.com/fabricgen/fabricgen/schema"
)

// collector reads NVIDIA Cumulus Linux through NVUE's -o json
// views and `nv config show -o commands` for the QoS read-back: the QoS
// counters (Cumulus Linux 5.5 and later) give every traffic class's
// bytes and drops and every priority's pauses, the RoCE counters the
// RoCE queue's ECN marks and the RoCE priority's ingress discards. FEC
// counters are not in what it reads.
type collector struct{}

func (collector) Commands() []string {
	return []string{"nv show interface -o json", "nv show interface IF counters qos -o json", "nv show interface IF qos roce counters -o json",
		"nv show platform transceiver IF -o json", "nv show interface IF qos pfc-watchdog -o json", "nv config show -o commands"}
}

func (collector) Collect(r collect.Runner, dev *schema.Device) (*readings.Device, error) {
	d := collect.NewDevice(dev)
	byName := collect.PortMap(d)
	const ifCmd = "nv show interface -o json"
	if err := collect.RunParse(r, ifCmd, func(out string) error { return collectParseNVUEInterfaces(out, byName) }); err != nil {
		return nil, err
	}
	collect.Source(d, ifCmd, readings.Oper, readings.LinkFlaps, readings.RxErrors, readings.FCSErrors, readings.RxBytes, readings.TxBytes)
	for _, p := range d.Ports {
		prio, queue := collectRoceAt(dev, p.Name)
		if err := collect.ReadPort(r, d, p, p,
			collect.PortCommand[*readings.Port]{Cmd: "nv show interface " + p.Name + " counters qos -o json",
				Fams: []string{readings.PFCRx, readings.PFCTx, readings.QueueTxBytes, readings.QueueDrops}, Parse: collectParseNVUEQoSCounters},
			collect.PortCommand[*readings.Port]{Cmd: "nv show interface " + p.Name + " qos roce counters -o json", Fams: []string{readings.QueueECN, readings.PrioDrops},
				Parse: func(s string, p *readings.Port) error { return collectParseNVUERoCE(s, p, prio, queue) }},
			collect.PortCommand[*readings.Port]{Cmd: "nv show platform transceiver " + p.Name + " -o json", Fams: collect.DOMFamilies(), Parse: collectParseNVUETransceiver},
			collect.PortCommand[*readings.Port]{Cmd: "nv show interface " + p.Name + " qos pfc-watchdog -o json", Fams: []string{readings.WDStorms, readings.WDStormed},
				Parse: collectParseNVUEWatchdog},
		); err != nil {
			return nil, err
		}
	}
	collect.Missing(d, readings.FECUncorrected, readings.FECCorrected, readings.PreFECBER)
	return d, collect.Readback(r, d, read, "nv config show -o commands")
}

// collectRoceAt is the intent's RoCE priority and queue on a port (3/3 without one).
func collectRoceAt(dev *schema.Device, port string) (int, int) {
	p := dev.Port(port)
	if p == nil || p.QoS == nil {
		return 3, 3
	}
	for pr := range p.QoS.Lossless.All() {
		return pr, p.QoS.Queue[pr].V
	}
	return 3, 3
}

var collectReNVUESpeed = regexp.MustCompile(`^(\d+)G$`)

func collectParseNVUEInterfaces(out string, ports map[string]*readings.Port) error {
	v, err := collect.DecodeAny(out)
	if err != nil {
		return err
	}
	collect.ObjsByPort(collect.Obj(v), ports, func(p *readings.Port, x map[string]any) {
		link := collect.Obj(x["link"])
		if link == nil {
			return
		}
		if s, ok := link["state"].(string); ok {
			p.Oper = collect.UpDown(s == "up")
		}
		if s, ok := link["speed"].(string); ok {
			if m := collectReNVUESpeed.FindStringSubmatch(s); m != nil {
				n, _ := strconv.ParseInt(m[1], 10, 64)
				p.Speed = n * 1e9
			}
		}
		if n, ok := collect.Num(link["lanes"]); ok && n < 64 {
			p.Lanes = int(n)
		}
		st := collect.Obj(link["stats"])
		if n, ok := collect.Num(st["carrier-transitions"]); ok {
			p.Counters[readings.LinkFlaps] = n / 2
		}
		collect.Fill(p.Counters, st, collect.Num, collect.Field{Key: "in-errors", Fam: readings.RxErrors}, collect.Field{Key: "in-errors", Fam: readings.FCSErrors},
			collect.Field{Key: "in-bytes", Fam: readings.RxBytes}, collect.Field{Key: "out-bytes", Fam: readings.TxBytes})
	})
	return nil
}

// collectParseNVUEQoSCounters reads `nv show interface IF counters qos -o json`:
// egress-queue-stats per traffic class (tx-bytes, tx-uc-buffer-discards)
// and pfc-stats per switch priority (rx/tx-pause-frames).
func collectParseNVUEQoSCounters(out string, p *readings.Port) error {
	v, err := collect.DecodeAny(out)
	if err != nil {
		return err
	}
	eq, pfc := collect.Obj(collect.Obj(v)["egress-queue-stats"]), collect.Obj(collect.Obj(v)["pfc-stats"])
	if eq == nil || pfc == nil {
		return fmt.Errorf("no egress-queue-stats/pfc-stats (Cumulus Linux 5.5 or later has them)")
	}
	each := func(m map[string]any, fields ...collect.Field) {
		collect.EachIndex(m, "", 7, func(i int, x any) { collect.FillAt(p.Counters, collect.Obj(x), collect.Num, i, fields...) })
	}
	each(eq, collect.Field{Key: "tx-bytes", Fam: readings.QueueTxBytes}, collect.Field{Key: "tx-uc-buffer-discards", Fam: readings.QueueDrops})
	each(pfc, collect.Field{Key: "rx-pause-frames", Fam: readings.PFCRx}, collect.Field{Key: "tx-pause-frames", Fam: readings.PFCTx})
	return nil
}

// collectParseNVUERoCE reads the RoCE counters of a port: its queue's ECN marks
// and its priority's ingress discards (they count the RoCE class only).
func collectParseNVUERoCE(out string, p *readings.Port, prio, queue int) error {
	v, err := collect.DecodeAny(out)
	if err != nil {
		return err
	}
	rx, tx := collect.Obj(collect.Obj(v)["rx-stats"]), collect.Obj(collect.Obj(v)["tx-stats"])
	if rx == nil || tx == nil {
		return fmt.Errorf("no rx-stats/tx-stats")
	}
	collect.FillAt(p.Counters, collect.Obj(tx["tx-ecn-stats"]), collect.Num, queue, collect.Field{Key: "ecn-marked-packets", Fam: readings.QueueECN})
	collect.FillAt(p.Counters, collect.Obj(rx["rx-roce-stats"]), collect.Num, prio, collect.Field{Key: "no-buffer-discard", Fam: readings.PrioDrops})
	return nil
}

var collectReNVUEValue = regexp.MustCompile(`(-?[\d.]+) (dBm|C|V)\b`)

// collectNvueValue reads "0.5623 mW / -2.50 dBm", "45.00 C", "3.3000 V".
func collectNvueValue(v any) (float64, bool) {
	s, ok := v.(string)
	if !ok {
		return collect.Flt(v)
	}
	ms := collectReNVUEValue.FindAllStringSubmatch(s, -1)
	if ms == nil {
		return 0, false
	}
	f, err := strconv.ParseFloat(ms[len(ms)-1][1], 64)
	return f, err == nil
}

func collectParseNVUETransceiver(out string, p *readings.Port) error {
	v, err := collect.DecodeAny(out)
	if err != nil {
		return err
	}
	top := collect.Obj(v)
	if ct, _ := top["cable-type"].(string); strings.Contains(strings.ToLower(ct), "copper") {
		p.Copper = true
	}
	collect.EachIndex(collect.Obj(top["channel"]), "channel-", 63, func(lane int, ch any) {
		rx, tx := collect.Obj(collect.Obj(ch)["rx-power"]), collect.Obj(collect.Obj(ch)["tx-power"])
		collect.FillAt(p.Gauges, rx, collectNvueValue, lane, collect.Field{Key: "power", Fam: readings.RxPower})
		collect.FillAt(p.Gauges, tx, collectNvueValue, lane, collect.Field{Key: "power", Fam: readings.TxPower})
		collect.Fill(p.Gauges, rx, collectNvueValue, collect.Field{Key: "low-alarm-threshold", Fam: readings.RxPowerLoAlarm}, collect.Field{Key: "low-warning-threshold", Fam: readings.RxPowerLoWarn})
		collect.Fill(p.Gauges, tx, collectNvueValue, collect.Field{Key: "low-alarm-threshold", Fam: readings.TxPowerLoAlarm}, collect.Field{Key: "low-warning-threshold", Fam: readings.TxPowerLoWarn},
			collect.Field{Key: "high-warning-threshold", Fam: readings.TxPowerHiWarn}, collect.Field{Key: "high-alarm-threshold", Fam: readings.TxPowerHiAlarm})
	})
	collect.Fill(p.Gauges, collect.Obj(top["temperature"]), collectNvueValue, collect.Field{Key: "temperature", Fam: readings.Temperature},
		collect.Field{Key: "high-warning-threshold", Fam: readings.TempHiWarn}, collect.Field{Key: "high-alarm-threshold", Fam: readings.TempHiAlarm})
	collect.Fill(p.Gauges, collect.Obj(top["voltage"]), collectNvueValue, collect.Field{Key: "voltage", Fam: readings.Voltage},
		collect.Field{Key: "low-warning-threshold", Fam: readings.VoltLoWarn}, collect.Field{Key: "high-warning-threshold", Fam: readings.VoltHiWarn})
	return nil
}

func collectParseNVUEWatchdog(out string, p *readings.Port) error {
	v, err := collect.DecodeAny(out)
	if err != nil {
		return err
	}
	collect.EachIndex(collect.Obj(collect.Obj(collect.Obj(v)["status"])["traffic-class"]), "", 7, func(q int, x any) {
		collect.FillAt(p.Counters, collect.Obj(x), collect.Num, q, collect.Field{Key: "deadlock-count", Fam: readings.WDStorms})
		if s, ok := collect.Obj(x)["status"].(string); ok {
			p.Gauges[readings.Key(readings.WDStormed, q)] = collect.Flag(s == "stormed")
		}
	})
	return nil
}
