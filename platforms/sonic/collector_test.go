package sonic

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

func FuzzParseSONiC(f *testing.F) {
	f.Add(`{'Ethernet1': 'oid:0x1000000000001'}`)
	f.Add(`{"COUNTERS:oid:0x1000000000001":{"type":"hash","value":{"SAI_PORT_STAT_PFC_3_RX_PKTS":"5"}}}`)
	f.Add(`{"Ethernet1":{"UC3":{"totalbytes":"1,024","droppacket":"0"}}}`)
	f.Fuzz(func(t *testing.T, out string) {
		ports := collectFuzzPorts()
		oids, _ := collectParsePyDict(out)
		_ = collectParseSONiCCounters(out, ports, map[string]string{"Ethernet1": "oid:0x1000000000001"}, map[string]string{"Ethernet1:3": "oid:0x1"})
		_ = collectParseSONiCRates(out, ports, oids)
		_ = collectParseSONiCDOM(out, ports)
		_ = collectParseSONiCPortTable(out, ports)
		_ = collectParseSONiCQueueCounters(out, ports)
	})
}
