package aristaeos

import (
	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/internal/check/collect"
	"github.com/fabricgen/fabricgen/schema"
)

// collector reads Arista EOS through eAPI-shaped `| json` output and
// the running config for the QoS read-back.
type collector struct{}

// collectEosCommands are the EOS reads, each with the families it feeds and its
// parser.
var collectEosCommands = []collect.DeviceCommand{
	{Cmd: "show interfaces | json", Fams: []string{check.Oper, check.LinkFlaps, check.RxBytes, check.TxBytes}, Parse: collectParseEOSInterfaces},
	{Cmd: "show interfaces counters errors | json", Fams: []string{check.FCSErrors, check.RxErrors}, Parse: collectParseEOSErrors},
	{Cmd: "show interfaces phy detail | json", Fams: []string{check.FECCorrected, check.FECUncorrected, check.PreFECBER}, Parse: collectParseEOSPhy},
	{Cmd: "show interfaces transceiver dom thresholds | json", Fams: collect.DOMFamilies(), Parse: collectParseEOSDOM},
	{Cmd: "show priority-flow-control counters detail | json", Fams: []string{check.PFCRx, check.PFCTx}, Parse: collectParseEOSPFC},
	{Cmd: "show priority-flow-control counters watchdog | json", Fams: []string{check.WDStorms, check.WDRestored}, Parse: collectParseEOSWatchdog},
	{Cmd: "show qos interfaces ecn counters queue | json", Fams: []string{check.QueueECN}, Parse: collectParseEOSECN},
	{Cmd: "show interfaces counters queue detail | json", Fams: []string{check.QueueTxBytes, check.QueueDrops}, Parse: collectParseEOSQueues},
}

func (collector) Commands() []string {
	return collect.CommandList(collectEosCommands, "show running-config")
}

func (collector) Collect(r collect.Runner, dev *schema.Device) (*check.Device, error) {
	return collect.CollectDevice(r, dev, collectEosCommands, read, "show running-config")
}

// collectEosWalk decodes EOS output and calls fn for each port in the object
// under key.
func collectEosWalk(out, key string, ports map[string]*check.Port, fn func(*check.Port, map[string]any)) error {
	ifs, err := collect.DecodeTop(out, key)
	if err != nil {
		return err
	}
	collect.ObjsByPort(ifs, ports, fn)
	return nil
}

func collectParseEOSInterfaces(out string, ports map[string]*check.Port) error {
	return collectEosWalk(out, "interfaces", ports, func(p *check.Port, i map[string]any) {
		if s, ok := i["lineProtocolStatus"].(string); ok {
			p.Oper = collect.UpDown(s == "up")
		}
		if b, ok := collect.Num(i["bandwidth"]); ok {
			p.Speed = int64(b)
		}
		if l, ok := collect.Num(i["lanes"]); ok && l < 64 {
			p.Lanes = int(l)
		}
		c := collect.Obj(i["interfaceCounters"])
		if n, ok := collect.Num(c["linkStatusChanges"]); ok {
			// Each flap is two status changes (down, up).
			p.Counters[check.LinkFlaps] = n / 2
		}
		collect.Fill(p.Counters, c, collect.Num, collect.Field{Key: "inOctets", Fam: check.RxBytes}, collect.Field{Key: "outOctets", Fam: check.TxBytes})
	})
}

func collectParseEOSErrors(out string, ports map[string]*check.Port) error {
	return collectEosWalk(out, "interfaceErrorCounters", ports, func(p *check.Port, i map[string]any) {
		collect.Fill(p.Counters, i, collect.Num, collect.Field{Key: "fcsErrors", Fam: check.FCSErrors}, collect.Field{Key: "inErrors", Fam: check.RxErrors})
	})
}

func collectParseEOSPhy(out string, ports map[string]*check.Port) error {
	return collectEosWalk(out, "interfacePhyStatuses", ports, func(p *check.Port, i map[string]any) {
		st, _ := i["phyStatuses"].([]any)
		if len(st) == 0 {
			return
		}
		s := collect.Obj(st[0])
		fec := collect.Obj(s["fec"])
		if n, ok := collect.Num(collect.Obj(fec["correctedCodewords"])["value"]); ok {
			p.Counters[check.FECCorrected] = n
		}
		if n, ok := collect.Num(collect.Obj(fec["uncorrectedCodewords"])["value"]); ok {
			p.Counters[check.FECUncorrected] = n
		}
		if f, ok := collect.Flt(collect.Obj(s["preFecBer"])["value"]); ok {
			p.Gauges[check.PreFECBER] = f
		}
	})
}

func collectParseEOSDOM(out string, ports map[string]*check.Port) error {
	return collectEosWalk(out, "interfaces", ports, func(p *check.Port, i map[string]any) {
		params := collect.Obj(i["parameters"])
		channels := func(param string) map[string]any { return collect.Obj(collect.Obj(params[param])["channels"]) }
		for _, l := range []collect.Field{{Key: "rxPower", Fam: check.RxPower}, {Key: "txPower", Fam: check.TxPower}} {
			collect.EachIndex(channels(l.Key), "", 63, func(lane int, x any) {
				if f, ok := collect.Flt(x); ok {
					p.Gauges[check.Key(l.Fam, lane)] = f
				}
			})
		}
		for _, m := range []collect.Field{{Key: "temperature", Fam: check.Temperature}, {Key: "voltage", Fam: check.Voltage}} {
			for _, x := range channels(m.Key) {
				if f, ok := collect.Flt(x); ok {
					p.Gauges[m.Fam] = f
				}
			}
		}
		th := func(param string, fields ...collect.Field) {
			collect.Fill(p.Gauges, collect.Obj(collect.Obj(params[param])["threshold"]), collect.Flt, fields...)
		}
		th("rxPower", collect.Field{Key: "lowAlarm", Fam: check.RxPowerLoAlarm}, collect.Field{Key: "lowWarn", Fam: check.RxPowerLoWarn})
		th("txPower", collect.Field{Key: "lowAlarm", Fam: check.TxPowerLoAlarm}, collect.Field{Key: "lowWarn", Fam: check.TxPowerLoWarn},
			collect.Field{Key: "highWarn", Fam: check.TxPowerHiWarn}, collect.Field{Key: "highAlarm", Fam: check.TxPowerHiAlarm})
		th("temperature", collect.Field{Key: "highWarn", Fam: check.TempHiWarn}, collect.Field{Key: "highAlarm", Fam: check.TempHiAlarm})
		th("voltage", collect.Field{Key: "lowWarn", Fam: check.VoltLoWarn}, collect.Field{Key: "highWarn", Fam: check.VoltHiWarn})
	})
}

// collectEosPerClass calls fn for each priority or queue object under key of
// each port (the key of a class, after prefix, its number).
func collectEosPerClass(i map[string]any, key, prefix string, fn func(int, map[string]any)) {
	collect.EachIndex(collect.Obj(i[key]), prefix, 7, func(q int, x any) { fn(q, collect.Obj(x)) })
}

func collectParseEOSPFC(out string, ports map[string]*check.Port) error {
	return collectEosWalk(out, "interfaces", ports, func(p *check.Port, i map[string]any) {
		collectEosPerClass(i, "priorities", "", func(pr int, x map[string]any) {
			collect.FillAt(p.Counters, x, collect.Num, pr, collect.Field{Key: "rxFrames", Fam: check.PFCRx}, collect.Field{Key: "txFrames", Fam: check.PFCTx})
		})
	})
}

// collectParseEOSWatchdog reads the watchdog counters; an interface or queue
// EOS leaves out has had no event: its counters are 0 (the one place
// where absent means zero).
func collectParseEOSWatchdog(out string, ports map[string]*check.Port) error {
	ifs, err := collect.DecodeTop(out, "interfaces")
	if err != nil {
		return err
	}
	for _, p := range ports {
		for q := 0; q < 8; q++ {
			p.Counters[check.Key(check.WDStorms, q)] = 0
			p.Counters[check.Key(check.WDRestored, q)] = 0
		}
	}
	collect.ObjsByPort(ifs, ports, func(p *check.Port, i map[string]any) {
		collectEosPerClass(i, "txQueues", "", func(q int, x map[string]any) {
			collect.FillAt(p.Counters, x, collect.Num, q, collect.Field{Key: "stuckCount", Fam: check.WDStorms}, collect.Field{Key: "recoveryCount", Fam: check.WDRestored})
		})
	})
	return nil
}

// collectParseEOSECN reads ECN-marked counts per queue; "-" (ECN not configured
// on the queue) leaves the queue's counter out.
func collectParseEOSECN(out string, ports map[string]*check.Port) error {
	return collectEosWalk(out, "intfQueueCounters", ports, func(p *check.Port, i map[string]any) {
		collect.EachIndex(collect.Obj(i["queueCounters"]), "", 7, func(q int, x any) {
			if n, ok := collect.Num(x); ok {
				p.Counters[check.Key(check.QueueECN, q)] = n
			}
		})
	})
}

func collectParseEOSQueues(out string, ports map[string]*check.Port) error {
	top, err := collect.DecodeTop(out, "egressQueueCounters")
	if err != nil {
		return err
	}
	collect.ObjsByPort(collect.Obj(top["interfaces"]), ports, func(p *check.Port, i map[string]any) {
		collectEosPerClass(collect.Obj(i["ucastQueues"]), "trafficClasses", "TC", func(q int, x map[string]any) {
			var bytes, drops uint64
			for _, dp := range collect.Obj(x["dropPrecedences"]) {
				b, _ := collect.Num(collect.Obj(dp)["enqueuedBytes"])
				dr, _ := collect.Num(collect.Obj(dp)["droppedPackets"])
				bytes += b
				drops += dr
			}
			p.Counters[check.Key(check.QueueTxBytes, q)] = bytes
			p.Counters[check.Key(check.QueueDrops, q)] = drops
		})
	})
	return nil
}
