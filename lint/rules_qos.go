package lint

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/internal/natsort"
	"github.com/fabricgen/fabricgen/schema"
)

func qosRules() []*Rule {
	return []*Rule{
		{
			ID: "QOS001", Title: "Every port on the RoCE path trusts DSCP", Severity: schema.SevError, Path: true,
			Rationale: "DSCP-based PFC is what makes RoCEv2 routable: a port that trusts nothing puts RoCE in the default priority (and, like an untrusted Catalyst port, may rewrite the DSCP to 0), so every later hop treats it as best effort. In a field case a core switch halved cross-subnet RDMA bandwidth this way.",
			Reference: "Guo et al., RDMA over Commodity Ethernet at Scale (SIGCOMM 2016); RFC 2474 (DSCP)",
			Fix:       `Set trust = "dscp" in the qos_policy attached to this port, device or role.`,
			Edit:      &diag.AttrEdit{Attr: "trust", Value: `"dscp"`},
			Run:       runTrust,
		},
		{
			ID: "QOS002", Title: "RoCE and CNP land in their class's priority at every hop", Severity: schema.SevError, Path: true,
			Rationale: "One hop classifying the RoCE DSCP into another priority makes the whole path lossy, and a CNP in the wrong priority loses its strict queue.",
			Reference: "NVIDIA NetQ RoCE classification check",
			Fix:       "Map the class's DSCP to the class's priority (traffic_class classes list or dscp_map) in every qos_policy on the path.",
			Run:       runClassPriority,
		},
		{
			ID: "QOS003", Title: "A lossless priority never shares its queue with a lossy one", Severity: schema.SevError, Path: true,
			Rationale: "Queue numbers are local to a device: a leaf may put priority 3 in queue 3 and a spine in queue 4, and both are right. What must hold at every hop is that the queue a lossless priority lands in carries no lossy priority (and the reverse): PFC pauses the priority, the egress queue is shared, so lossy traffic would sit behind paused lossless traffic, or be paused itself, and a lossy class's drops would hit the lossless one.",
			Reference: "IEEE 802.1Qbb (priority-based flow control); IEEE 802.1Q-2018 clause 8.6.6 (priority to traffic class mapping); Juniper, Understanding PFC using DSCP at Layer 3",
			Fix:       "Give the lossless priority a queue of its own in this port's queue_map (or drop the override that merges them).",
			Run:       runClassQueue,
		},
		{
			ID: "QOS005", Title: "The DSCP map defines all 64 code points", Severity: schema.SevWarning,
			Rationale: "What a switch does with an unmapped DSCP is vendor-specific; a full map (or a default priority) makes behaviour explicit.",
			Reference: "SONiC qos_config.j2 full DSCP_TO_TC_MAP",
			Fix:       "Set default_priority in the qos_policy (or map every DSCP in dscp_map).",
			Edit:      &diag.AttrEdit{Attr: "default_priority", Value: "0"},
			Run:       runFullDSCPMap,
		},
		{
			ID: "QOS006", Title: "NIC DSCP marking and DSCP→priority follow the classes", Severity: schema.SevError,
			Rationale: "The NIC marks RoCE with ToS>>2 and pauses the priority its own dscp2prio gives; if either differs from the class (and so from the switches that follow it), PFC pauses the wrong priority or the switch classifies RoCE as another class. A switch that deviates is reported on the switch's own line (QOS002).",
			Reference: "NVIDIA doRoCE.sh; mlnx_qos dscp2prio",
			Fix:       "Set the NIC rdma tos to the RoCE class DSCP×4+2 (e.g. 106 for DSCP 26) and map the classes' DSCPs to the classes' priorities in the NIC ports' qos_policy.",
			Run:       runNICMapping,
		},
		{
			ID: "NIC007", Title: "RoCE v1 stays in one L2 domain and is classified by PCP", Severity: schema.SevError, Path: true,
			Rationale: "RoCE v1 (transport = \"roce_v1\") is an Ethernet frame (ethertype 0x8915) with no IP header: a routed hop cannot forward it, and a port that classifies by DSCP only puts it in the default priority, so it is neither delivered across subnets nor protected by PFC. Its priority travels in the VLAN tag's PCP.",
			Reference: "InfiniBand Trade Association, Supplement to InfiniBand Architecture Specification Vol. 1 Annex A16: RoCE (2010) and Annex A17: RoCEv2 (2014); IEEE 802.1Q (PCP)",
			Fix:       "Keep RoCE v1 NICs and their peers in one VLAN on tagged L2 ports with trust = \"pcp\" (or \"both\"), or move the NICs to transport = \"roce_v2\".",
			Run:       runRoCEv1,
		},
		{
			ID: "QOS009", Title: "Classes the NICs mark, and lossless classes, name their DSCPs", Severity: schema.SevError,
			Rationale: "A traffic class is what every DSCP-trusting hop classifies by: its dscp list becomes each switch's DSCP-to-priority map. A RoCE or CNP class with an empty dscp list (or none) leaves the DSCP the NICs still mark (tos 106, cnp_dscp 48) to default_priority at every hop, so RoCE is lossy and CNP misses its strict queue, while PFC and ECN stay configured on a priority nothing reaches; the same holds for any lossless class with no DSCP. Under trust = \"pcp\" on every port the class travels in the VLAN tag and needs no DSCP.",
			Reference: "RFC 2474 (DSCP); Guo et al., RDMA over Commodity Ethernet at Scale (SIGCOMM 2016); NVIDIA doRoCE.sh (tos 106, CNP DSCP 48)",
			Fix:       "Give the class the DSCP its NICs mark (dscp = [26] for rdma tos 106; the NICs' cnp_dscp for CNP), and take that DSCP out of any other class.",
			Run:       runClassHasDSCP,
		},
		{
			ID: "QOS007", Title: "No PCP-only classification of untagged or routed frames", Severity: schema.SevError, Path: true,
			Rationale: "802.1p lives in the VLAN tag, which routed and untagged links do not carry: a port that trusts PCP there puts RoCE in priority PCP 0.",
			Reference: "Guo et al. (SIGCOMM 2016) DSCP-based PFC; Junos L3 DSCP PFC",
			Fix:       `Use trust = "dscp" (or "both") on ports that receive routed or untagged frames.`,
			Run:       runPCPRouted,
		},
	}
}

func runTrust(p *Pass) {
	agg := newPathAgg()
	for fl := Flow(0); fl < numFlows; fl++ {
		p.Walk().Ingresses(fl, func(a *At) {
			t := a.Ingress.Trust
			if t == schema.TrustDSCP || t == schema.TrustBoth || t == schema.TrustPCP {
				return
			}
			q := qosOf(a.Port)
			subj := portSubject(q.Trust.Src, a.Port)
			what := fmt.Sprintf("trusts %q", t)
			if t == "" {
				what = "sets no trust mode"
			}
			at := *a
			agg.add(subj.String()+"|"+string(t), a.Flow, a.Port, a.Paths, func() Finding {
				msg := fmt.Sprintf("%s %s, so %s (DSCP %d) lands in priority %d", at.Port.ID(), what, at.Flow, at.Arrive.DSCP, at.Ingress.Priority)
				if at.Ingress.Reset {
					msg += fmt.Sprintf(" and leaves with DSCP 0 instead of %d", at.Arrive.DSCP)
				}
				return Finding{Subject: ptr(subj), Summary: msg}
			}, at.Trace)
		})
	}
	agg.flush(p)
}

// onClassDSCP reports whether the arriving packet still carries one of the
// class's code points (a re-mark upstream is XS001's finding, not this one's).
func onClassDSCP(a *At) bool {
	if a.Class != nil && a.Arrive.L2 {
		return true // RoCE v1: the class travels in the PCP, not a DSCP
	}
	return a.Class != nil && containsInt(a.Class.DSCP, a.Arrive.DSCP)
}

func runClassPriority(p *Pass) {
	agg := newPathAgg()
	for fl := Flow(0); fl < numFlows; fl++ {
		p.Walk().Ingresses(fl, func(a *At) {
			if !onClassDSCP(a) || a.Ingress.Reset || a.Ingress.UntaggedPCP || a.Ingress.NoIP || !a.Class.Priority.Set {
				return
			}
			if a.Ingress.DSCP != a.Arrive.DSCP {
				return // re-marked by an ingress ACL here: XS001's finding
			}
			t := a.Ingress.Trust
			if t != schema.TrustDSCP && t != schema.TrustBoth && t != schema.TrustPCP {
				return
			}
			want := a.Class.Priority.V
			if a.Ingress.Priority == want {
				return
			}
			q := qosOf(a.Port)
			src := q.DSCP[a.Ingress.DSCP].Src
			if t == schema.TrustPCP || a.Arrive.L2 {
				src = q.PCP[a.Arrive.PCP&7].Src
			}
			subj := portSubject(src, a.Port)
			at := *a
			agg.add(fmt.Sprintf("%s|%d|%d", subj, at.Ingress.DSCP, at.Ingress.Priority), a.Flow, a.Port, a.Paths, func() Finding {
				return Finding{Subject: ptr(subj), Summary: fmt.Sprintf("%s maps %s DSCP %d to priority %d; traffic_class %q uses priority %d",
					at.Port.ID(), at.Flow, at.Ingress.DSCP, at.Ingress.Priority, at.Class.Name, want),
					Related: []Related{{Range: at.Class.Priority.Src, Message: "class priority set here"}}}
			}, at.Trace)
		})
	}
	agg.flush(p)
}

func runClassQueue(p *Pass) {
	agg := newPathAgg()
	ex := p.Exist()
	for fl := Flow(0); fl < numFlows; fl++ {
		p.Walk().Egresses(fl, func(o *Out) {
			c := o.Class
			if c == nil || o.Source || o.Priority != c.Priority.V {
				return
			}
			q := qosOf(o.Port)
			mine := q.Lossless.Has(o.Priority & 7)
			for other := 0; other < 8; other++ {
				if other == o.Priority || q.Queue[other].V&7 != o.Egress.Queue || q.Lossless.Has(other) == mine {
					continue
				}
				// A priority nothing classifies into on this device shares
				// the queue with nothing: its queue_map entry is moot.
				if !ex.Priority(o.Port.Device, other) {
					continue
				}
				// The deviating value is the queue_map entry that merged the
				// two; a class default (its queue attribute) is the shared intent.
				subj := q.Queue[o.Priority&7].Src
				if fromClassQueue(p.Fabric, subj) {
					subj = subjectOr(q.Queue[other].Src, subj)
				}
				subj = portSubject(subj, o.Port)
				lossless, lossy := o.Priority, other
				if !mine {
					lossless, lossy = other, o.Priority
				}
				out := *o
				agg.add(fmt.Sprintf("%s|%d|%d", subj, lossless, lossy), o.Flow, o.Port, o.Paths, func() Finding {
					return Finding{Subject: ptr(subj), Summary: fmt.Sprintf("%s puts lossless priority %d and lossy priority %d in queue %d (%s of class %q travels in it)",
						out.Port.ID(), lossless, lossy, out.Egress.Queue, out.Flow, c.Name)}
				}, out.Trace)
				return
			}
		})
	}
	agg.flush(p)
}

// fromClassQueue reports whether r is some class's queue attribute.
func fromClassQueue(f *schema.Fabric, r schema.Range) bool {
	for _, c := range f.Classes {
		if c.Queue.Src == r {
			return true
		}
	}
	return false
}

func runFullDSCPMap(p *Pass) {
	for _, g := range groupQoS(p, func(pt *schema.Port) bool {
		t := pt.QoS.Trust.V
		return t == schema.TrustDSCP || t == schema.TrustBoth
	}) {
		var missing []int
		for d, v := range g.qos.DSCP {
			if !v.Set {
				missing = append(missing, d)
			}
		}
		if len(missing) == 0 {
			continue
		}
		shown := missing
		if len(shown) > 8 {
			shown = shown[:8]
		}
		more := ""
		if len(missing) > len(shown) {
			more = ", …"
		}
		reportGroup(p, g, g.qos.Trust.Src, fmt.Sprintf("%s trusts DSCP but its map leaves %d code points undefined (%s%s)",
			g.ports[0].ID(), len(missing), dscpList(shown), more))
	}
}

// runNICMapping checks what a NIC itself deviates in: the DSCP it marks
// and its own DSCP (or PCP) → priority map, against the class. A switch
// that deviates is QOS002's finding on its own line, so the fix never asks a
// NIC to copy a broken switch.
func runNICMapping(p *Pass) {
	f := p.Fabric
	roce := f.ClassByRole(schema.RoleRoCE)
	cnp := f.ClassByRole(schema.RoleCNP)
	type key struct {
		subj schema.Range
		what string
	}
	// One line that many NICs (or NIC ports) share is one finding, each
	// of them among its places.
	var agg causeAgg[key]
	// The RoCE class's DSCP against the NICs' tos: the value that differs
	// from the rest is the line to change (schema.Rank). A class changed
	// under NICs that all keep their tos is one finding at the class's
	// dscp, the NICs related; a NIC (or a few) unlike the others and the
	// class is a finding at its tos line.
	tosOdd := map[*schema.Device]bool{}
	if roce != nil && len(roce.DSCP) > 0 {
		var marks []nicValue
		for _, d := range f.Devices {
			if d.Kind.V == schema.KindNIC && d.TransportOf() == schema.TransportRoCEv2 && d.RDMA != nil && d.RDMA.ToS.Set {
				marks = append(marks, nicValue{d, d.RDMA.DSCP(), d.RDMA.ToS.Src})
			}
		}
		ref, odd := classOutlier(marks, func(v int) bool { return containsInt(roce.DSCP, v) }, roce.DSCPRange)
		if len(ref) > 0 && !roce.DSCPRange.IsZero() {
			r := ref[0].d.RDMA
			agg.add(key{roce.DSCPRange, "class-dscp"}, Finding{Subject: ptr(roce.DSCPRange),
				Summary: fmt.Sprintf("traffic_class %q is DSCP %s, but %s mark RoCE with tos %d (DSCP %d)", roce.Name, dscpList(roce.DSCP), nicNames(ref), r.ToS.V, r.DSCP()),
				Fix:     fmt.Sprintf("Set the class's dscp to [%d], what the NICs mark (or change every NIC's rdma tos).", r.DSCP()),
				Related: marksRelated(ref, func(m nicValue) string { return fmt.Sprintf("NIC %s marks RoCE with tos %d", m.d.Name, m.d.RDMA.ToS.V) })}, nil, nil)
		}
		for _, m := range odd {
			tosOdd[m.d] = true
		}
	}
	for _, d := range f.Devices {
		if d.Kind.V != schema.KindNIC || d.TransportOf() == schema.TransportIWARP {
			continue
		}
		if tosOdd[d] {
			subj := subjectOr(d.RDMA.ToS.Src, d.RDMA.Range, d.Range)
			claim, claimRel := claimedBy(f, roce, d.RDMA.DSCP())
			agg.add(key{subj, "tos"}, Finding{Subject: ptr(subj), Device: d.Name,
				Summary: fmt.Sprintf("NIC %s marks RoCE with tos %d (DSCP %d); traffic_class %q is DSCP %s%s",
					d.Name, d.RDMA.ToS.V, d.RDMA.DSCP(), roce.Name, dscpList(roce.DSCP), claim),
				Fix:     fmt.Sprintf("Set rdma tos = %d (DSCP %d with ECT(0)).", roce.DSCP[0]<<2|2, roce.DSCP[0]),
				Edit:    &diag.AttrEdit{Attr: "tos", Value: fmt.Sprint(roce.DSCP[0]<<2 | 2)},
				Related: append([]Related{{Range: roce.DSCPRange, Message: "class DSCP set here"}}, claimRel...)}, nil, d)
		}
		for _, np := range d.Ports {
			if np.Peer == nil || np.QoS == nil || !isSwitch(np.Peer) {
				continue
			}
			for _, c := range []*schema.TrafficClass{roce, cnp} {
				if c == nil || !c.Priority.Set {
					continue
				}
				want := c.Priority.V
				if pcpTrust(np.QoS.Trust.V) || d.TransportOf() == schema.TransportRoCEv1 {
					if a := np.QoS.PCP[want&7]; a.V != want {
						subj := portSubject(a.Src, np)
						agg.add(key{subj, fmt.Sprintf("pcp%d", want)}, Finding{Subject: ptr(subj), Device: d.Name, Port: np.Name,
							Summary: fmt.Sprintf("NIC %s maps PCP %d (%s) to priority %d; traffic_class %q uses priority %d", np.ID(), want, c.Name, a.V, c.Name, want),
							Fix:     fmt.Sprintf("Map PCP %d to priority %d in the NIC ports' qos_policy (pcp_map).", want, want),
							Related: []Related{{Range: c.Priority.Src, Message: "class priority set here"}}}, np, nil)
					}
				}
				if d.TransportOf() == schema.TransportRoCEv1 {
					continue
				}
				for _, ds := range c.DSCP {
					if a := np.QoS.DSCP[ds]; a.V != want {
						subj := portSubject(a.Src, np)
						agg.add(key{subj, fmt.Sprintf("dscp%d", ds)}, Finding{Subject: ptr(subj), Device: d.Name, Port: np.Name,
							Summary: fmt.Sprintf("NIC %s maps DSCP %d (%s) to priority %d; traffic_class %q uses priority %d", np.ID(), ds, c.Name, a.V, c.Name, want),
							Fix:     fmt.Sprintf("Map DSCP %d to priority %d in the NIC ports' qos_policy (dscp_map), as the class says.", ds, want),
							Related: []Related{{Range: c.Priority.Src, Message: "class priority set here"}}}, np, nil)
					}
				}
			}
		}
	}
	agg.flush(p)
}

func runPCPRouted(p *Pass) {
	agg := newPathAgg()
	for fl := Flow(0); fl < numFlows; fl++ {
		p.Walk().Ingresses(fl, func(a *At) {
			if !a.Ingress.UntaggedPCP {
				return
			}
			q := qosOf(a.Port)
			subj := portSubject(q.Trust.Src, a.Port)
			at := *a
			agg.add(subj.String(), a.Flow, a.Port, a.Paths, func() Finding {
				kind := "untagged"
				if at.Routed {
					kind = "routed"
				}
				return Finding{Subject: ptr(subj), Summary: fmt.Sprintf("%s trusts PCP but receives %s frames without a VLAN tag: %s (DSCP %d) lands in priority %d",
					at.Port.ID(), kind, at.Flow, at.Arrive.DSCP, at.Ingress.Priority)}
			}, at.Trace)
		})
	}
	agg.flush(p)
}

func pcpTrust(t schema.Trust) bool { return t == schema.TrustPCP || t == schema.TrustBoth }

// runRoCEv1 reports where RoCE v1 frames go wrong: at a routed port (no IP
// header to route) or at a port that classifies by DSCP only. Where RoCE v1
// is the exception (the fabric also has RoCE v2 NICs), the line to change is
// the v1 NICs' transport: one finding per transport line, naming the hops it
// breaks. Where every RoCE NIC speaks v1 but is cabled only to routed
// switch ports, v1 cannot reach even the first hop: the transport is the
// change again, reported the same way. Otherwise, where every RoCE NIC
// speaks v1, v1 is the design and the hops that cannot carry it deviate:
// one finding per port line.
func runRoCEv1(p *Pass) {
	if !hasTransport(p.Fabric, schema.TransportRoCEv1) {
		return
	}
	if hasTransport(p.Fabric, schema.TransportRoCEv2) {
		runRoCEv1Exception(p, v1Context{one: "in a fabric of RoCE v2 NICs", many: "in a fabric of RoCE v2 NICs"})
		return
	}
	if v1RoutedFirstHops(p.Fabric) {
		runRoCEv1Exception(p, v1Context{one: "and is cabled only to routed switch ports", many: "and are cabled only to routed switch ports"})
		return
	}
	agg := newPathAgg()
	for fl := Flow(0); fl < numFlows; fl++ {
		p.Walk().Ingresses(fl, func(a *At) {
			if !a.Arrive.L2 || a.Port.Device.Kind.V == schema.KindNIC {
				return
			}
			at := *a
			switch {
			case a.Port.IsRouted():
				subj := portSubject(subjectOr(a.Port.IP.Src, a.Port.Routed.Src), a.Port)
				agg.add("routed|"+subj.String(), a.Flow, a.Port, a.Arrivals(), func() Finding {
					return Finding{Subject: ptr(subj), Summary: fmt.Sprintf("RoCE v1 %s reaches routed port %s: a RoCE v1 frame has no IP header and cannot be routed", at.Flow, at.Port.ID())}
				}, at.Trace)
			case a.Ingress.NoIP:
				subj := portSubject(qosOf(a.Port).Trust.Src, a.Port)
				agg.add("dscp|"+subj.String(), a.Flow, a.Port, a.Paths, func() Finding {
					return Finding{Subject: ptr(subj), Summary: fmt.Sprintf("%s classifies by DSCP only, but RoCE v1 %s has no IP header: it lands in priority %d", at.Port.ID(), at.Flow, at.Ingress.Priority)}
				}, at.Trace)
			}
		})
	}
	agg.flush(p)
}

// v1Context says why a RoCE v1 NIC's transport is the line to change, in
// NIC007's summary for one NIC and for several.
type v1Context struct{ one, many string }

// v1RoutedFirstHops reports whether every RoCE v1 NIC with a linked port
// is linked to routed switch ports only: its frames cannot enter the
// fabric at all, whatever the hops further on do.
func v1RoutedFirstHops(f *schema.Fabric) bool {
	linked := false
	for _, d := range f.Devices {
		if d.Kind.V != schema.KindNIC || d.TransportOf() != schema.TransportRoCEv1 {
			continue
		}
		for _, pt := range d.Ports {
			if pt.Peer == nil {
				continue
			}
			if !pt.Peer.IsRouted() {
				return false
			}
			linked = true
		}
	}
	return linked
}

// hasTransport reports whether some NIC with a linked port uses transport t.
func hasTransport(f *schema.Fabric, t schema.Transport) bool {
	for _, d := range f.Devices {
		if d.Kind.V == schema.KindNIC && d.TransportOf() == t {
			for _, pt := range d.Ports {
				if pt.Peer != nil {
					return true
				}
			}
		}
	}
	return false
}

// runRoCEv1Exception reports, per transport line of the RoCE v1 NICs, the
// hops their frames cannot cross: one cause (the NICs' transport), one
// finding about the NICs of that line (its places), with the hops as
// related locations. Lines whose NICs break at the same hops are one
// problem with one fix: one finding (Pass.ReportAlike), every line a
// related location and every NIC a place.
func runRoCEv1Exception(p *Pass, ctx v1Context) {
	type item struct {
		f      Finding
		routed []string
		dscp   []string
		seen   map[string]bool
		paths  [numFlows]int64
		flow   Flow
		trace  func() []Step
		nics   []*schema.Device
		nicSet map[*schema.Device]bool
	}
	items := map[lineKey]*item{}
	var order []lineKey
	w := p.Walk()
	for fl := Flow(0); fl < numFlows; fl++ {
		srcs := w.v1Sources(fl)
		w.Ingresses(fl, func(a *At) {
			if !a.Arrive.L2 || a.Port.Device.Kind.V == schema.KindNIC {
				return
			}
			routed := a.Port.IsRouted()
			if !routed && !a.Ingress.NoIP {
				return
			}
			at := *a
			for _, nic := range srcs[a.id] {
				subj := subjectOr(nic.RDMA.Transport.Src, nic.Range)
				k := lineKey{subj.Filename, subj.Start.Line}
				it, ok := items[k]
				if !ok {
					it = &item{f: Finding{Subject: ptr(subj), Device: nic.Name}, seen: map[string]bool{}, flow: fl, trace: at.Trace, nicSet: map[*schema.Device]bool{}}
					items[k] = it
					order = append(order, k)
				}
				if !it.nicSet[nic] {
					it.nicSet[nic] = true
					it.nics = append(it.nics, nic)
				}
				n := at.Paths
				if routed {
					n = at.Arrivals()
				}
				it.paths[fl] = satAdd(it.paths[fl], n)
				id := at.Port.ID()
				if it.seen[id] {
					continue
				}
				it.seen[id] = true
				if routed {
					it.routed = append(it.routed, id)
					it.f.Related = addRelated(it.f.Related, []Related{{Range: portSubject(subjectOr(at.Port.IP.Src, at.Port.Routed.Src), at.Port), Message: "routed port " + id}})
				} else {
					it.dscp = append(it.dscp, fmt.Sprintf("%s (priority %d)", id, at.Ingress.Priority))
					it.f.Related = addRelated(it.f.Related, []Related{{Range: portSubject(qosOf(at.Port).Trust.Src, at.Port), Message: id + " classifies by DSCP only"}})
				}
			}
		})
	}
	for _, k := range order {
		it := items[k]
		var why []string
		if len(it.routed) > 0 {
			why = append(why, "cannot cross routed "+plural(len(it.routed), "port", "ports")+" "+listSome(it.routed))
		}
		if len(it.dscp) > 0 {
			why = append(why, "is classified by DSCP only at "+listSome(it.dscp))
		}
		f := it.f
		f.Summary = fmt.Sprintf("%s sends RoCE v1, an Ethernet frame without an IP header, %s: its traffic %s", f.Device, ctx.one, strings.Join(why, " and "))
		if len(it.nics) > 1 {
			f.Summary = v1NICs(len(it.nics), ctx, strings.Join(why, " and "))
		}
		f.Fix = "Set transport = \"roce_v2\" on the NIC (RoCE v1 only works inside one VLAN on tagged L2 ports that trust PCP), or keep the v1 NICs and their peers in one L2 domain."
		f.Trace = it.trace()
		f.Paths = flowPaths(it.paths, it.flow)
		f.Count = len(it.nics)
		f.Places = devicesPlaces(it.nics)
		// NICs behind the same routed ports are alike but for their own
		// hops (the port each enters the fabric at): one finding, whose
		// summary names the shared routed ports and leaves each NIC's
		// DSCP-only hops to its related locations.
		routed := slices.Clone(it.routed)
		natsort.Sort(routed)
		shared := ""
		if len(routed) > 0 {
			shared = "cannot cross routed " + plural(len(routed), "port", "ports") + " " + listSome(routed)
		}
		if len(it.dscp) > 0 {
			if shared != "" {
				shared += " and "
			}
			shared += "is classified by DSCP only at some hops (see the related locations)"
		}
		p.ReportAlike(f, Alike{Key: shared, Place: "NIC " + f.Device + " (transport set here)",
			Summary: func(n int) string { return v1NICs(n, ctx, shared) }})
	}
}

// v1NICs is NIC007's summary for n RoCE v1 NICs whose traffic breaks as why says.
func v1NICs(n int, ctx v1Context, why string) string {
	return fmt.Sprintf("%d NICs send RoCE v1, an Ethernet frame without an IP header, %s: their traffic %s", n, ctx.many, why)
}

// listSome names up to three items, then how many more.
func listSome(xs []string) string {
	if len(xs) <= 3 {
		return strings.Join(xs, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(xs[:3], ", "), len(xs)-3)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// trustsDSCP reports whether a port classifies by DSCP (trust dscp or both).
func trustsDSCP(pt *schema.Port) bool {
	t := pt.QoS.Trust.V
	return t == schema.TrustDSCP || t == schema.TrustBoth
}

// flowWord names a flow in QOS009's messages.
func flowWord(fl Flow) string {
	if fl == FlowCNP {
		return "CNP"
	}
	return "RoCE"
}

// nicMark is what NIC d itself says it marks the flow with: the DSCP, the
// attribute that says so and how it reads ("tos 106", "cnp_dscp 48"); ok
// is false for a NIC that sets no marking, speaks no RoCE v2 or has no link.
func nicMark(d *schema.Device, fl Flow) (dscp int, src schema.Range, how string, ok bool) {
	r := d.RDMA
	if d.Kind.V != schema.KindNIC || r == nil || d.TransportOf() != schema.TransportRoCEv2 || !hasLinkedPort(d) {
		return 0, schema.Range{}, "", false
	}
	switch {
	case fl == FlowRoCE && r.ToS.Set:
		return r.DSCP(), subjectOr(r.ToS.Src, r.Range, d.Range), fmt.Sprintf("tos %d", r.ToS.V), true
	case fl == FlowCNP && r.CNPDSCP.Set:
		return r.CNPDSCP.V, subjectOr(r.CNPDSCP.Src, r.Range, d.Range), fmt.Sprintf("cnp_dscp %d", r.CNPDSCP.V), true
	}
	return 0, schema.Range{}, "", false
}

func hasLinkedPort(d *schema.Device) bool {
	for _, pt := range d.Ports {
		if pt.Peer != nil {
			return true
		}
	}
	return false
}

// dscpMarkers is one DSCP the NICs mark a flow with, and the NICs that
// mark it (in fabric order).
type dscpMarkers struct {
	dscp int
	nics []*schema.Device
}

// nicMarks groups the NICs that mark the flow explicitly by the DSCP they
// mark, the DSCP most NICs mark first (ties: the lower DSCP).
func nicMarks(f *schema.Fabric, fl Flow) []dscpMarkers {
	var out []dscpMarkers
	idx := map[int]int{}
	for _, d := range f.Devices {
		ds, _, _, ok := nicMark(d, fl)
		if !ok {
			continue
		}
		i, seen := idx[ds]
		if !seen {
			i = len(out)
			idx[ds] = i
			out = append(out, dscpMarkers{dscp: ds})
		}
		out[i].nics = append(out[i].nics, d)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if len(out[i].nics) != len(out[j].nics) {
			return len(out[i].nics) > len(out[j].nics)
		}
		return out[i].dscp < out[j].dscp
	})
	return out
}

// runClassHasDSCP reports a class without DSCPs where ports classify by
// DSCP: the RoCE or CNP class when RoCE v2 NICs send that flow (at the
// class's dscp line, with a NIC that marks it), and any other lossless
// class whose priority no DSCP reaches. Where no port trusts DSCP, the
// classes travel in the VLAN tag's PCP and need no DSCP.
func runClassHasDSCP(p *Pass) {
	f := p.Fabric
	groups := groupQoS(p, trustsDSCP)
	if len(groups) == 0 {
		return
	}
	flowOf := map[*schema.TrafficClass]Flow{}
	for fl := Flow(0); fl < numFlows; fl++ {
		if c := flowClass(f, fl); c != nil {
			flowOf[c] = fl
		}
	}
	v2 := hasTransport(f, schema.TransportRoCEv2)
	for _, c := range f.Classes {
		if len(c.DSCP) > 0 {
			continue
		}
		subj := subjectOr(c.DSCPRange, c.Range)
		what := "has an empty dscp list"
		if c.DSCPRange.IsZero() {
			what = "sets no dscp"
		}
		if fl, ok := flowOf[c]; ok && v2 {
			reportUnclassifiedFlow(p, c, fl, subj, what, groups)
			continue
		}
		if !c.Lossless.V || !c.Priority.Set || reachesPriority(groups, c.Priority.V) {
			continue
		}
		first := groups[0].ports[0]
		p.Report(Finding{Subject: ptr(subj),
			Summary: fmt.Sprintf("traffic_class %q is lossless but %s: no port that classifies by DSCP puts anything in its priority %d, so PFC there protects no traffic", c.Name, what, c.Priority.V),
			Fix:     fmt.Sprintf("Give traffic_class %q the DSCPs its traffic is marked with (dscp = [...]), or drop lossless = true if nothing is meant to use priority %d.", c.Name, c.Priority.V),
			Related: []Related{{Range: portSubject(first.QoS.Trust.Src, first), Message: first.ID() + " classifies by DSCP here"}}})
	}
}

// reachesPriority reports whether some DSCP-classifying port maps a DSCP to prio.
func reachesPriority(groups []qosGroup, prio int) bool {
	for _, g := range groups {
		for _, v := range g.qos.DSCP {
			if v.V&7 == prio {
				return true
			}
		}
	}
	return false
}

// reportUnclassifiedFlow reports the RoCE or CNP class c, which names no
// DSCP, at subj: what the NICs mark instead, which class claims it and
// where the DSCP-classifying ports put it.
func reportUnclassifiedFlow(p *Pass, c *schema.TrafficClass, fl Flow, subj schema.Range, what string, groups []qosGroup) {
	f := p.Fabric
	word := flowWord(fl)
	want := c.Priority.V
	marks := nicMarks(f, fl)
	if len(marks) == 0 {
		fix := fmt.Sprintf("Set dscp on traffic_class %q to the DSCP the NICs mark RoCE with, and set it in every NIC's rdma tos (dscp = [26] with tos = 106).", c.Name)
		if fl == FlowCNP {
			fix = fmt.Sprintf("Set dscp on traffic_class %q to the DSCP the NICs mark CNPs with, and set it in the NICs' rdma cnp_dscp where they take one (ConnectX marks DSCP 48 unless told otherwise).", c.Name)
		}
		fd := Finding{Subject: ptr(subj), Fix: fix,
			Summary: fmt.Sprintf("traffic_class %q %s, so no port that classifies by DSCP can put %s in the class's priority %d", c.Name, what, word, want)}
		for _, d := range f.Devices {
			if d.Kind.V == schema.KindNIC && d.TransportOf() == schema.TransportRoCEv2 && hasLinkedPort(d) {
				fd.Related = []Related{{Range: d.Range, Message: fmt.Sprintf("%s sends %s", d.Name, word)}}
				break
			}
		}
		p.Report(fd)
		return
	}
	m := marks[0]
	first := m.nics[0]
	_, src, how, _ := nicMark(first, fl)
	n := len(m.nics)
	var b strings.Builder
	fmt.Fprintf(&b, "traffic_class %q %s, but %d %s %s with DSCP %d (%s: %s", c.Name, what, n, plural(n, "NIC marks", "NICs mark"), word, m.dscp, first.Name, how)
	if len(marks) > 1 {
		others := 0
		var ds []int
		for _, o := range marks[1:] {
			others += len(o.nics)
			ds = append(ds, o.dscp)
		}
		sort.Ints(ds)
		fmt.Fprintf(&b, "; %d other %s DSCP %s", others, plural(others, "NIC marks", "NICs mark"), dscpList(ds))
	}
	b.WriteString(")")
	related := []Related{{Range: src, Message: fmt.Sprintf("%s marks %s with DSCP %d here (%s)", first.Name, word, m.dscp, how)}}
	fix := fmt.Sprintf("Set dscp = [%d] on traffic_class %q (the NICs' %s)", m.dscp, c.Name, how)
	if o := otherClass(f, c, m.dscp); o != nil {
		fmt.Fprintf(&b, ", which traffic_class %q claims", o.Name)
		related = append(related, claimRelated(o, m.dscp))
		fix += fmt.Sprintf(" and take %d out of traffic_class %q (a DSCP selects one class), or mark %s with a DSCP of its own", m.dscp, o.Name, word)
	}
	// Where the ports that classify by DSCP put it: the switches', else the NICs' own maps.
	who := "switches"
	prios, at, atPrio := landing(groups, m.dscp, want, isSwitch)
	if len(prios) == 0 {
		who = "the NICs' own DSCP maps"
		prios, at, atPrio = landing(groups, m.dscp, want, isNIC)
	}
	var wrong []int
	for _, pr := range prios {
		if pr != want {
			wrong = append(wrong, pr)
		}
	}
	switch {
	case len(wrong) == 0:
		fmt.Fprintf(&b, ": %s send it to priority %d only through dscp_map entries, which the class does not say", who, want)
	case len(wrong) == 1:
		fmt.Fprintf(&b, ": %s put it in priority %d, not the class's priority %d", who, wrong[0], want)
	default:
		fmt.Fprintf(&b, ": %s put it in priorities %s, not the class's priority %d", who, dscpList(wrong), want)
	}
	if at != nil {
		q := qosOf(at)
		related = append(related, Related{Range: portSubject(q.DSCP[m.dscp].Src, at), Message: fmt.Sprintf("%s maps DSCP %d to priority %d here", at.ID(), m.dscp, atPrio)})
	}
	p.Report(Finding{Subject: ptr(subj), Summary: b.String(), Fix: fix + ".", Related: related})
}

// landing lists the priorities (sorted) that the ports keep accepts among
// groups put DSCP d in, with the first port that puts it elsewhere than
// want and that priority.
func landing(groups []qosGroup, d, want int, keep func(*schema.Port) bool) (prios []int, at *schema.Port, atPrio int) {
	seen := map[int]bool{}
	for _, g := range groups {
		pr := g.qos.DSCP[d&63].V & 7
		for _, pt := range g.ports {
			if !keep(pt) {
				continue
			}
			if !seen[pr] {
				seen[pr] = true
				prios = append(prios, pr)
			}
			if pr != want && at == nil {
				at, atPrio = pt, pr
			}
			break
		}
	}
	sort.Ints(prios)
	return prios, at, atPrio
}

// otherClass is the first class other than c (by name) whose dscp list has d, or nil.
func otherClass(f *schema.Fabric, c *schema.TrafficClass, d int) *schema.TrafficClass {
	for _, o := range f.Classes {
		if o != c && containsInt(o.DSCP, d) {
			return o
		}
	}
	return nil
}

// claimRelated points at class o's dscp list, which has DSCP d.
func claimRelated(o *schema.TrafficClass, d int) Related {
	return Related{Range: subjectOr(o.DSCPRange, o.Range), Message: fmt.Sprintf("traffic_class %q claims DSCP %d here", o.Name, d)}
}

// claimedBy says which class other than c selects DSCP d, as a clause
// for a finding's summary (", and DSCP 26 selects traffic_class "bulk"
// (priority 1)") and a related location; both empty when none does.
func claimedBy(f *schema.Fabric, c *schema.TrafficClass, d int) (string, []Related) {
	o := otherClass(f, c, d)
	if o == nil {
		return "", nil
	}
	return fmt.Sprintf(", and DSCP %d selects traffic_class %q (priority %d)", d, o.Name, o.Priority.V), []Related{claimRelated(o, d)}
}
