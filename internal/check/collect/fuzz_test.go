package collect

import (
	"testing"

	"github.com/fabricgen/fabricgen/check"
)

// ports is a port map for the parsers.
func fuzzPorts() map[string]*check.Port {
	return map[string]*check.Port{"Ethernet1": {Name: "Ethernet1", Counters: map[string]uint64{}, Gauges: map[string]float64{}},
		"et-0/0/0": {Name: "et-0/0/0", Counters: map[string]uint64{}, Gauges: map[string]float64{}},
		"swp1":     {Name: "swp1", Counters: map[string]uint64{}, Gauges: map[string]float64{}}}
}

func FuzzParseEOS(f *testing.F) {
	f.Add(`{"interfaces":{"Ethernet1":{"lineProtocolStatus":"up","bandwidth":400000000000,"lanes":8,"interfaceCounters":{"linkStatusChanges":2}}}}`)
	f.Add(`{"interfaces":{"Ethernet1":{"parameters":{"rxPower":{"channels":{"1":-3.5},"threshold":{"lowAlarm":-13.3}}}}}}`)
	f.Add(`{"egressQueueCounters":{"interfaces":{"Ethernet1":{"ucastQueues":{"trafficClasses":{"TC3":{"dropPrecedences":{"DP0":{"enqueuedBytes":5}}}}}}}}}`)
	f.Add(`{"intfQueueCounters":{"Ethernet1":{"queueCounters":{"3":"12","6":"-"}}}}`)
	f.Fuzz(func(t *testing.T, out string) {
		for _, c := range eosCommands {
			_ = c.parse(out, fuzzPorts())
		}
	})
}

func FuzzParseNXOS(f *testing.F) {
	f.Add(`{"TABLE_interface":{"ROW_interface":[{"interface":"Ethernet1","state":"up","eth_speed":"400 Gb/s","eth_crc":3}]}}`)
	f.Add(`{"TABLE_interface":{"ROW_interface":{"interface":"Ethernet1","TABLE_lane":{"ROW_lane":[{"lane_number":1,"rx_pwr":-3.2}]}}}}`)
	f.Add(`{"TABLE_queuing_interface":{"ROW_queuing_interface":[{"if_name_str":"Ethernet1","TABLE_pfc_stats":{"ROW_pfc_stats":[{"eq-pfc-cos":3,"eq-pfc-rx-ppp":1}]}}]}}`)
	f.Fuzz(func(t *testing.T, out string) {
		for _, c := range nxosCommands {
			_ = c.parse(out, fuzzPorts())
		}
	})
}

func FuzzParseJunos(f *testing.F) {
	f.Add(`{"interface-information":[{"physical-interface":[{"name":[{"data":"et-0/0/0"}],"oper-status":[{"data":"up"}],"speed":[{"data":"400Gbps"}]}]}]}`)
	f.Add(`{"interface-information":[{"physical-interface":[{"name":[{"data":"et-0/0/0"}],"optics-diagnostics":[{"optics-diagnostics-lane-values":[{"lane-index":[{"data":"0"}],"laser-rx-optical-power-dbm":[{"data":"-3.10"}]}]}]}]}]}`)
	f.Fuzz(func(t *testing.T, out string) {
		for _, c := range junosCommands {
			_ = c.parse(out, fuzzPorts())
		}
	})
}

func FuzzParseNVUE(f *testing.F) {
	f.Add(`{"swp1":{"link":{"state":"up","speed":"400G","stats":{"carrier-transitions":2}}}}`)
	f.Add(`{"rx-stats":{"rx-pfc-stats":{"pause-packets":1}},"tx-stats":{"tx-ecn-stats":{"ecn-marked-packets":2}}}`)
	f.Add(`{"channel":{"channel-1":{"rx-power":{"power":"0.5 mW / -3.00 dBm"}}},"temperature":{"temperature":"45.00 C"}}`)
	f.Add(`{"egress-queue-stats":{"3":{"tx-bytes":1024,"tx-uc-buffer-discards":0}},"pfc-stats":{"3":{"rx-pause-frames":7}}}`)
	f.Add(`{"identifier":"QSFP-DD","cable-type":"Passive copper cable","cable-length":"3m"}`)
	f.Fuzz(func(t *testing.T, out string) {
		p := fuzzPorts()["swp1"]
		_ = parseNVUEInterfaces(out, fuzzPorts())
		_ = parseNVUEQoSCounters(out, p)
		_ = parseNVUERoCE(out, p, 3, 3)
		_ = parseNVUETransceiver(out, p)
		_ = parseNVUEWatchdog(out, p)
	})
}

func FuzzParseSONiC(f *testing.F) {
	f.Add(`{'Ethernet1': 'oid:0x1000000000001'}`)
	f.Add(`{"COUNTERS:oid:0x1000000000001":{"type":"hash","value":{"SAI_PORT_STAT_PFC_3_RX_PKTS":"5"}}}`)
	f.Add(`{"Ethernet1":{"UC3":{"totalbytes":"1,024","droppacket":"0"}}}`)
	f.Fuzz(func(t *testing.T, out string) {
		ports := fuzzPorts()
		oids, _ := parsePyDict(out)
		_ = parseSONiCCounters(out, ports, map[string]string{"Ethernet1": "oid:0x1000000000001"}, map[string]string{"Ethernet1:3": "oid:0x1"})
		_ = parseSONiCRates(out, ports, oids)
		_ = parseSONiCDOM(out, ports)
		_ = parseSONiCPortTable(out, ports)
		_ = parseSONiCQueueCounters(out, ports)
	})
}

func FuzzParseHost(f *testing.F) {
	f.Add("NIC statistics:\n     rx_crc_errors_phy: 4\n     rx_prio3_bytes: 100\n")
	f.Add("\tRcvr signal avg optical power(Channel 1)  : 0.4467 mW / -3.50 dBm\n\tLaser rx power low alarm threshold : 0.0468 mW / -13.30 dBm\n")
	f.Add(`[{"ifname":"mlx5_0","port":1,"np_cnp_sent":3}]`)
	f.Add(`{"dscp_prio":[[26,3],[48,6]]}`)
	f.Add("[ 1.0] infiniband mlx5_0: dump_cqe:272:(pid 4200): dump error cqe\n[ 1.0] 00000030: 00 00 00 00 00 00 68 12 0a 00 02 a0 00 00 00 d1\n")
	f.Fuzz(func(t *testing.T, out string) {
		p := fuzzPorts()["swp1"]
		_, _ = parseRDMALinks(out)
		_ = parseEthtoolSettings(out, p)
		_ = parseEthtoolStats(out, p)
		_ = parseEthtoolModule(out, p)
		_ = parseEthtoolFEC(out, p)
		_ = parseRDMAStat(out, p)
		_, _ = parseRDMAQPs(out, "swp1")
		q := &check.QoS{}
		_ = parseDCBApp(out, q)
		_ = parseDCBPFC(out, q)
		_ = parseCQEDumps(out)
	})
}

func TestParseCQEDump(t *testing.T) {
	got := parseCQEDumps("[    1.000000] infiniband mlx5_0: dump_cqe:272:(pid 4200): dump error cqe\n" +
		"[    1.000000] 00000000: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n" +
		"[    1.000000] 00000030: 00 00 00 00 00 00 68 12 0a 00 02 a0 00 00 00 d1\n")
	if got[0x2a0] != "0x12" {
		t.Errorf("parseCQEDumps = %v, want QP 0x2a0 syndrome 0x12", got)
	}
}
