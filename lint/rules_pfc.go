package lint

import (
	"fmt"

	"github.com/fabricgen/fabricgen/schema"
)

func pfcRules() []*Rule {
	return []*Rule{
		{
			ID: "PFC001", Title: "Both ends of a switch-to-switch link enable PFC on the same priorities", Severity: schema.SevError,
			Rationale: "Lossless needs one end to generate PAUSE for a priority and the other to honour it; PFC is not negotiated across vendors, so a mismatch silently drops.",
			Reference: "NVIDIA NetQ flow-control check; Nokia SR Linux PFC guide; lint-rules.md PFC001",
			Fix:       "Attach the same pfc_priorities to both ends of the link.",
			Run:       runLinkPFC(false),
		},
		{
			ID: "PFC002", Title: "PFC protects the RoCE priority at every hop", Severity: schema.SevError, Path: true,
			Rationale: "One hop without PFC on the RoCE priority drops under congestion, and RoCE's go-back-N retransmission then collapses throughput.",
			Reference: "lint-rules.md PFC002; Zhu et al., DCQCN (SIGCOMM 2015)",
			Fix:       "Enable PFC on the RoCE class priority (lossless = true on the class, or pfc_priorities) in every qos_policy on the path.",
			Run:       runPFCOnPath,
		},
		{
			ID: "PFC003", Title: "At most two lossless priorities per port", Severity: schema.SevWarning,
			Rationale: "Each lossless priority needs its own headroom; shallow-buffer switches can afford headroom for two lossless classes only.",
			Reference: "Guo et al. (SIGCOMM 2016) §headroom; SONiC default lossless TCs 3,4; lint-rules.md PFC003",
			Fix:       "Keep pfc_priorities to one or two priorities.",
			Run:       runPFCCount,
		},
		{
			ID: "PFC005", Title: "No 802.3x link pause beside PFC", Severity: schema.SevError,
			Rationale: "802.3x global pause stops every priority and is mutually exclusive with PFC on an interface.",
			Reference: "Nokia SR Linux PFC guide; NVIDIA doRoCE.sh; lint-rules.md PFC005",
			Fix:       "Set link_pause = false where pfc_priorities is not empty.",
			Run:       runLinkPause,
		},
		{
			ID: "NIC001", Title: "The NIC's PFC vector equals its switch port's", Severity: schema.SevError,
			Rationale: "mlnx_qos --pfc 0,0,0,1,0,0,0,0 on the host must match `priority 3` on the switch; otherwise the NIC ignores the switch's PAUSE (or pauses a priority nobody sends).",
			Reference: "NVIDIA doRoCE.sh; seed §4.2 (mlnx_qos --pfc vs dcb pfc enable priority 3); lint-rules.md NIC001",
			Fix:       "Give the NIC the same pfc_priorities as the switch port it is cabled to (role \"nic\" qos_policy).",
			Run:       runLinkPFC(true),
		},
	}
}

func runLinkPFC(nic bool) func(p *Pass) {
	return func(p *Pass) {
		// NIC findings with the same source and vectors are one finding with a count.
		type key struct {
			subj schema.Range
			a, b [8]bool
			sw   string
		}
		seen := map[key]int{}
		var out []Finding
		defer func() {
			for _, f := range out {
				p.Report(f)
			}
		}()
		for _, l := range p.Fabric.Links {
			a, b := l.A, l.B
			if a == nil || b == nil || a.QoS == nil || b.QoS == nil {
				continue
			}
			if isNIC(b) {
				a, b = b, a
			}
			hasNIC := isNIC(a)
			if hasNIC != nic || isNIC(b) {
				continue
			}
			if a.QoS == b.QoS || a.QoS.PFC == b.QoS.PFC || samePFC(a.QoS, b.QoS) {
				continue
			}
			pa, pb := a.QoS.PFCPriorities(), b.QoS.PFCPriorities()
			var msg string
			if nic {
				msg = fmt.Sprintf("NIC %s has PFC vector %s (mlnx_qos --pfc) but %s enables PFC on priority %s",
					a.ID(), pfcVector(a.QoS), b.ID(), prioList(pb))
			} else {
				msg = fmt.Sprintf("link %s: %s enables PFC on priority %s but %s on %s", l.Name, a.ID(), prioList(pa), b.ID(), prioList(pb))
			}
			subj := portSubject(pfcSource(a.QoS), a)
			if nic {
				k := key{subj: subj, sw: portSubject(pfcSource(b.QoS), b).String()}
				for i := range k.a {
					k.a[i], k.b[i] = a.QoS.PFC[i].V, b.QoS.PFC[i].V
				}
				if i, ok := seen[k]; ok {
					out[i].Count++
					continue
				}
				seen[k] = len(out)
			}
			out = append(out, Finding{Subject: ptr(subj), Device: a.Device.Name, Port: a.Name, Summary: msg, Count: 1,
				Related: []Related{{Range: portSubject(pfcSource(b.QoS), b), Message: "other end's PFC set here"}, {Range: l.Range, Message: "link declared here"}}})
		}
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
		subj := portSubject(q.PFC[a.Ingress.Priority].Src, a.Port)
		at := *a
		agg.add(fmt.Sprintf("%s|%d", subj, at.Ingress.Priority), a.Port, a.Paths, func() Finding {
			return Finding{Subject: ptr(subj), Summary: fmt.Sprintf("PFC is off for priority %d on %s, which carries lossless class %q (PFC on %s)",
				at.Ingress.Priority, at.Port.ID(), c.Name, prioList(q.PFCPriorities()))}
		}, at.Trace)
	})
	agg.flush(p)
}

func runPFCCount(p *Pass) {
	for _, g := range groupQoS(p, nil) {
		ps := g.qos.PFCPriorities()
		if len(ps) > 2 {
			reportGroup(p, g, pfcSource(g.qos), fmt.Sprintf("%s enables PFC on %d priorities (%s); headroom for more than two lossless priorities rarely fits",
				g.ports[0].ID(), len(ps), prioList(ps)))
		}
	}
}

func runLinkPause(p *Pass) {
	for _, g := range groupQoS(p, nil) {
		if g.qos.LinkPause.V && len(g.qos.PFCPriorities()) > 0 {
			reportGroup(p, g, g.qos.LinkPause.Src, fmt.Sprintf("%s enables 802.3x link pause and PFC on priority %s", g.ports[0].ID(), prioList(g.qos.PFCPriorities())))
		}
	}
}

func samePFC(a, b *schema.PortQoS) bool {
	for i := range a.PFC {
		if a.PFC[i].V != b.PFC[i].V {
			return false
		}
	}
	return true
}
