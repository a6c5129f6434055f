package collect

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/schema"
)

// cumulusCollector reads NVIDIA Cumulus Linux through NVUE's -o json
// views and `nv config show -o commands` for the QoS read-back: the QoS
// counters (Cumulus Linux 5.5 and later) give every traffic class's
// bytes and drops and every priority's pauses, the RoCE counters the
// RoCE queue's ECN marks and the RoCE priority's ingress discards. FEC
// counters are not in what it reads.
type cumulusCollector struct{}

func (cumulusCollector) Commands() []string {
	return []string{"nv show interface -o json", "nv show interface IF counters qos -o json", "nv show interface IF qos roce counters -o json",
		"nv show platform transceiver IF -o json", "nv show interface IF qos pfc-watchdog -o json", "nv config show -o commands"}
}

func (cumulusCollector) Collect(r Runner, dev *schema.Device) (*check.Device, error) {
	d := newDevice(dev)
	byName := portMap(d)
	const ifCmd = "nv show interface -o json"
	if err := runParse(r, ifCmd, func(out string) error { return parseNVUEInterfaces(out, byName) }); err != nil {
		return nil, err
	}
	source(d, ifCmd, check.Oper, check.LinkFlaps, check.RxErrors, check.FCSErrors, check.RxBytes, check.TxBytes)
	for _, p := range d.Ports {
		prio, queue := roceAt(dev, p.Name)
		if err := readPort(r, d, p, p,
			portCommand[*check.Port]{cmd: "nv show interface " + p.Name + " counters qos -o json",
				fams: []string{check.PFCRx, check.PFCTx, check.QueueTxBytes, check.QueueDrops}, parse: parseNVUEQoSCounters},
			portCommand[*check.Port]{cmd: "nv show interface " + p.Name + " qos roce counters -o json", fams: []string{check.QueueECN, check.PrioDrops},
				parse: func(s string, p *check.Port) error { return parseNVUERoCE(s, p, prio, queue) }},
			portCommand[*check.Port]{cmd: "nv show platform transceiver " + p.Name + " -o json", fams: domFamilies, parse: parseNVUETransceiver},
			portCommand[*check.Port]{cmd: "nv show interface " + p.Name + " qos pfc-watchdog -o json", fams: []string{check.WDStorms, check.WDStormed},
				parse: parseNVUEWatchdog},
		); err != nil {
			return nil, err
		}
	}
	missing(d, check.FECUncorrected, check.FECCorrected, check.PreFECBER)
	return d, readback(r, d, schema.NvidiaCumulus, "nv config show -o commands")
}

// roceAt is the intent's RoCE priority and queue on a port (3/3 without one).
func roceAt(dev *schema.Device, port string) (int, int) {
	p := dev.Port(port)
	if p == nil || p.QoS == nil {
		return 3, 3
	}
	for _, pr := range p.QoS.Lossless().List() {
		return pr, p.QoS.Queue[pr].V
	}
	return 3, 3
}

var reNVUESpeed = regexp.MustCompile(`^(\d+)G$`)

func parseNVUEInterfaces(out string, ports map[string]*check.Port) error {
	v, err := decodeAny(out)
	if err != nil {
		return err
	}
	objsByPort(obj(v), ports, func(p *check.Port, x map[string]any) {
		link := obj(x["link"])
		if link == nil {
			return
		}
		if s, ok := link["state"].(string); ok {
			p.Oper = upDown(s == "up")
		}
		if s, ok := link["speed"].(string); ok {
			if m := reNVUESpeed.FindStringSubmatch(s); m != nil {
				n, _ := strconv.ParseInt(m[1], 10, 64)
				p.Speed = n * 1e9
			}
		}
		if n, ok := num(link["lanes"]); ok && n < 64 {
			p.Lanes = int(n)
		}
		st := obj(link["stats"])
		if n, ok := num(st["carrier-transitions"]); ok {
			p.Counters[check.LinkFlaps] = n / 2
		}
		fill(p.Counters, st, num, field{"in-errors", check.RxErrors}, field{"in-errors", check.FCSErrors},
			field{"in-bytes", check.RxBytes}, field{"out-bytes", check.TxBytes})
	})
	return nil
}

// parseNVUEQoSCounters reads `nv show interface IF counters qos -o json`:
// egress-queue-stats per traffic class (tx-bytes, tx-uc-buffer-discards)
// and pfc-stats per switch priority (rx/tx-pause-frames).
func parseNVUEQoSCounters(out string, p *check.Port) error {
	v, err := decodeAny(out)
	if err != nil {
		return err
	}
	eq, pfc := obj(obj(v)["egress-queue-stats"]), obj(obj(v)["pfc-stats"])
	if eq == nil || pfc == nil {
		return fmt.Errorf("no egress-queue-stats/pfc-stats (Cumulus Linux 5.5 or later has them)")
	}
	each := func(m map[string]any, fields ...field) {
		eachIndex(m, "", 7, func(i int, x any) { fillAt(p.Counters, obj(x), num, i, fields...) })
	}
	each(eq, field{"tx-bytes", check.QueueTxBytes}, field{"tx-uc-buffer-discards", check.QueueDrops})
	each(pfc, field{"rx-pause-frames", check.PFCRx}, field{"tx-pause-frames", check.PFCTx})
	return nil
}

// parseNVUERoCE reads the RoCE counters of a port: its queue's ECN marks
// and its priority's ingress discards (they count the RoCE class only).
func parseNVUERoCE(out string, p *check.Port, prio, queue int) error {
	v, err := decodeAny(out)
	if err != nil {
		return err
	}
	rx, tx := obj(obj(v)["rx-stats"]), obj(obj(v)["tx-stats"])
	if rx == nil || tx == nil {
		return fmt.Errorf("no rx-stats/tx-stats")
	}
	fillAt(p.Counters, obj(tx["tx-ecn-stats"]), num, queue, field{"ecn-marked-packets", check.QueueECN})
	fillAt(p.Counters, obj(rx["rx-roce-stats"]), num, prio, field{"no-buffer-discard", check.PrioDrops})
	return nil
}

var reNVUEValue = regexp.MustCompile(`(-?[\d.]+) (dBm|C|V)\b`)

// nvueValue reads "0.5623 mW / -2.50 dBm", "45.00 C", "3.3000 V".
func nvueValue(v any) (float64, bool) {
	s, ok := v.(string)
	if !ok {
		return flt(v)
	}
	ms := reNVUEValue.FindAllStringSubmatch(s, -1)
	if ms == nil {
		return 0, false
	}
	f, err := strconv.ParseFloat(ms[len(ms)-1][1], 64)
	return f, err == nil
}

func parseNVUETransceiver(out string, p *check.Port) error {
	v, err := decodeAny(out)
	if err != nil {
		return err
	}
	top := obj(v)
	if ct, _ := top["cable-type"].(string); strings.Contains(strings.ToLower(ct), "copper") {
		p.Copper = true
	}
	eachIndex(obj(top["channel"]), "channel-", 63, func(lane int, ch any) {
		rx, tx := obj(obj(ch)["rx-power"]), obj(obj(ch)["tx-power"])
		fillAt(p.Gauges, rx, nvueValue, lane, field{"power", check.RxPower})
		fillAt(p.Gauges, tx, nvueValue, lane, field{"power", check.TxPower})
		fill(p.Gauges, rx, nvueValue, field{"low-alarm-threshold", check.RxPowerLoAlarm}, field{"low-warning-threshold", check.RxPowerLoWarn})
		fill(p.Gauges, tx, nvueValue, field{"low-alarm-threshold", check.TxPowerLoAlarm}, field{"low-warning-threshold", check.TxPowerLoWarn},
			field{"high-warning-threshold", check.TxPowerHiWarn}, field{"high-alarm-threshold", check.TxPowerHiAlarm})
	})
	fill(p.Gauges, obj(top["temperature"]), nvueValue, field{"temperature", check.Temperature},
		field{"high-warning-threshold", check.TempHiWarn}, field{"high-alarm-threshold", check.TempHiAlarm})
	fill(p.Gauges, obj(top["voltage"]), nvueValue, field{"voltage", check.Voltage},
		field{"low-warning-threshold", check.VoltLoWarn}, field{"high-warning-threshold", check.VoltHiWarn})
	return nil
}

func parseNVUEWatchdog(out string, p *check.Port) error {
	v, err := decodeAny(out)
	if err != nil {
		return err
	}
	eachIndex(obj(obj(obj(v)["status"])["traffic-class"]), "", 7, func(q int, x any) {
		fillAt(p.Counters, obj(x), num, q, field{"deadlock-count", check.WDStorms})
		if s, ok := obj(x)["status"].(string); ok {
			p.Gauges[check.Key(check.WDStormed, q)] = flag(s == "stormed")
		}
	})
	return nil
}
