// Package hostrender is the view builder the two host platforms share
// (nvidia_mlnx, linux_dcb): one bash script per host, each platform
// folder giving its own flavour and templates.
package hostrender

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fabricgen/fabricgen/platforms/internal/hostspec"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// HostView is the nvidia_mlnx and linux_dcb template data: a bash script
// whose state-changing lines are each one simple command.
type HostView struct {
	view.Base
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

// HostInterface is one port's commands. Text holds them one per line, as
// the "interface" template renders the port's HostStanza (what the
// embedded device templates print); Commands splits it for templates that
// want each command on its own ({{range .Commands}}). Name is the raw port
// name, for comments ({{oneline .Name}}); commands take the quoted words
// of the HostStanza.
type HostInterface struct {
	Name string
	Text string
}

// HostStanza is what the host platforms' "interface" template receives:
// one port's settings. Every word derived from a name that reaches the
// shell (the interface, the sysfs files under it, the messages naming it)
// is quoted in Go, and the view holds no unquoted name: a template prints
// the words as they are and cannot drop the quoting by picking the wrong
// field.
type HostStanza struct {
	// Word is the interface name as one shell word (quoted when it needs it).
	Word string
	// IBDev names the shell variable the preamble sets to the port's RDMA
	// device ("ibdev_eth0"; a template writes "${{.IBDev}}").
	IBDev string
	// MTU is the link MTU (0: not set).
	MTU int
	// Pause is "on" or "off" for the 802.3x pause line, "" for none (a
	// port without QoS).
	Pause string
	// QoS is true when the port has a QoS policy; the fields from Trust to
	// StormTimeout are set only then.
	QoS bool
	// Trust is the intent's trust: "dscp", "pcp", "both" ("" unset).
	Trust string
	// DSCP is DSCP→priority for the 64 code points (a host classifies by
	// PCP only as the identity: mlnx_qos --trust pcp).
	DSCP []int
	// Lossless is the port's lossless priorities: the templates print it
	// per priority (.PFC) or as mlnx_qos's 0/1 vector (.PFCVector).
	Lossless schema.PrioSet
	// PrioTC is priority→traffic class.
	PrioTC []int
	// ETS is true when the intent schedules a queue; TSA ("strict", "ets")
	// and BW (percent, 0 for strict) are per traffic class.
	ETS bool
	TSA []string
	BW  []int
	// Shaped is true when a traffic class has a rate cap: Shaper holds it
	// per class in bit/s (0: none), ShaperGbps in whole Gb/s.
	Shaped             bool
	Shaper, ShaperGbps []int64
	// LLDPOff is true on ice (linux_dcb): host DCB needs the firmware LLDP
	// agent off.
	LLDPOff bool
	// DSCPCheckMessage is the quoted message of the linux_dcb read-back
	// check after "dcb app replace".
	DSCPCheckMessage string
	// RoCEMode is "v1" or "v2" when the intent sets it (nvidia_mlnx:
	// cma_roce_mode), else "".
	RoCEMode string
	// HasToS says whether the intent sets the rdma_cm type of service ToS;
	// ConfigfsSetup is true on the first linux_dcb port with one (it loads
	// rdma_cm and mounts configfs).
	HasToS        bool
	ToS           int
	ConfigfsSetup bool
	// ECNSet says whether the intent sets rdma ecn (nvidia_mlnx), ECN its
	// value; ECNNotify and ECNReact are the quoted sysfs files of the RoCE
	// priority (roce_np/enable/P, roce_rp/enable/P).
	ECNSet, ECN         bool
	ECNNotify, ECNReact string
	// HasCNPDSCP, CNPDSCP and CNPDSCPFile: the CNP marking DSCP and its
	// quoted sysfs file (nvidia_mlnx); the same for the CNP priority.
	HasCNPDSCP      bool
	CNPDSCP         int
	CNPDSCPFile     string
	HasCNPPriority  bool
	CNPPriority     int
	CNPPriorityFile string
	// StormTimeout is mlx5's pfc-prevention-tout in ms (0: not set).
	StormTimeout int64
}

// hostIfKey is what a HostStanza is a function of besides the port name:
// the key of its cached stanza (and, with the name, of its filled text).
type hostIfKey struct {
	q     *schema.PortQoS
	fl    Flavour
	rdma  hostRDMAKey
	setup bool
	mtu   int
	pause string
}

// hostRDMAKey is the part of an rdma block the port commands depend on
// (without source ranges: NICs of one fabric share it).
type hostRDMAKey struct {
	present                   bool
	transport                 schema.Transport
	mode                      schema.Value[string]
	tos, cnpDSCP, cnpPriority schema.Value[int]
	ecn                       schema.Value[bool]
}

func rdmaKey(rd *schema.RDMA) hostRDMAKey {
	if rd == nil {
		return hostRDMAKey{}
	}
	strip := func(v schema.Value[int]) schema.Value[int] { return schema.Value[int]{V: v.V, Set: v.Set} }
	return hostRDMAKey{present: true, transport: rd.Transport.V,
		mode: schema.Value[string]{V: rd.RoCEMode.V, Set: rd.RoCEMode.Set},
		tos:  strip(rd.ToS), cnpDSCP: strip(rd.CNPDSCP), cnpPriority: strip(rd.CNPPriority),
		ecn: schema.Value[bool]{V: rd.ECN.V, Set: rd.ECN.Set}}
}

// hostMarked is h with its name-derived words replaced by marks.
func hostMarked(h HostStanza) HostStanza {
	h.Word, h.IBDev = view.Mark(0, h.Word), view.Mark(1, h.IBDev)
	h.ECNNotify, h.ECNReact = view.Mark(2, h.ECNNotify), view.Mark(3, h.ECNReact)
	h.CNPDSCPFile, h.CNPPriorityFile = view.Mark(4, h.CNPDSCPFile), view.Mark(5, h.CNPPriorityFile)
	h.DSCPCheckMessage = view.Mark(6, h.DSCPCheckMessage)
	return h
}

// PFC says per priority whether PFC is on, priority 0 first: the
// templates' .PFC.
func (h *HostStanza) PFC() []bool {
	f := h.Lossless.Flags()
	return f[:]
}

// PFCVector is the same as 0/1 joined by commas ("0,0,0,1,0,0,0,0"): the
// templates' .PFCVector.
func (h *HostStanza) PFCVector() string { return h.Lossless.Vector() }

// identity lists h's name-derived words in the order of hostMarked.
func (h *HostStanza) identity() []string {
	return []string{h.Word, h.IBDev, h.ECNNotify, h.ECNReact, h.CNPDSCPFile, h.CNPPriorityFile, h.DSCPCheckMessage}
}

// Commands returns the interface's commands, one per element.
func (h HostInterface) Commands() []string {
	if h.Text == "" {
		return nil
	}
	return strings.Split(h.Text, "\n")
}

// Flavour is what sets one host platform's script apart from the other's:
// each host folder's view builder passes its own.
type Flavour struct {
	// MLNX is true for MLNX_OFED's tools (mlnx_qos, cma_roce_tos), false
	// for iproute2 dcb and the kernel's configfs.
	MLNX bool
	// Driver is the NIC's kernel driver: mlx5_core (nvidia_mlnx: MLNX_OFED's),
	// ice or bnxt_en.
	Driver string
}

// stormGuard reports whether the driver has the ethtool tunable
// pfc-prevention-tout (mlx5 only: "net/mlx5e: PFC stall prevention support").
func (fl Flavour) stormGuard() bool { return fl.Driver == hostspec.DefaultDriver }

// hostRDMADrivers names the RDMA driver that gives each NIC driver its
// infiniband device.
var hostRDMADrivers = map[string]string{"mlx5_core": "mlx5_ib", "ice": "irdma", "bnxt_en": "bnxt_re"}

// Build is the host platforms' view builder: the script's view for
// device d, with the flavour fl of the platform.
func Build(f *schema.Fabric, d *schema.Device, b view.Base, fl Flavour) (any, error) {
	v := &HostView{Base: b}
	rd := d.RDMA
	v.Tools = hostTools(d, fl)
	needIB := rd != nil && (rd.ToS.Set || (rd.RoCEMode.Set && fl.MLNX))
	// configfsReady is set once the linux_dcb script has loaded rdma_cm and
	// mounted configfs; later ports need not repeat it.
	configfsReady := false
	notes := map[string]bool{}
	var rej view.Collector // every refusal of the device, not only the first
	for i, p := range b.Ports {
		pq := d.Ports[i].QoS
		ibvar := "ibdev_" + shellVar(p.Name)
		if needIB {
			ibdir := "/sys/class/net/" + p.Name + "/device/infiniband"
			v.Probes = append(v.Probes, HostProbe{Test: "[ -d " + view.ShellWord(ibdir) + " ]",
				Message: p.Name + " has no RDMA device (" + ibdir + "): load " + hostRDMADrivers[fl.Driver] + ", the RDMA driver of " + fl.Driver})
			v.Lookups = append(v.Lookups, HostLookup{Var: ibvar, Command: "find " + view.ShellWord(ibdir) + " -mindepth 1 -maxdepth 1 -printf '%f'"})
		}
		if pq != nil {
			v.Probes = append(v.Probes, hostProbes(d, p, pq, fl)...)
			hostNotes(p, pq, fl, notes)
		}
		setup := pq != nil && rd != nil && rd.ToS.Set && !fl.MLNX && !configfsReady
		key := hostIfKey{q: pq, fl: fl, rdma: rdmaKey(rd), setup: setup, mtu: p.MTU, pause: hostPause(p, pq)}
		text, err := hostInterfaceText(b.Stanzas, d, p, pq, key, ibvar)
		if !rej.Add(err) {
			return nil, err
		}
		configfsReady = configfsReady || setup
		v.Interfaces = append(v.Interfaces, HostInterface{Name: p.Name, Text: strings.TrimPrefix(text, "\n")})
	}
	if rd != nil && rd.PathMTU.Set {
		notes[fmt.Sprintf("rdma path_mtu %d: applications set it per QP; rdma_cm derives it from the interface MTU", rd.PathMTU.V)] = true
	}
	for n := range notes {
		v.Notes = append(v.Notes, n)
	}
	view.SortStrings(v.Notes)
	v.Preamble = hostPreamble(v)
	return v, rej.Err()
}

// hostInterfaceText renders one port's commands through the "interface"
// template. A stanza is a function of its key and the port name, so ports
// of one name and key (NICs mostly share "eth0") share the rendered text,
// and the view is built only when it is not cached yet: a cached text had
// no refusal, and neither has a port of the same key.
func hostInterfaceText(st *view.StanzaSet, d *schema.Device, p view.PortView, pq *schema.PortQoS, key hostIfKey, ibvar string) (string, error) {
	if text, ok := st.CachedNamed("interface", key, p.Name); ok {
		return text, nil
	}
	h, err := hostStanza(d, p, pq, key, ibvar)
	if err != nil {
		// Render nothing, and cache nothing, for a refused port.
		return "", err
	}
	text, err := view.RenderStanza(st, "interface", key, &h, hostMarked, h.identity()...)
	if err != nil {
		return "", fmt.Errorf("device %s interface %s: %w", d.Name, p.Name, err)
	}
	st.StoreNamed("interface", key, p.Name, text)
	return text, nil
}

// hostPause is the port's 802.3x pause setting: "on" or "off", or "" for
// a port without QoS (no pause line). The templates print it as "ethtool
// -A IF rx P tx P || [ $? -eq 78 ]": ethtool -A exits 78 ("no pause
// parameters changed, aborting") when nothing changes on the ioctl path
// (ethtool before 5.6, or a kernel without ethtool netlink), and only that
// status is accepted, so a re-run passes and a real failure still stops
// the script.
func hostPause(p view.PortView, pq *schema.PortQoS) string {
	switch {
	case p.LinkPause:
		return "on"
	case pq != nil:
		return "off"
	}
	return ""
}

// hostStanza builds the "interface" template's view of one port, with
// every refusal of its values.
func hostStanza(d *schema.Device, p view.PortView, pq *schema.PortQoS, key hostIfKey, ibvar string) (HostStanza, error) {
	h := HostStanza{Word: view.ShellWord(p.Name), IBDev: ibvar, MTU: p.MTU, Pause: key.pause}
	if pq == nil {
		return h, nil
	}
	var rej view.Collector
	if p.LinkPause && p.Lossless != 0 {
		rej.Add(view.Unsupported(d, "link_pause with PFC on "+p.Name, "a NIC port runs either 802.3x pause or PFC; turn one off", pq.LinkPause.Src))
	}
	h.QoS = true
	rej.Add(hostStanzaQoS(&h, d, p, pq, key.fl))
	rej.Add(hostStanzaETS(&h, d, pq, key.fl))
	if rd := d.RDMA; rd != nil {
		rej.Add(hostStanzaRDMA(&h, d, p, pq, rd, key.fl))
		h.ConfigfsSetup = key.setup
	}
	if p.Watchdog && key.fl.stormGuard() {
		if w := pq.Watchdog.V; w.Detection.Set && w.Detection.V > 0 {
			tout := view.Millis(w.Detection.V)
			if key.fl.MLNX && (tout < 80 || tout > 8000) {
				rej.Add(view.Unsupported(d, fmt.Sprintf("pfc_watchdog %s detection %d ms on %s", w.Name, tout, p.Name),
					"mlx5 takes pfc-prevention-tout from 80 to 8000 ms; give the watchdog a detection time in that range", w.Detection.Src))
			}
			h.StormTimeout = tout
		}
	}
	return h, rej.Err()
}

// hostNotes records the intent values of one port a NIC does not apply.
// Each note names the values it leaves out (the watchdog's timers, the ECN
// profile's curve), so that fabricgen import can read them back from the
// script and render it again unchanged.
func hostNotes(p view.PortView, pq *schema.PortQoS, fl Flavour, notes map[string]bool) {
	if p.Watchdog {
		w := pq.Watchdog.V
		if !fl.stormGuard() {
			notes["pfc_watchdog "+w.Name+watchdogValues(w)+": "+fl.Driver+" has no NIC pause-storm guard (ethtool pfc-prevention-tout is mlx5-only); the switch watchdog covers the port"] = true
		} else if w.Restoration.Set || w.PollInterval.Set || (w.Action.Set && w.Action.V != schema.WatchdogDrop) {
			notes["pfc_watchdog "+w.Name+watchdogValues(w)+": the NIC's PFC storm prevention takes only a timeout (pfc-prevention-tout = detection); restoration, poll_interval and action are switch-side"] = true
		}
	}
	for qid, qq := range pq.Queues {
		if e := qq.ECN.V; e != nil {
			notes["queue "+strconv.Itoa(qid)+" ecn_profile "+e.Name+ecnValues(e)+": an ECN marking curve is applied by switches; the NIC reacts to marks (rdma ecn)"] = true
		}
	}
	if view.BufferSrc(pq) != (schema.Range{}) {
		notes["buffer"+bufferValues(pq.Buffer)+": PFC headroom and pools are switch-side; the NIC's buffers are not changed"] = true
	}
}

// watchdogValues lists a watchdog's timers and action as a note prints
// them: " (detection 200ms, poll_interval 100ms, action drop)", or "".
func watchdogValues(w *schema.Watchdog) string {
	var vals []string
	for _, t := range []struct {
		name string
		v    schema.Value[time.Duration]
	}{{"detection", w.Detection}, {"restoration", w.Restoration}, {"poll_interval", w.PollInterval}} {
		if t.v.Set {
			vals = append(vals, fmt.Sprintf("%s %dms", t.name, t.v.V/time.Millisecond))
		}
	}
	if w.Action.Set {
		vals = append(vals, "action "+string(w.Action.V))
	}
	return noteValues(vals)
}

// ecnValues lists an ECN profile's curve as a note prints it: " (min_threshold
// 153600B, max_threshold 1536000B, max_probability 100, mode ecn)"; the
// mode always (ecn unless the profile drops).
func ecnValues(e *schema.ECNProfile) string {
	var vals []string
	if e.Min.Set {
		vals = append(vals, fmt.Sprintf("min_threshold %dB", e.Min.V))
	}
	if e.Max.Set {
		vals = append(vals, fmt.Sprintf("max_threshold %dB", e.Max.V))
	}
	// The probability and the mode always: unset, they are their
	// defaults (100, ecn), which import gives back as values.
	vals = append(vals, fmt.Sprintf("max_probability %d", e.Probability.V))
	if e.MinFill.Set {
		vals = append(vals, fmt.Sprintf("min_fill_level %d", e.MinFill.V))
	}
	if e.MaxFill.Set {
		vals = append(vals, fmt.Sprintf("max_fill_level %d", e.MaxFill.V))
	}
	mode := "drop"
	if e.Mark.V {
		mode = "ecn"
	}
	vals = append(vals, "mode "+mode)
	return noteValues(vals)
}

// bufferValues lists the buffer values a policy sets as a note prints
// them: " (headroom 20480B, xoff 10240B, dynamic_threshold 1)".
func bufferValues(b schema.BufferSpec) string {
	var vals []string
	for _, v := range []struct {
		name string
		v    schema.Value[int64]
	}{{"headroom", b.Headroom}, {"xoff", b.XOFF}, {"xon", b.XON}, {"ingress_lossless_pool", b.IngressLosslessPool}, {"egress_lossy_pool", b.EgressLossyPool}} {
		if v.v.Set {
			vals = append(vals, fmt.Sprintf("%s %dB", v.name, v.v.V))
		}
	}
	if b.DynamicThreshold.Set {
		vals = append(vals, fmt.Sprintf("dynamic_threshold %d", b.DynamicThreshold.V))
	}
	return noteValues(vals)
}

func noteValues(vals []string) string {
	if len(vals) == 0 {
		return ""
	}
	return " (" + strings.Join(vals, ", ") + ")"
}

// hostTools lists the commands the script needs, with install hints.
func hostTools(d *schema.Device, fl Flavour) []HostTool {
	tools := []HostTool{{"ip", "install iproute2"}, {"ethtool", "install ethtool"}}
	rd := d.RDMA
	if fl.MLNX {
		tools = append(tools, HostTool{"mlnx_qos", "install MLNX_OFED or mlnx-tools"})
	} else {
		// dcb app (and its -N) came with iproute2 5.12 (dcb-app(8)).
		tools = append(tools, HostTool{"dcb", "install iproute2 5.12 or later"})
		if fl.Driver == "ice" {
			tools = append(tools, HostTool{"grep", "install grep"})
		}
		if rd != nil && rd.ToS.Set {
			tools = append(tools, HostTool{"modprobe", "install kmod"}, HostTool{"mountpoint", "install util-linux"})
		}
	}
	if rd != nil && rd.ToS.Set && fl.MLNX {
		tools = append(tools, HostTool{"cma_roce_tos", "install MLNX_OFED or mlnx-tools"})
	}
	if rd != nil && rd.RoCEMode.Set && fl.MLNX {
		tools = append(tools, HostTool{"cma_roce_mode", "install MLNX_OFED or mlnx-tools"})
	}
	return tools
}

// hostProbes lists the capability checks one port's commands need: the
// MLNX_OFED ECN sysfs files (inbox mlx5 has none), mlx5's storm-prevention
// tunable, DCB netlink for dcb, and ice's firmware LLDP agent flag.
func hostProbes(d *schema.Device, p view.PortView, pq *schema.PortQoS, fl Flavour) []HostProbe {
	var out []HostProbe
	rd := d.RDMA
	dev := view.ShellWord(p.Name)
	sysfs := func(rest string) {
		path := "/sys/class/net/" + p.Name + "/ecn/" + rest
		out = append(out, HostProbe{Test: "[ -e " + view.ShellWord(path) + " ]",
			Message: path + " is missing: the ECN sysfs comes with MLNX_OFED's mlx5_core driver, not the kernel's inbox mlx5 (install MLNX_OFED, or use platform linux_dcb)"})
	}
	if fl.MLNX && rd != nil {
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
	if !fl.MLNX {
		out = append(out, HostProbe{Test: "dcb pfc show dev " + dev + " >/dev/null 2>&1",
			Message: p.Name + " does not answer DCB netlink (dcb pfc show): its driver " + fl.Driver + " is not loaded or has no dcbnl support"})
		if fl.Driver == "ice" {
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

// hostPreamble renders set -eu, one presence check per tool and the lookups.
func hostPreamble(v *HostView) string {
	var b strings.Builder
	b.Grow(128 * (len(v.Tools) + len(v.Lookups)))
	b.WriteString("set -eu")
	for _, t := range v.Tools {
		b.WriteString("\ncommand -v ")
		b.WriteString(t.Name)
		b.WriteString(` >/dev/null || { echo `)
		b.WriteString(view.ShellString(v.Device + ": " + t.Name + " not found (" + t.Hint + ")"))
		b.WriteString(` >&2; exit 1; }`)
	}
	for _, p := range v.Probes {
		b.WriteString("\n")
		b.WriteString(p.Test)
		b.WriteString(` || { echo `)
		b.WriteString(view.ShellString(v.Device + ": " + p.Message))
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

// hostStanzaQoS sets trust, the DSCP map and PFC.
func hostStanzaQoS(h *HostStanza, d *schema.Device, p view.PortView, q *schema.PortQoS, fl Flavour) error {
	trust := q.Trust.V
	h.Trust = string(trust)
	var rej view.Collector
	h.DSCP = make([]int, len(q.DSCP))
	for dscp := range q.DSCP {
		h.DSCP[dscp] = q.DSCP[dscp].V
	}
	h.Lossless = p.Lossless
	if fl.MLNX {
		switch trust {
		case schema.TrustBoth, schema.TrustNone:
			rej.Add(view.Unsupported(d, "trust "+string(trust)+" on "+h.Word, "mlnx_qos --trust takes pcp or dscp", q.Trust.Src))
		case schema.TrustPCP:
			if pcpRemapped(q) {
				rej.Add(view.Unsupported(d, "pcp_map on "+h.Word, "mlnx_qos has no PCP→priority remap; PCP is the priority", q.PCP[0].Src))
			}
		}
		return rej.Err()
	}
	// No "dcb apptrust": only lan966x, sparx5 and DSA switch ports
	// implement dcbnl_setapptrust, and on mlx5, bnxt and ice it fails with
	// EOPNOTSUPP. On those NICs the first DSCP app entry switches the port
	// to DSCP trust (mlx5e_dcbnl_ieee_setapp); PCP and both have no such
	// side door, so a script for them would stop at its first dcb line.
	switch trust {
	case schema.TrustNone:
		rej.Add(view.Unsupported(d, "trust none on "+h.Word, "a linux_dcb port classifies by DSCP (its DSCP app entries); set trust = \"dscp\"", q.Trust.Src))
	case schema.TrustPCP, schema.TrustBoth:
		fix := "set trust = \"dscp\""
		if fl.Driver == "mlx5_core" {
			fix += ", or platform = \"nvidia_mlnx\" (mlnx_qos --trust pcp, which mlnx-tools also runs on the inbox mlx5 driver)"
		}
		rej.Add(view.Unsupported(d, "trust "+string(trust)+" on "+h.Word,
			"PCP trust needs dcb apptrust, which "+fl.Driver+" does not implement (the kernel answers EOPNOTSUPP; only lan966x, sparx5 and DSA switch ports do); "+fix, q.Trust.Src))
	}
	// ice takes DCB from the host only in software DCBX mode, with the
	// firmware LLDP agent off (kernel Documentation/networking/
	// device_drivers/ethernet/intel/ice.rst, "DCB", "FW-LLDP").
	h.LLDPOff = fl.Driver == "ice"
	// "dcb app replace" exits 0 even when the kernel refuses an entry
	// (dcb/dcb_app.c): the script reads the table back and stops unless
	// it is exactly what was written, naming the port.
	h.DSCPCheckMessage = view.ShellString(p.Name + ": dcb app dscp-prio did not take")
	return rej.Err()
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

// hostStanzaETS sets priority→TC, transmission selection and bandwidth,
// and the per-TC rate limits of shapers.
func hostStanzaETS(h *HostStanza, d *schema.Device, q *schema.PortQoS, fl Flavour) error {
	var rej view.Collector
	sum := 0
	h.PrioTC, h.TSA, h.BW = make([]int, 8), make([]string, 8), make([]int, 8)
	for pr := 0; pr < 8; pr++ {
		h.PrioTC[pr] = pr
		if q.Queue[pr].Set {
			h.PrioTC[pr] = q.Queue[pr].V
		}
	}
	for tc := 0; tc < 8; tc++ {
		qq := q.Queues[tc]
		switch qq.Sched.V {
		case schema.SchedStrict:
			h.TSA[tc] = "strict"
			h.ETS = true
		default:
			h.TSA[tc] = "ets"
			h.BW[tc] = qq.Weight.V
			sum += qq.Weight.V
			if qq.Sched.Set || qq.Weight.Set {
				h.ETS = true
			}
		}
	}
	if h.ETS && sum != 100 {
		rej.Add(view.Unsupported(d, fmt.Sprintf("ETS weights summing to %d%% on %s", sum, h.Word),
			"NIC ETS bandwidths of the ETS traffic classes must add up to exactly 100; adjust the weights", view.SubjectOrRange(q.WeightSumSource(), view.FirstSchedSrc(q))))
	}
	h.Shaper, h.ShaperGbps = make([]int64, 8), make([]int64, 8)
	for tc := 0; tc < 8; tc++ {
		s := q.Queues[tc].Shaper.V
		if s <= 0 {
			continue
		}
		h.Shaped = true
		h.Shaper[tc], h.ShaperGbps[tc] = s, s/1_000_000_000
		if fl.MLNX && s%1_000_000_000 != 0 {
			rej.Add(view.Unsupported(d, fmt.Sprintf("queue %d shaper %s on %s", tc, view.Bps(s), h.Word), "mlnx_qos --ratelimit takes whole Gb/s", q.Queues[tc].Shaper.Src))
		}
	}
	return rej.Err()
}

// hostStanzaRDMA sets RoCE mode, ToS, and DCQCN enablement and CNP
// marking (nvidia_mlnx), refusing what the platform has no setting for.
//
// linux_dcb writes the rdma_cm configfs directly; its attributes exist only
// with rdma_cm loaded and configfs mounted (kernel Documentation/ABI/testing/
// configfs-rdma_cm), so the first port with a ToS (ConfigfsSetup) loads and
// mounts them first, as mlnx-tools' cma_roce_tos does for the mount.
func hostStanzaRDMA(h *HostStanza, d *schema.Device, p view.PortView, q *schema.PortQoS, rd *schema.RDMA, fl Flavour) error {
	dev := p.Name
	sysfs := func(rest string) string { return view.ShellWord("/sys/class/net/" + dev + "/ecn/" + rest) }
	var rej view.Collector
	if rd.Transport.V == schema.TransportIWARP && fl.MLNX {
		// NVIDIA/Mellanox ConnectX adapters implement RoCE and InfiniBand, not iWARP.
		rej.Add(view.Unsupported(d, "rdma transport iwarp", "ConnectX NICs (nvidia_mlnx) speak RoCE, not iWARP; use platform linux_dcb for an iWARP NIC", rd.Transport.Src))
	}
	switch {
	case rd.RoCEMode.Set && fl.MLNX:
		if rd.RoCEMode.V != "v1" && rd.RoCEMode.V != "v2" {
			rej.Add(view.Unsupported(d, "rdma roce_mode "+rd.RoCEMode.V, "cma_roce_mode takes v1 or v2", rd.RoCEMode.Src))
		} else {
			h.RoCEMode = rd.RoCEMode.V
		}
	case rd.RoCEMode.Set && rd.RoCEMode.V != "v2":
		rej.Add(view.Unsupported(d, "rdma roce_mode "+rd.RoCEMode.V, "upstream rdma_cm uses RoCE v2 where the GID allows; fabricgen has no vendor-neutral switch for v1", rd.RoCEMode.Src))
	}
	h.HasToS, h.ToS = rd.ToS.Set, rd.ToS.V
	if !fl.MLNX {
		if rd.ECN.Set && rd.ECN.V {
			rej.Add(view.Unsupported(d, "rdma ecn on "+dev, "linux_dcb has no vendor-neutral DCQCN switch; use platform nvidia_mlnx for ConnectX NICs", rd.ECN.Src))
		}
		if rd.CNPDSCP.Set || rd.CNPPriority.Set {
			rej.Add(view.Unsupported(d, "rdma cnp_dscp/cnp_priority on "+dev, "linux_dcb has no vendor-neutral CNP marking setting; use platform nvidia_mlnx for ConnectX NICs", view.SubjectOrRange(rd.CNPDSCP.Src, rd.CNPPriority.Src)))
		}
		return rej.Err()
	}
	if rd.ECN.Set {
		prio := q.DSCP[rd.DSCP()].V
		h.ECNSet, h.ECN = true, rd.ECN.V
		h.ECNNotify, h.ECNReact = sysfs(fmt.Sprintf("roce_np/enable/%d", prio)), sysfs(fmt.Sprintf("roce_rp/enable/%d", prio))
	}
	if rd.CNPDSCP.Set {
		h.HasCNPDSCP, h.CNPDSCP, h.CNPDSCPFile = true, rd.CNPDSCP.V, sysfs("roce_np/cnp_dscp")
	}
	if rd.CNPPriority.Set {
		h.HasCNPPriority, h.CNPPriority, h.CNPPriorityFile = true, rd.CNPPriority.V, sysfs("roce_np/cnp_802p_prio")
	}
	return rej.Err()
}
