package lint

import (
	"fmt"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/schema"
)

func pfcRules() []*Rule {
	return []*Rule{
		{
			ID: "PFC001", Title: "Both ends of a switch-to-switch link enable PFC on the same priorities", Severity: schema.SevError,
			Rationale: "Lossless needs one end to generate PAUSE for a priority and the other to honour it; PFC is not negotiated across vendors, so a mismatch silently drops.",
			Reference: "NVIDIA NetQ flow-control check; Nokia SR Linux PFC guide",
			Fix:       "Enable PFC on exactly the lossless classes' priorities at the end that deviates.",
			Run:       runLinkPFC(false),
		},
		{
			ID: "PFC002", Title: "PFC protects the RoCE priority at every hop", Severity: schema.SevError, Path: true,
			Rationale: "One hop without PFC on the RoCE priority drops under congestion, and RoCE's go-back-N retransmission then collapses throughput.",
			Reference: "IEEE 802.1Qbb; Zhu et al., Congestion Control for Large-Scale RDMA Deployments (SIGCOMM 2015)",
			Fix:       "Enable PFC on the RoCE class priority (lossless = true on the class, or pfc_priorities) in every qos_policy on the path.",
			Run:       runPFCOnPath,
		},
		{
			ID: "PFC008", Title: "PFC only on priorities a lossless class uses", Severity: schema.SevError,
			Rationale: "Whether a class is lossless is said once, by the class's lossless attribute; pfc_priorities in a policy can only repeat it. A PFC priority that no lossless class lands in pauses traffic nobody asked to protect (and gets headroom it wastes), while a class that meant to be lossless is not: the two facts disagree.",
			Reference: "IEEE 802.1Qbb (priority-based flow control); Guo et al., RDMA over Commodity Ethernet at Scale (SIGCOMM 2016)",
			Fix:       "Remove the priority from pfc_priorities, or set lossless = true on the class that should use it.",
			Run:       runPFCIntent,
		},
		{
			ID: "PFC003", Title: "At most two lossless priorities per port", Severity: schema.SevWarning,
			Rationale: "Each lossless priority needs its own headroom; shallow-buffer switches can afford headroom for two lossless classes only.",
			Reference: "Guo et al., RDMA over Commodity Ethernet at Scale (SIGCOMM 2016); SONiC qos_config.j2 (lossless TCs 3,4)",
			Fix:       "Keep pfc_priorities to one or two priorities.",
			Run:       runPFCCount,
		},
		{
			ID: "PFC005", Title: "No 802.3x link pause beside PFC", Severity: schema.SevError,
			Rationale: "802.3x global pause stops every priority and is mutually exclusive with PFC on an interface.",
			Reference: "Nokia SR Linux PFC guide; NVIDIA doRoCE.sh",
			Fix:       "Set link_pause = false where pfc_priorities is not empty.",
			Edit:      &diag.AttrEdit{Attr: "link_pause", Value: "false"},
			Run:       runLinkPause,
		},
		{
			ID: "NIC001", Title: "The NIC's PFC vector equals its switch port's", Severity: schema.SevError,
			Rationale: "mlnx_qos --pfc 0,0,0,1,0,0,0,0 on the host must match `priority 3` on the switch; otherwise the NIC ignores the switch's PAUSE (or pauses a priority nobody sends).",
			Reference: "IEEE 802.1Qbb; NVIDIA doRoCE.sh (mlnx_qos --pfc); iproute2 dcb-pfc(8)",
			Fix:       "Enable PFC on exactly the lossless classes' priorities at the end that deviates (a NIC's PFC comes from the role \"nic\" qos_policy).",
			Run:       runLinkPFC(true),
		},
	}
}

// runLinkPFC compares the ends of each link (switch–switch, or NIC–switch
// for nic). The finding is at the end that deviates from the lossless
// classes' priorities (both ends when both do), and one policy line that
// breaks many links is one finding with a count.
func runLinkPFC(nic bool) func(p *Pass) {
	return func(p *Pass) {
		intent := p.Fabric.Lossless
		type key struct {
			subj schema.Range
			have schema.PrioSet
		}
		// One line that sets a PFC vector on many ports is one finding,
		// each port among its places.
		var agg causeAgg[key]
		for _, l := range p.Fabric.Links {
			a, b := l.A, l.B
			if a == nil || b == nil || a.QoS == nil || b.QoS == nil {
				continue
			}
			if isNIC(b) {
				a, b = b, a
			}
			if isNIC(a) != nic || isNIC(b) {
				continue
			}
			if nic && a.Device.TransportOf() == schema.TransportIWARP {
				continue // iWARP runs over TCP: no PFC demands on the NIC
			}
			va, vb := a.QoS.Lossless, b.QoS.Lossless
			if va == vb {
				continue
			}
			// The end to change (schema.Rank): the value the lossless
			// classes ask for is never it; between two others, both are.
			ends := []*schema.Port{a, b}
			sides := make([]schema.Side, 2)
			for i, e := range ends {
				src := e.QoS.PFCSource()
				sides[i] = schema.Side{Key: e.QoS.Lossless.Vector(), Src: src, Holders: 1, Level: e.SourceLevel(src), Intent: e.QoS.Lossless == intent}
			}
			var devs []*schema.Port
			if !sides[0].Intent && !sides[1].Intent {
				devs = ends
			} else {
				for _, i := range schema.Deviants(sides) {
					devs = append(devs, ends[i])
				}
			}
			for _, dv := range devs {
				other := l.Other(dv)
				subj := portSubject(dv.QoS.PFCSource(), dv)
				k := key{subj, dv.QoS.Lossless}
				if agg.bump(k, dv, nil) {
					continue
				}
				var msg, fix string
				switch {
				case nic && isNIC(dv):
					msg = fmt.Sprintf("link %s: NIC %s has PFC vector %s (mlnx_qos --pfc) but %s enables PFC on priority %s",
						l.Name, dv.ID(), dv.QoS.Lossless.Vector(), other.ID(), other.QoS.Lossless)
				case nic:
					msg = fmt.Sprintf("link %s: %s enables PFC on priority %s but NIC %s pauses %s (mlnx_qos --pfc %s)",
						l.Name, dv.ID(), dv.QoS.Lossless, other.ID(), other.QoS.Lossless, other.QoS.Lossless.Vector())
				default:
					msg = fmt.Sprintf("link %s: %s enables PFC on priority %s but %s on %s", l.Name, dv.ID(), dv.QoS.Lossless, other.ID(), other.QoS.Lossless)
				}
				fix = fmt.Sprintf("Enable PFC on exactly the lossless classes' priorities (%s) here: fix this pfc_priorities, or drop it so the classes decide.", intent)
				agg.add(k, Finding{Subject: ptr(subj), Device: dv.Device.Name, Port: dv.Name, Summary: msg, Fix: fix,
					Related: []Related{{Range: portSubject(other.QoS.PFCSource(), other), Message: "other end's PFC set here"}, {Range: l.Range, Message: "link declared here"}}}, dv, nil)
			}
		}
		agg.flush(p)
	}
}

func runPFCOnPath(p *Pass) {
	agg := newPathAgg()
	p.Walk().Ingresses(FlowRoCE, func(a *At) {
		c := a.Class
		if c == nil || !c.Lossless.V || !onClassDSCP(a) || a.Ingress.Priority != c.Priority.V || a.Ingress.Lossless {
			return
		}
		q := qosOf(a.Port)
		subj := portSubject(q.PFCSrc[a.Ingress.Priority&7], a.Port)
		at := *a
		agg.add(fmt.Sprintf("%s|%d", subj, at.Ingress.Priority), a.Flow, a.Port, a.Paths, func() Finding {
			return Finding{Subject: ptr(subj), Summary: fmt.Sprintf("PFC is off for priority %d on %s, which carries lossless class %q (PFC on %s)",
				at.Ingress.Priority, at.Port.ID(), c.Name, q.Lossless)}
		}, at.Trace)
	})
	agg.flush(p)
}

func runPFCCount(p *Pass) {
	for _, g := range groupQoS(p, nil) {
		ps := g.qos.Lossless
		if ps.Len() > 2 {
			reportGroup(p, g, g.qos.PFCSource(), fmt.Sprintf("%s enables PFC on %d priorities (%s); headroom for more than two lossless priorities rarely fits",
				g.ports[0].ID(), ps.Len(), ps))
		}
	}
}

func runLinkPause(p *Pass) {
	for _, g := range groupQoS(p, nil) {
		if g.qos.LinkPause.V && g.qos.Lossless != 0 {
			reportGroup(p, g, g.qos.LinkPause.Src, fmt.Sprintf("%s enables 802.3x link pause and PFC on priority %s", g.ports[0].ID(), g.qos.Lossless))
		}
	}
}

// runPFCIntent reports PFC priorities no lossless class lands in on the port.
func runPFCIntent(p *Pass) {
	for _, g := range groupQoS(p, nil) {
		used := p.Fabric.Lossless
		for _, c := range p.Fabric.Classes {
			if !c.Lossless.V {
				continue
			}
			for _, d := range c.DSCP {
				used = used.With(g.qos.DSCP[d&63].V)
			}
		}
		extra := g.qos.Lossless &^ used
		if extra == 0 {
			continue
		}
		var src schema.Range
		for prio := range extra.All() {
			if src.IsZero() {
				src = g.qos.PFCSrc[prio]
			}
		}
		first := g.ports[0]
		fd := Finding{Subject: ptr(portSubject(src, first)), Device: first.Device.Name, Port: first.Name,
			Summary: fmt.Sprintf("%s enables PFC on priority %s, which no lossless traffic_class uses", first.ID(), extra),
			Count:   len(g.ports), Places: portsPlaces(g.ports)}
		// A class that lands in the priority but is not lossless is the
		// other side of the disagreement: its lossless line (set to false,
		// or left out) may be the change.
		for _, c := range p.Fabric.Classes {
			if c.Lossless.V {
				continue
			}
			var in schema.PrioSet
			for _, d := range c.DSCP {
				in = in.With(g.qos.DSCP[d&63].V)
			}
			if hit := in & extra; hit != 0 {
				at, how := c.Lossless.Src, "sets lossless = false"
				if !c.Lossless.Set || at.IsZero() {
					at, how = c.Range, "is not lossless"
				}
				fd.Related = append(fd.Related, Related{Range: at, Message: fmt.Sprintf("traffic_class %q lands in priority %s here and %s", c.Name, hit, how)})
			}
		}
		p.Report(fd)
	}
}
