// Package hostcheck is what the two host platforms (nvidia_mlnx,
// linux_dcb) share for fabricgen check and the lab: the check collector
// of a Linux host with a ConnectX NIC and its data-plane responder.
package hostcheck

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/check/readings"
	"github.com/fabricgen/fabricgen/internal/check/collect"
	"github.com/fabricgen/fabricgen/schema"
)

// Collector reads a Linux host with a ConnectX NIC (nvidia_mlnx,
// linux_dcb): ethtool (settings, -S statistics, -m module diagnostics,
// -I --show-fec), iproute2 rdma -j (links, hardware counters, queue
// pairs) and dcb -j (DSCP map, PFC), and the kernel log for the error
// syndromes of queue pairs in error. Both host platforms' folders use it.
type Collector struct {
	// DCQCN reads the DCQCN enables of MLNX_OFED's ECN sysfs (nvidia_mlnx)
	// on hosts whose intent sets rdma ecn.
	DCQCN bool
}

// Commands lists what Collect may run.
func (c Collector) Commands() []string {
	out := []string{"rdma -j link show", "ethtool IF", "ethtool -S IF", "ethtool -m IF", "ethtool -I --show-fec IF",
		"rdma -j statistic show link DEV/1", "rdma -j resource show qp link DEV/1", "dcb -j app show dev IF", "dcb -j pfc show dev IF"}
	if c.DCQCN {
		out = append(out, collectDcqcnCommand("IF", "PRIO"))
	}
	return append(out, "dmesg")
}

// collectDcqcnCommand reads the DCQCN notification and reaction point enables
// of one priority from MLNX_OFED's ECN sysfs.
func collectDcqcnCommand(port, prio string) string {
	return "cat /sys/class/net/" + port + "/ecn/roce_np/enable/" + prio + " /sys/class/net/" + port + "/ecn/roce_rp/enable/" + prio
}

// collectStatusRunner runs a shell command and returns its exit status rather
// than failing on a non-zero one.
type collectStatusRunner interface {
	RunStatus(cmd string) (string, int, error)
}

// collectReadDCQCN reads a ConnectX port's DCQCN enables on the intent's RoCE
// priority, on hosts whose intent sets rdma ecn (when the collector reads
// DCQCN): files that are not there (no MLNX_OFED) are Missing, not an
// error of the device.
func (c Collector) collectReadDCQCN(r collect.Runner, dev *schema.Device, p *readings.Port) (*readings.DCQCN, string, error) {
	ip := dev.Port(p.Name)
	if !c.DCQCN || dev.RDMA == nil || !dev.RDMA.ECN.Set || ip == nil || ip.QoS == nil {
		return nil, "", nil
	}
	prio := ip.QoS.DSCP[dev.RDMA.DSCP()].V
	cmd := collectDcqcnCommand(p.Name, strconv.Itoa(prio))
	sr, ok := r.(collectStatusRunner)
	if !ok {
		return nil, "", nil
	}
	out, status, err := sr.RunStatus(cmd)
	if err != nil {
		return nil, "", err
	}
	d := &readings.DCQCN{Priority: prio}
	vals := strings.Fields(out)
	if status != 0 || len(vals) != 2 {
		d.Missing = true
		return d, cmd, nil
	}
	d.NP, d.RP = vals[0] == "1", vals[1] == "1"
	return d, cmd, nil
}

// Collect reads the host.
func (c Collector) Collect(r collect.Runner, dev *schema.Device) (*readings.Device, error) {
	d := collect.NewDevice(dev)
	var links map[string]string
	if err := collect.RunParse(r, "rdma -j link show", func(out string) (err error) {
		links, err = collectParseRDMALinks(out)
		return err
	}); err != nil {
		return nil, err
	}
	collect.Source(d, "rdma -j link show", readings.Oper)
	for _, p := range d.Ports {
		if err := collect.ReadPort(r, d, p, p,
			collect.PortCommand[*readings.Port]{Cmd: "ethtool " + p.Name, Parse: collectParseEthtoolSettings, Fams: []string{readings.Oper}},
			collect.PortCommand[*readings.Port]{Cmd: "ethtool -S " + p.Name, Parse: collectParseEthtoolStats, Fams: []string{readings.FCSErrors, readings.RxErrors, readings.LinkFlaps,
				readings.PrioRxBytes, readings.PrioTxBytes, readings.PrioDrops, readings.PFCRx, readings.PFCTx, readings.PFCTxDuration, readings.PFCRxDuration, readings.NICStormWarn,
				readings.NICStormErr, readings.PreFECBER, readings.RxBytes, readings.TxBytes, readings.FECCorrectedBits, readings.RxBits}},
			collect.PortCommand[*readings.Port]{Cmd: "ethtool -m " + p.Name, Parse: collectParseEthtoolModule, Fams: collect.DOMFamilies()},
			collect.PortCommand[*readings.Port]{Cmd: "ethtool -I --show-fec " + p.Name, Parse: collectParseEthtoolFEC, Fams: []string{readings.FECCorrected, readings.FECUncorrected}},
		); err != nil {
			return nil, err
		}
		q := &readings.QoS{}
		if err := collect.ReadPort(r, d, p, q,
			collect.PortCommand[*readings.QoS]{Cmd: "dcb -j app show dev " + p.Name, Parse: collectParseDCBApp,
				Fams: []string{readings.QoSReadback, readings.QoSReadback + ":dscp", readings.QoSReadback + ":trust"}},
			collect.PortCommand[*readings.QoS]{Cmd: "dcb -j pfc show dev " + p.Name, Parse: collectParseDCBPFC, Fams: []string{readings.QoSReadback + ":pfc"}},
		); err != nil {
			return nil, err
		}
		dq, cmd, err := c.collectReadDCQCN(r, dev, p)
		if err != nil {
			return nil, err
		}
		if dq != nil {
			q.DCQCN = dq
			collect.PortSource(d, p, cmd, collectDcqcnCommand("IF", "PRIO"), readings.QoSReadback+":dcqcn")
		}
		p.QoS = q
		rdma := links[p.Name]
		if rdma == "" {
			collect.Missing(d, readings.NPECNMarked)
			continue
		}
		var qps []readings.QP
		if err := collect.ReadPort(r, d, p, p,
			collect.PortCommand[*readings.Port]{Cmd: "rdma -j statistic show link " + rdma + "/1", Parse: collectParseRDMAStat, Template: "rdma -j statistic show link DEV/1",
				Fams: []string{readings.NPECNMarked, readings.NPCNPSent, readings.RPCNPHandled, readings.RPCNPIgnored, readings.OutOfSequence,
					readings.PacketSeqErr, readings.LocalAckTimeout, readings.ImpliedNakSeqErr}},
			collect.PortCommand[*readings.Port]{Cmd: "rdma -j resource show qp link " + rdma + "/1", Template: "rdma -j resource show qp link DEV/1",
				Fams: []string{readings.QPState}, Parse: func(out string, p *readings.Port) (err error) {
					qps, err = collectParseRDMAQPs(out, p.Name)
					return err
				}},
		); err != nil {
			return nil, err
		}
		d.QPs = append(d.QPs, qps...)
	}
	if len(d.QPs) > 0 {
		out, err := r.Run("dmesg")
		if err == nil {
			syn := collectParseCQEDumps(out)
			for i := range d.QPs {
				if s, ok := syn[d.QPs[i].LQPN]; ok && (d.QPs[i].State == "SQE" || d.QPs[i].State == "ERR") {
					d.QPs[i].Syndrome = s
				}
			}
		}
	}
	return d, nil
}

// collectParseRDMALinks reads `rdma -j link show`: netdev → RDMA device.
func collectParseRDMALinks(out string) (map[string]string, error) {
	var links []struct {
		IfName string `json:"ifname"`
		Netdev string `json:"netdev"`
	}
	if err := json.Unmarshal([]byte(out), &links); err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, l := range links {
		if l.Netdev != "" && l.IfName != "" {
			m[l.Netdev] = l.IfName
		}
	}
	return m, nil
}

var (
	collectReSpeed = regexp.MustCompile(`(?m)^\s*Speed:\s*(\d+)Mb/s`)
	collectReLanes = regexp.MustCompile(`(?m)^\s*Lanes:\s*(\d+)`)
	collectReLink  = regexp.MustCompile(`(?m)^\s*Link detected:\s*(yes|no)`)
)

// collectParseEthtoolSettings reads `ethtool IF`: speed, lanes, link.
func collectParseEthtoolSettings(out string, p *readings.Port) error {
	m := collectReLink.FindStringSubmatch(out)
	if m == nil {
		return fmt.Errorf("no \"Link detected\" line")
	}
	p.Oper = collect.UpDown(m[1] == "yes")
	if m := collectReSpeed.FindStringSubmatch(out); m != nil {
		if v, err := strconv.ParseInt(m[1], 10, 64); err == nil && v < 1e9 {
			p.Speed = v * 1e6
		}
	}
	if m := collectReLanes.FindStringSubmatch(out); m != nil {
		if v, err := strconv.Atoi(m[1]); err == nil && v < 64 {
			p.Lanes = v
		}
	}
	return nil
}

// collectStatLines reads "name: value" lines.
func collectStatLines(out string) map[string]uint64 {
	m := map[string]uint64{}
	for _, l := range strings.Split(out, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(l), ":")
		if !ok {
			continue
		}
		if n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64); err == nil {
			m[strings.TrimSpace(k)] = n
		}
	}
	return m
}

// collectParseEthtoolStats reads `ethtool -S` with the mlx5 counter names.
func collectParseEthtoolStats(out string, p *readings.Port) error {
	m := collectStatLines(out)
	if len(m) == 0 {
		return fmt.Errorf("no statistics")
	}
	set := func(key, name string) {
		if v, ok := m[name]; ok {
			p.Counters[key] = v
		}
	}
	set(readings.FCSErrors, "rx_crc_errors_phy")
	set(readings.RxErrors, "rx_symbol_err_phy")
	set(readings.LinkFlaps, "link_down_events_phy")
	set(readings.RxBytes, "rx_bytes_phy")
	set(readings.TxBytes, "tx_bytes_phy")
	set(readings.NICStormWarn, "tx_pause_storm_warning_events")
	set(readings.NICStormErr, "tx_pause_storm_error_events")
	for i := 0; i < 8; i++ {
		set(readings.Key(readings.PrioRxBytes, i), fmt.Sprintf("rx_prio%d_bytes", i))
		set(readings.Key(readings.PrioTxBytes, i), fmt.Sprintf("tx_prio%d_bytes", i))
		set(readings.Key(readings.PrioDrops, i), fmt.Sprintf("rx_prio%d_discards", i))
		set(readings.Key(readings.PFCRx, i), fmt.Sprintf("rx_prio%d_pause", i))
		set(readings.Key(readings.PFCTx, i), fmt.Sprintf("tx_prio%d_pause", i))
		set(readings.Key(readings.PFCTxDuration, i), fmt.Sprintf("tx_prio%d_pause_duration", i))
		set(readings.Key(readings.PFCRxDuration, i), fmt.Sprintf("rx_prio%d_pause_duration", i))
	}
	// Pre-FEC BER: corrected bits per bit received, over the window (the
	// counters) or the port's life (the gauge, for a single reading).
	set(readings.FECCorrectedBits, "rx_corrected_bits_phy")
	set(readings.RxBits, "rx_bits_phy")
	if cb, ok := m["rx_corrected_bits_phy"]; ok {
		if bits := m["rx_bits_phy"]; bits > 0 {
			p.Gauges[readings.PreFECBER] = float64(cb) / float64(bits)
		}
	}
	return nil
}

var (
	collectRePower     = regexp.MustCompile(`^(Transmit avg optical power|Rcvr signal avg optical power)\s*\(Channel (\d+)\)\s*:\s*[\d.]+ mW / (-?[\d.]+|-inf) dBm`)
	collectReThreshold = regexp.MustCompile(`^(Laser output power|Laser rx power|Module temperature|Module voltage) (high|low) (alarm|warning) threshold\s*:\s*(.*)$`)
	collectReTemp      = regexp.MustCompile(`^Module temperature\s*:\s*(-?[\d.]+) degrees C`)
	collectReVolt      = regexp.MustCompile(`^Module voltage\s*:\s*([\d.]+) V`)
	collectReDBm       = regexp.MustCompile(`(-?[\d.]+|-inf) dBm`)
	collectReDegC      = regexp.MustCompile(`(-?[\d.]+) degrees C`)
	collectReVolts     = regexp.MustCompile(`([\d.]+) V`)
)

// collectParseEthtoolModule reads `ethtool -m` (SFF-8636/CMIS diagnostics). A
// passive copper cable (transmitter technology "Copper cable …") has no
// diagnostics: the port is marked copper and has no optics gauges. A
// module without diagnostics lines is read as one without DDM.
func collectParseEthtoolModule(out string, p *readings.Port) error {
	if !strings.Contains(out, "Identifier") {
		return fmt.Errorf("no module identifier (no module plugged in?)")
	}
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "Transmitter technology" && strings.Contains(strings.ToLower(v), "copper") {
			p.Copper = true
			continue
		}
		if m := collectRePower.FindStringSubmatch(l); m != nil {
			lane, _ := strconv.Atoi(m[2])
			v := collectParseDBm(m[3])
			if m[1] == "Transmit avg optical power" {
				p.Gauges[readings.Key(readings.TxPower, lane)] = v
			} else {
				p.Gauges[readings.Key(readings.RxPower, lane)] = v
			}
			continue
		}
		if m := collectReTemp.FindStringSubmatch(l); m != nil {
			p.Gauges[readings.Temperature], _ = strconv.ParseFloat(m[1], 64)
			continue
		}
		if m := collectReVolt.FindStringSubmatch(l); m != nil {
			p.Gauges[readings.Voltage], _ = strconv.ParseFloat(m[1], 64)
			continue
		}
		m := collectReThreshold.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		var key string
		var val float64
		var ok bool
		switch m[1] {
		case "Laser output power", "Laser rx power":
			if mm := collectReDBm.FindStringSubmatch(m[4]); mm != nil {
				val, ok = collectParseDBm(mm[1]), true
			}
			key = map[string]string{"Laser output power low alarm": readings.TxPowerLoAlarm, "Laser output power low warning": readings.TxPowerLoWarn,
				"Laser output power high warning": readings.TxPowerHiWarn, "Laser output power high alarm": readings.TxPowerHiAlarm,
				"Laser rx power low alarm": readings.RxPowerLoAlarm, "Laser rx power low warning": readings.RxPowerLoWarn}[m[1]+" "+m[2]+" "+m[3]]
		case "Module temperature":
			if mm := collectReDegC.FindStringSubmatch(m[4]); mm != nil {
				val, _ = strconv.ParseFloat(mm[1], 64)
				ok = true
			}
			key = map[string]string{"high warning": readings.TempHiWarn, "high alarm": readings.TempHiAlarm}[m[2]+" "+m[3]]
		case "Module voltage":
			if mm := collectReVolts.FindStringSubmatch(m[4]); mm != nil {
				val, _ = strconv.ParseFloat(mm[1], 64)
				ok = true
			}
			key = map[string]string{"low warning": readings.VoltLoWarn, "high warning": readings.VoltHiWarn}[m[2]+" "+m[3]]
		}
		if ok && key != "" {
			p.Gauges[key] = val
		}
	}
	return nil
}

// collectParseDBm reads a dBm value; "-inf" (no light) is -40.
func collectParseDBm(s string) float64 {
	if s == "-inf" {
		return -40
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < -40 {
		return -40
	}
	return v
}

var collectReFECBlocks = regexp.MustCompile(`(?m)^\s*(corrected_blocks|uncorrectable_blocks):\s*(\d+)`)

// collectParseEthtoolFEC reads `ethtool -I --show-fec`.
func collectParseEthtoolFEC(out string, p *readings.Port) error {
	ms := collectReFECBlocks.FindAllStringSubmatch(out, -1)
	if ms == nil {
		return fmt.Errorf("no FEC statistics")
	}
	for _, m := range ms {
		v, err := strconv.ParseUint(m[2], 10, 64)
		if err != nil {
			continue
		}
		if m[1] == "corrected_blocks" {
			p.Counters[readings.FECCorrected] = v
		} else {
			p.Counters[readings.FECUncorrected] = v
		}
	}
	if strings.Contains(out, "Active FEC encoding: RS") {
		p.FEC = "rs"
	}
	return nil
}

// collectParseRDMAStat reads `rdma -j statistic show link DEV/1`.
func collectParseRDMAStat(out string, p *readings.Port) error {
	var stats []map[string]any
	if err := json.Unmarshal([]byte(out), &stats); err != nil {
		return err
	}
	if len(stats) == 0 {
		return fmt.Errorf("no statistics")
	}
	for _, name := range []string{readings.NPECNMarked, readings.NPCNPSent, readings.RPCNPHandled, readings.RPCNPIgnored,
		readings.OutOfSequence, readings.PacketSeqErr, readings.LocalAckTimeout, readings.ImpliedNakSeqErr} {
		if v, ok := stats[0][name].(float64); ok && v >= 0 {
			p.Counters[name] = uint64(v)
		}
	}
	return nil
}

// collectParseRDMAQPs reads `rdma -j resource show qp link DEV/1`.
func collectParseRDMAQPs(out, port string) ([]readings.QP, error) {
	var qps []struct {
		LQPN  uint32 `json:"lqpn"`
		Type  string `json:"type"`
		State string `json:"state"`
		Comm  string `json:"comm"`
		PID   int    `json:"pid"`
	}
	if err := json.Unmarshal([]byte(out), &qps); err != nil {
		return nil, err
	}
	var res []readings.QP
	for _, q := range qps {
		res = append(res, readings.QP{Port: port, LQPN: q.LQPN, Type: q.Type, State: q.State, Comm: q.Comm, PID: q.PID})
	}
	return res, nil
}

// collectParseDCBApp reads `dcb -j app show dev IF`: dscp_prio as [DSCP, PRIO] pairs.
func collectParseDCBApp(out string, q *readings.QoS) error {
	var v struct {
		DSCP [][]int `json:"dscp_prio"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		return err
	}
	q.DSCP = map[int]int{}
	q.Trust = "pcp"
	for _, pair := range v.DSCP {
		if len(pair) == 2 && pair[0] >= 0 && pair[0] < 64 && pair[1] >= 0 && pair[1] < 8 {
			q.DSCP[pair[0]] = pair[1]
			q.Trust = "dscp"
		}
	}
	if q.Trust == "dscp" {
		// mlx5: a code point without an entry maps to DSCP >> 3.
		for d := 0; d < 64; d++ {
			if _, ok := q.DSCP[d]; !ok {
				q.DSCP[d] = d >> 3
			}
		}
	} else {
		q.DSCP = nil
	}
	return nil
}

// collectParseDCBPFC reads `dcb -j pfc show dev IF`: prio_pfc as eight booleans.
func collectParseDCBPFC(out string, q *readings.QoS) error {
	var v struct {
		PrioPFC []bool `json:"prio_pfc"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		return err
	}
	q.PFC = []int{}
	for i, on := range v.PrioPFC {
		if on && i < 8 {
			q.PFC = append(q.PFC, i)
		}
	}
	return nil
}

var (
	collectReCQEHead = regexp.MustCompile(`dump error cqe`)
	collectReCQELine = regexp.MustCompile(`(0000003[0-9a-f]):((?: [0-9a-f]{2}){16})\s*$`)
)

// collectParseCQEDumps reads mlx5 "dump error cqe" hex dumps from the kernel
// log: byte 55 of the 64-byte error CQE is the syndrome, bytes 57–59 the
// QP number. It returns syndrome by QP number.
func collectParseCQEDumps(out string) map[uint32]string {
	res := map[uint32]string{}
	inDump := false
	for _, l := range strings.Split(out, "\n") {
		if collectReCQEHead.MatchString(l) {
			inDump = true
			continue
		}
		m := collectReCQELine.FindStringSubmatch(strings.TrimRight(l, " \r"))
		if !inDump || m == nil {
			continue
		}
		f := strings.Fields(m[2])
		if len(f) != 16 {
			continue
		}
		var b [16]byte
		ok := true
		for i, h := range f {
			v, err := strconv.ParseUint(h, 16, 8)
			if err != nil {
				ok = false
				break
			}
			b[i] = byte(v)
		}
		if !ok {
			continue
		}
		qpn := uint32(b[9])<<16 | uint32(b[10])<<8 | uint32(b[11])
		res[qpn] = fmt.Sprintf("0x%02x", b[7])
		inDump = false
	}
	return res
}
