package hostcheck

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/platforms/internal/lldp"
)

// Exec answers the host commands fabricgen check runs (all read-only):
//
//	ethtool IF                      link settings (Speed, Lanes, Link detected)
//	ethtool -S IF                   mlx5 statistics ("name: value")
//	ethtool -m IF                   module EEPROM diagnostics with thresholds
//	ethtool -I --show-fec IF        FEC mode and block counters
//	rdma -j link show               RDMA devices and their netdevs
//	rdma -j statistic show link D/1 RDMA hardware counters
//	rdma -j resource show qp link D/1  queue pairs
//	dcb -j app show dev IF          DSCP to priority
//	dcb -j pfc show dev IF          PFC enables
//	dmesg                           kernel log (mlx5 error CQE dumps)
//	lldpctl -f json                 LLDP neighbours, for import (lldp.go)
func Exec(v *dataplane.DeviceView, argv []string) (string, string, int, bool) {
	args := argv[1:]
	switch argv[0] {
	case "lldpctl":
		return lldp.ExecLLDPD(v, argv)
	case "ethtool":
		return answerHostEthtool(v, args)
	case "rdma":
		return answerHostRDMA(v, args)
	case "dcb":
		if len(args) >= 5 && args[0] == "-j" && args[2] == "show" && args[3] == "dev" {
			return answerHostDCB(v, args[1], args[4])
		}
	case "dmesg":
		if len(args) == 0 {
			return answerHostDmesg(v), "", 0, true
		}
	}
	return "", "", 0, false
}

func answerNoDevice(name string) (string, string, int, bool) {
	return "", "netlink error: no device matches name (offset 24)\nnetlink error: No such device\n", 1, true
}

func answerHostEthtool(v *dataplane.DeviceView, args []string) (string, string, int, bool) {
	var opt, dev string
	switch {
	case len(args) == 1 && !strings.HasPrefix(args[0], "-"):
		opt, dev = "", args[0]
	case len(args) == 2 && (args[0] == "-S" || args[0] == "--statistics" || args[0] == "-m" || args[0] == "--module-info" || args[0] == "--dump-module-eeprom"):
		opt, dev = args[0], args[1]
	case len(args) == 3 && (args[0] == "-I" || args[0] == "--include-statistics") && args[1] == "--show-fec":
		opt, dev = "--show-fec", args[2]
	default:
		return "", "", 0, false
	}
	p, ok := v.Port(dev)
	if !ok {
		return answerNoDevice(dev)
	}
	switch opt {
	case "":
		return answerEthtoolSettings(&p), "", 0, true
	case "-S", "--statistics":
		return answerEthtoolStats(&p), "", 0, true
	case "--show-fec":
		fec := map[string]string{"rs": "RS", "fc": "BaseR", "none": "Off"}[p.FEC]
		return fmt.Sprintf("FEC parameters for %s:\nSupported/Configured FEC encodings: Auto %s\nActive FEC encoding: %s\nStatistics:\n  corrected_blocks: %d\n  uncorrectable_blocks: %d\n",
			dev, fec, fec, p.C(dataplane.FECCorrected), p.C(dataplane.FECUncorrected)), "", 0, true
	}
	return answerEthtoolModule(&p), "", 0, true
}

func answerEthtoolSettings(p *dataplane.PortView) string {
	link := "yes"
	if !p.Up {
		link = "no"
	}
	port := "FIBRE"
	if p.Copper {
		port = "Direct Attach Copper"
	}
	return fmt.Sprintf("Settings for %s:\n\tSupported ports: [ FIBRE ]\n\tSupported FEC modes: None RS\n\tSpeed: %dMb/s\n\tLanes: %d\n\tDuplex: Full\n\tAuto-negotiation: off\n\tPort: %s\n\tPHYAD: 0\n\tTransceiver: internal\n\tSupports Wake-on: d\n\tWake-on: d\n\tLink detected: %s\n",
		p.Name, p.Speed/1e6, p.Lanes, port, link)
}

// answerEthtoolStats prints the mlx5 counters check reads, with the names of
// the Linux kernel's mlx5 counters documentation.
func answerEthtoolStats(p *dataplane.PortView) string {
	var b strings.Builder
	b.WriteString("NIC statistics:\n")
	kv := func(k string, val uint64) { fmt.Fprintf(&b, "     %s: %d\n", k, val) }
	kv("rx_packets_phy", p.C(dataplane.RxPackets))
	kv("tx_packets_phy", p.C(dataplane.TxPackets))
	kv("rx_bytes_phy", p.C(dataplane.RxBytes))
	kv("tx_bytes_phy", p.C(dataplane.TxBytes))
	kv("rx_crc_errors_phy", p.C(dataplane.FCSErrors))
	kv("rx_symbol_err_phy", p.C(dataplane.SymbolErrors))
	kv("rx_corrected_bits_phy", p.C(dataplane.FECCorrected))
	kv("rx_bits_phy", p.C(dataplane.RxBytes)*8)
	kv("link_down_events_phy", p.C(dataplane.LinkDown))
	kv("rx_discards_phy", dataplane.Sum8(p, dataplane.PrioRxDiscards))
	for i := 0; i < 8; i++ {
		m := dataplane.Metric(i)
		kv(fmt.Sprintf("rx_prio%d_bytes", i), p.C(dataplane.PrioRxBytes+m))
		kv(fmt.Sprintf("rx_prio%d_packets", i), p.C(dataplane.PrioRxPackets+m))
		kv(fmt.Sprintf("rx_prio%d_discards", i), p.C(dataplane.PrioRxDiscards+m))
		kv(fmt.Sprintf("tx_prio%d_bytes", i), p.C(dataplane.PrioTxBytes+m))
		kv(fmt.Sprintf("tx_prio%d_packets", i), p.C(dataplane.PrioTxPackets+m))
		kv(fmt.Sprintf("rx_prio%d_pause", i), p.C(dataplane.PFCRxFrames+m))
		kv(fmt.Sprintf("rx_prio%d_pause_duration", i), p.C(dataplane.PFCRxPauseUS+m))
		kv(fmt.Sprintf("tx_prio%d_pause", i), p.C(dataplane.PFCTxFrames+m))
		kv(fmt.Sprintf("tx_prio%d_pause_duration", i), p.C(dataplane.PFCTxPauseUS+m))
	}
	kv("tx_pause_storm_warning_events", p.C(dataplane.StormWarn))
	kv("tx_pause_storm_error_events", p.C(dataplane.StormErr))
	return b.String()
}

// answerEthtoolModule prints `ethtool -m` of a QSFP module: SFF-8636 style
// lines (ethtool's qsfp.c / sff-common.c), per channel and with the
// module's alarm and warning thresholds. A passive copper cable
// identifies itself (transmitter technology, copper length) and has no
// diagnostics.
func answerEthtoolModule(p *dataplane.PortView) string {
	var b strings.Builder
	line := func(k, val string) { fmt.Fprintf(&b, "\t%-41s : %s\n", k, val) }
	pw := func(dbm float64) string { return fmt.Sprintf("%.4f mW / %.2f dBm", dataplane.MilliWatts(dbm), dbm) }
	line("Identifier", "0x18 (QSFP-DD Double Density 8X Pluggable Transceiver)")
	if p.Copper {
		line("Transmitter technology", "0xa0 (Copper cable unequalized)")
		line("Length (Copper or Active cable)", fmt.Sprintf("%.0fm", max(1, p.CableLength)))
		line("Vendor name", "FABRICGEN-LAB")
		line("Vendor PN", fmt.Sprintf("LAB-%dG-CU", p.Speed/1e9))
		return b.String()
	}
	line("Vendor name", "FABRICGEN-LAB")
	line("Vendor PN", "LAB-400G-DR4")
	line("Vendor SN", fmt.Sprintf("LAB%08X", len(p.Name)*7919+int(p.Speed/1e9)))
	line("Module temperature", fmt.Sprintf("%.2f degrees C / %.2f degrees F", p.Temp, p.Temp*9/5+32))
	line("Module voltage", fmt.Sprintf("%.4f V", p.Vcc))
	for i, tx := range p.TxPower {
		line(fmt.Sprintf("Transmit avg optical power (Channel %d)", i+1), pw(tx))
	}
	for i, rx := range p.RxPower {
		line(fmt.Sprintf("Rcvr signal avg optical power(Channel %d)", i+1), pw(rx))
	}
	line("Module temperature high alarm threshold", fmt.Sprintf("%.2f degrees C / %.2f degrees F", dataplane.TempHighAlarm, dataplane.TempHighAlarm*9/5+32))
	line("Module temperature low alarm threshold", fmt.Sprintf("%.2f degrees C / %.2f degrees F", dataplane.TempLowAlarm, dataplane.TempLowAlarm*9/5+32))
	line("Module temperature high warning threshold", fmt.Sprintf("%.2f degrees C / %.2f degrees F", dataplane.TempHighWarn, dataplane.TempHighWarn*9/5+32))
	line("Module temperature low warning threshold", fmt.Sprintf("%.2f degrees C / %.2f degrees F", dataplane.TempLowWarn, dataplane.TempLowWarn*9/5+32))
	line("Module voltage high alarm threshold", fmt.Sprintf("%.4f V", dataplane.VccHighAlarm))
	line("Module voltage low alarm threshold", fmt.Sprintf("%.4f V", dataplane.VccLowAlarm))
	line("Module voltage high warning threshold", fmt.Sprintf("%.4f V", dataplane.VccHighWarn))
	line("Module voltage low warning threshold", fmt.Sprintf("%.4f V", dataplane.VccLowWarn))
	line("Laser output power high alarm threshold", pw(dataplane.TxHighAlarm))
	line("Laser output power low alarm threshold", pw(dataplane.TxLowAlarm))
	line("Laser output power high warning threshold", pw(dataplane.TxHighWarn))
	line("Laser output power low warning threshold", pw(dataplane.TxLowWarn))
	line("Laser rx power high alarm threshold", pw(dataplane.RxHighAlarm))
	line("Laser rx power low alarm threshold", pw(dataplane.RxLowAlarm))
	line("Laser rx power high warning threshold", pw(dataplane.RxHighWarn))
	line("Laser rx power low warning threshold", pw(dataplane.RxLowWarn))
	return b.String()
}

// answerHostRDMA answers rdma -j link show, statistic show link and resource
// show qp link (iproute2 rdma(8) JSON: one object per link or QP).
func answerHostRDMA(v *dataplane.DeviceView, args []string) (string, string, int, bool) {
	if len(args) == 0 || args[0] != "-j" {
		return "", "", 0, false
	}
	args = args[1:]
	ports := v.Ports()
	byRDMA := func(link string) (dataplane.PortView, dataplane.NIC, bool) {
		dev, _, _ := strings.Cut(link, "/")
		for _, p := range ports {
			if n := v.NIC(p.Name); n.RDMA == dev {
				return p, n, true
			}
		}
		return dataplane.PortView{}, dataplane.NIC{}, false
	}
	switch {
	case len(args) == 2 && args[0] == "link" && args[1] == "show":
		var out []map[string]any
		for i, p := range ports {
			n := v.NIC(p.Name)
			state, phys := "ACTIVE", "LINK_UP"
			if !p.Up {
				state, phys = "DOWN", "DISABLED"
			}
			out = append(out, map[string]any{"ifindex": i, "ifname": n.RDMA, "port": 1, "state": state, "physical_state": phys, "netdev": p.Name, "netdev_index": i + 2})
		}
		return dataplane.JSONText(out), "", 0, true
	case len(args) == 4 && args[0] == "statistic" && args[1] == "show" && args[2] == "link":
		p, n, ok := byRDMA(args[3])
		if !ok {
			return "", "Wrong device name\n", 1, true
		}
		c := map[string]any{"ifindex": 0, "ifname": n.RDMA, "port": 1,
			"rx_write_requests": p.C(dataplane.RxWriteRequests), "rx_read_requests": 0, "rx_atomic_requests": 0,
			"out_of_buffer": 0, "out_of_sequence": p.C(dataplane.OutOfSequence), "duplicate_request": 0,
			"rnr_nak_retry_err": 0, "packet_seq_err": p.C(dataplane.PacketSeqErr), "implied_nak_seq_err": 0,
			"local_ack_timeout_err": p.C(dataplane.LocalAckTimeout), "resp_local_length_error": 0,
			"req_transport_retries_exceeded": 0, "rp_cnp_ignored": p.C(dataplane.RPCNPIgnored), "rp_cnp_handled": p.C(dataplane.RPCNPHandled),
			"np_ecn_marked_roce_packets": p.C(dataplane.NPECNMarked), "np_cnp_sent": p.C(dataplane.NPCNPSent)}
		return dataplane.JSONText([]any{c}), "", 0, true
	case len(args) == 5 && args[0] == "resource" && args[1] == "show" && args[2] == "qp" && args[3] == "link":
		_, n, ok := byRDMA(args[4])
		if !ok {
			return "", "Wrong device name\n", 1, true
		}
		out := []map[string]any{}
		for _, q := range v.QPs() {
			if q.RDMA != n.RDMA {
				continue
			}
			out = append(out, map[string]any{"ifindex": 0, "ifname": q.RDMA, "port": 1, "lqpn": q.LQPN, "rqpn": q.RQPN, "type": q.Type,
				"state": q.State, "rq-psn": 0x1f2e3d, "sq-psn": 0x4c5b6a, "path-mig-state": "MIGRATED", "pdn": 3, "pid": q.PID, "comm": q.Comm})
		}
		return dataplane.JSONText(out), "", 0, true
	}
	return "", "", 0, false
}

// answerHostDCB answers dcb -j app|pfc show dev IF (iproute2 dcb(8) JSON:
// dscp_prio as [DSCP, PRIO] pairs; prio_pfc as eight booleans).
func answerHostDCB(v *dataplane.DeviceView, obj, dev string) (string, string, int, bool) {
	if _, ok := v.Port(dev); !ok {
		return "", fmt.Sprintf("Cannot find device \"%s\"\n", dev), 1, true
	}
	n := v.NIC(dev)
	switch obj {
	case "app":
		pairs := [][2]int{}
		for d := 0; d < 64; d++ {
			if pr, ok := n.DSCP[d]; ok {
				pairs = append(pairs, [2]int{d, pr})
			}
		}
		return dataplane.JSONText(map[string]any{"dscp_prio": pairs}), "", 0, true
	case "pfc":
		return dataplane.JSONText(map[string]any{"pfc_cap": 8, "macsec_bypass": false, "delay": 4096, "prio_pfc": n.PFC}), "", 0, true
	}
	return "", "", 0, false
}

// answerHostDmesg prints the mlx5 error CQE dump of each queue pair in error:
// the driver's "dump error cqe" line and the 64-byte CQE in hex, 16
// bytes a line (print_hex_dump, one byte a group), where byte 55 is the syndrome and bytes
// 57–59 the QP number.
func answerHostDmesg(v *dataplane.DeviceView) string {
	var b strings.Builder
	t := v.Now().Seconds()
	for _, q := range v.QPs() {
		if q.Syndrome == "" {
			continue
		}
		syn, err := strconv.ParseUint(strings.TrimPrefix(q.Syndrome, "0x"), 16, 8)
		if err != nil {
			continue
		}
		var cqe [64]byte
		cqe[54] = 0x68
		cqe[55] = byte(syn)
		cqe[56] = 0x0a
		cqe[57], cqe[58], cqe[59] = byte(q.LQPN>>16), byte(q.LQPN>>8), byte(q.LQPN)
		cqe[63] = 0xd1
		fmt.Fprintf(&b, "[%12.6f] infiniband %s: dump_cqe:272:(pid %d): dump error cqe\n", t, q.RDMA, q.PID)
		for off := 0; off < 64; off += 16 {
			fmt.Fprintf(&b, "[%12.6f] %08x:", t, off)
			for i := 0; i < 16; i++ {
				fmt.Fprintf(&b, " %02x", cqe[off+i])
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}
