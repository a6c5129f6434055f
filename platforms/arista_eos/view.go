package aristaeos

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// EOSView is the arista_eos template data.
type EOSView struct {
	view.Base
	// DSCPMaps are "qos map dscp <Values> to traffic-class <TC>" lines; EOS
	// traffic classes are the intent's priorities.
	DSCPMaps []EOSMap
	// CoSMaps are "qos map cos <Values> to traffic-class <TC>" lines (trust pcp/both).
	CoSMaps []EOSMap
	// TxQueues are "qos map traffic-class <TC> to tx-queue <Queue>" lines.
	TxQueues []EOSMap
	// Watchdog holds the global PFC watchdog lines' values, or nil.
	Watchdog *EOSWatchdog
	// AccessLists are the filter ACLs and the one-rule ACLs class-maps match.
	AccessLists []EOSAccessList
	// ClassMaps and PolicyMaps implement ACL re-marking.
	ClassMaps  []EOSClassMap
	PolicyMaps []EOSPolicyMap
	// Interfaces are the per-port stanzas, in port order.
	Interfaces []EOSInterface
}

// EOSMap is one "qos map" line: Values (space separated) to TC.
type EOSMap struct {
	Values string
	TC     int
}

// EOSWatchdog holds the global watchdog values, already in EOS units (seconds).
type EOSWatchdog struct {
	Timeout, Recovery, Polling string
	// Action is "drop" (EOS also has errdisable and notify-only; it has no
	// action that forwards through a storm).
	Action string
}

// EOSAccessList is "ip access-list NAME" or "ipv6 access-list NAME" with its entries.
type EOSAccessList struct {
	Keyword string // "ip" or "ipv6"
	Name    string
	// Entries are printed by the "acl_entry" template ("10 permit udp any any eq 4791").
	Entries []EOSACLEntry
}

// EOSACLEntry is one access-list entry: "SEQ ACTION PROTO SRC [PORT] DST
// [PORT] [dscp N]", as the "acl_entry" template prints it.
type EOSACLEntry struct {
	Seq int
	// Action is "permit" or "deny"; Protocol the entry's protocol word:
	// "ip", "udp", "tcp" or "icmp" in an ip access-list, "ipv6", "udp",
	// "tcp" or "icmpv6" in an ipv6 access-list (see eosProtocol).
	Action, Protocol string
	// Src and Dst are prefixes, or "any".
	Src, Dst string
	// SrcPort and DstPort are the one L4 port or range matched, or nil.
	SrcPort, DstPort *view.PortRangeView
	// DSCP is the one code point matched when HasDSCP.
	DSCP    int
	HasDSCP bool
}

// EOSClassMap is "class-map type qos match-any NAME" matching one access list.
type EOSClassMap struct {
	Name, Keyword, ACL string
}

// EOSPolicyMap is "policy-map type quality-of-service NAME" with its classes in order.
type EOSPolicyMap struct {
	Name    string
	Classes []EOSPolicyClass
}

// EOSPolicyClass is one class of a policy map and its set actions.
type EOSPolicyClass struct {
	Name string
	// SetDSCP is the "set dscp" value and SetTC the "set traffic-class"
	// value, each -1 when the class does not set it.
	SetDSCP, SetTC int
}

// EOSInterface is one "interface" stanza.
type EOSInterface struct {
	Name, Description string
	MTU               int
	// Speed is the "speed" argument ("100g", from eosSpeeds), FEC the
	// "error-correction encoding" argument.
	Speed, FEC string
	// Routed is true for L3 ports ("no switchport"): with IP their address,
	// without it IPv6 link-local only ("ipv6 enable", BGP unnumbered).
	Routed bool
	IP     string
	IPv6   bool
	// ACLBindings are the port's ACLs ("ip access-group NAME in", "ipv6
	// access-group NAME out").
	ACLBindings []view.ACLBinding
	// ServicePolicy is the re-marking policy map bound inbound, or "".
	ServicePolicy string
	// TrustMode is what the port trusts: "dscp" (qos trust dscp), "cos"
	// (qos trust cos), "none" (no qos trust), or "" (no trust line).
	TrustMode string
	// FlowControl is true for 802.3x link pause (flowcontrol send/receive on).
	FlowControl bool
	// Lossless is the no-drop priorities (the template lists them as
	// .PFC); Watchdog enables the PFC watchdog on the port.
	Lossless schema.PrioSet
	Watchdog bool
	TxQueues []EOSTxQueue
	// Text is the whole stanza from "interface NAME" to the closing "!",
	// as the "interface" template renders this view (what device.tmpl prints).
	Text string
}

// PFC lists the no-drop priorities in ascending order: the template's .PFC.
func (in *EOSInterface) PFC() []int { return in.Lossless.List() }

// viewEOSIfKey is an EOSInterface without its identity fields (name,
// description, address): the key of its cached stanza.
type viewEOSIfKey struct {
	desc, ip              bool
	mtu                   int
	speed, fec            string
	routed, ipv6, flow    bool
	groups, policy, trust string
	pfc                   schema.PrioSet
	watchdog              bool
	txq                   string
}

// EOSTxQueue is one "tx-queue N" sub-stanza.
type EOSTxQueue struct {
	ID int
	// Mode is "strict" ("priority strict"), "dwrr" ("no priority" and
	// Bandwidth percent) or "" (scheduling left to the platform).
	Mode      string
	Bandwidth int
	// ShapeKbps is the "shape rate N kbps" cap (0: none).
	ShapeKbps int64
	// ECN is the queue's "random-detect" curve, or nil (thresholds in
	// bytes, the one unit whose size is not in doubt).
	ECN *EOSRandomDetect
}

// EOSRandomDetect is one tx-queue's random-detect line: ECN marking
// ("random-detect ecn", Mark) or WRED dropping ("random-detect drop"),
// thresholds in bytes and the probability in percent.
type EOSRandomDetect struct {
	Mark        bool
	Min, Max    int64
	Probability int
}

// EOS interface MTU limits (Arista EOS User Manual, "Support for Layer 3
// MTU on 7280R3/7500R3/7800R3": 68 to 9214 bytes) and the largest
// random-detect threshold (AVD schema: 256000000).
const (
	viewEOSMinMTU       = 68
	viewEOSMaxMTU       = 9214
	viewEOSMaxThreshold = 256_000_000
)

// viewEOSSpeeds maps a port speed (bit/s) to its EOS fixed "speed" keyword
// (the valid_values of AVD's ethernet_interfaces schema). Speeds EOS only
// reaches by auto-negotiation (2.5G, 5G) have no entry.
var viewEOSSpeeds = map[int64]string{
	10_000_000: "10full", 100_000_000: "100full",
	1_000_000_000: "1g", 10_000_000_000: "10g", 25_000_000_000: "25g", 40_000_000_000: "40g", 50_000_000_000: "50g",
	100_000_000_000: "100g", 200_000_000_000: "200g", 400_000_000_000: "400g-8",
	800_000_000_000: "800g-8", 1_600_000_000_000: "1.6t-8",
}

// viewEOSLaneSpeedsSince is the first EOS release fabricgen writes 400G as
// "400g-8" (the lane-count form AVD's schema lists and running configs
// show); earlier releases get "400g".
var viewEOSLaneSpeedsSince = []int{4, 22}

// viewEOSSpeed is the "speed" keyword for a port speed on release rel.
func viewEOSSpeed(bps int64, rel schema.Version) (string, bool) {
	kw, ok := viewEOSSpeeds[bps]
	if ok && kw == "400g-8" && len(rel.Parts) > 0 && !rel.AtLeast(viewEOSLaneSpeedsSince...) {
		kw = "400g"
	}
	return kw, ok
}

func viewBuildEOS(f *schema.Fabric, d *schema.Device, b view.Base) (any, error) {
	const global = "EOS applies qos map and watchdog timers to the whole switch; attach the same policy to every port of the device"
	var rej view.Collector // every refusal of the device, not only the first
	rej.Add(view.RequireUniform(d, global, view.AspDSCP, view.AspPCP, view.AspQueueMap, view.AspTrust))
	rej.Add(view.RequireUniform(d, "EOS sets PFC watchdog timers once per switch", view.AspWatchdog))
	rej.Add(view.RejectBuffers(d, b, "EOS sizes PFC headroom and shared pools in hardware profiles fabricgen does not render; remove the buffer block from policies attached to arista_eos devices"))
	v := &EOSView{Base: b}
	q := b.QoS
	for _, g := range q.DSCPByPriority {
		v.DSCPMaps = append(v.DSCPMaps, EOSMap{Values: view.JoinInts(g.Values, " "), TC: g.Priority})
	}
	if q.Trust == string(schema.TrustPCP) || q.Trust == string(schema.TrustBoth) {
		for _, g := range q.PCPByPriority {
			v.CoSMaps = append(v.CoSMaps, EOSMap{Values: view.JoinInts(g.Values, " "), TC: g.Priority})
		}
	}
	for tc := 0; tc < 8; tc++ {
		v.TxQueues = append(v.TxQueues, EOSMap{Values: strconv.Itoa(tc), TC: q.QueueOf[tc]})
	}
	trust := ""
	switch schema.Trust(q.Trust) {
	case schema.TrustDSCP:
		trust = "dscp"
	case schema.TrustPCP:
		trust = "cos"
	case schema.TrustNone:
		trust = "none"
	case schema.TrustBoth:
		qq := view.FirstQoS(d)
		rej.Add(view.Unsupported(d, "trust both", "an EOS port trusts either DSCP (qos trust dscp) or CoS (qos trust cos), not both", qq.Trust.Src))
	}
	if q.Watchdog != nil && q.Lossless != 0 {
		w, err := viewEOSWatchdog(d, q.Watchdog)
		if !rej.Add(err) {
			return nil, err
		}
		v.Watchdog = w
	}
	// tx-queue sub-stanzas are per interface on EOS: each port gets its
	// own policy's queues (built once per policy), never the first port's.
	type portTxq struct {
		txq []EOSTxQueue
		key string
	}
	txqOf := map[*schema.PortQoS]portTxq{}
	losslessQ := q.LosslessQueueSet()
	txqFor := func(pq *schema.PortQoS) (portTxq, error) {
		if pq == nil {
			pq = view.FirstQoS(d)
		}
		if t, ok := txqOf[pq]; ok || pq == nil {
			return t, nil
		}
		qs := q.Queues
		if pq != view.FirstQoS(d) {
			qs = view.QueuesOf(pq, q.QueueOf, losslessQ)
		}
		txq, err := viewEOSTxQueues(d, qs)
		t := portTxq{txq, viewEOSTxQueueKey(txq)}
		txqOf[pq] = t
		return t, err
	}
	if err := viewEOSACLs(f, d, v); !rej.Add(err) {
		return nil, err
	}
	for _, p := range b.Ports {
		if p.MTU != 0 && (p.MTU < viewEOSMinMTU || p.MTU > viewEOSMaxMTU) {
			rej.Add(view.Unsupported(d, fmt.Sprintf("mtu %d on %s", p.MTU, p.Name),
				fmt.Sprintf("EOS interface MTU is %d–%d (the L3 MTU; EOS adds the L2 header)", viewEOSMinMTU, viewEOSMaxMTU), view.PortQoSOf(d, p.Name).MTU.Src))
		}
		in := EOSInterface{
			Name: p.Name, Description: p.Description, MTU: p.MTU, TrustMode: trust,
			Routed: p.Routed, IP: p.IP, IPv6: p.IPFamily == "ipv6",
			FlowControl: p.LinkPause, Lossless: p.Lossless, Watchdog: p.Watchdog && v.Watchdog != nil,
		}
		t, err := txqFor(view.PortQoSOf(d, p.Name))
		if !rej.Add(err) {
			return nil, err
		}
		in.TxQueues = t.txq
		if p.Description == "" && p.Peer != "" {
			in.Description = "to " + p.Peer
		}
		in.Description = view.OneLine(in.Description)
		if p.SpeedBps > 0 {
			kw, ok := viewEOSSpeed(p.SpeedBps, d.OSVersion.V)
			if !ok {
				rej.Add(view.Unsupported(d, fmt.Sprintf("speed %s on %s", view.Bps(p.SpeedBps), p.Name),
					"EOS fixed-speed keywords are 10full, 100full, 1g, 10g, 25g, 40g, 50g, 100g, 200g, 400g-8 (400g before 4.22), 800g-8 and 1.6t-8", viewEOSSpeedSrc(d, p.Name)))
			}
			in.Speed = kw
		}
		switch p.FEC {
		case "rs":
			in.FEC = "reed-solomon"
		case "fc":
			in.FEC = "fire-code"
		}
		groups, pm, err := viewEOSBindings(f, d, p, v)
		if !rej.Add(err) {
			return nil, err
		}
		in.ACLBindings, in.ServicePolicy = groups, pm
		key := viewEOSIfKey{in.Description != "", in.IP != "", in.MTU, in.Speed, in.FEC, in.Routed, in.IPv6, in.FlowControl,
			view.ACLBindingsKey(in.ACLBindings), in.ServicePolicy, in.TrustMode, in.Lossless, in.Watchdog, t.key}
		text, err := view.RenderStanza(b.Stanzas, "interface", key, &in, viewEOSMarked, in.Name, in.Description, in.IP)
		if err != nil {
			return nil, fmt.Errorf("device %s interface %s: %w", d.Name, p.Name, err)
		}
		in.Text = text
		v.Interfaces = append(v.Interfaces, in)
	}
	return v, rej.Err()
}

func viewEOSWatchdog(d *schema.Device, w *view.WatchdogView) (*EOSWatchdog, error) {
	qq := view.FirstQoS(d)
	timeout, ok1 := view.Seconds(w.DetectionMS, 2)
	recovery, ok2 := view.Seconds(w.RestorationMS, 2)
	polling, ok3 := view.Seconds(w.PollMS, 3)
	var rej view.Collector
	// Each timer EOS cannot take is refused at its own line.
	for _, t := range []struct {
		ok    bool
		name  string
		ms    int64
		field func(*schema.Watchdog) schema.Range
		steps string
	}{
		{ok1, "detection", w.DetectionMS, view.WDDetection, "EOS takes the timeout (detection) in steps of 10 ms"},
		{ok2, "restoration", w.RestorationMS, view.WDRestoration, "EOS takes the recovery-time (restoration) in steps of 10 ms"},
		{ok3, "poll_interval", w.PollMS, view.WDPoll, "EOS takes the polling-interval (poll_interval) in steps of 1 ms"},
	} {
		if !t.ok {
			rej.Add(view.WatchdogRefusal(d, qq, fmt.Sprintf("pfc_watchdog %s %s %d ms", w.Name, t.name, t.ms), t.steps, t.field))
		}
	}
	ew := &EOSWatchdog{Action: "drop"}
	if w.DetectionSet {
		ew.Timeout = timeout
	}
	// Always explicit (the fabric-wide default when the intent sets none):
	// EOS's own default recovery time is not documented.
	ew.Recovery = recovery
	if w.PollSet {
		ew.Polling = polling
	}
	switch schema.WatchdogAction(w.Action) {
	case schema.WatchdogDrop, "":
		ew.Action = "drop"
	default:
		rej.Add(view.WatchdogRefusal(d, qq, "pfc_watchdog "+w.Name+" action "+w.Action,
			"EOS watchdog actions are drop, errdisable and notify-only; none forwards through a storm, so use action drop", view.WDAction))
	}
	return ew, rej.Err()
}

func viewEOSTxQueues(d *schema.Device, qs []view.QueueView) ([]EOSTxQueue, error) {
	var out []EOSTxQueue
	var rej view.Collector
	for _, q := range qs {
		if q.Sched == "" && q.Weight == 0 && q.ECN == nil && q.ShaperBps == 0 {
			continue
		}
		t := EOSTxQueue{ID: q.ID, Bandwidth: q.Weight}
		switch {
		case q.Strict:
			t.Mode = "strict"
		case q.Sched == string(schema.SchedDWRR) || q.Weight > 0:
			t.Mode = "dwrr"
		}
		if q.ShaperBps > 0 {
			if q.ShaperBps%1000 != 0 {
				rej.Add(view.Unsupported(d, fmt.Sprintf("queue %d shaper %d bit/s", q.ID, q.ShaperBps), "EOS shapes in whole kbps", view.QueueSrc(d, q.ID, view.QShaper)))
			}
			t.ShapeKbps = q.ShaperBps / 1000
		}
		if e := q.ECN; e != nil {
			rd, err := viewEOSRandomDetect(d, q.ID, e)
			if !rej.Add(err) {
				return nil, err
			}
			t.ECN = rd
		}
		out = append(out, t)
	}
	return out, rej.Err()
}

// viewEOSRandomDetect renders a queue's "random-detect ecn" (marking) or
// "random-detect drop" (WRED) line. Thresholds are given in bytes: EOS also
// takes kbytes, but no Arista source says whether a kbyte is 1,000 or 1,024
// bytes. Ranges (thresholds 1–256000000, probability 1–100) are those of
// AVD's ethernet_interfaces and qos_profiles schemas.
func viewEOSRandomDetect(d *schema.Device, qid int, e *view.ECNView) (*EOSRandomDetect, error) {
	if err := view.RequireBytes(d, qid, e); err != nil {
		return nil, err
	}
	var rej view.Collector
	for _, th := range []struct {
		name  string
		v     int64
		field func(*schema.ECNProfile) schema.Range
	}{{"min_threshold", e.MinBytes, view.ECNMin}, {"max_threshold", e.MaxBytes, view.ECNMax}} {
		if th.v < 1 || th.v > viewEOSMaxThreshold {
			rej.Add(view.Unsupported(d, fmt.Sprintf("ecn_profile %s %s %d B on queue %d", e.Name, th.name, th.v, qid),
				fmt.Sprintf("EOS random-detect thresholds are 1–%d bytes", viewEOSMaxThreshold), view.ECNSrc(d, qid, th.field)))
		}
	}
	if e.Probability < 1 || e.Probability > 100 {
		word := "max-mark-probability"
		if !e.Mark {
			word = "drop-probability"
		}
		rej.Add(view.Unsupported(d, fmt.Sprintf("ecn_profile %s max_probability %d on queue %d", e.Name, e.Probability, qid),
			"EOS random-detect "+word+" is 1–100 percent", view.ECNSrc(d, qid, view.ECNProbability)))
	}
	if err := rej.Err(); err != nil {
		return nil, err
	}
	return &EOSRandomDetect{Mark: e.Mark, Min: e.MinBytes, Max: e.MaxBytes, Probability: e.Probability}, nil
}

// viewEOSACLs renders the filter ACLs and the re-marking ACLs, class maps and
// policy maps (one policy map per ACL that re-marks).
func viewEOSACLs(f *schema.Fabric, d *schema.Device, v *EOSView) error {
	var rej view.Collector
	for _, a := range v.ACLs {
		for _, fam := range []struct {
			on      bool
			kw, fam string
		}{{a.HasIPv4, "ip", "ipv4"}, {a.HasIPv6, "ipv6", "ipv6"}} {
			if !fam.on {
				continue
			}
			al := EOSAccessList{Keyword: fam.kw, Name: a.Name}
			for _, r := range a.Rules {
				if !view.RuleInFamily(r, fam.fam) {
					continue
				}
				e, err := viewEOSEntry(f, d, a.Name, r, r.Action, fam.fam)
				if !rej.Add(err) {
					return err
				}
				al.Entries = append(al.Entries, e)
			}
			v.AccessLists = append(v.AccessLists, al)
		}
		if len(a.Marks) == 0 {
			continue
		}
		pm := EOSPolicyMap{Name: "PM-" + a.Name}
		for _, m := range a.Marks {
			kw, fam := "ip", "ipv4"
			if m.Rule.Family == "ipv6" {
				kw, fam = "ipv6", "ipv6"
			}
			entry, err := viewEOSEntry(f, d, a.Name, m.Rule, "permit", fam)
			if !rej.Add(err) {
				return err
			}
			v.AccessLists = append(v.AccessLists, EOSAccessList{Keyword: kw, Name: m.Name, Entries: []EOSACLEntry{entry}})
			v.ClassMaps = append(v.ClassMaps, EOSClassMap{Name: m.Name, Keyword: kw, ACL: m.Name})
			c := EOSPolicyClass{Name: m.Name, SetDSCP: m.SetDSCP, SetTC: m.Priority}
			pm.Classes = append(pm.Classes, c)
		}
		v.PolicyMaps = append(v.PolicyMaps, pm)
	}
	return rej.Err()
}

// viewEOSEntry builds one access-list entry for the "acl_entry" template.
// viewEOSEntry builds one entry of the access list of family fam ("ipv4" or
// "ipv6"; a rule of either family goes into both lists).
func viewEOSEntry(f *schema.Fabric, d *schema.Device, acl string, r view.RuleView, action, fam string) (EOSACLEntry, error) {
	e := EOSACLEntry{Seq: r.Seq, Action: action, Protocol: viewEOSProtocol(r.Protocol, fam), Src: view.AnyOr(r.Src), Dst: view.AnyOr(r.Dst)}
	sp, dp, dscp, err := view.OneMatch(f, d, acl, r, "an EOS access-list entry")
	if err != nil {
		return e, err
	}
	e.SrcPort, e.DstPort = sp, dp
	e.DSCP, e.HasDSCP = dscp, dscp >= 0
	return e, nil
}

// viewEOSProtocol is the protocol word of an entry in an access list of family
// fam: an EOS ipv6 access-list names "any protocol" ipv6 and ICMPv6 icmpv6
// (AVD's intended ipv6-access-lists config: "10 deny ipv6 2001:db8::/32
// any"; openconfig/featureprofiles' Arista CLI for IPv6 ACLs: "permit ipv6
// any any", "permit icmpv6 any any"). "ip" there is not an IPv6 protocol.
func viewEOSProtocol(proto, fam string) string {
	if fam == "ipv6" {
		switch proto {
		case "ip":
			return "ipv6"
		case "icmp":
			return "icmpv6"
		}
	}
	return proto
}

// viewEOSBindings returns a port's ACL bindings and inbound policy map.
func viewEOSBindings(f *schema.Fabric, d *schema.Device, p view.PortView, v *EOSView) ([]view.ACLBinding, string, error) {
	find := func(name string) view.ACLView {
		for _, a := range v.ACLs {
			if a.Name == name {
				return a
			}
		}
		return view.ACLView{}
	}
	var lines []view.ACLBinding
	policy := ""
	var rej view.Collector
	for _, dir := range []struct {
		names []string
		word  string
	}{{p.ACLIn, "in"}, {p.ACLOut, "out"}} {
		if len(dir.names) > 1 {
			rej.Add(view.Unsupported(d, fmt.Sprintf("%d ACLs bound %s on %s (%s)", len(dir.names), dir.word, p.Name, strings.Join(dir.names, ", ")),
				"an EOS interface takes one access-group per direction and family; merge the ACLs", view.PortACLSrc(d, p.Name, dir.word)))
			continue
		}
		for _, n := range dir.names {
			a := find(n)
			if a.HasIPv4 {
				lines = append(lines, view.ACLBinding{ACL: n, Dir: dir.word})
			}
			if a.HasIPv6 {
				lines = append(lines, view.ACLBinding{IPv6: true, ACL: n, Dir: dir.word})
			}
			if len(a.Marks) > 0 {
				if dir.word == "out" {
					rej.Add(view.Unsupported(d, "acl "+n+" re-marking DSCP outbound on "+p.Name,
						"EOS applies QoS re-marking policies inbound only; bind the ACL with acl_in", view.PortACLSrc(d, p.Name, dir.word)))
					continue
				}
				policy = "PM-" + n
			}
		}
	}
	return lines, policy, rej.Err()
}

// viewEOSSpeedSrc is where a port's speed was set: on the port, or on its link.
func viewEOSSpeedSrc(d *schema.Device, port string) schema.Range {
	for _, p := range d.Ports {
		if p.Name != port {
			continue
		}
		if p.Speed.Set || p.Link == nil {
			return p.Speed.Src
		}
		return p.Link.Speed.Src
	}
	return schema.Range{}
}

// viewEOSMarked is in with its identity values replaced by marks.
func viewEOSMarked(in EOSInterface) EOSInterface {
	in.Name, in.Description, in.IP = view.Mark(0, in.Name), view.Mark(1, in.Description), view.Mark(2, in.IP)
	return in
}

// viewEOSTxQueueKey encodes the tx-queue sub-stanzas for an interface's cache
// key: every field, each ended by a byte no field contains.
func viewEOSTxQueueKey(qs []EOSTxQueue) string {
	var b []byte
	for _, q := range qs {
		b = strconv.AppendInt(b, int64(q.ID), 10)
		b = append(b, 0)
		b = append(b, q.Mode...)
		b = append(b, 0)
		b = strconv.AppendInt(b, int64(q.Bandwidth), 10)
		b = append(b, 0)
		b = strconv.AppendInt(b, q.ShapeKbps, 10)
		b = append(b, 0)
		if e := q.ECN; e != nil {
			if e.Mark {
				b = append(b, 'm')
			}
			b = strconv.AppendInt(b, e.Min, 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, e.Max, 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(e.Probability), 10)
		}
		b = append(b, 0)
	}
	return string(b)
}
