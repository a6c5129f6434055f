package templates

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// HostView is the nvidia_mlnx and linux_dcb template data: a bash script
// whose state-changing lines are each one simple command.
type HostView struct {
	Base
	// Tools lists the commands the script checks for before changing anything.
	Tools []HostTool
	// Probes check each optional capability the script uses (a driver's
	// sysfs file or tunable, DCB netlink) before anything changes.
	Probes []HostProbe
	// Lookups are preamble assignments (NAME=$(command)) run before any change.
	Lookups []HostLookup
	// Interfaces hold each port's commands, in port order.
	Interfaces []HostInterface
	// Notes are comment lines for intent values that are switch-side only
	// (ECN marking curves, buffers) and so have no host command.
	Notes []string
	// Preamble is "set -eu", the tool checks and the lookups, one per line
	// (what the embedded templates print).
	Preamble string
}

// HostTool is one required command and the hint printed when it is missing.
type HostTool struct{ Name, Hint string }

// HostLookup is one preamble variable: Var=$(Command).
type HostLookup struct{ Var, Command string }

// HostProbe is one capability check: the script runs Test and, when it
// fails, prints Message (what is missing and which driver provides it)
// and stops.
type HostProbe struct{ Test, Message string }

// HostInterface is one port's commands. Text holds them one per line (what
// the embedded templates print); Commands splits it for templates that
// want each command on its own ({{range .Commands}}).
type HostInterface struct {
	Name string
	Text string
}

// Commands returns the interface's commands, one per element.
func (h HostInterface) Commands() []string {
	if h.Text == "" {
		return nil
	}
	return strings.Split(h.Text, "\n")
}

type hostFlavour struct {
	mlnx bool
	// driver is the NIC's kernel driver: mlx5_core (nvidia_mlnx: MLNX_OFED's),
	// ice or bnxt_en.
	driver string
}

// stormGuard reports whether the driver has the ethtool tunable
// pfc-prevention-tout (mlx5 only: "net/mlx5e: PFC stall prevention support").
func (fl hostFlavour) stormGuard() bool { return fl.driver == schema.DefaultNICDriver }

func buildMLNX(f *schema.Fabric, d *schema.Device, b Base) (any, error) {
	return buildHost(f, d, b, hostFlavour{mlnx: true, driver: schema.DefaultNICDriver})
}

func buildDCB(f *schema.Fabric, d *schema.Device, b Base) (any, error) {
	drv := d.Driver.V
	if drv == "" {
		drv = schema.DefaultNICDriver
	}
	return buildHost(f, d, b, hostFlavour{driver: drv})
}

// hostRDMADrivers names the RDMA driver that gives each NIC driver its
// infiniband device.
var hostRDMADrivers = map[string]string{"mlx5_core": "mlx5_ib", "ice": "irdma", "bnxt_en": "bnxt_re"}

func buildHost(f *schema.Fabric, d *schema.Device, b Base, fl hostFlavour) (any, error) {
	v := &HostView{Base: b}
	rd := d.RDMA
	v.Tools = hostTools(d, fl)
	needIB := rd != nil && (rd.ToS.Set || (rd.RoCEMode.Set && fl.mlnx))
	// configfsReady is set once the linux_dcb script has loaded rdma_cm and
	// mounted configfs; later ports need not repeat it.
	configfsReady := false
	notes := map[string]bool{}
	var text hostText
	var rej refusals // every refusal of the device, not only the first
	for i, p := range b.Ports {
		pq := d.Ports[i].QoS
		hi := HostInterface{Name: p.Name}
		ibvar := "ibdev_" + shellVar(p.Name)
		if needIB {
			ibdir := "/sys/class/net/" + p.Name + "/device/infiniband"
			v.Probes = append(v.Probes, HostProbe{Test: "[ -d " + shellWord(ibdir) + " ]",
				Message: p.Name + " has no RDMA device (" + ibdir + "): load " + hostRDMADrivers[fl.driver] + ", the RDMA driver of " + fl.driver})
			v.Lookups = append(v.Lookups, HostLookup{Var: ibvar, Command: "find " + shellWord(ibdir) + " -mindepth 1 -maxdepth 1 -printf '%f'"})
		}
		if pq != nil {
			v.Probes = append(v.Probes, hostProbes(d, p, pq, fl)...)
		}
		text.Reset()
		dev := shellWord(p.Name)
		if p.MTU != 0 {
			text.line("ip link set dev ", dev, " mtu ", strconv.Itoa(p.MTU))
		}
		// ethtool -A exits 78 ("no pause parameters changed, aborting")
		// when nothing changes on the ioctl path (ethtool before 5.6, or a
		// kernel without ethtool netlink); only that status is accepted, so
		// a re-run passes and a real failure still stops the script.
		if p.LinkPause {
			if len(p.PFC) > 0 {
				rej.add(unsupported(d, "link_pause with PFC on "+p.Name, "a NIC port runs either 802.3x pause or PFC; turn one off", pq.LinkPause.Src))
			}
			text.line("ethtool -A ", dev, " rx on tx on", ethtoolUnchanged)
		} else if pq != nil {
			text.line("ethtool -A ", dev, " rx off tx off", ethtoolUnchanged)
		}
		if pq != nil {
			ready, err := hostPortQoS(&text, b.cache, d, p, pq, fl, ibvar, configfsReady, notes)
			if !rej.add(err) {
				return nil, err
			}
			configfsReady = ready
		}
		hi.Text = text.String()
		v.Interfaces = append(v.Interfaces, hi)
	}
	if rd != nil && rd.PathMTU.Set {
		notes[fmt.Sprintf("rdma path_mtu %d: applications set it per QP; rdma_cm derives it from the interface MTU", rd.PathMTU.V)] = true
	}
	for n := range notes {
		v.Notes = append(v.Notes, n)
	}
	sortStrings(v.Notes)
	v.Preamble = hostPreamble(v)
	return v, rej.err()
}

// hostText collects one port's commands, one per line.
type hostText struct{ strings.Builder }

// line appends one command made of parts.
func (t *hostText) line(parts ...string) {
	if t.Len() > 0 {
		t.WriteByte('\n')
	}
	for _, p := range parts {
		t.WriteString(p)
	}
}

// hostTools lists the commands the script needs, with install hints.
func hostTools(d *schema.Device, fl hostFlavour) []HostTool {
	tools := []HostTool{{"ip", "install iproute2"}, {"ethtool", "install ethtool"}}
	rd := d.RDMA
	if fl.mlnx {
		tools = append(tools, HostTool{"mlnx_qos", "install MLNX_OFED or mlnx-tools"})
	} else {
		// dcb app (and its -N) came with iproute2 5.12; dcb apptrust and
		// the PCP/DEI pcp-prio keys with 6.2 (dcb-apptrust(8), dcb-app(8)).
		hint := "install iproute2 5.12 or later"
		for _, p := range d.Ports {
			if p.QoS != nil && (p.QoS.Trust.V == schema.TrustPCP || p.QoS.Trust.V == schema.TrustBoth) {
				hint = "install iproute2 6.2 or later"
			}
		}
		tools = append(tools, HostTool{"dcb", hint})
		if fl.driver == "ice" {
			tools = append(tools, HostTool{"grep", "install grep"})
		}
		if rd != nil && rd.ToS.Set {
			tools = append(tools, HostTool{"modprobe", "install kmod"}, HostTool{"mountpoint", "install util-linux"})
		}
	}
	if rd != nil && rd.ToS.Set && fl.mlnx {
		tools = append(tools, HostTool{"cma_roce_tos", "install MLNX_OFED or mlnx-tools"})
	}
	if rd != nil && rd.RoCEMode.Set && fl.mlnx {
		tools = append(tools, HostTool{"cma_roce_mode", "install MLNX_OFED or mlnx-tools"})
	}
	return tools
}

// hostPortQoS appends a port's QoS, RDMA and watchdog commands to text and
// records the intent values a NIC does not apply in notes. configfsReady
// says whether an earlier port loaded rdma_cm and mounted configfs; the
// result says whether it is done after this port.
func hostPortQoS(text *hostText, cache *viewCache, d *schema.Device, p PortView, pq *schema.PortQoS, fl hostFlavour, ibvar string, configfsReady bool, notes map[string]bool) (bool, error) {
	rd := d.RDMA
	dev := shellWord(p.Name)
	line := text.line
	var block string
	var err error
	if isShellWord(p.Name) {
		block, err = cachedHostBlock(cache, d, p, pq, fl)
	} else {
		// A name that needs quoting never shares a cached block.
		var cmds []string
		cmds, err = hostQoS(d, p, pq, fl)
		block = strings.Join(cmds, "\n")
	}
	var rej refusals
	if !rej.add(err) {
		return configfsReady, err
	}
	text.Grow(len(block) + 8*len(p.Name) + 512)
	if text.Len() > 0 {
		text.WriteByte('\n')
	}
	text.WriteString(block)
	if rd != nil {
		rc, err := hostRDMA(d, p, pq, rd, fl, ibvar, !configfsReady)
		configfsReady = configfsReady || (rd.ToS.Set && !fl.mlnx)
		if !rej.add(err) {
			return configfsReady, err
		}
		for _, c := range rc {
			line(c)
		}
	}
	if p.Watchdog {
		w := pq.Watchdog.V
		if !fl.stormGuard() {
			notes["pfc_watchdog "+w.Name+": "+fl.driver+" has no NIC pause-storm guard (ethtool pfc-prevention-tout is mlx5-only); the switch watchdog covers the port"] = true
		} else if w.Detection.Set && w.Detection.V > 0 {
			if tout := ms(w.Detection.V); fl.mlnx && (tout < 80 || tout > 8000) {
				rej.add(unsupported(d, fmt.Sprintf("pfc_watchdog %s detection %d ms on %s", w.Name, tout, p.Name),
					"mlx5 takes pfc-prevention-tout from 80 to 8000 ms; give the watchdog a detection time in that range", w.Detection.Src))
			}
			line("ethtool --set-tunable ", dev, " pfc-prevention-tout ", strconv.FormatInt(ms(w.Detection.V), 10))
		}
		if fl.stormGuard() && (w.Restoration.Set || w.PollInterval.Set || (w.Action.Set && w.Action.V != schema.WatchdogDrop)) {
			notes["pfc_watchdog "+w.Name+": the NIC's PFC storm prevention takes only a timeout (pfc-prevention-tout = detection); restoration, poll_interval and action are switch-side"] = true
		}
	}
	for qid, qq := range pq.Queues {
		if qq.ECN.V != nil {
			notes["queue "+strconv.Itoa(qid)+" ecn_profile "+qq.ECN.V.Name+": an ECN marking curve is applied by switches; the NIC reacts to marks (rdma ecn)"] = true
		}
	}
	if bufferSrc(pq) != (schema.Range{}) {
		notes["buffer: PFC headroom and pools are switch-side; the NIC's buffers are not changed"] = true
	}
	return configfsReady, rej.err()
}

// hostProbes lists the capability checks one port's commands need: the
// MLNX_OFED ECN sysfs files (inbox mlx5 has none), mlx5's storm-prevention
// tunable, DCB netlink for dcb, and ice's firmware LLDP agent flag.
func hostProbes(d *schema.Device, p PortView, pq *schema.PortQoS, fl hostFlavour) []HostProbe {
	var out []HostProbe
	rd := d.RDMA
	dev := shellWord(p.Name)
	sysfs := func(rest string) {
		path := "/sys/class/net/" + p.Name + "/ecn/" + rest
		out = append(out, HostProbe{Test: "[ -e " + shellWord(path) + " ]",
			Message: path + " is missing: the ECN sysfs comes with MLNX_OFED's mlx5_core driver, not the kernel's inbox mlx5 (install MLNX_OFED, or use platform linux_dcb)"})
	}
	if fl.mlnx && rd != nil {
		if rd.ECN.Set {
			prio := pq.DSCP[rd.DSCP()].V
			sysfs(fmt.Sprintf("roce_np/enable/%d", prio))
			sysfs(fmt.Sprintf("roce_rp/enable/%d", prio))
		}
		if rd.CNPDSCP.Set {
			sysfs("roce_np/cnp_dscp")
		}
		if rd.CNPPriority.Set {
			sysfs("roce_np/cnp_802p_prio")
		}
	}
	if !fl.mlnx {
		out = append(out, HostProbe{Test: "dcb pfc show dev " + dev + " >/dev/null 2>&1",
			Message: p.Name + " does not answer DCB netlink (dcb pfc show): its driver " + fl.driver + " is not loaded or has no dcbnl support"})
		if fl.driver == "ice" {
			out = append(out, HostProbe{Test: "ethtool --show-priv-flags " + dev + " | grep -q '^fw-lldp-agent'",
				Message: p.Name + " has no private flag fw-lldp-agent: the ice driver provides it, and DCB from the host needs the firmware LLDP agent off"})
		}
	}
	if p.Watchdog && fl.stormGuard() {
		if w := pq.Watchdog.V; w.Detection.Set && w.Detection.V > 0 {
			out = append(out, HostProbe{Test: "ethtool --get-tunable " + dev + " pfc-prevention-tout >/dev/null 2>&1",
				Message: p.Name + " has no ethtool tunable pfc-prevention-tout: the mlx5_core driver provides it (PFC stall prevention)"})
		}
	}
	return out
}

// ethtoolUnchanged follows "ethtool -A": it accepts exit status 78, the
// ioctl path's "no pause parameters changed, aborting", and nothing else.
const ethtoolUnchanged = " || [ $? -eq 78 ]"

// hostPreamble renders set -eu, one presence check per tool and the lookups.
func hostPreamble(v *HostView) string {
	var b strings.Builder
	b.Grow(128 * (len(v.Tools) + len(v.Lookups)))
	b.WriteString("set -eu")
	for _, t := range v.Tools {
		b.WriteString("\ncommand -v ")
		b.WriteString(t.Name)
		b.WriteString(` >/dev/null || { echo `)
		b.WriteString(shellString(v.Device + ": " + t.Name + " not found (" + t.Hint + ")"))
		b.WriteString(` >&2; exit 1; }`)
	}
	for _, p := range v.Probes {
		b.WriteString("\n")
		b.WriteString(p.Test)
		b.WriteString(` || { echo `)
		b.WriteString(shellString(v.Device + ": " + p.Message))
		b.WriteString(` >&2; exit 1; }`)
	}
	for _, l := range v.Lookups {
		b.WriteString("\n")
		b.WriteString(l.Var)
		b.WriteString("=$(")
		b.WriteString(l.Command)
		b.WriteString(")")
	}
	return b.String()
}

// shellVar turns an interface name into a shell variable suffix.
func shellVar(s string) string {
	var b strings.Builder
	for _, c := range s {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// hostQoS renders trust, DSCP map, PFC and ETS for one port.
func hostQoS(d *schema.Device, p PortView, q *schema.PortQoS, fl hostFlavour) ([]string, error) {
	var cmds []string
	trust := q.Trust.V
	dev := shellWord(p.Name)
	var rej refusals
	if fl.mlnx {
		switch trust {
		case schema.TrustDSCP, schema.TrustPCP:
			cmds = append(cmds, "mlnx_qos -i "+dev+" --trust "+string(trust))
		case schema.TrustBoth, schema.TrustNone:
			rej.add(unsupported(d, "trust "+string(trust)+" on "+dev, "mlnx_qos --trust takes pcp or dscp", q.Trust.Src))
		}
		if trust == schema.TrustDSCP {
			for dscp := 0; dscp < 64; dscp++ {
				cmds = append(cmds, fmt.Sprintf("mlnx_qos -i %s --dscp2prio set,%d,%d", dev, dscp, q.DSCP[dscp].V))
			}
		}
		if trust == schema.TrustPCP && pcpRemapped(q) {
			rej.add(unsupported(d, "pcp_map on "+dev, "mlnx_qos has no PCP→priority remap; PCP is the priority", q.PCP[0].Src))
		}
		cmds = append(cmds, "mlnx_qos -i "+dev+" --pfc "+p.PFCVector)
	} else {
		// No "dcb apptrust" for DSCP trust: only lan966x, sparx5 and DSA
		// implement it, and on mlx5, bnxt and ice it fails with EOPNOTSUPP.
		// On those NICs the first DSCP app entry switches the port to DSCP
		// trust (mlx5e_dcbnl_ieee_setapp). PCP and both have no such
		// side door, so they keep apptrust and fail where it is missing.
		if fl.driver == "ice" {
			// ice takes DCB from the host only in software DCBX mode, with the
			// firmware LLDP agent off (kernel Documentation/networking/
			// device_drivers/ethernet/intel/ice.rst, "DCB", "FW-LLDP").
			cmds = append(cmds, "ethtool --set-priv-flags "+dev+" fw-lldp-agent off")
		}
		switch trust {
		case schema.TrustPCP:
			cmds = append(cmds, "dcb apptrust set dev "+dev+" order pcp")
		case schema.TrustBoth:
			cmds = append(cmds, "dcb apptrust set dev "+dev+" order dscp pcp")
		case schema.TrustNone:
			rej.add(unsupported(d, "trust none on "+dev, "dcb apptrust needs at least one selector; a host port classifies by DSCP or PCP", q.Trust.Src))
		}
		if trust != schema.TrustPCP {
			var pairs []string
			for dscp := 0; dscp < 64; dscp++ {
				pairs = append(pairs, fmt.Sprintf("%d:%d", dscp, q.DSCP[dscp].V))
			}
			cmds = append(cmds, "dcb app replace dev "+dev+" dscp-prio "+strings.Join(pairs, " "),
				dcbAppCheck(p.Name, "-N ", "dscp-prio", pairs))
		}
		if trust == schema.TrustPCP || trust == schema.TrustBoth {
			// PCP keys carry the DEI bit (dcb-app(8): 0nd..7nd, 0de..7de);
			// both DEI values get the PCP's priority.
			var pairs, shown []string
			for pcp := 0; pcp < 8; pcp++ {
				pairs = append(pairs, fmt.Sprintf("%dnd:%d %dde:%d", pcp, pcpOf(q, pcp), pcp, pcpOf(q, pcp)))
			}
			for _, dei := range []string{"nd", "de"} {
				for pcp := 0; pcp < 8; pcp++ {
					shown = append(shown, fmt.Sprintf("%d%s:%d", pcp, dei, pcpOf(q, pcp)))
				}
			}
			cmds = append(cmds, "dcb app replace dev "+dev+" pcp-prio "+strings.Join(pairs, " "),
				dcbAppCheck(p.Name, "", "pcp-prio", shown))
		}
		var pfc []string
		for pr := 0; pr < 8; pr++ {
			on := "off"
			if p.Lossless.Has(pr) {
				on = "on"
			}
			pfc = append(pfc, fmt.Sprintf("%d:%s", pr, on))
		}
		cmds = append(cmds, "dcb pfc set dev "+dev+" prio-pfc "+strings.Join(pfc, " "))
	}
	ets, err := hostETS(d, dev, q, fl)
	if !rej.add(err) {
		return nil, err
	}
	if err := rej.err(); err != nil {
		return nil, err
	}
	return append(cmds, ets...), nil
}

// dcbAppCheck reads the app table back after "dcb app replace", which exits
// 0 even when the kernel refuses an entry (dcb/dcb_app.c), and stops the
// script unless the table is exactly want. "dcb app show" prints the
// selector, then KEY:PRIO each followed by a space, sorted by key
// (dscp-prio with -N for numbers; pcp-prio keys as 0nd..7nd, 0de..7de).
// name is the interface name, quoted here for each place it goes.
func dcbAppCheck(name, flags, sel string, want []string) string {
	msg := name + ": dcb app " + sel + " did not take"
	quoted := `"` + msg + `"`
	if name != hostDevMark {
		quoted = shellString(msg)
	}
	return `[ "$(dcb ` + flags + `app show dev ` + shellWord(name) + ` ` + sel + `)" = "` + sel + ` ` + strings.Join(want, " ") +
		` " ] || { echo ` + quoted + ` >&2; exit 1; }`
}

func pcpOf(q *schema.PortQoS, pcp int) int {
	if q.PCP[pcp].Set {
		return q.PCP[pcp].V
	}
	return pcp
}

func pcpRemapped(q *schema.PortQoS) bool {
	for i := range q.PCP {
		if pcpOf(q, i) != i {
			return true
		}
	}
	return false
}

// hostETS renders priority→TC, transmission selection and bandwidth, plus
// per-TC rate limits for shapers.
func hostETS(d *schema.Device, dev string, q *schema.PortQoS, fl hostFlavour) ([]string, error) {
	var prioTC, tsa, bw []string
	var rej refusals
	sum, any := 0, false
	for pr := 0; pr < 8; pr++ {
		qu := q.Queue[pr].V
		if !q.Queue[pr].Set {
			qu = pr
		}
		prioTC = append(prioTC, strconv.Itoa(qu))
	}
	for tc := 0; tc < 8; tc++ {
		qq := q.Queues[tc]
		switch qq.Sched.V {
		case schema.SchedStrict:
			tsa = append(tsa, "strict")
			bw = append(bw, "0")
			any = true
		default:
			tsa = append(tsa, "ets")
			bw = append(bw, strconv.Itoa(qq.Weight.V))
			sum += qq.Weight.V
			if qq.Sched.Set || qq.Weight.Set {
				any = true
			}
		}
	}
	var cmds []string
	if fl.mlnx {
		cmds = append(cmds, "mlnx_qos -i "+dev+" --prio_tc "+strings.Join(prioTC, ","))
	}
	if any {
		if sum != 100 {
			rej.add(unsupported(d, fmt.Sprintf("ETS weights summing to %d%% on %s", sum, dev),
				"NIC ETS bandwidths of the ETS traffic classes must add up to exactly 100; adjust the weights", subjectOrRange(q.WeightSumSource(), firstSchedSrc(q))))
		}
		if fl.mlnx {
			cmds = append(cmds, "mlnx_qos -i "+dev+" --tsa "+strings.Join(tsa, ",")+" --tcbw "+strings.Join(bw, ","))
		} else {
			var pt, ts, tb []string
			for i := 0; i < 8; i++ {
				pt = append(pt, fmt.Sprintf("%d:%s", i, prioTC[i]))
				ts = append(ts, fmt.Sprintf("%d:%s", i, tsa[i]))
				tb = append(tb, fmt.Sprintf("%d:%s", i, bw[i]))
			}
			cmds = append(cmds, "dcb ets set dev "+dev+" prio-tc "+strings.Join(pt, " ")+" tc-tsa "+strings.Join(ts, " ")+" tc-bw "+strings.Join(tb, " "))
		}
	} else if !fl.mlnx {
		var pt []string
		for i := 0; i < 8; i++ {
			pt = append(pt, fmt.Sprintf("%d:%s", i, prioTC[i]))
		}
		cmds = append(cmds, "dcb ets set dev "+dev+" prio-tc "+strings.Join(pt, " "))
	}
	var rates []string
	shaped := false
	for tc := 0; tc < 8; tc++ {
		s := q.Queues[tc].Shaper.V
		if s > 0 {
			shaped = true
			if fl.mlnx && s%1_000_000_000 != 0 {
				rej.add(unsupported(d, fmt.Sprintf("queue %d shaper %s on %s", tc, bps(s), dev), "mlnx_qos --ratelimit takes whole Gb/s", q.Queues[tc].Shaper.Src))
			}
		}
		if fl.mlnx {
			rates = append(rates, strconv.FormatInt(s/1_000_000_000, 10))
		} else if s > 0 {
			rates = append(rates, fmt.Sprintf("%d:%dbit", tc, s))
		}
	}
	if shaped {
		if fl.mlnx {
			cmds = append(cmds, "mlnx_qos -i "+dev+" --ratelimit "+strings.Join(rates, ","))
		} else {
			cmds = append(cmds, "dcb maxrate set dev "+dev+" tc-maxrate "+strings.Join(rates, " "))
		}
	}
	return cmds, rej.err()
}

// hostRDMA renders RoCE ToS, RoCE mode, and DCQCN enablement and CNP marking.
//
// linux_dcb writes the rdma_cm configfs directly; its attributes exist only
// with rdma_cm loaded and configfs mounted (kernel Documentation/ABI/testing/
// configfs-rdma_cm), so the first port with a ToS (setup true) loads and
// mounts them first, as mlnx-tools' cma_roce_tos does for the mount.
func hostRDMA(d *schema.Device, p PortView, q *schema.PortQoS, rd *schema.RDMA, fl hostFlavour, ibvar string, setup bool) ([]string, error) {
	var cmds []string
	dev := p.Name
	sysfs := func(rest string) string { return shellWord("/sys/class/net/" + dev + "/ecn/" + rest) }
	var rej refusals
	if rd.Transport.V == schema.TransportIWARP && fl.mlnx {
		// NVIDIA/Mellanox ConnectX adapters implement RoCE and InfiniBand, not iWARP.
		rej.add(unsupported(d, "rdma transport iwarp", "ConnectX NICs (nvidia_mlnx) speak RoCE, not iWARP; use platform linux_dcb for an iWARP NIC", rd.Transport.Src))
	}
	if rd.RoCEMode.Set && fl.mlnx {
		mode := map[string]string{"v1": "1", "v2": "2"}[rd.RoCEMode.V]
		if mode == "" {
			rej.add(unsupported(d, "rdma roce_mode "+rd.RoCEMode.V, "cma_roce_mode takes v1 or v2", rd.RoCEMode.Src))
		} else {
			cmds = append(cmds, fmt.Sprintf(`cma_roce_mode -d "$%s" -p 1 -m %s`, ibvar, mode))
		}
	} else if rd.RoCEMode.Set && rd.RoCEMode.V != "v2" {
		rej.add(unsupported(d, "rdma roce_mode "+rd.RoCEMode.V, "upstream rdma_cm uses RoCE v2 where the GID allows; fabricgen has no vendor-neutral switch for v1", rd.RoCEMode.Src))
	}
	if rd.ToS.Set {
		if fl.mlnx {
			cmds = append(cmds, fmt.Sprintf(`cma_roce_tos -d "$%s" -t %d`, ibvar, rd.ToS.V))
		} else {
			if setup {
				cmds = append(cmds, "modprobe rdma_cm", "mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config")
			}
			cmds = append(cmds,
				fmt.Sprintf(`mkdir -p "/sys/kernel/config/rdma_cm/$%s"`, ibvar),
				fmt.Sprintf(`echo %d > "/sys/kernel/config/rdma_cm/$%s/ports/1/default_roce_tos"`, rd.ToS.V, ibvar))
		}
	}
	if !fl.mlnx {
		if rd.ECN.Set && rd.ECN.V {
			rej.add(unsupported(d, "rdma ecn on "+dev, "linux_dcb has no vendor-neutral DCQCN switch; use platform nvidia_mlnx for ConnectX NICs", rd.ECN.Src))
		}
		if rd.CNPDSCP.Set || rd.CNPPriority.Set {
			rej.add(unsupported(d, "rdma cnp_dscp/cnp_priority on "+dev, "linux_dcb has no vendor-neutral CNP marking setting; use platform nvidia_mlnx for ConnectX NICs", subjectOrRange(rd.CNPDSCP.Src, rd.CNPPriority.Src)))
		}
		return cmds, rej.err()
	}
	if rd.ECN.Set {
		prio := q.DSCP[rd.DSCP()].V
		on := "0"
		if rd.ECN.V {
			on = "1"
		}
		cmds = append(cmds,
			fmt.Sprintf("echo %s > %s", on, sysfs(fmt.Sprintf("roce_np/enable/%d", prio))),
			fmt.Sprintf("echo %s > %s", on, sysfs(fmt.Sprintf("roce_rp/enable/%d", prio))))
	}
	if rd.CNPDSCP.Set {
		cmds = append(cmds, fmt.Sprintf("echo %d > %s", rd.CNPDSCP.V, sysfs("roce_np/cnp_dscp")))
	}
	if rd.CNPPriority.Set {
		cmds = append(cmds, fmt.Sprintf("echo %d > %s", rd.CNPPriority.V, sysfs("roce_np/cnp_802p_prio")))
	}
	return cmds, rej.err()
}
