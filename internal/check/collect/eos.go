package collect

import (
	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/schema"
)

// eosCollector reads Arista EOS through eAPI-shaped `| json` output and
// the running config for the QoS read-back.
type eosCollector struct{}

// eosCommands are the EOS reads, each with the families it feeds and its
// parser.
var eosCommands = []deviceCommand{
	{"show interfaces | json", []string{check.Oper, check.LinkFlaps, check.RxBytes, check.TxBytes}, parseEOSInterfaces},
	{"show interfaces counters errors | json", []string{check.FCSErrors, check.RxErrors}, parseEOSErrors},
	{"show interfaces phy detail | json", []string{check.FECCorrected, check.FECUncorrected, check.PreFECBER}, parseEOSPhy},
	{"show interfaces transceiver dom thresholds | json", domFamilies, parseEOSDOM},
	{"show priority-flow-control counters detail | json", []string{check.PFCRx, check.PFCTx}, parseEOSPFC},
	{"show priority-flow-control counters watchdog | json", []string{check.WDStorms, check.WDRestored}, parseEOSWatchdog},
	{"show qos interfaces ecn counters queue | json", []string{check.QueueECN}, parseEOSECN},
	{"show interfaces counters queue detail | json", []string{check.QueueTxBytes, check.QueueDrops}, parseEOSQueues},
}

func (eosCollector) Commands() []string { return commandList(eosCommands, "show running-config") }

func (eosCollector) Collect(r Runner, dev *schema.Device) (*check.Device, error) {
	return collectDevice(r, dev, eosCommands, schema.AristaEOS, "show running-config")
}

// eosWalk decodes EOS output and calls fn for each port in the object
// under key.
func eosWalk(out, key string, ports map[string]*check.Port, fn func(*check.Port, map[string]any)) error {
	ifs, err := decodeTop(out, key)
	if err != nil {
		return err
	}
	objsByPort(ifs, ports, fn)
	return nil
}

func parseEOSInterfaces(out string, ports map[string]*check.Port) error {
	return eosWalk(out, "interfaces", ports, func(p *check.Port, i map[string]any) {
		if s, ok := i["lineProtocolStatus"].(string); ok {
			p.Oper = upDown(s == "up")
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
		fill(p.Counters, c, num, field{"inOctets", check.RxBytes}, field{"outOctets", check.TxBytes})
	})
}

func parseEOSErrors(out string, ports map[string]*check.Port) error {
	return eosWalk(out, "interfaceErrorCounters", ports, func(p *check.Port, i map[string]any) {
		fill(p.Counters, i, num, field{"fcsErrors", check.FCSErrors}, field{"inErrors", check.RxErrors})
	})
}

func parseEOSPhy(out string, ports map[string]*check.Port) error {
	return eosWalk(out, "interfacePhyStatuses", ports, func(p *check.Port, i map[string]any) {
		st, _ := i["phyStatuses"].([]any)
		if len(st) == 0 {
			return
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
	})
}

func parseEOSDOM(out string, ports map[string]*check.Port) error {
	return eosWalk(out, "interfaces", ports, func(p *check.Port, i map[string]any) {
		params := obj(i["parameters"])
		channels := func(param string) map[string]any { return obj(obj(params[param])["channels"]) }
		for _, l := range []field{{"rxPower", check.RxPower}, {"txPower", check.TxPower}} {
			eachIndex(channels(l.key), "", 63, func(lane int, x any) {
				if f, ok := flt(x); ok {
					p.Gauges[check.Key(l.fam, lane)] = f
				}
			})
		}
		for _, m := range []field{{"temperature", check.Temperature}, {"voltage", check.Voltage}} {
			for _, x := range channels(m.key) {
				if f, ok := flt(x); ok {
					p.Gauges[m.fam] = f
				}
			}
		}
		th := func(param string, fields ...field) {
			fill(p.Gauges, obj(obj(params[param])["threshold"]), flt, fields...)
		}
		th("rxPower", field{"lowAlarm", check.RxPowerLoAlarm}, field{"lowWarn", check.RxPowerLoWarn})
		th("txPower", field{"lowAlarm", check.TxPowerLoAlarm}, field{"lowWarn", check.TxPowerLoWarn},
			field{"highWarn", check.TxPowerHiWarn}, field{"highAlarm", check.TxPowerHiAlarm})
		th("temperature", field{"highWarn", check.TempHiWarn}, field{"highAlarm", check.TempHiAlarm})
		th("voltage", field{"lowWarn", check.VoltLoWarn}, field{"highWarn", check.VoltHiWarn})
	})
}

// eosPerClass calls fn for each priority or queue object under key of
// each port (the key of a class, after prefix, its number).
func eosPerClass(i map[string]any, key, prefix string, fn func(int, map[string]any)) {
	eachIndex(obj(i[key]), prefix, 7, func(q int, x any) { fn(q, obj(x)) })
}

func parseEOSPFC(out string, ports map[string]*check.Port) error {
	return eosWalk(out, "interfaces", ports, func(p *check.Port, i map[string]any) {
		eosPerClass(i, "priorities", "", func(pr int, x map[string]any) {
			fillAt(p.Counters, x, num, pr, field{"rxFrames", check.PFCRx}, field{"txFrames", check.PFCTx})
		})
	})
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
	objsByPort(ifs, ports, func(p *check.Port, i map[string]any) {
		eosPerClass(i, "txQueues", "", func(q int, x map[string]any) {
			fillAt(p.Counters, x, num, q, field{"stuckCount", check.WDStorms}, field{"recoveryCount", check.WDRestored})
		})
	})
	return nil
}

// parseEOSECN reads ECN-marked counts per queue; "-" (ECN not configured
// on the queue) leaves the queue's counter out.
func parseEOSECN(out string, ports map[string]*check.Port) error {
	return eosWalk(out, "intfQueueCounters", ports, func(p *check.Port, i map[string]any) {
		eachIndex(obj(i["queueCounters"]), "", 7, func(q int, x any) {
			if n, ok := num(x); ok {
				p.Counters[check.Key(check.QueueECN, q)] = n
			}
		})
	})
}

func parseEOSQueues(out string, ports map[string]*check.Port) error {
	top, err := decodeTop(out, "egressQueueCounters")
	if err != nil {
		return err
	}
	objsByPort(obj(top["interfaces"]), ports, func(p *check.Port, i map[string]any) {
		eosPerClass(obj(i["ucastQueues"]), "trafficClasses", "TC", func(q int, x map[string]any) {
			var bytes, drops uint64
			for _, dp := range obj(x["dropPrecedences"]) {
				b, _ := num(obj(dp)["enqueuedBytes"])
				dr, _ := num(obj(dp)["droppedPackets"])
				bytes += b
				drops += dr
			}
			p.Counters[check.Key(check.QueueTxBytes, q)] = bytes
			p.Counters[check.Key(check.QueueDrops, q)] = drops
		})
	})
	return nil
}
