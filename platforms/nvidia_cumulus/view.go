package nvidiacumulus

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// CumulusView is the nvidia_cumulus template data: NVUE "nv set" commands.
type CumulusView struct {
	view.Base
	// Global holds the qos commands of profile default-global, in order.
	Global []string
	// ACLs holds the "nv set acl" commands.
	ACLCommands []string
	// Interfaces holds each port's "nv set interface" commands.
	Interfaces []CumulusInterface
	// Notes are comment lines printed after the header: intent values
	// Cumulus has no command for.
	Notes []string
}

// CumulusQoS is the default-global profile's settings, which the "qos"
// sub-template turns into the "nv set qos" commands of .Global.
type CumulusQoS struct {
	// Profile is the NVUE profile every port uses (default-global).
	Profile string
	// Trust is the "mapping trust" word (l3, l2, both, port), or "" to
	// leave the platform default.
	Trust string
	// PortDefaultSP is the switch priority of untrusted traffic (Trust
	// port).
	PortDefaultSP int
	// DSCP and PCP map code points to switch priorities (empty when the
	// trust mode ignores them).
	DSCP, PCP []view.PriorityCodePoints
	// QueueOf is switch priority → traffic class, for all eight.
	QueueOf []int
	// PFC is true when a port runs PFC: the pools and the PFC profile
	// follow.
	PFC bool
	// LosslessPercent and LossyPercent split the buffer between the
	// traffic pools.
	LosslessPercent, LossyPercent int
	// Lossless is the lossless switch priorities (the template lists
	// them as .PFCPriorities).
	Lossless schema.PrioSet
	// CableMeters is the longest cable, rounded up (0: unknown).
	CableMeters int
	// PortBuffer, XOFF and XON are the PFC buffer knobs in bytes (0: not set).
	PortBuffer, XOFF, XON int64
	// Schedulers are the egress schedulers, in traffic-class order.
	Schedulers []CumulusScheduler
	// ECN are the congestion-control curves, in traffic-class order.
	ECN []CumulusECN
	// Watchdog is true when the PFC watchdog is rendered; PollMS is its
	// polling interval and Robustness its detection in polls (0: not set).
	Watchdog   bool
	PollMS     int64
	Robustness int64
}

// PFCPriorities lists the lossless switch priorities in ascending order:
// the template's .PFCPriorities.
func (c *CumulusQoS) PFCPriorities() []int { return c.Lossless.List() }

// CumulusScheduler is one traffic class's egress scheduler: Mode strict,
// or dwrr with Weight (bw-percent).
type CumulusScheduler struct {
	TC     int
	Mode   string
	Weight int
}

// CumulusECN is one traffic class's congestion control: thresholds in
// bytes, the marking probability, and ECN marking (Mark) or RED dropping.
type CumulusECN struct {
	TC          int
	Min, Max    int64
	Probability int
	Mark        bool
}

// CumulusInterface is one port's "nv set interface" settings, which the
// "interface" template turns into commands.
type CumulusInterface struct {
	// Name is the port name; Word the same quoted for the shell.
	Name, Word string
	// Description is the shell-quoted description, or "".
	Description string
	// IP is the address with prefix length, or "".
	IP string
	// Routed is true for an L3 port; without IP it runs on its IPv6
	// link-local address (BGP unnumbered).
	Routed bool
	// Family is the address keyword: "ip" before Cumulus Linux 5.15,
	// "ipv4" or "ipv6" from 5.15 on ("ipv6" for a port without an
	// address).
	Family string
	// MTU is the link MTU (0: not set).
	MTU int
	// Speed is the "link speed" argument ("100G") and FEC the "link fec"
	// argument ("rs", "baser", "off"), or "".
	Speed, FEC string
	// Watchdog enables the PFC watchdog on the port.
	Watchdog bool
	// ACLIn and ACLOut are the bound ACLs' shell-quoted names.
	ACLIn, ACLOut []string
	// Text is the port's commands, one per line, as the "interface"
	// template renders this view (what device.tmpl prints; "" for none).
	Text string
}

// Commands returns the interface's commands, one per element.
func (c CumulusInterface) Commands() []string {
	if c.Text == "" {
		return nil
	}
	return strings.Split(c.Text, "\n")
}

// viewCumulusIfKey is a CumulusInterface without its identity fields (name,
// description, address): the key of its cached stanza.
type viewCumulusIfKey struct {
	desc, ip      bool
	routed        bool
	family        string
	mtu           int
	speed, fec    string
	watchdog      bool
	aclIn, aclOut string
}

const viewCumulusProfile = "default-global"

// viewCumulusLosslessPercent is the share of the switch buffer given to the
// default-lossless traffic pool when PFC is on; default-lossy gets the rest.
// The intent has no percent knob (its pool sizes are bytes), so the split is
// fixed at the 50/50 of NVIDIA's QoS guide.
const viewCumulusLosslessPercent = 50

func viewBuildCumulus(f *schema.Fabric, d *schema.Device, b view.Base) (any, error) {
	const global = "fabricgen writes Cumulus QoS into the default-global profile, which every port uses; attach the same policy to every port"
	var rej view.Collector // every refusal of the device, not only the first
	rej.Add(view.RequireUniform(d, global, view.AspTrust, view.AspDSCP, view.AspPCP, view.AspQueueMap, view.AspQueues, view.AspPFCSet, view.AspWatchdog, view.AspBuffer))
	q := b.QoS
	qq := view.FirstQoS(d)
	rel := d.OSVersion.V
	if len(rel.Parts) == 0 {
		rel = spec().DefaultVersion()
	}
	if !rel.AtLeast(5, 7) {
		return nil, view.Unsupported(d, "os_version "+rel.String(), "fabricgen renders Cumulus Linux 5.7 and later (5.7 moved ACL port matches under match ip udp|tcp)", d.OSVersion.Src)
	}
	v := &CumulusView{Base: b}
	cq := &CumulusQoS{Profile: viewCumulusProfile}
	// PFC runs on every port of the profile: a port without it cannot be
	// expressed (refused at the side that deviates, as RequireUniform does).
	rej.Add(view.RequireUniform(d, "the Cumulus default-global PFC profile covers every port; give all ports of the device the same pfc_priorities", view.AspPFCOn))
	viewCumulusMapping(q, cq)
	if q.Lossless != 0 {
		viewCumulusPFC(q, b.Ports, cq)
		v.Rounded = append(v.Rounded, viewCumulusRoundedCable(d, b.Ports, cq.CableMeters)...)
	}
	if err := viewCumulusBuffers(d, q, qq); !rej.Add(err) {
		return nil, err
	}
	if err := viewCumulusQueues(d, q, cq); !rej.Add(err) {
		return nil, err
	}
	if w := q.Watchdog; w != nil && q.Lossless != 0 {
		if err := viewCumulusWatchdog(d, w, qq, cq); !rej.Add(err) {
			return nil, err
		}
		v.Notes = append(v.Notes, fmt.Sprintf("pfc_watchdog %s restoration %d ms not applied: the Cumulus PFC watchdog has no restoration time, it restores a queue when the storm ends", w.Name, w.RestorationMS))
	}
	qosText, err := b.Stanzas.Execute("qos", cq)
	if err != nil {
		return nil, fmt.Errorf("device %s qos: %w", d.Name, err)
	}
	if qosText = strings.TrimSuffix(qosText, "\n"); qosText != "" {
		v.Global = strings.Split(qosText, "\n")
	}
	acls, err := viewCumulusACLs(f, d, b)
	if !rej.Add(err) {
		return nil, err
	}
	v.ACLCommands = acls
	for i, p := range b.Ports {
		in, err := viewCumulusInterface(d, d.Ports[i], p, q.Watchdog != nil)
		if !rej.Add(err) {
			return nil, err
		}
		// Cumulus Linux 5.15 renamed "interface X ip address" to "ipv4
		// address" / "ipv6 address", and "ip ipv6 enable on" to "ipv6
		// state enabled" ("New and Changed NVUE Commands", 5.15: the
		// On/Off and IP Interface tabs). An unnumbered port runs on IPv6.
		in.Family = "ip"
		if rel.AtLeast(5, 15) {
			in.Family = p.IPFamily
			if in.IP == "" {
				in.Family = "ipv6"
			}
		}
		key := viewCumulusIfKey{in.Description != "", in.IP != "", in.Routed, in.Family, in.MTU, in.Speed, in.FEC, in.Watchdog,
			strings.Join(in.ACLIn, "\n"), strings.Join(in.ACLOut, "\n")}
		text, err := view.RenderStanza(b.Stanzas, "interface", key, &in, viewCumulusMarked, in.Word, in.Description, in.IP, in.Name)
		if err != nil {
			return nil, fmt.Errorf("device %s interface %s: %w", d.Name, p.Name, err)
		}
		in.Text = strings.TrimPrefix(text, "\n")
		v.Interfaces = append(v.Interfaces, in)
	}
	return v, rej.Err()
}

// viewCumulusMapping sets trust, the DSCP/PCP → switch-priority maps and
// the switch-priority → traffic-class map of the default-global profile.
func viewCumulusMapping(q view.QoSView, cq *CumulusQoS) {
	switch schema.Trust(q.Trust) {
	case schema.TrustDSCP:
		cq.Trust = "l3"
	case schema.TrustPCP:
		cq.Trust = "l2"
	case schema.TrustBoth:
		cq.Trust = "both"
	case schema.TrustNone:
		cq.Trust = "port"
		cq.PortDefaultSP = q.DSCP[0]
	}
	if q.Trust != string(schema.TrustPCP) && q.Trust != string(schema.TrustNone) {
		cq.DSCP = q.DSCPByPriority
	}
	if q.Trust == string(schema.TrustPCP) || q.Trust == string(schema.TrustBoth) {
		cq.PCP = q.PCPByPriority
	}
	cq.QueueOf = q.QueueOf[:]
}

// viewCumulusPFC sets the traffic pools and the PFC profile.
func viewCumulusPFC(q view.QoSView, ports []view.PortView, cq *CumulusQoS) {
	// Cumulus gives 100% of the buffer to the default-lossy pool until
	// a lossless pool is sized ("Flow Control Buffers": size the pools
	// before configuring PFC). The intent sizes pools only in bytes,
	// which NVUE cannot take (viewCumulusBuffers rejects them), so fabricgen always
	// splits the buffer 50/50, the guide's own example.
	cq.PFC = true
	cq.LosslessPercent, cq.LossyPercent = viewCumulusLosslessPercent, 100-viewCumulusLosslessPercent
	cq.Lossless = q.Lossless
	cable := 0.0
	for _, p := range ports {
		if p.CableMeters > cable {
			cable = p.CableMeters
		}
	}
	if cable > 0 {
		cq.CableMeters = int(viewCeil(cable))
	}
	cq.PortBuffer, cq.XOFF, cq.XON = q.Buffer.HeadroomBytes, q.Buffer.XOFFBytes, q.Buffer.XONBytes
}

// viewCumulusRoundedCable lists the ports whose intent cable length is
// not the one the PFC profile is given (meters): NVUE takes one
// cable-length, in whole metres, on the default-global PFC profile every
// port uses, and fabricgen gives it the longest cable rounded up, so a
// shorter or fractional cable is rendered longer. ports are b.Ports,
// index-aligned with d.Ports.
func viewCumulusRoundedCable(d *schema.Device, ports []view.PortView, meters int) []view.Rounding {
	var out []view.Rounding
	for i, p := range ports {
		if p.CableMeters <= 0 || p.CableMeters == float64(meters) || i >= len(d.Ports) {
			continue
		}
		c := d.Ports[i].Cable()
		why := "NVUE's cable-length (nv set qos pfc PROFILE cable-length) takes whole metres; fabricgen rounds up, so the headroom covers the cable"
		if viewCeil(p.CableMeters) != float64(meters) {
			why = "NVUE sets one cable-length on the default-global PFC profile, which every port uses; fabricgen gives it the switch's longest cable, in whole metres rounded up, so the headroom covers every port"
		}
		out = append(out, view.Rounding{Device: d.Name, Port: p.Name, What: "cable_length",
			From: strconv.FormatFloat(p.CableMeters, 'f', -1, 64) + "m", To: strconv.Itoa(meters) + "m", Why: why, Src: c.Src})
	}
	return out
}

// viewCumulusBuffers refuses buffer values NVUE cannot take.
func viewCumulusBuffers(d *schema.Device, q view.QoSView, qq *schema.PortQoS) error {
	bv := q.Buffer
	var rej view.Collector
	if bv.IngressLosslessPoolBytes > 0 || bv.EgressLossyPoolBytes > 0 {
		src := qq.Buffer.IngressLosslessPool.Src
		if bv.IngressLosslessPoolBytes == 0 {
			src = qq.Buffer.EgressLossyPool.Src
		}
		rej.Add(view.Unsupported(d, "buffer pool sizes in bytes", "Cumulus sizes traffic pools in percent of the buffer (traffic-pool memory-percent); remove the pool sizes", src))
	}
	if bv.DynamicThresholdSet {
		rej.Add(view.Unsupported(d, "buffer.dynamic_threshold", "fabricgen does not render NVUE alpha (qos advance-buffer-config shared-alpha); remove dynamic_threshold", qq.Buffer.DynamicThreshold.Src))
	}
	if q.Lossless == 0 && (bv.HeadroomBytes > 0 || bv.XOFFBytes > 0 || bv.XONBytes > 0) {
		rej.Add(view.Unsupported(d, "buffer headroom/xoff/xon without PFC", "NVUE sets port-buffer and thresholds on the PFC profile; enable PFC or remove them", view.BufferSrc(qq)))
	}
	return rej.Err()
}

// viewCumulusQueues renders the egress schedulers and the congestion control
// (ECN or RED) of each queue.
func viewCumulusQueues(d *schema.Device, q view.QoSView, cq *CumulusQoS) error {
	var rej view.Collector
	for _, qu := range q.Queues {
		if qu.ShaperBps > 0 {
			rej.Add(view.Unsupported(d, fmt.Sprintf("queue %d shaper %s", qu.ID, view.Bps(qu.ShaperBps)), "fabricgen renders no NVUE egress shaper; remove the shaper", view.QueueSrc(d, qu.ID, view.QShaper)))
		}
		switch {
		case qu.Strict:
			cq.Schedulers = append(cq.Schedulers, CumulusScheduler{TC: qu.ID, Mode: "strict"})
		case qu.Sched == string(schema.SchedDWRR) || qu.Weight > 0:
			if qu.Weight < 1 || qu.Weight > 100 {
				rej.Add(view.Unsupported(d, fmt.Sprintf("queue %d dwrr weight %d", qu.ID, qu.Weight),
					"NVUE bw-percent is 1–100; give the queue a weight from 1 to 100", view.QueueWeightSrc(d, qu.ID)))
				continue
			}
			cq.Schedulers = append(cq.Schedulers, CumulusScheduler{TC: qu.ID, Mode: "dwrr", Weight: qu.Weight})
		}
	}
	for _, qu := range q.Queues {
		e := qu.ECN
		if e == nil {
			continue
		}
		if err := view.RequireBytes(d, qu.ID, e); err != nil {
			rej.Add(err)
			continue
		}
		cq.ECN = append(cq.ECN, CumulusECN{TC: qu.ID, Min: e.MinBytes, Max: e.MaxBytes, Probability: e.Probability, Mark: e.Mark})
	}
	return rej.Err()
}

// viewCumulusWatchdog renders the PFC watchdog; qq is the QoS of a port
// that has it (where its values were set).
func viewCumulusWatchdog(d *schema.Device, w *view.WatchdogView, qq *schema.PortQoS, cq *CumulusQoS) error {
	var rej view.Collector
	if w.Action != "" && w.Action != string(schema.WatchdogDrop) {
		rej.Add(view.WatchdogRefusal(d, qq, "pfc_watchdog "+w.Name+" action "+w.Action, "the Cumulus PFC watchdog drops on a stormed queue; use action drop", view.WDAction))
	}
	poll := w.PollMS
	if !w.PollSet {
		poll = 100
	}
	cq.Watchdog, cq.PollMS = true, poll
	if w.DetectionSet {
		if poll <= 0 || w.DetectionMS%poll != 0 {
			rej.Add(view.WatchdogRefusal(d, qq, fmt.Sprintf("pfc_watchdog %s detection %d ms", w.Name, w.DetectionMS),
				"Cumulus detects after a whole number of polls (robustness); make detection a multiple of poll_interval", view.WDDetection, view.WDPoll))
		} else {
			cq.Robustness = w.DetectionMS / poll
		}
	}
	return rej.Err()
}

// viewCumulusInterface builds one port's settings; sp is the schema port of p.
func viewCumulusInterface(d *schema.Device, sp *schema.Port, p view.PortView, watchdog bool) (CumulusInterface, error) {
	in := CumulusInterface{Name: p.Name, Word: view.ShellWord(p.Name), IP: p.IP, Routed: p.Routed, MTU: p.MTU, Watchdog: p.Watchdog && watchdog}
	var rej view.Collector
	if p.Description != "" {
		in.Description = view.ShellString(p.Description)
	}
	if p.SpeedBps > 0 {
		in.Speed = view.Bps(p.SpeedBps)
	}
	switch p.FEC {
	case "rs":
		in.FEC = "rs"
	case "fc":
		if p.SpeedBps > 25_000_000_000 {
			rej.Add(view.Unsupported(d, fmt.Sprintf("fec fc on %s at %s", p.Name, view.Bps(p.SpeedBps)),
				"Spectrum switches support Base-R (FC) FEC at 25G only; use fec rs or none above 25G", sp.FEC.Src))
		}
		in.FEC = "baser"
	case "none":
		in.FEC = "off"
	}
	if p.LinkPause {
		rej.Add(view.Unsupported(d, "link_pause on "+p.Name, "fabricgen renders no NVUE link-pause profile, and Cumulus forbids link pause and PFC on one port; turn link_pause off", sp.QoS.LinkPause.Src))
	}
	for _, n := range p.ACLIn {
		in.ACLIn = append(in.ACLIn, view.ShellWord(n))
	}
	for _, n := range p.ACLOut {
		in.ACLOut = append(in.ACLOut, view.ShellWord(n))
	}
	return in, rej.Err()
}

func viewCeil(x float64) float64 {
	i := float64(int64(x))
	if i < x {
		return i + 1
	}
	return i
}

// CumulusACL is one NVUE ACL, which the "acl" template renders.
type CumulusACL struct {
	// Name is the ACL name; Word the same quoted for the shell.
	Name, Word string
	// Type is "ipv4" or "ipv6".
	Type  string
	Rules []CumulusACLRule
}

// CumulusACLRule is one rule of an NVUE ACL, which the "acl_rule" template
// renders; zero values mean "any".
type CumulusACLRule struct {
	// ACL is the ACL's shell-quoted name; Seq the rule number.
	ACL string
	Seq int
	// Protocol is "ip", "udp", "tcp" or "icmp"; "icmpv6" in an ipv6 ACL
	// (NVUE's match ip protocol takes tcp, udp, ospf, pim, icmp, icmpv6 and
	// igmp).
	Protocol string
	// Src and Dst are prefixes, or "".
	Src, Dst string
	// SrcPorts and DstPorts are single L4 ports (under match ip udp|tcp).
	SrcPorts, DstPorts []int
	// DSCP lists the matched code points.
	DSCP []int
	// SetDSCP is the re-mark value of a permit rule ("action set dscp"),
	// or -1; Action is "permit" or "deny" otherwise.
	SetDSCP int
	Action  string
}

// viewCumulusACLs renders NVUE ACL rules through the "acl" template. Rules
// keep their sequence numbers. Port matches sit under the protocol (match
// ip udp dest-port N, Cumulus Linux 5.7 and later); IPv6 ACLs use the same
// "match ip" tree. A re-marking permit rule gets "action set dscp N" alone:
// SETQOS is a terminating action that also accepts the packet, and NVIDIA's
// examples never add "action permit" to it.
func viewCumulusACLs(f *schema.Fabric, d *schema.Device, b view.Base) ([]string, error) {
	var out []string
	var rej view.Collector
	for _, a := range b.ACLs {
		acl := CumulusACL{Name: a.Name, Word: view.ShellWord(a.Name), Type: "ipv4"}
		if a.HasIPv6 && a.HasIPv4 {
			rej.Add(view.Unsupported(d, "acl "+a.Name+" mixing IPv4 and IPv6 rules", "an NVUE ACL has one type (ipv4 or ipv6); split it in two", view.RuleSrc(f, a.Name, a.Rules[0].Seq)))
		}
		if a.HasIPv6 {
			acl.Type = "ipv6"
		}
		for _, r := range a.Rules {
			rule, err := viewCumulusRule(f, d, a.Name, acl.Word, acl.Type, r)
			if !rej.Add(err) {
				return nil, err
			}
			acl.Rules = append(acl.Rules, rule)
		}
		text, err := b.Stanzas.Execute("acl", &acl)
		if err != nil {
			return nil, fmt.Errorf("device %s acl %s: %w", d.Name, a.Name, err)
		}
		out = append(out, strings.Split(text, "\n")...)
	}
	return out, rej.Err()
}

// viewCumulusRule checks that NVUE can express an ACL rule and builds it.
// typ is the ACL's type, ipv4 or ipv6.
func viewCumulusRule(f *schema.Fabric, d *schema.Device, acl, word, typ string, r view.RuleView) (CumulusACLRule, error) {
	src := view.RuleSrc(f, acl, r.Seq)
	rule := CumulusACLRule{ACL: word, Seq: r.Seq, Protocol: r.Protocol, Src: r.Src, Dst: r.Dst, DSCP: r.DSCP, SetDSCP: -1, Action: r.Action}
	if typ == "ipv6" && rule.Protocol == "icmp" {
		rule.Protocol = "icmpv6"
	}
	if (len(r.SrcPorts) > 0 || len(r.DstPorts) > 0) && r.Protocol != "udp" && r.Protocol != "tcp" {
		return rule, view.Unsupported(d, fmt.Sprintf("acl %s rule %d port match with protocol %s", acl, r.Seq, r.Protocol),
			"NVUE matches L4 ports only under match ip udp or match ip tcp; set protocol udp or tcp", src)
	}
	for _, pr := range []struct {
		rs   []view.PortRangeView
		what string
		out  *[]int
	}{{r.SrcPorts, "source", &rule.SrcPorts}, {r.DstPorts, "destination", &rule.DstPorts}} {
		for _, p := range pr.rs {
			if !p.Single {
				return rule, view.Unsupported(d, fmt.Sprintf("acl %s rule %d %s port range %d-%d", acl, r.Seq, pr.what, p.From, p.To),
					"fabricgen renders NVUE port matches as single ports; list the ports", src)
			}
			*pr.out = append(*pr.out, p.From)
		}
	}
	if r.SetDSCP >= 0 && r.Action == string(schema.ActionPermit) {
		rule.SetDSCP = r.SetDSCP
	}
	return rule, nil
}

// viewCumulusMarked is in with its identity values replaced by marks.
func viewCumulusMarked(in CumulusInterface) CumulusInterface {
	in.Word, in.Description, in.IP, in.Name = view.Mark(0, in.Word), view.Mark(1, in.Description), view.Mark(2, in.IP), view.Mark(3, in.Name)
	return in
}
