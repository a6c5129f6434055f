package aristaeos

import (
	"testing"

	"github.com/fabricgen/fabricgen/check/readings"
)

// collectFuzzPorts is a port map for the parsers.
func collectFuzzPorts() map[string]*readings.Port {
	return map[string]*readings.Port{"Ethernet1": {Name: "Ethernet1", Counters: map[string]uint64{}, Gauges: map[string]float64{}},
		"et-0/0/0": {Name: "et-0/0/0", Counters: map[string]uint64{}, Gauges: map[string]float64{}},
		"swp1":     {Name: "swp1", Counters: map[string]uint64{}, Gauges: map[string]float64{}}}
}

func FuzzParseEOS(f *testing.F) {
	f.Add(`{"interfaces":{"Ethernet1":{"lineProtocolStatus":"up","bandwidth":400000000000,"lanes":8,"interfaceCounters":{"linkStatusChanges":2}}}}`)
	f.Add(`{"interfaces":{"Ethernet1":{"parameters":{"rxPower":{"channels":{"1":-3.5},"threshold":{"lowAlarm":-13.3}}}}}}`)
	f.Add(`{"egressQueueCounters":{"interfaces":{"Ethernet1":{"ucastQueues":{"trafficClasses":{"TC3":{"dropPrecedences":{"DP0":{"enqueuedBytes":5}}}}}}}}}`)
	f.Add(`{"intfQueueCounters":{"Ethernet1":{"queueCounters":{"3":"12","6":"-"}}}}`)
	f.Fuzz(func(t *testing.T, out string) {
		for _, c := range collectEosCommands {
			_ = c.Parse(out, collectFuzzPorts())
		}
	})
}
