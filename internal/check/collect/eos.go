package collect

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/internal/qosread"
	"github.com/fabricgen/fabricgen/schema"
)

// eosCollector reads Arista EOS through eAPI-shaped `| json` output and
// the running config for the QoS read-back.
type eosCollector struct{}

// eosCommands are the EOS reads, each with the families it feeds and its
// parser.
var eosCommands = []struct {
	cmd   string
	fams  []string
	parse func(string, map[string]*check.Port) error
}{
	{"show interfaces | json", []string{check.Oper, check.LinkFlaps, check.RxBytes, check.TxBytes}, parseEOSInterfaces},
	{"show interfaces counters errors | json", []string{check.FCSErrors, check.RxErrors}, parseEOSErrors},
	{"show interfaces phy detail | json", []string{check.FECCorrected, check.FECUncorrected, check.PreFECBER}, parseEOSPhy},
	{"show interfaces transceiver dom thresholds | json", []string{check.RxPower, check.TxPower, check.RxPowerLoAlarm, check.RxPowerLoWarn,
		check.TxPowerLoAlarm, check.TxPowerLoWarn, check.TxPowerHiWarn, check.TxPowerHiAlarm, check.Temperature, check.TempHiWarn, check.TempHiAlarm,
		check.Voltage, check.VoltLoWarn, check.VoltHiWarn}, parseEOSDOM},
	{"show priority-flow-control counters detail | json", []string{check.PFCRx, check.PFCTx}, parseEOSPFC},
	{"show priority-flow-control counters watchdog | json", []string{check.WDStorms, check.WDRestored}, parseEOSWatchdog},
	{"show qos interfaces ecn counters queue | json", []string{check.QueueECN}, parseEOSECN},
	{"show interfaces counters queue detail | json", []string{check.QueueTxBytes, check.QueueDrops}, parseEOSQueues},
}

func (eosCollector) Commands() []string {
	var out []string
	for _, c := range eosCommands {
		out = append(out, c.cmd)
	}
	return append(out, "show running-config")
}

func (eosCollector) Collect(r Runner, dev *schema.Device) (*check.Device, error) {
	d := newDevice(dev)
	byName := portMap(d)
	for _, c := range eosCommands {
		out, err := r.Run(c.cmd)
		if err != nil {
			return nil, err
		}
		if err := c.parse(out, byName); err != nil {
			return nil, fmt.Errorf("%s: %w", c.cmd, err)
		}
		source(d, c.cmd, c.fams...)
	}
	return d, readback(r, d, schema.AristaEOS, "show running-config")
}

// readback reads the running config with cmd and files each port's QoS.
func readback(r Runner, d *check.Device, p schema.Platform, cmd string) error {
	out, err := r.Run(cmd)
	if err != nil {
		return err
	}
	q, err := qosread.Read(p, out)
	if err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	for _, port := range d.Ports {
		qp := q.Port(port.Name)
		rb := &check.QoS{Trust: qp.Trust, DSCP: map[int]int{}, PFC: qp.Lossless(), ECN: qp.ECNQueues()}
		if rb.PFC == nil {
			rb.PFC = []int{}
		}
		for dscp := 0; dscp < 64; dscp++ {
			pr, _ := qp.Classify(dscp, false)
			rb.DSCP[dscp] = pr
			if _, out := qp.Classify(dscp, true); out != dscp {
				if rb.Remark == nil {
					rb.Remark = map[int]int{}
				}
				rb.Remark[dscp] = out
			}
		}
		port.QoS = rb
	}
	source(d, cmd, check.QoSReadback)
	return nil
}

func portMap(d *check.Device) map[string]*check.Port {
	m := map[string]*check.Port{}
	for _, p := range d.Ports {
		m[p.Name] = p
	}
	return m
}

// num reads a JSON number (or a numeric string) as uint64.
func num(v any) (uint64, bool) {
	switch x := v.(type) {
	case float64:
		if x >= 0 && x < 1.8e19 {
			return uint64(x), true
		}
	case string:
		n, err := strconv.ParseUint(strings.ReplaceAll(strings.TrimSpace(x), ",", ""), 10, 64)
		return n, err == nil
	}
	return 0, false
}

// flt reads a JSON number as float64.
func flt(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	}
	return 0, false
}

// obj is v as a JSON object (nil when it is not one).
func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// decodeTop decodes a JSON object and returns its key's object.
func decodeTop(out, key string) (map[string]any, error) {
	var top map[string]any
	if err := json.Unmarshal([]byte(out), &top); err != nil {
		return nil, err
	}
	m, ok := top[key].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("no %q object", key)
	}
	return m, nil
}

func parseEOSInterfaces(out string, ports map[string]*check.Port) error {
	ifs, err := decodeTop(out, "interfaces")
	if err != nil {
		return err
	}
	for name, v := range ifs {
		p := ports[name]
		i := obj(v)
		if p == nil || i == nil {
			continue
		}
		if s, ok := i["lineProtocolStatus"].(string); ok {
			p.Oper = map[bool]string{true: "up", false: "down"}[s == "up"]
		}
		if b, ok := num(i["bandwidth"]); ok {
			p.Speed = int64(b)
		}
		if l, ok := num(i["lanes"]); ok && l < 64 {
			p.Lanes = int(l)
		}
		c := obj(i["interfaceCounters"])
		if n, ok := num(c["linkStatusChanges"]); ok {
			// Each flap is two status changes (down, up).
			p.Counters[check.LinkFlaps] = n / 2
		}
		if n, ok := num(c["inOctets"]); ok {
			p.Counters[check.RxBytes] = n
		}
		if n, ok := num(c["outOctets"]); ok {
			p.Counters[check.TxBytes] = n
		}
	}
	return nil
}

func parseEOSErrors(out string, ports map[string]*check.Port) error {
	ifs, err := decodeTop(out, "interfaceErrorCounters")
	if err != nil {
		return err
	}
	for name, v := range ifs {
		p, i := ports[name], obj(v)
		if p == nil || i == nil {
			continue
		}
		if n, ok := num(i["fcsErrors"]); ok {
			p.Counters[check.FCSErrors] = n
		}
		if n, ok := num(i["inErrors"]); ok {
			p.Counters[check.RxErrors] = n
		}
	}
	return nil
}

func parseEOSPhy(out string, ports map[string]*check.Port) error {
	ifs, err := decodeTop(out, "interfacePhyStatuses")
	if err != nil {
		return err
	}
	for name, v := range ifs {
		p := ports[name]
		st, _ := obj(v)["phyStatuses"].([]any)
		if p == nil || len(st) == 0 {
			continue
		}
		s := obj(st[0])
		fec := obj(s["fec"])
		if n, ok := num(obj(fec["correctedCodewords"])["value"]); ok {
			p.Counters[check.FECCorrected] = n
		}
		if n, ok := num(obj(fec["uncorrectedCodewords"])["value"]); ok {
			p.Counters[check.FECUncorrected] = n
		}
		if f, ok := flt(obj(s["preFecBer"])["value"]); ok {
			p.Gauges[check.PreFECBER] = f
		}
	}
	return nil
}

func parseEOSDOM(out string, ports map[string]*check.Port) error {
	ifs, err := decodeTop(out, "interfaces")
	if err != nil {
		return err
	}
	for name, v := range ifs {
		p := ports[name]
		params := obj(obj(v)["parameters"])
		if p == nil || params == nil {
			continue
		}
		lanes := func(param, fam string) {
			for ch, x := range obj(obj(params[param])["channels"]) {
				lane, err := strconv.Atoi(ch)
				if f, ok := flt(x); ok && err == nil && lane >= 0 && lane < 64 {
					p.Gauges[check.Key(fam, lane)] = f
				}
			}
		}
		lanes("rxPower", check.RxPower)
		lanes("txPower", check.TxPower)
		single := func(param, fam string) {
			for _, x := range obj(obj(params[param])["channels"]) {
				if f, ok := flt(x); ok {
					p.Gauges[fam] = f
				}
			}
		}
		single("temperature", check.Temperature)
		single("voltage", check.Voltage)
		th := func(param, key, fam string) {
			if f, ok := flt(obj(obj(params[param])["threshold"])[key]); ok {
				p.Gauges[fam] = f
			}
		}
		th("rxPower", "lowAlarm", check.RxPowerLoAlarm)
		th("rxPower", "lowWarn", check.RxPowerLoWarn)
		th("txPower", "lowAlarm", check.TxPowerLoAlarm)
		th("txPower", "lowWarn", check.TxPowerLoWarn)
		th("txPower", "highWarn", check.TxPowerHiWarn)
		th("txPower", "highAlarm", check.TxPowerHiAlarm)
		th("temperature", "highWarn", check.TempHiWarn)
		th("temperature", "highAlarm", check.TempHiAlarm)
		th("voltage", "lowWarn", check.VoltLoWarn)
		th("voltage", "highWarn", check.VoltHiWarn)
	}
	return nil
}

func parseEOSPFC(out string, ports map[string]*check.Port) error {
	ifs, err := decodeTop(out, "interfaces")
	if err != nil {
		return err
	}
	for name, v := range ifs {
		p := ports[name]
		if p == nil {
			continue
		}
		for prio, x := range obj(obj(v)["priorities"]) {
			pr, err := strconv.Atoi(prio)
			if err != nil || pr < 0 || pr > 7 {
				continue
			}
			if n, ok := num(obj(x)["rxFrames"]); ok {
				p.Counters[check.Key(check.PFCRx, pr)] = n
			}
			if n, ok := num(obj(x)["txFrames"]); ok {
				p.Counters[check.Key(check.PFCTx, pr)] = n
			}
		}
	}
	return nil
}

// parseEOSWatchdog reads the watchdog counters; an interface or queue
// EOS leaves out has had no event: its counters are 0 (the one place
// where absent means zero).
func parseEOSWatchdog(out string, ports map[string]*check.Port) error {
	ifs, err := decodeTop(out, "interfaces")
	if err != nil {
		return err
	}
	for _, p := range ports {
		for q := 0; q < 8; q++ {
			p.Counters[check.Key(check.WDStorms, q)] = 0
			p.Counters[check.Key(check.WDRestored, q)] = 0
		}
	}
	for name, v := range ifs {
		p := ports[name]
		if p == nil {
			continue
		}
		for qs, x := range obj(obj(v)["txQueues"]) {
			q, err := strconv.Atoi(qs)
			if err != nil || q < 0 || q > 7 {
				continue
			}
			if n, ok := num(obj(x)["stuckCount"]); ok {
				p.Counters[check.Key(check.WDStorms, q)] = n
			}
			if n, ok := num(obj(x)["recoveryCount"]); ok {
				p.Counters[check.Key(check.WDRestored, q)] = n
			}
		}
	}
	return nil
}

// parseEOSECN reads ECN-marked counts per queue; "-" (ECN not configured
// on the queue) leaves the queue's counter out.
func parseEOSECN(out string, ports map[string]*check.Port) error {
	ifs, err := decodeTop(out, "intfQueueCounters")
	if err != nil {
		return err
	}
	for name, v := range ifs {
		p := ports[name]
		if p == nil {
			continue
		}
		for qs, x := range obj(obj(v)["queueCounters"]) {
			q, err := strconv.Atoi(qs)
			if err != nil || q < 0 || q > 7 {
				continue
			}
			if n, ok := num(x); ok {
				p.Counters[check.Key(check.QueueECN, q)] = n
			}
		}
	}
	return nil
}

func parseEOSQueues(out string, ports map[string]*check.Port) error {
	top, err := decodeTop(out, "egressQueueCounters")
	if err != nil {
		return err
	}
	for name, v := range obj(top["interfaces"]) {
		p := ports[name]
		if p == nil {
			continue
		}
		for tc, x := range obj(obj(obj(v)["ucastQueues"])["trafficClasses"]) {
			q, err := strconv.Atoi(strings.TrimPrefix(tc, "TC"))
			if err != nil || q < 0 || q > 7 {
				continue
			}
			var bytes, drops uint64
			for _, dp := range obj(obj(x)["dropPrecedences"]) {
				b, _ := num(obj(dp)["enqueuedBytes"])
				dr, _ := num(obj(dp)["droppedPackets"])
				bytes += b
				drops += dr
			}
			p.Counters[check.Key(check.QueueTxBytes, q)] = bytes
			p.Counters[check.Key(check.QueueDrops, q)] = drops
		}
	}
	return nil
}
