package juniperjunos

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

func FuzzParseJunos(f *testing.F) {
	f.Add(`{"interface-information":[{"physical-interface":[{"name":[{"data":"et-0/0/0"}],"oper-status":[{"data":"up"}],"speed":[{"data":"400Gbps"}]}]}]}`)
	f.Add(`{"interface-information":[{"physical-interface":[{"name":[{"data":"et-0/0/0"}],"optics-diagnostics":[{"optics-diagnostics-lane-values":[{"lane-index":[{"data":"0"}],"laser-rx-optical-power-dbm":[{"data":"-3.10"}]}]}]}]}]}`)
	f.Fuzz(func(t *testing.T, out string) {
		for _, c := range collectJunosCommands {
			_ = c.Parse(out, collectFuzzPorts())
		}
	})
}
