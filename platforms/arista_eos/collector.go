package aristaeos

import (
	"github.com/fabricgen/fabricgen/check/readings"
	"github.com/fabricgen/fabricgen/internal/check/collect"
	"github.com/fabricgen/fabricgen/schema"
)

// collector reads Arista EOS through eAPI-shaped `| json` output and
// the running config for the QoS read-back.
type collector struct{}

// collectEosCommands are the EOS reads, each with the families it feeds and its
// parser.
var collectEosCommands = []collect.DeviceCommand{
	{Cmd: "show interfaces | json", Fams: []string{readings.Oper, readings.LinkFlaps, readings.RxBytes, readings.TxBytes}, Parse: collectParseEOSInterfaces},
	{Cmd: "show interfaces counters errors | json", Fams: []string{readings.FCSErrors, readings.RxErrors}, Parse: collectParseEOSErrors},
	{Cmd: "show interfaces phy detail | json", Fams: []string{readings.FECCorrected, readings.FECUncorrected, readings.PreFECBER}, Parse: collectParseEOSPhy},
	{Cmd: "show interfaces transceiver dom thresholds | json", Fams: collect.DOMFamilies(), Parse: collectParseEOSDOM},
	{Cmd: "show priority-flow-control counters detail | json", Fams: []string{readings.PFCRx, readings.PFCTx}, Parse: collectParseEOSPFC},
	{Cmd: "show priority-flow-control counters watchdog | json", Fams: []string{readings.WDStorms, readings.WDRestored}, Parse: collectParseEOSWatchdog},
	{Cmd: "show qos interfaces ecn counters queue | json", Fams: []string{readings.QueueECN}, Parse: collectParseEOSECN},
	{Cmd: "show interfaces counters queue detail | json", Fams: []string{readings.QueueTxBytes, readings.QueueDrops}, Parse: collectParseEOSQueues},
}

func (collector) Commands() []string {
	return collect.CommandList(collectEosCommands, "show running-config")
}

func (collector) Collect(r collect.Runner, dev *schema.Device) (*readings.Device, error) {
	return collect.CollectDevice(r, dev, collectEosCommands, read, "show running-config")
}

// collectEosWalk decodes EOS output and calls fn for each port in the object
// under key.
func collectEosWalk(out, key string, ports map[string]*readings.Port, fn func(*readings.Port, map[string]any)) error {
	ifs, err := collect.DecodeTop(out, key)
	if err != nil {
		return err
	}
	collect.ObjsByPort(ifs, ports, fn)
	return nil
}

func collectParseEOSInterfaces(out string, ports map[string]*readings.Port) error {
	return collectEosWalk(out, "interfaces", ports, func(p *readings.Port, i map[string]any) {
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
			p.Counters[readings.LinkFlaps] = n / 2
		}
		collect.Fill(p.Counters, c, collect.Num, collect.Field{Key: "inOctets", Fam: readings.RxBytes}, collect.Field{Key: "outOctets", Fam: readings.TxBytes})
	})
}

func collectParseEOSErrors(out string, ports map[string]*readings.Port) error {
	return collectEosWalk(out, "interfaceErrorCounters", ports, func(p *readings.Port, i map[string]any) {
		collect.Fill(p.Counters, i, collect.Num, collect.Field{Key: "fcsErrors", Fam: readings.FCSErrors}, collect.Field{Key: "inErrors", Fam: readings.RxErrors})
	})
}

func collectParseEOSPhy(out string, ports map[string]*readings.Port) error {
	return collectEosWalk(out, "interfacePhyStatuses", ports, func(p *readings.Port, i map[string]any) {
		st, _ := i["phyStatuses"].([]any)
		if len(st) == 0 {
			return
		}
		s := collect.Obj(st[0])
		fec := collect.Obj(s["fec"])
		if n, ok := collect.Num(collect.Obj(fec["correctedCodewords"])["value"]); ok {
			p.Counters[readings.FECCorrected] = n
		}
		if n, ok := collect.Num(collect.Obj(fec["uncorrectedCodewords"])["value"]); ok {
			p.Counters[readings.FECUncorrected] = n
		}
		if f, ok := collect.Flt(collect.Obj(s["preFecBer"])["value"]); ok {
			p.Gauges[readings.PreFECBER] = f
		}
	})
}

func collectParseEOSDOM(out string, ports map[string]*readings.Port) error {
	return collectEosWalk(out, "interfaces", ports, func(p *readings.Port, i map[string]any) {
		params := collect.Obj(i["parameters"])
		channels := func(param string) map[string]any { return collect.Obj(collect.Obj(params[param])["channels"]) }
		for _, l := range []collect.Field{{Key: "rxPower", Fam: readings.RxPower}, {Key: "txPower", Fam: readings.TxPower}} {
			collect.EachIndex(channels(l.Key), "", 63, func(lane int, x any) {
				if f, ok := collect.Flt(x); ok {
					p.Gauges[readings.Key(l.Fam, lane)] = f
				}
			})
		}
		for _, m := range []collect.Field{{Key: "temperature", Fam: readings.Temperature}, {Key: "voltage", Fam: readings.Voltage}} {
			for _, x := range channels(m.Key) {
				if f, ok := collect.Flt(x); ok {
					p.Gauges[m.Fam] = f
				}
			}
		}
		th := func(param string, fields ...collect.Field) {
			collect.Fill(p.Gauges, collect.Obj(collect.Obj(params[param])["threshold"]), collect.Flt, fields...)
		}
		th("rxPower", collect.Field{Key: "lowAlarm", Fam: readings.RxPowerLoAlarm}, collect.Field{Key: "lowWarn", Fam: readings.RxPowerLoWarn})
		th("txPower", collect.Field{Key: "lowAlarm", Fam: readings.TxPowerLoAlarm}, collect.Field{Key: "lowWarn", Fam: readings.TxPowerLoWarn},
			collect.Field{Key: "highWarn", Fam: readings.TxPowerHiWarn}, collect.Field{Key: "highAlarm", Fam: readings.TxPowerHiAlarm})
		th("temperature", collect.Field{Key: "highWarn", Fam: readings.TempHiWarn}, collect.Field{Key: "highAlarm", Fam: readings.TempHiAlarm})
		th("voltage", collect.Field{Key: "lowWarn", Fam: readings.VoltLoWarn}, collect.Field{Key: "highWarn", Fam: readings.VoltHiWarn})
	})
}

// collectEosPerClass calls fn for each priority or queue object under key of
// each port (the key of a class, after prefix, its number).
func collectEosPerClass(i map[string]any, key, prefix string, fn func(int, map[string]any)) {
	collect.EachIndex(collect.Obj(i[key]), prefix, 7, func(q int, x any) { fn(q, collect.Obj(x)) })
}

func collectParseEOSPFC(out string, ports map[string]*readings.Port) error {
	return collectEosWalk(out, "interfaces", ports, func(p *readings.Port, i map[string]any) {
		collectEosPerClass(i, "priorities", "", func(pr int, x map[string]any) {
			collect.FillAt(p.Counters, x, collect.Num, pr, collect.Field{Key: "rxFrames", Fam: readings.PFCRx}, collect.Field{Key: "txFrames", Fam: readings.PFCTx})
		})
	})
}

// collectParseEOSWatchdog reads the watchdog counters; an interface or queue
// EOS leaves out has had no event: its counters are 0 (the one place
// where absent means zero).
func collectParseEOSWatchdog(out string, ports map[string]*readings.Port) error {
	ifs, err := collect.DecodeTop(out, "interfaces")
	if err != nil {
		return err
	}
	for _, p := range ports {
		for q := 0; q < 8; q++ {
			p.Counters[readings.Key(readings.WDStorms, q)] = 0
			p.Counters[readings.Key(readings.WDRestored, q)] = 0
		}
	}
	collect.ObjsByPort(ifs, ports, func(p *readings.Port, i map[string]any) {
		collectEosPerClass(i, "txQueues", "", func(q int, x map[string]any) {
			collect.FillAt(p.Counters, x, collect.Num, q, collect.Field{Key: "stuckCount", Fam: readings.WDStorms}, collect.Field{Key: "recoveryCount", Fam: readings.WDRestored})
		})
	})
	return nil
}

// collectParseEOSECN reads ECN-marked counts per queue; "-" (ECN not configured
// on the queue) leaves the queue's counter out.
func collectParseEOSECN(out string, ports map[string]*readings.Port) error {
	return collectEosWalk(out, "intfQueueCounters", ports, func(p *readings.Port, i map[string]any) {
		collect.EachIndex(collect.Obj(i["queueCounters"]), "", 7, func(q int, x any) {
			if n, ok := collect.Num(x); ok {
				p.Counters[readings.Key(readings.QueueECN, q)] = n
			}
		})
	})
}

func collectParseEOSQueues(out string, ports map[string]*readings.Port) error {
	top, err := collect.DecodeTop(out, "egressQueueCounters")
	if err != nil {
		return err
	}
	collect.ObjsByPort(collect.Obj(top["interfaces"]), ports, func(p *readings.Port, i map[string]any) {
		collectEosPerClass(collect.Obj(i["ucastQueues"]), "trafficClasses", "TC", func(q int, x map[string]any) {
			var bytes, drops uint64
			for _, dp := range collect.Obj(x["dropPrecedences"]) {
				b, _ := collect.Num(collect.Obj(dp)["enqueuedBytes"])
				dr, _ := collect.Num(collect.Obj(dp)["droppedPackets"])
				bytes += b
				drops += dr
			}
			p.Counters[readings.Key(readings.QueueTxBytes, q)] = bytes
			p.Counters[readings.Key(readings.QueueDrops, q)] = drops
		})
	})
	return nil
}
