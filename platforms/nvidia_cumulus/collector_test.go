package nvidiacumulus

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

func FuzzParseNVUE(f *testing.F) {
	f.Add(`{"swp1":{"link":{"state":"up","speed":"400G","stats":{"carrier-transitions":2}}}}`)
	f.Add(`{"rx-stats":{"rx-pfc-stats":{"pause-packets":1}},"tx-stats":{"tx-ecn-stats":{"ecn-marked-packets":2}}}`)
	f.Add(`{"channel":{"channel-1":{"rx-power":{"power":"0.5 mW / -3.00 dBm"}}},"temperature":{"temperature":"45.00 C"}}`)
	f.Add(`{"egress-queue-stats":{"3":{"tx-bytes":1024,"tx-uc-buffer-discards":0}},"pfc-stats":{"3":{"rx-pause-frames":7}}}`)
	f.Add(`{"identifier":"QSFP-DD","cable-type":"Passive copper cable","cable-length":"3m"}`)
	f.Fuzz(func(t *testing.T, out string) {
		p := collectFuzzPorts()["swp1"]
		_ = collectParseNVUEInterfaces(out, collectFuzzPorts())
		_ = collectParseNVUEQoSCounters(out, p)
		_ = collectParseNVUERoCE(out, p, 3, 3)
		_ = collectParseNVUETransceiver(out, p)
		_ = collectParseNVUEWatchdog(out, p)
	})
}
