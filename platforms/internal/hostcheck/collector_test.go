package hostcheck

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

func FuzzParseHost(f *testing.F) {
	f.Add("NIC statistics:\n     rx_crc_errors_phy: 4\n     rx_prio3_bytes: 100\n")
	f.Add("\tRcvr signal avg optical power(Channel 1)  : 0.4467 mW / -3.50 dBm\n\tLaser rx power low alarm threshold : 0.0468 mW / -13.30 dBm\n")
	f.Add(`[{"ifname":"mlx5_0","port":1,"np_cnp_sent":3}]`)
	f.Add(`{"dscp_prio":[[26,3],[48,6]]}`)
	f.Add("[ 1.0] infiniband mlx5_0: dump_cqe:272:(pid 4200): dump error cqe\n[ 1.0] 00000030: 00 00 00 00 00 00 68 12 0a 00 02 a0 00 00 00 d1\n")
	f.Fuzz(func(t *testing.T, out string) {
		p := collectFuzzPorts()["swp1"]
		_, _ = collectParseRDMALinks(out)
		_ = collectParseEthtoolSettings(out, p)
		_ = collectParseEthtoolStats(out, p)
		_ = collectParseEthtoolModule(out, p)
		_ = collectParseEthtoolFEC(out, p)
		_ = collectParseRDMAStat(out, p)
		_, _ = collectParseRDMAQPs(out, "swp1")
		q := &readings.QoS{}
		_ = collectParseDCBApp(out, q)
		_ = collectParseDCBPFC(out, q)
		_ = collectParseCQEDumps(out)
	})
}

func TestParseCQEDump(t *testing.T) {
	got := collectParseCQEDumps("[    1.000000] infiniband mlx5_0: dump_cqe:272:(pid 4200): dump error cqe\n" +
		"[    1.000000] 00000000: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n" +
		"[    1.000000] 00000030: 00 00 00 00 00 00 68 12 0a 00 02 a0 00 00 00 d1\n")
	if got[0x2a0] != "0x12" {
		t.Errorf("parseCQEDumps = %v, want QP 0x2a0 syndrome 0x12", got)
	}
}
