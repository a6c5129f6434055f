package collect

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/schema"
)

// hostCollector reads a Linux host with a ConnectX NIC (nvidia_mlnx,
// linux_dcb): ethtool (settings, -S statistics, -m module diagnostics,
// -I --show-fec), iproute2 rdma -j (links, hardware counters, queue
// pairs) and dcb -j (DSCP map, PFC), and the kernel log for the error
// syndromes of queue pairs in error.
type hostCollector struct{}

func (hostCollector) Commands() []string {
	return []string{"rdma -j link show", "ethtool IF", "ethtool -S IF", "ethtool -m IF", "ethtool -I --show-fec IF",
		"rdma -j statistic show link DEV/1", "rdma -j resource show qp link DEV/1", "dcb -j app show dev IF", "dcb -j pfc show dev IF",
		dcqcnCommand("IF", "PRIO"), "dmesg"}
}

// dcqcnCommand reads the DCQCN notification and reaction point enables
// of one priority from MLNX_OFED's ECN sysfs.
func dcqcnCommand(port, prio string) string {
	return "cat /sys/class/net/" + port + "/ecn/roce_np/enable/" + prio + " /sys/class/net/" + port + "/ecn/roce_rp/enable/" + prio
}

// statusRunner runs a shell command and returns its exit status rather
// than failing on a non-zero one.
type statusRunner interface {
	RunStatus(cmd string) (string, int, error)
}

// readDCQCN reads a ConnectX port's DCQCN enables on the intent's RoCE
// priority, on nvidia_mlnx hosts whose intent sets rdma ecn: files that
// are not there (no MLNX_OFED) are Missing, not an error of the device.
func readDCQCN(r Runner, dev *schema.Device, p *check.Port) (*check.DCQCN, string, error) {
	ip := dev.Port(p.Name)
	if dev.Platform.V != schema.NvidiaMLNX || dev.RDMA == nil || !dev.RDMA.ECN.Set || ip == nil || ip.QoS == nil {
		return nil, "", nil
	}
	prio := ip.QoS.DSCP[dev.RDMA.DSCP()].V
	cmd := dcqcnCommand(p.Name, strconv.Itoa(prio))
	sr, ok := r.(statusRunner)
	if !ok {
		return nil, "", nil
	}
	out, status, err := sr.RunStatus(cmd)
	if err != nil {
		return nil, "", err
	}
	d := &check.DCQCN{Priority: prio}
	vals := strings.Fields(out)
	if status != 0 || len(vals) != 2 {
		d.Missing = true
		return d, cmd, nil
	}
	d.NP, d.RP = vals[0] == "1", vals[1] == "1"
	return d, cmd, nil
}

func (hostCollector) Collect(r Runner, dev *schema.Device) (*check.Device, error) {
	d := newDevice(dev)
	var links map[string]string
	if err := runParse(r, "rdma -j link show", func(out string) (err error) {
		links, err = parseRDMALinks(out)
		return err
	}); err != nil {
		return nil, err
	}
	source(d, "rdma -j link show", check.Oper)
	for _, p := range d.Ports {
		if err := readPort(r, d, p, p,
			portCommand[*check.Port]{cmd: "ethtool " + p.Name, parse: parseEthtoolSettings, fams: []string{check.Oper}},
			portCommand[*check.Port]{cmd: "ethtool -S " + p.Name, parse: parseEthtoolStats, fams: []string{check.FCSErrors, check.RxErrors, check.LinkFlaps,
				check.PrioRxBytes, check.PrioTxBytes, check.PrioDrops, check.PFCRx, check.PFCTx, check.PFCTxDuration, check.PFCRxDuration, check.NICStormWarn,
				check.NICStormErr, check.PreFECBER, check.RxBytes, check.TxBytes, check.FECCorrectedBits, check.RxBits}},
			portCommand[*check.Port]{cmd: "ethtool -m " + p.Name, parse: parseEthtoolModule, fams: domFamilies},
			portCommand[*check.Port]{cmd: "ethtool -I --show-fec " + p.Name, parse: parseEthtoolFEC, fams: []string{check.FECCorrected, check.FECUncorrected}},
		); err != nil {
			return nil, err
		}
		q := &check.QoS{}
		if err := readPort(r, d, p, q,
			portCommand[*check.QoS]{cmd: "dcb -j app show dev " + p.Name, parse: parseDCBApp,
				fams: []string{check.QoSReadback, check.QoSReadback + ":dscp", check.QoSReadback + ":trust"}},
			portCommand[*check.QoS]{cmd: "dcb -j pfc show dev " + p.Name, parse: parseDCBPFC, fams: []string{check.QoSReadback + ":pfc"}},
		); err != nil {
			return nil, err
		}
		dq, cmd, err := readDCQCN(r, dev, p)
		if err != nil {
			return nil, err
		}
		if dq != nil {
			q.DCQCN = dq
			portSource(d, p, cmd, dcqcnCommand("IF", "PRIO"), check.QoSReadback+":dcqcn")
		}
		p.QoS = q
		rdma := links[p.Name]
		if rdma == "" {
			missing(d, check.NPECNMarked)
			continue
		}
		var qps []check.QP
		if err := readPort(r, d, p, p,
			portCommand[*check.Port]{cmd: "rdma -j statistic show link " + rdma + "/1", parse: parseRDMAStat, template: "rdma -j statistic show link DEV/1",
				fams: []string{check.NPECNMarked, check.NPCNPSent, check.RPCNPHandled, check.RPCNPIgnored, check.OutOfSequence,
					check.PacketSeqErr, check.LocalAckTimeout, check.ImpliedNakSeqErr}},
			portCommand[*check.Port]{cmd: "rdma -j resource show qp link " + rdma + "/1", template: "rdma -j resource show qp link DEV/1",
				fams: []string{check.QPState}, parse: func(out string, p *check.Port) (err error) {
					qps, err = parseRDMAQPs(out, p.Name)
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
			syn := parseCQEDumps(out)
			for i := range d.QPs {
				if s, ok := syn[d.QPs[i].LQPN]; ok && (d.QPs[i].State == "SQE" || d.QPs[i].State == "ERR") {
					d.QPs[i].Syndrome = s
				}
			}
		}
	}
	return d, nil
}

// parseRDMALinks reads `rdma -j link show`: netdev → RDMA device.
func parseRDMALinks(out string) (map[string]string, error) {
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
	reSpeed = regexp.MustCompile(`(?m)^\s*Speed:\s*(\d+)Mb/s`)
	reLanes = regexp.MustCompile(`(?m)^\s*Lanes:\s*(\d+)`)
	reLink  = regexp.MustCompile(`(?m)^\s*Link detected:\s*(yes|no)`)
)

// parseEthtoolSettings reads `ethtool IF`: speed, lanes, link.
func parseEthtoolSettings(out string, p *check.Port) error {
	m := reLink.FindStringSubmatch(out)
	if m == nil {
		return fmt.Errorf("no \"Link detected\" line")
	}
	p.Oper = upDown(m[1] == "yes")
	if m := reSpeed.FindStringSubmatch(out); m != nil {
		if v, err := strconv.ParseInt(m[1], 10, 64); err == nil && v < 1e9 {
			p.Speed = v * 1e6
		}
	}
	if m := reLanes.FindStringSubmatch(out); m != nil {
		if v, err := strconv.Atoi(m[1]); err == nil && v < 64 {
			p.Lanes = v
		}
	}
	return nil
}

// statLines reads "name: value" lines.
func statLines(out string) map[string]uint64 {
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

// parseEthtoolStats reads `ethtool -S` with the mlx5 counter names.
func parseEthtoolStats(out string, p *check.Port) error {
	m := statLines(out)
	if len(m) == 0 {
		return fmt.Errorf("no statistics")
	}
	set := func(key, name string) {
		if v, ok := m[name]; ok {
			p.Counters[key] = v
		}
	}
	set(check.FCSErrors, "rx_crc_errors_phy")
	set(check.RxErrors, "rx_symbol_err_phy")
	set(check.LinkFlaps, "link_down_events_phy")
	set(check.RxBytes, "rx_bytes_phy")
	set(check.TxBytes, "tx_bytes_phy")
	set(check.NICStormWarn, "tx_pause_storm_warning_events")
	set(check.NICStormErr, "tx_pause_storm_error_events")
	for i := 0; i < 8; i++ {
		set(check.Key(check.PrioRxBytes, i), fmt.Sprintf("rx_prio%d_bytes", i))
		set(check.Key(check.PrioTxBytes, i), fmt.Sprintf("tx_prio%d_bytes", i))
		set(check.Key(check.PrioDrops, i), fmt.Sprintf("rx_prio%d_discards", i))
		set(check.Key(check.PFCRx, i), fmt.Sprintf("rx_prio%d_pause", i))
		set(check.Key(check.PFCTx, i), fmt.Sprintf("tx_prio%d_pause", i))
		set(check.Key(check.PFCTxDuration, i), fmt.Sprintf("tx_prio%d_pause_duration", i))
		set(check.Key(check.PFCRxDuration, i), fmt.Sprintf("rx_prio%d_pause_duration", i))
	}
	// Pre-FEC BER: corrected bits per bit received, over the window (the
	// counters) or the port's life (the gauge, for a single reading).
	set(check.FECCorrectedBits, "rx_corrected_bits_phy")
	set(check.RxBits, "rx_bits_phy")
	if cb, ok := m["rx_corrected_bits_phy"]; ok {
		if bits := m["rx_bits_phy"]; bits > 0 {
			p.Gauges[check.PreFECBER] = float64(cb) / float64(bits)
		}
	}
	return nil
}

var (
	rePower     = regexp.MustCompile(`^(Transmit avg optical power|Rcvr signal avg optical power)\s*\(Channel (\d+)\)\s*:\s*[\d.]+ mW / (-?[\d.]+|-inf) dBm`)
	reThreshold = regexp.MustCompile(`^(Laser output power|Laser rx power|Module temperature|Module voltage) (high|low) (alarm|warning) threshold\s*:\s*(.*)$`)
	reTemp      = regexp.MustCompile(`^Module temperature\s*:\s*(-?[\d.]+) degrees C`)
	reVolt      = regexp.MustCompile(`^Module voltage\s*:\s*([\d.]+) V`)
	reDBm       = regexp.MustCompile(`(-?[\d.]+|-inf) dBm`)
	reDegC      = regexp.MustCompile(`(-?[\d.]+) degrees C`)
	reVolts     = regexp.MustCompile(`([\d.]+) V`)
)

// parseEthtoolModule reads `ethtool -m` (SFF-8636/CMIS diagnostics). A
// passive copper cable (transmitter technology "Copper cable …") has no
// diagnostics: the port is marked copper and has no optics gauges. A
// module without diagnostics lines is read as one without DDM.
func parseEthtoolModule(out string, p *check.Port) error {
	if !strings.Contains(out, "Identifier") {
		return fmt.Errorf("no module identifier (no module plugged in?)")
	}
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "Transmitter technology" && strings.Contains(strings.ToLower(v), "copper") {
			p.Copper = true
			continue
		}
		if m := rePower.FindStringSubmatch(l); m != nil {
			lane, _ := strconv.Atoi(m[2])
			v := parseDBm(m[3])
			if m[1] == "Transmit avg optical power" {
				p.Gauges[check.Key(check.TxPower, lane)] = v
			} else {
				p.Gauges[check.Key(check.RxPower, lane)] = v
			}
			continue
		}
		if m := reTemp.FindStringSubmatch(l); m != nil {
			p.Gauges[check.Temperature], _ = strconv.ParseFloat(m[1], 64)
			continue
		}
		if m := reVolt.FindStringSubmatch(l); m != nil {
			p.Gauges[check.Voltage], _ = strconv.ParseFloat(m[1], 64)
			continue
		}
		m := reThreshold.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		var key string
		var val float64
		var ok bool
		switch m[1] {
		case "Laser output power", "Laser rx power":
			if mm := reDBm.FindStringSubmatch(m[4]); mm != nil {
				val, ok = parseDBm(mm[1]), true
			}
			key = map[string]string{"Laser output power low alarm": check.TxPowerLoAlarm, "Laser output power low warning": check.TxPowerLoWarn,
				"Laser output power high warning": check.TxPowerHiWarn, "Laser output power high alarm": check.TxPowerHiAlarm,
				"Laser rx power low alarm": check.RxPowerLoAlarm, "Laser rx power low warning": check.RxPowerLoWarn}[m[1]+" "+m[2]+" "+m[3]]
		case "Module temperature":
			if mm := reDegC.FindStringSubmatch(m[4]); mm != nil {
				val, _ = strconv.ParseFloat(mm[1], 64)
				ok = true
			}
			key = map[string]string{"high warning": check.TempHiWarn, "high alarm": check.TempHiAlarm}[m[2]+" "+m[3]]
		case "Module voltage":
			if mm := reVolts.FindStringSubmatch(m[4]); mm != nil {
				val, _ = strconv.ParseFloat(mm[1], 64)
				ok = true
			}
			key = map[string]string{"low warning": check.VoltLoWarn, "high warning": check.VoltHiWarn}[m[2]+" "+m[3]]
		}
		if ok && key != "" {
			p.Gauges[key] = val
		}
	}
	return nil
}

// parseDBm reads a dBm value; "-inf" (no light) is -40.
func parseDBm(s string) float64 {
	if s == "-inf" {
		return -40
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < -40 {
		return -40
	}
	return v
}

var reFECBlocks = regexp.MustCompile(`(?m)^\s*(corrected_blocks|uncorrectable_blocks):\s*(\d+)`)

// parseEthtoolFEC reads `ethtool -I --show-fec`.
func parseEthtoolFEC(out string, p *check.Port) error {
	ms := reFECBlocks.FindAllStringSubmatch(out, -1)
	if ms == nil {
		return fmt.Errorf("no FEC statistics")
	}
	for _, m := range ms {
		v, err := strconv.ParseUint(m[2], 10, 64)
		if err != nil {
			continue
		}
		if m[1] == "corrected_blocks" {
			p.Counters[check.FECCorrected] = v
		} else {
			p.Counters[check.FECUncorrected] = v
		}
	}
	if strings.Contains(out, "Active FEC encoding: RS") {
		p.FEC = "rs"
	}
	return nil
}

// parseRDMAStat reads `rdma -j statistic show link DEV/1`.
func parseRDMAStat(out string, p *check.Port) error {
	var stats []map[string]any
	if err := json.Unmarshal([]byte(out), &stats); err != nil {
		return err
	}
	if len(stats) == 0 {
		return fmt.Errorf("no statistics")
	}
	for _, name := range []string{check.NPECNMarked, check.NPCNPSent, check.RPCNPHandled, check.RPCNPIgnored,
		check.OutOfSequence, check.PacketSeqErr, check.LocalAckTimeout, check.ImpliedNakSeqErr} {
		if v, ok := stats[0][name].(float64); ok && v >= 0 {
			p.Counters[name] = uint64(v)
		}
	}
	return nil
}

// parseRDMAQPs reads `rdma -j resource show qp link DEV/1`.
func parseRDMAQPs(out, port string) ([]check.QP, error) {
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
	var res []check.QP
	for _, q := range qps {
		res = append(res, check.QP{Port: port, LQPN: q.LQPN, Type: q.Type, State: q.State, Comm: q.Comm, PID: q.PID})
	}
	return res, nil
}

// parseDCBApp reads `dcb -j app show dev IF`: dscp_prio as [DSCP, PRIO] pairs.
func parseDCBApp(out string, q *check.QoS) error {
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

// parseDCBPFC reads `dcb -j pfc show dev IF`: prio_pfc as eight booleans.
func parseDCBPFC(out string, q *check.QoS) error {
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
	reCQEHead = regexp.MustCompile(`dump error cqe`)
	reCQELine = regexp.MustCompile(`(0000003[0-9a-f]):((?: [0-9a-f]{2}){16})\s*$`)
)

// parseCQEDumps reads mlx5 "dump error cqe" hex dumps from the kernel
// log: byte 55 of the 64-byte error CQE is the syndrome, bytes 57–59 the
// QP number. It returns syndrome by QP number.
func parseCQEDumps(out string) map[uint32]string {
	res := map[uint32]string{}
	inDump := false
	for _, l := range strings.Split(out, "\n") {
		if reCQEHead.MatchString(l) {
			inDump = true
			continue
		}
		m := reCQELine.FindStringSubmatch(strings.TrimRight(l, " \r"))
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
