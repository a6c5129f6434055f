package lint

import (
	"fmt"

	"github.com/fabricgen/fabricgen/schema"
)

func qosRules() []*Rule {
	return []*Rule{
		{
			ID: "QOS001", Title: "Every port on the RoCE path trusts DSCP", Severity: schema.SevError, Path: true,
			Rationale: "DSCP-based PFC is what makes RoCEv2 routable: a port that trusts nothing puts RoCE in the default priority (and, like an untrusted Catalyst port, may rewrite the DSCP to 0), so every later hop treats it as best effort. The seed's core switch halved cross-subnet bandwidth this way.",
			Reference: "Guo et al., RDMA over Commodity Ethernet at Scale (SIGCOMM 2016); lint-rules.md QOS001; seed §4.3",
			Fix:       `Set trust = "dscp" in the qos_policy attached to this port, device or role.`,
			Run:       runTrust,
		},
		{
			ID: "QOS002", Title: "RoCE and CNP land in their class's priority at every hop", Severity: schema.SevError, Path: true,
			Rationale: "One hop classifying the RoCE DSCP into another priority makes the whole path lossy, and a CNP in the wrong priority loses its strict queue.",
			Reference: "NVIDIA NetQ RoCE classification check; lint-rules.md QOS002",
			Fix:       "Map the class's DSCP to the class's priority (traffic_class classes list or dscp_map) in every qos_policy on the path.",
			Run:       runClassPriority,
		},
		{
			ID: "QOS003", Title: "The class priority maps to the class queue at every hop", Severity: schema.SevError, Path: true,
			Rationale: "The priority→queue map used for classification must equal the queue PFC pauses for that priority; otherwise PFC pauses one queue while the traffic sits in another.",
			Reference: "Dell S6000 PFC configuration; Junos DSCP-based PFC; lint-rules.md QOS003",
			Fix:       "Make queue_map send the class priority to the class's queue (or drop the override).",
			Run:       runClassQueue,
		},
		{
			ID: "QOS005", Title: "The DSCP map defines all 64 code points", Severity: schema.SevWarning,
			Rationale: "What a switch does with an unmapped DSCP is vendor-specific; a full map (or a default priority) makes behaviour explicit.",
			Reference: "SONiC qos_config.j2 full DSCP_TO_TC_MAP; lint-rules.md QOS005",
			Fix:       "Set default_priority in the qos_policy (or map every DSCP in dscp_map).",
			Run:       runFullDSCPMap,
		},
		{
			ID: "QOS006", Title: "NIC DSCP marking and DSCP→priority equal the switch's", Severity: schema.SevError,
			Rationale: "The NIC marks RoCE with ToS>>2 and pauses the priority its own dscp2prio gives; if either differs from the attached switch, PFC pauses the wrong priority or the switch classifies RoCE as another class.",
			Reference: "NVIDIA doRoCE.sh; mlnx_qos dscp2prio; lint-rules.md QOS006, NIC002",
			Fix:       "Set the NIC rdma tos to the RoCE class DSCP×4+2 (e.g. 106 for DSCP 26) and give the NIC the same DSCP map as its switch.",
			Run:       runNICMapping,
		},
		{
			ID: "QOS007", Title: "No PCP-only classification of untagged or routed frames", Severity: schema.SevError, Path: true,
			Rationale: "802.1p lives in the VLAN tag, which routed and untagged links do not carry: a port that trusts PCP there puts RoCE in priority PCP 0.",
			Reference: "Guo et al. (SIGCOMM 2016) DSCP-based PFC; Junos L3 DSCP PFC; lint-rules.md QOS007",
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
			agg.add(subj.String()+"|"+string(t), a.Port, a.Paths, func() Finding {
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
	return a.Class != nil && containsInt(a.Class.DSCP, a.Arrive.DSCP)
}

func runClassPriority(p *Pass) {
	agg := newPathAgg()
	for fl := Flow(0); fl < numFlows; fl++ {
		p.Walk().Ingresses(fl, func(a *At) {
			if !onClassDSCP(a) || a.Ingress.Reset || a.Ingress.UntaggedPCP || !a.Class.Priority.Set {
				return
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
			if t == schema.TrustPCP {
				src = q.PCP[a.Arrive.PCP&7].Src
			}
			subj := portSubject(src, a.Port)
			at := *a
			agg.add(fmt.Sprintf("%s|%d|%d", subj, at.Ingress.DSCP, at.Ingress.Priority), a.Port, a.Paths, func() Finding {
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
	for fl := Flow(0); fl < numFlows; fl++ {
		p.Walk().Egresses(fl, func(o *Out) {
			c := o.Class
			if c == nil || !c.Queue.Set || o.Priority != c.Priority.V || o.Egress.Queue == c.Queue.V {
				return
			}
			if !containsInt(c.DSCP, o.DSCP) {
				return
			}
			q := qosOf(o.Port)
			subj := portSubject(q.Queue[o.Priority].Src, o.Port)
			out := *o
			agg.add(fmt.Sprintf("%s|%d|%d", subj, o.Priority, o.Egress.Queue), o.Port, o.Paths, func() Finding {
				return Finding{Subject: ptr(subj), Summary: fmt.Sprintf("%s sends priority %d (%s) to queue %d; traffic_class %q uses queue %d",
					out.Port.ID(), out.Priority, out.Flow, out.Egress.Queue, c.Name, c.Queue.V),
					Related: []Related{{Range: c.Queue.Src, Message: "class queue set here"}}}
			}, out.Trace)
		})
	}
	agg.flush(p)
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

func runNICMapping(p *Pass) {
	f := p.Fabric
	roce := f.ClassByRole(schema.RoleRoCE)
	cnp := f.ClassByRole(schema.RoleCNP)
	for _, d := range f.Devices {
		if d.Kind.V != schema.KindNIC {
			continue
		}
		if roce != nil && d.RDMA != nil && d.RDMA.ToS.Set && len(roce.DSCP) > 0 && !containsInt(roce.DSCP, d.RDMA.DSCP()) {
			p.Report(Finding{Subject: ptr(subjectOr(d.RDMA.ToS.Src, d.RDMA.Range, d.Range)), Device: d.Name,
				Summary: fmt.Sprintf("NIC %s marks RoCE with tos %d (DSCP %d); traffic_class %q is DSCP %s",
					d.Name, d.RDMA.ToS.V, d.RDMA.DSCP(), roce.Name, dscpList(roce.DSCP))})
		}
		for _, np := range d.Ports {
			if np.Peer == nil || np.QoS == nil || np.Peer.QoS == nil || !isSwitch(np.Peer) {
				continue
			}
			if pcpTrust(np.QoS.Trust.V) || pcpTrust(np.Peer.QoS.Trust.V) {
				for _, c := range []*schema.TrafficClass{roce, cnp} {
					if c == nil || !c.Priority.Set {
						continue
					}
					pcp := c.Priority.V & 7
					a, b := np.QoS.PCP[pcp], np.Peer.QoS.PCP[pcp]
					if a.V != b.V {
						p.Report(Finding{Subject: ptr(portSubject(a.Src, np)), Device: d.Name, Port: np.Name,
							Summary: fmt.Sprintf("NIC %s maps PCP %d (%s) to priority %d but %s maps it to %d",
								np.ID(), pcp, c.Name, a.V, np.Peer.ID(), b.V),
							Related: []Related{{Range: b.Src, Message: "switch mapping set here"}}})
					}
				}
			}
			for _, c := range []*schema.TrafficClass{roce, cnp} {
				if c == nil {
					continue
				}
				for _, ds := range c.DSCP {
					a, b := np.QoS.DSCP[ds], np.Peer.QoS.DSCP[ds]
					if a.V != b.V {
						p.Report(Finding{Subject: ptr(portSubject(a.Src, np)), Device: d.Name, Port: np.Name,
							Summary: fmt.Sprintf("NIC %s maps DSCP %d (%s) to priority %d but %s maps it to %d",
								np.ID(), ds, c.Name, a.V, np.Peer.ID(), b.V),
							Related: []Related{{Range: b.Src, Message: "switch mapping set here"}}})
					}
				}
			}
		}
	}
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
			agg.add(subj.String(), a.Port, a.Paths, func() Finding {
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
