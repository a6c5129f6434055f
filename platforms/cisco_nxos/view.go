package cisconxos

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// NXOSView is the cisco_nxos template data.
type NXOSView struct {
	view.Base
	// Watchdog holds the global PFC watchdog lines, or nil.
	Watchdog *NXOSWatchdog
	// AccessLists are the filter ACLs and the one-rule ACLs re-marking classes match.
	AccessLists []NXOSAccessList
	// ClassMaps are "class-map type qos" stanzas (re-marking classes first, then one per priority).
	ClassMaps []NXOSClassMap
	// QoSPolicies are "policy-map type qos" stanzas (ingress classification).
	QoSPolicies []NXOSPolicy
	// NetworkQoS is the "policy-map type network-qos" name and classes.
	NetworkQoS NXOSNetworkQoS
	// Queuing is the "policy-map type queuing" name and classes (q7 … q1, q-default).
	Queuing    NXOSQueuing
	Interfaces []NXOSInterface
}

// NXOSWatchdog is the PFC watchdog as NX-OS renders it: the enable line
// ("priority-flow-control watch-dog-interval on", globally and per port)
// and, from 9.3(3), the restoration as "priority-flow-control
// fixed-restore multiplier N" (Cisco's NX-API REST SDK guide 9.3x); the
// other timers stay at the switch's defaults.
type NXOSWatchdog struct {
	// Name is the pfc_watchdog profile.
	Name string
	// FixedRestore is the fixed-restore multiplier: the intent's
	// restoration over the switch's watch-dog interval
	// (viewNXOSWatchdogIntervalMS); 0 on a release without the command.
	FixedRestore int64
	// Note is what the render's comment says of the intent's timers
	// ("detection 200 ms, poll_interval 100 ms not applied ...").
	Note string
}

// viewNXOSRestoreSince is the first release with the PFC watchdog's
// fixed-restore multiplier: Cisco's NX-API REST SDK guide 9.3x
// ("Configuring Priority Flow Control", "Configuring Fixed Restore
// Multiplier": platformPriorFlowCtrlWd fixedRestoreMultiplier, "added in
// Release 9.3(3)").
var viewNXOSRestoreSince = []int{9, 3, 3}

// viewNXOSWatchdogIntervalMS is the switch's PFC watchdog interval, which
// fabricgen leaves at its default (no Cisco source found gives the
// interval command's spelling): 100 ms, the "poll timer of 100ms" of
// Cisco's Nexus 9000 QoS guide (10.5x, "Workflow of Priority Flow Control
// Watchdog"). The restore time is the multiplier times this interval.
const viewNXOSWatchdogIntervalMS = 100

// viewNXOSRestores reports whether d's release renders the watchdog
// restoration (9.3(3) and later; a device without a release, as in
// tests, counts as fabricgen's default release).
func viewNXOSRestores(d *schema.Device) bool {
	rel := d.OSVersion.V
	if len(rel.Parts) == 0 {
		rel = spec().DefaultVersion()
	}
	return rel.AtLeast(viewNXOSRestoreSince...)
}

// viewNXOSFixedRestore converts a restoration of ms into the fixed-restore
// multiplier of the switch's watch-dog interval, or returns 0 and the
// nearest restorations (ms) the switch can take.
func viewNXOSFixedRestore(ms int64) (int64, []int64) {
	const iv = viewNXOSWatchdogIntervalMS
	if ms >= iv && ms%iv == 0 {
		return ms / iv, nil
	}
	lo, hi := ms/iv*iv, ms/iv*iv+iv
	switch {
	case lo == 0 || ms-lo > hi-ms:
		return 0, []int64{hi}
	case ms-lo < hi-ms:
		return 0, []int64{lo}
	}
	return 0, []int64{lo, hi}
}

// NXOSClassMap is "class-map type qos match-any|match-all NAME" with its
// match line: the access list ACL, or the code points DSCP or CoS.
type NXOSClassMap struct {
	Name, Match string
	// ACL is the access list matched ("match access-group name ACL"), or "".
	ACL string
	// DSCP and CoS are the code points matched ("match dscp 24-27,48",
	// "match cos 3"), or empty.
	DSCP, CoS []int
}

// NXOSAccessList is "ip access-list NAME" or "ipv6 access-list NAME" with its entries.
type NXOSAccessList struct {
	Keyword string // "ip" or "ipv6"
	Name    string
	// Entries are printed by the "acl_entry" template ("10 permit udp any any eq 4791").
	Entries []NXOSACLEntry
}

// NXOSACLEntry is one access-list entry: "SEQ ACTION PROTO SRC [PORT] DST
// [PORT] [dscp N]", as the "acl_entry" template prints it.
type NXOSACLEntry struct {
	Seq int
	// Action is "permit" or "deny"; Protocol the entry's protocol word:
	// "ip", "udp", "tcp" or "icmp" in an ip access-list, "ipv6" for any
	// protocol in an ipv6 access-list (see nxosProtocol).
	Action, Protocol string
	// Src and Dst are prefixes, or "any".
	Src, Dst string
	// SrcPort and DstPort are the one L4 port or range matched, or nil.
	SrcPort, DstPort *view.PortRangeView
	// DSCP is the one code point matched when HasDSCP.
	DSCP    int
	HasDSCP bool
}

// NXOSPolicy is one "policy-map type qos NAME" with classes in order.
type NXOSPolicy struct {
	Name    string
	Classes []NXOSPolicyClass
}

// NXOSPolicyClass is one class of a type qos policy map and its set actions.
type NXOSPolicyClass struct {
	Name string
	// SetDSCP is the "set dscp" value (-1: none); QoSGroup the "set
	// qos-group" value every class sets.
	SetDSCP, QoSGroup int
}

// NXOSNetworkQoS is the network-qos policy: per queue class, MTU and pause.
type NXOSNetworkQoS struct {
	Name    string
	Classes []NXOSNQClass
}

// NXOSNQClass is one "class type network-qos c-8q-nqN" (or c-8q-nq-default).
type NXOSNQClass struct {
	Name string
	MTU  int
	// PauseCoS lists the PFC priorities paused in this class ("pause pfc-cos 3").
	PauseCoS []int
}

// NXOSQueuing is the egress queuing policy.
type NXOSQueuing struct {
	Name    string
	Classes []NXOSQClass
}

// NXOSQClass is one "class type queuing c-out-8q-qN".
type NXOSQClass struct {
	Name string
	// Strict is "priority level 1"; otherwise Bandwidth is "bandwidth remaining percent".
	Strict    bool
	Bandwidth int
	// ShapeKbps is the "shape min 0 kbps max N kbps" cap (0: none).
	ShapeKbps int64
	// ECN is the queue's "random-detect" curve, or nil.
	ECN *NXOSRandomDetect
}

// NXOSRandomDetect is one queuing class's WRED curve: thresholds in
// kbytes, the drop probability in percent, and ECN marking (Mark).
type NXOSRandomDetect struct {
	MinKBytes, MaxKBytes int64
	Probability          int
	Mark                 bool
}

// NXOSInterface is one "interface" stanza.
type NXOSInterface struct {
	Name, Description string
	Routed            bool
	IP                string
	IPv6              bool
	// Speed is Mb/s ("100000"); FEC the "fec" argument ("rs-fec"), empty on
	// 200G and faster ports, whose RS-FEC(544,514) is on by default.
	Speed, FEC  string
	MTU         int
	FlowControl bool
	PFC         bool
	// PFCOff turns PFC off on a port whose intent has no lossless
	// priority while other ports of the switch have some: an interface
	// without a "priority-flow-control mode" line is in mode auto, where
	// DCBX may enable the switch's no-drop classes with the peer.
	PFCOff        bool
	Watchdog      bool
	ServicePolicy string
	// ACLBindings are the port's ACLs ("ip access-group NAME in", "ipv6
	// traffic-filter NAME out").
	ACLBindings []view.ACLBinding
	// Text is the whole stanza from "interface NAME", as the "interface"
	// template renders this view (what device.tmpl prints).
	Text string
}

// viewNXOSIfKey is an NXOSInterface without its identity fields (name,
// description, address): the key of its cached stanza.
type viewNXOSIfKey struct {
	desc, ip            bool
	routed, ipv6        bool
	speed, fec          string
	mtu                 int
	flow, pfc, watchdog bool
	pfcOff              bool
	policy, groups      string
}

func viewBuildNXOS(f *schema.Fabric, d *schema.Device, b view.Base) (any, error) {
	const global = "NX-OS network-qos and queuing policies apply to the whole switch (system qos); attach the same policy to every port"
	var rej view.Collector // every refusal of the device, not only the first
	rej.Add(view.RequireUniform(d, global, view.AspTrust, view.AspDSCP, view.AspPCP, view.AspQueueMap, view.AspQueues, view.AspPFCSet, view.AspWatchdog))
	rej.Add(view.RejectBuffers(d, b, "NX-OS sizes PFC headroom from the network-qos MTU and cable; fabricgen renders no buffer commands for cisco_nxos"))
	q := b.QoS
	v := &NXOSView{Base: b}
	names := view.ClassNames(f)
	if q.Watchdog != nil && q.Lossless != 0 {
		w, err := viewNXOSWatchdog(d, q.Watchdog)
		if !rej.Add(err) {
			return nil, err
		}
		v.Watchdog = w
	}
	marks, err := viewNXOSACLs(f, d, v)
	if !rej.Add(err) {
		return nil, err
	}
	trust := schema.Trust(q.Trust)
	base := viewNXOSClassification(v, q, trust, names)
	for _, a := range b.ACLs {
		if m, ok := marks[a.Name]; ok {
			m.Classes = append(m.Classes, base...)
			v.QoSPolicies = append(v.QoSPolicies, m)
		}
	}
	v.NetworkQoS = viewNXOSNetworkQoS(q)
	queuing, err := viewNXOSQueuing(d, q)
	if !rej.Add(err) {
		return nil, err
	}
	v.Queuing = queuing
	v.Rounded = append(v.Rounded, viewNXOSRoundedECN(f, d, q)...)
	anyPFC := false
	for _, p := range b.Ports {
		anyPFC = anyPFC || p.Lossless != 0
	}
	for _, p := range b.Ports {
		in := NXOSInterface{
			Name: p.Name, Description: p.Description, Routed: p.Routed, IP: p.IP, IPv6: p.IPFamily == "ipv6",
			MTU: p.MTU, FlowControl: p.LinkPause, PFC: p.Lossless != 0, PFCOff: p.Lossless == 0 && anyPFC,
			Watchdog: p.Watchdog && v.Watchdog != nil,
		}
		if in.Description == "" && p.Peer != "" {
			in.Description = "to " + p.Peer
		}
		in.Description = view.OneLine(in.Description)
		if p.SpeedMbps > 0 {
			in.Speed = strconv.FormatInt(p.SpeedMbps, 10)
		}
		fec, err := viewNXOSFEC(d, p)
		if !rej.Add(err) {
			return nil, err
		}
		in.FEC = fec
		if trust != schema.TrustNone {
			in.ServicePolicy = "FABRICGEN-IN"
		}
		for _, dir := range []struct {
			names []string
			word  string
		}{{p.ACLIn, "in"}, {p.ACLOut, "out"}} {
			if len(dir.names) > 1 {
				rej.Add(view.Unsupported(d, fmt.Sprintf("%d ACLs bound %s on %s (%s)", len(dir.names), dir.word, p.Name, strings.Join(dir.names, ", ")),
					"an NX-OS interface takes one access-group per direction and family; merge the ACLs", view.PortACLSrc(d, p.Name, dir.word)))
				continue
			}
			for _, n := range dir.names {
				for _, a := range b.ACLs {
					if a.Name != n {
						continue
					}
					if a.HasIPv4 {
						in.ACLBindings = append(in.ACLBindings, view.ACLBinding{ACL: n, Dir: dir.word})
					}
					if a.HasIPv6 {
						in.ACLBindings = append(in.ACLBindings, view.ACLBinding{IPv6: true, ACL: n, Dir: dir.word})
					}
				}
				if m, ok := marks[n]; ok {
					if dir.word == "out" {
						rej.Add(view.Unsupported(d, "acl "+n+" re-marking DSCP outbound on "+p.Name,
							"NX-OS applies type qos policies inbound; bind the ACL with acl_in", view.PortACLSrc(d, p.Name, dir.word)))
						continue
					}
					in.ServicePolicy = m.Name
				}
			}
		}
		key := viewNXOSIfKey{in.Description != "", in.IP != "", in.Routed, in.IPv6, in.Speed, in.FEC, in.MTU, in.FlowControl, in.PFC, in.Watchdog,
			in.PFCOff, in.ServicePolicy, view.ACLBindingsKey(in.ACLBindings)}
		text, err := view.RenderStanza(b.Stanzas, "interface", key, &in, viewNXOSMarked, in.Name, in.Description, in.IP)
		if err != nil {
			return nil, fmt.Errorf("device %s interface %s: %w", d.Name, p.Name, err)
		}
		in.Text = text
		v.Interfaces = append(v.Interfaces, in)
	}
	return v, rej.Err()
}

// viewNXOSACLs renders the filter ACLs and, per ACL that re-marks, the one-rule
// access lists and class maps of its marks; it returns the re-marking
// policy of each such ACL by ACL name (classes to be completed with the
// classification classes).
func viewNXOSACLs(f *schema.Fabric, d *schema.Device, v *NXOSView) (map[string]NXOSPolicy, error) {
	marks := map[string]NXOSPolicy{}
	var rej view.Collector
	for _, a := range v.ACLs {
		for _, fam := range []struct {
			on      bool
			kw, fam string
		}{{a.HasIPv4, "ip", "ipv4"}, {a.HasIPv6, "ipv6", "ipv6"}} {
			if !fam.on {
				continue
			}
			al := NXOSAccessList{Keyword: fam.kw, Name: a.Name}
			for _, r := range a.Rules {
				if !view.RuleInFamily(r, fam.fam) {
					continue
				}
				e, err := viewNXOSEntry(f, d, a.Name, r, r.Action, fam.fam)
				if !rej.Add(err) {
					return nil, err
				}
				al.Entries = append(al.Entries, e)
			}
			v.AccessLists = append(v.AccessLists, al)
		}
		var classes []NXOSPolicyClass
		for _, m := range a.Marks {
			if m.Queue < 0 {
				rej.Add(view.Unsupported(d, fmt.Sprintf("acl %s rule %d (keeps DSCP of mixed priorities ahead of a re-marking rule)", a.Name, m.Rule.Seq),
					"an NX-OS qos class must set a qos-group; match DSCPs of one priority in the rule", view.RuleSrc(f, a.Name, m.Rule.Seq)))
				continue
			}
			kw, fam := "ip", "ipv4"
			if m.Rule.Family == "ipv6" {
				kw, fam = "ipv6", "ipv6"
			}
			entry, err := viewNXOSEntry(f, d, a.Name, m.Rule, "permit", fam)
			if !rej.Add(err) {
				return nil, err
			}
			v.AccessLists = append(v.AccessLists, NXOSAccessList{Keyword: kw, Name: m.Name, Entries: []NXOSACLEntry{entry}})
			v.ClassMaps = append(v.ClassMaps, NXOSClassMap{Name: m.Name, Match: "match-all", ACL: m.Name})
			c := NXOSPolicyClass{Name: m.Name, SetDSCP: m.SetDSCP, QoSGroup: m.Queue}
			classes = append(classes, c)
		}
		if len(classes) > 0 {
			marks[a.Name] = NXOSPolicy{Name: "FABRICGEN-IN-" + a.Name, Classes: classes}
		}
	}
	return marks, rej.Err()
}

// viewNXOSClassification adds the DSCP and/or CoS class maps trust asks for and
// the FABRICGEN-IN policy; it returns that policy's classes.
func viewNXOSClassification(v *NXOSView, q view.QoSView, trust schema.Trust, names [8]string) []NXOSPolicyClass {
	var base []NXOSPolicyClass
	if trust != schema.TrustNone {
		if trust != schema.TrustPCP {
			for _, g := range q.DSCPByPriority {
				n := "FG-DSCP-" + names[g.Priority]
				v.ClassMaps = append(v.ClassMaps, NXOSClassMap{Name: n, Match: "match-any", DSCP: g.Values})
				base = append(base, NXOSPolicyClass{Name: n, SetDSCP: -1, QoSGroup: q.QueueOf[g.Priority]})
			}
		}
		if trust == schema.TrustPCP || trust == schema.TrustBoth {
			for _, g := range q.PCPByPriority {
				n := "FG-COS-" + names[g.Priority]
				v.ClassMaps = append(v.ClassMaps, NXOSClassMap{Name: n, Match: "match-any", CoS: g.Values})
				base = append(base, NXOSPolicyClass{Name: n, SetDSCP: -1, QoSGroup: q.QueueOf[g.Priority]})
			}
		}
		v.QoSPolicies = append(v.QoSPolicies, NXOSPolicy{Name: "FABRICGEN-IN", Classes: base})
	}
	return base
}

// viewNXOSNetworkQoS is the network-qos policy: MTU and pause per queue class.
func viewNXOSNetworkQoS(q view.QoSView) NXOSNetworkQoS {
	var nq NXOSNetworkQoS
	mtu := q.MaxMTU
	if mtu == 0 {
		mtu = 9216
	}
	nq.Name = "FABRICGEN-NQ"
	for qid := 7; qid >= 0; qid-- {
		c := NXOSNQClass{Name: "c-8q-nq" + strconv.Itoa(qid), MTU: mtu}
		if qid == 0 {
			c.Name = "c-8q-nq-default"
		}
		for p := range q.Lossless.All() {
			if q.QueueOf[p] == qid {
				c.PauseCoS = append(c.PauseCoS, p)
			}
		}
		nq.Classes = append(nq.Classes, c)
	}
	return nq
}

// viewNXOSQueuing is the egress queuing policy: scheduler, ECN, shaper per queue.
func viewNXOSQueuing(d *schema.Device, q view.QoSView) (NXOSQueuing, error) {
	var out NXOSQueuing
	out.Name = "FABRICGEN-OUT"
	var rej view.Collector
	for qid := 7; qid >= 0; qid-- {
		qu := q.Queues[qid]
		c := NXOSQClass{Name: "c-out-8q-q" + strconv.Itoa(qid), Strict: qu.Strict, Bandwidth: qu.Weight}
		if qid == 0 {
			c.Name = "c-out-8q-q-default"
		}
		if qu.ShaperBps > 0 {
			if qu.ShaperBps%1000 != 0 {
				rej.Add(view.Unsupported(d, fmt.Sprintf("queue %d shaper %d bit/s", qid, qu.ShaperBps), "NX-OS shapes in whole kbps", view.QueueSrc(d, qid, view.QShaper)))
			}
			c.ShapeKbps = qu.ShaperBps / 1000
		}
		if e := qu.ECN; e != nil {
			mn, mx := viewNXOSKBytes(e.MinBytes), viewNXOSKBytes(e.MaxBytes)
			if err := view.RequireBytes(d, qid, e); err != nil {
				rej.Add(err)
			} else if mn < 1 {
				rej.Add(view.Unsupported(d, fmt.Sprintf("ecn_profile %s minimum threshold %d bytes", e.Name, e.MinBytes), "NX-OS takes WRED thresholds in kbytes; use at least 1024 bytes", view.ECNSrc(d, qid, view.ECNMin)))
			}
			c.ECN = &NXOSRandomDetect{MinKBytes: mn, MaxKBytes: mx, Probability: e.Probability, Mark: e.Mark}
		}
		out.Classes = append(out.Classes, c)
	}
	return out, rej.Err()
}

// viewNXOSPAM4FECMbps is the speed from which ports run RS-FEC(544,514), on
// by default (200G and 400G PAM4). The N9K "fec" keywords describe slower
// ports: "rs-fec" is CL91 (100G) or Consortium (25/50G) RS(528,514) and
// "fc-fec" CL74 (25/50G) (the "fec ?" help quoted in Cisco bug CSCvy03375).
const viewNXOSPAM4FECMbps = 200_000

// viewNXOSFEC returns a port's "fec" argument. On a 200G or faster port fec "rs"
// renders no line (the port's default RS-FEC(544,514) is what the intent
// asks for); "fc" there has no NX-OS form.
func viewNXOSFEC(d *schema.Device, p view.PortView) (string, error) {
	fast := p.SpeedMbps >= viewNXOSPAM4FECMbps
	switch p.FEC {
	case "rs":
		if fast {
			return "", nil
		}
		return "rs-fec", nil
	case "fc":
		if fast {
			return "", view.Unsupported(d, fmt.Sprintf("fec fc on %s (%s)", p.Name, view.Bps(p.SpeedBps)),
				"NX-OS fc-fec is CL74 FireCode for 25/50G; ports of 200G and more use RS-FEC(544,514)", viewNXOSFECSrc(d, p.Name))
		}
		return "fc-fec", nil
	case "none":
		return "off", nil
	}
	return "", nil
}

// viewNXOSFECSrc is where a port's fec was set.
func viewNXOSFECSrc(d *schema.Device, port string) schema.Range {
	for _, p := range d.Ports {
		if p.Name == port {
			return p.FEC.Src
		}
	}
	return schema.Range{}
}

// viewNXOSEntry builds one entry of the access list of family fam ("ipv4" or
// "ipv6") for the "acl_entry" template.
func viewNXOSEntry(f *schema.Fabric, d *schema.Device, acl string, r view.RuleView, action, fam string) (NXOSACLEntry, error) {
	e := NXOSACLEntry{Seq: r.Seq, Action: action, Protocol: viewNXOSProtocol(r.Protocol, fam), Src: view.AnyOr(r.Src), Dst: view.AnyOr(r.Dst)}
	sp, dp, dscp, err := view.OneMatch(f, d, acl, r, "an NX-OS access-list entry")
	if err != nil {
		return e, err
	}
	e.SrcPort, e.DstPort = sp, dp
	e.DSCP, e.HasDSCP = dscp, dscp >= 0
	return e, nil
}

// viewNXOSProtocol is the protocol word of an entry in an access list of family
// fam: an NX-OS ipv6 access-list names "any protocol" ipv6 (a Nexus 9000v
// "show access-lists": "10 permit ipv6 any any log"), while ICMPv6 keeps the
// word icmp (its default CoPP ACL copp-system-p-acl-ndp: "permit icmp any
// any router-solicitation").
func viewNXOSProtocol(proto, fam string) string {
	if fam == "ipv6" && proto == "ip" {
		return "ipv6"
	}
	return proto
}

// viewNXOSKBytes converts a threshold to NX-OS kbytes. Cisco's examples write
// "kbytes" without saying whether a kbyte is 1,000 or 1,024 bytes; rounding
// bytes/1024 down keeps the threshold at or below the intent under either
// reading, so ECN still marks before PFC's XOFF.
func viewNXOSKBytes(b int64) int64 { return b / 1024 }

// viewNXOSRoundedECN lists the ECN thresholds that are no whole number
// of kbytes: the render writes them rounded down (viewNXOSKBytes), once
// per profile and threshold.
func viewNXOSRoundedECN(f *schema.Fabric, d *schema.Device, q view.QoSView) []view.Rounding {
	var out []view.Rounding
	seen := map[string]bool{}
	for _, qu := range q.Queues {
		e := qu.ECN
		if e == nil || seen[e.Name] {
			continue
		}
		seen[e.Name] = true
		var prof *schema.ECNProfile
		for _, p := range f.ECNProfiles {
			if p.Name == e.Name {
				prof = p
			}
		}
		for _, t := range []struct {
			what  string
			bytes int64
			src   func(*schema.ECNProfile) schema.Range
		}{
			{"min_threshold", e.MinBytes, func(p *schema.ECNProfile) schema.Range { return p.Min.Src }},
			{"max_threshold", e.MaxBytes, func(p *schema.ECNProfile) schema.Range { return p.Max.Src }},
		} {
			if t.bytes <= 0 || t.bytes%1024 == 0 {
				continue
			}
			r := view.Rounding{Device: d.Name, What: "ecn_profile " + e.Name + " " + t.what,
				From: strconv.FormatInt(t.bytes, 10) + " bytes", To: strconv.FormatInt(viewNXOSKBytes(t.bytes), 10) + " kbytes",
				Why: "NX-OS random-detect takes whole kbytes; fabricgen rounds down (bytes/1024) so ECN still marks before the intent's threshold"}
			if prof != nil {
				r.Src = t.src(prof)
			}
			out = append(out, r)
		}
	}
	return out
}

func viewNXOSWatchdog(d *schema.Device, w *view.WatchdogView) (*NXOSWatchdog, error) {
	qq := view.FirstQoS(d)
	var rej view.Collector
	if w.Action != "" && w.Action != string(schema.WatchdogDrop) {
		rej.Add(view.WatchdogRefusal(d, qq, "pfc_watchdog "+w.Name+" action "+w.Action, "the NX-OS PFC watchdog drops on a stormed queue; use action drop", view.WDAction))
	}
	out := &NXOSWatchdog{Name: w.Name}
	poll := ""
	if w.PollSet {
		poll = fmt.Sprintf(", poll_interval %d ms", w.PollMS)
	}
	if !viewNXOSRestores(d) {
		out.Note = fmt.Sprintf("detection %d ms, restoration %d ms%s not applied (no confirmed NX-OS timer command; the fixed-restore multiplier arrived in 9.3(3)); the switch keeps its defaults",
			w.DetectionMS, w.RestorationMS, poll)
		return out, rej.Err()
	}
	m, nearest := viewNXOSFixedRestore(w.RestorationMS)
	if m == 0 {
		var is, set []string
		for _, n := range nearest {
			is = append(is, fmt.Sprintf("%dms", n))
			set = append(set, fmt.Sprintf("restoration = %q", fmt.Sprintf("%dms", n)))
		}
		// An unset restoration is the profile's default: the refusal
		// points at the profile block, whose restoration line is missing.
		rej.Add(view.WatchdogRefusal(d, qq, fmt.Sprintf("pfc_watchdog %s restoration %dms", w.Name, w.RestorationMS),
			fmt.Sprintf("NX-OS restores a stormed queue after fixed-restore multiplier × its %d ms watch-dog interval (which fabricgen leaves at the default), so the restoration must be a multiple of %d ms; the nearest is %s: set %s",
				viewNXOSWatchdogIntervalMS, viewNXOSWatchdogIntervalMS, strings.Join(is, " or "), strings.Join(set, " or ")),
			func(sw *schema.Watchdog) schema.Range {
				if sw.Restoration.Set {
					return sw.Restoration.Src
				}
				return sw.Range
			}))
		return out, rej.Err()
	}
	out.FixedRestore = m
	out.Note = fmt.Sprintf("restoration %d ms = fixed-restore multiplier %d × the %d ms default watch-dog interval; detection %d ms%s not applied (no confirmed NX-OS timer command); the switch keeps its defaults",
		w.RestorationMS, m, viewNXOSWatchdogIntervalMS, w.DetectionMS, poll)
	return out, rej.Err()
}

// viewNXOSMarked is in with its identity values replaced by marks.
func viewNXOSMarked(in NXOSInterface) NXOSInterface {
	in.Name, in.Description, in.IP = view.Mark(0, in.Name), view.Mark(1, in.Description), view.Mark(2, in.IP)
	return in
}
