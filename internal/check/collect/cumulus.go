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
	out, err := r.Run(ifCmd)
	if err != nil {
		return nil, err
	}
	if err := parseNVUEInterfaces(out, byName); err != nil {
		return nil, fmt.Errorf("%s: %w", ifCmd, err)
	}
	source(d, ifCmd, check.Oper, check.LinkFlaps, check.RxErrors, check.FCSErrors, check.RxBytes, check.TxBytes)
	for _, p := range d.Ports {
		prio, queue := roceAt(dev, p.Name)
		for _, c := range []struct {
			cmd   string
			fams  []string
			parse func(string, *check.Port) error
		}{
			{"nv show interface " + p.Name + " counters qos -o json", []string{check.PFCRx, check.PFCTx, check.QueueTxBytes, check.QueueDrops}, parseNVUEQoSCounters},
			{"nv show interface " + p.Name + " qos roce counters -o json", []string{check.QueueECN, check.PrioDrops},
				func(s string, p *check.Port) error { return parseNVUERoCE(s, p, prio, queue) }},
			{"nv show platform transceiver " + p.Name + " -o json", []string{check.RxPower, check.TxPower, check.RxPowerLoAlarm, check.RxPowerLoWarn,
				check.TxPowerLoAlarm, check.TxPowerLoWarn, check.TxPowerHiWarn, check.TxPowerHiAlarm, check.Temperature, check.TempHiWarn, check.TempHiAlarm,
				check.Voltage, check.VoltLoWarn, check.VoltHiWarn}, parseNVUETransceiver},
			{"nv show interface " + p.Name + " qos pfc-watchdog -o json", []string{check.WDStorms, check.WDStormed}, parseNVUEWatchdog},
		} {
			out, err := r.Run(c.cmd)
			if err != nil {
				return nil, err
			}
			if err := c.parse(out, p); err != nil {
				return nil, fmt.Errorf("%s: %w", c.cmd, err)
			}
			portSource(d, p, c.cmd, portTemplate(c.cmd, p.Name), c.fams...)
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
	for name, x := range obj(v) {
		p := ports[name]
		link := obj(obj(x)["link"])
		if p == nil || link == nil {
			continue
		}
		if s, ok := link["state"].(string); ok {
			p.Oper = map[bool]string{true: "up", false: "down"}[s == "up"]
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
		for key, fam := range map[string]string{"in-errors": check.RxErrors, "in-bytes": check.RxBytes, "out-bytes": check.TxBytes} {
			if n, ok := num(st[key]); ok {
				p.Counters[fam] = n
			}
		}
		if n, ok := num(st["in-errors"]); ok {
			p.Counters[check.FCSErrors] = n
		}
	}
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
	each := func(m map[string]any, fields map[string]string) {
		for k, x := range m {
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i > 7 {
				continue
			}
			for key, fam := range fields {
				if n, ok := num(obj(x)[key]); ok {
					p.Counters[check.Key(fam, i)] = n
				}
			}
		}
	}
	each(eq, map[string]string{"tx-bytes": check.QueueTxBytes, "tx-uc-buffer-discards": check.QueueDrops})
	each(pfc, map[string]string{"rx-pause-frames": check.PFCRx, "tx-pause-frames": check.PFCTx})
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
	set := func(m map[string]any, key, fam string) {
		if n, ok := num(m[key]); ok {
			p.Counters[fam] = n
		}
	}
	set(obj(tx["tx-ecn-stats"]), "ecn-marked-packets", check.Key(check.QueueECN, queue))
	set(obj(rx["rx-roce-stats"]), "no-buffer-discard", check.Key(check.PrioDrops, prio))
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
	for name, ch := range obj(top["channel"]) {
		lane, err := strconv.Atoi(strings.TrimPrefix(name, "channel-"))
		if err != nil || lane < 0 || lane > 63 {
			continue
		}
		rx, tx := obj(obj(ch)["rx-power"]), obj(obj(ch)["tx-power"])
		if f, ok := nvueValue(rx["power"]); ok {
			p.Gauges[check.Key(check.RxPower, lane)] = f
		}
		if f, ok := nvueValue(tx["power"]); ok {
			p.Gauges[check.Key(check.TxPower, lane)] = f
		}
		for key, fam := range map[string]string{"low-alarm-threshold": check.RxPowerLoAlarm, "low-warning-threshold": check.RxPowerLoWarn} {
			if f, ok := nvueValue(rx[key]); ok {
				p.Gauges[fam] = f
			}
		}
		for key, fam := range map[string]string{"low-alarm-threshold": check.TxPowerLoAlarm, "low-warning-threshold": check.TxPowerLoWarn,
			"high-warning-threshold": check.TxPowerHiWarn, "high-alarm-threshold": check.TxPowerHiAlarm} {
			if f, ok := nvueValue(tx[key]); ok {
				p.Gauges[fam] = f
			}
		}
	}
	t, vcc := obj(top["temperature"]), obj(top["voltage"])
	for key, fam := range map[string]string{"temperature": check.Temperature, "high-warning-threshold": check.TempHiWarn, "high-alarm-threshold": check.TempHiAlarm} {
		if f, ok := nvueValue(t[key]); ok {
			p.Gauges[fam] = f
		}
	}
	for key, fam := range map[string]string{"voltage": check.Voltage, "low-warning-threshold": check.VoltLoWarn, "high-warning-threshold": check.VoltHiWarn} {
		if f, ok := nvueValue(vcc[key]); ok {
			p.Gauges[fam] = f
		}
	}
	return nil
}

func parseNVUEWatchdog(out string, p *check.Port) error {
	v, err := decodeAny(out)
	if err != nil {
		return err
	}
	for tc, x := range obj(obj(obj(v)["status"])["traffic-class"]) {
		q, err := strconv.Atoi(tc)
		if err != nil || q < 0 || q > 7 {
			continue
		}
		if n, ok := num(obj(x)["deadlock-count"]); ok {
			p.Counters[check.Key(check.WDStorms, q)] = n
		}
		if s, ok := obj(x)["status"].(string); ok {
			p.Gauges[check.Key(check.WDStormed, q)] = map[bool]float64{true: 1, false: 0}[s == "stormed"]
		}
	}
	return nil
}
