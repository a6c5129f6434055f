package cisconxos

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

func FuzzParseNXOS(f *testing.F) {
	f.Add(`{"TABLE_interface":{"ROW_interface":[{"interface":"Ethernet1","state":"up","eth_speed":"400 Gb/s","eth_crc":3}]}}`)
	f.Add(`{"TABLE_interface":{"ROW_interface":{"interface":"Ethernet1","TABLE_lane":{"ROW_lane":[{"lane_number":1,"rx_pwr":-3.2}]}}}}`)
	f.Add(`{"TABLE_queuing_interface":{"ROW_queuing_interface":[{"if_name_str":"Ethernet1","TABLE_pfc_stats":{"ROW_pfc_stats":[{"eq-pfc-cos":3,"eq-pfc-rx-ppp":1}]}}]}}`)
	f.Fuzz(func(t *testing.T, out string) {
		for _, c := range collectNxosCommands {
			_ = c.Parse(out, collectFuzzPorts())
		}
	})
}
