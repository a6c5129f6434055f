package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

func aclRules() []*Rule {
	return []*Rule{
		{
			ID: "ACL001", Title: "Routed hops classify UDP 4791 where the intent requires it", Severity: schema.SevError, Path: true,
			Rationale: "A field case: the core switch applied no QoS policy to RoCE (UDP 4791), so traffic between 10.0.1.0/24 and 10.0.2.0/24 ran as best effort at half the bandwidth. A subnet with require_roce_acl = true says every routed hop into or out of it must classify UDP destination port 4791 with an ingress ACL.",
			Reference: "Guo et al., RDMA over Commodity Ethernet at Scale (SIGCOMM 2016); IBTA Supplement to InfiniBand Architecture Specification Annex A17: RoCEv2 (UDP destination port 4791)",
			Fix:       "Bind an ingress acl with a permit rule for protocol = \"udp\", dst_port = 4791 (set_dscp to the RoCE DSCP) on this port (acl_in).",
			Run:       runRequiredACL,
		},
		{
			ID: "ACL002", Title: "No ACL drops or polices RoCE or CNP", Severity: schema.SevError, Path: true,
			Rationale: "A deny or a policer inside a PFC class defeats losslessness: PFC cannot pause a policer.",
			Reference: "IEEE 802.1Qbb (PFC pauses a priority; it cannot pause a policer); Cisco Nexus 9000 NX-OS Quality of Service Configuration Guide (policing)",
			Fix:       "Remove the deny/police from the rule matching UDP 4791, or add an earlier permit for RoCE and CNP.",
			Run:       runACLDrop,
		},
		{
			ID: "XS001", Title: "No hop re-marks the RoCE or CNP DSCP into another class", Severity: schema.SevError, Path: true,
			Rationale: "Any hop that rewrites the DSCP moves RoCE out of its lossless class for every later hop: in a field case, cross-subnet packets arrived with DSCP 0. A rule that matches all UDP 4791 and sets the data DSCP also re-marks CNPs, which are UDP 4791 too.",
			Reference: "Cisco Catalyst QoS configuration guide (mls qos rewrite ip dscp); IBTA Annex A17: RoCEv2 (CNP is UDP 4791, BTH opcode 0x81); RFC 2474",
			Fix:       "Remove the set_dscp (or make it set the class's own DSCP), and match CNP's DSCP in an earlier rule.",
			Run:       runRemark,
		},
	}
}

func runRequiredACL(p *Pass) {
	var names []string
	var required []Related // where the intent requires the ACL: the line to change is one of these or the port
	for _, s := range requiringSubnets(p.Fabric) {
		names = append(names, s.Name)
		required = append(required, Related{Range: subjectOr(s.RequireRoCEACL.Src, s.Range),
			Message: fmt.Sprintf("subnet %s requires an ingress ACL classifying UDP 4791 here", s.Name)})
	}
	agg := newPathAgg()
	p.Walk().Ingresses(FlowRoCE, func(a *At) {
		if !a.RequiresACL || !a.Routed || a.Ingress.Classified {
			return
		}
		subj := portSubject(a.Port.ACLInRange, a.Port)
		at := *a
		family := "IPv4"
		if a.Arrive.IPv6 {
			family = "IPv6"
		}
		agg.add(a.Port.Device.Name+"|"+family, a.Flow, a.Port, a.Paths, func() Finding {
			return Finding{Subject: ptr(subj), Related: slices.Clone(required), Summary: fmt.Sprintf("routed hop %s carries %s RoCE to or from subnet %s (require_roce_acl) but no ingress ACL classifies UDP 4791 for %s",
				at.Port.ID(), family, strings.Join(names, ", "), family)}
		}, at.Trace)
	})
	agg.flush(p)
}

func runACLDrop(p *Pass) {
	agg := newPathAgg()
	w := p.Walk()
	// One ACL rule is one cause: one finding for the flows and ports it hits.
	for fl := Flow(0); fl < numFlows; fl++ {
		w.Ingresses(fl, func(a *At) {
			in := a.Ingress
			if !in.Dropped && in.Policed == 0 {
				return
			}
			at := *a
			agg.addFlows(fmt.Sprintf("%s|%d", in.ACLName, in.ACL.Seq), a.Flow, a.Port, a.Paths,
				func() string { return at.Flow.String() },
				func(what string) Finding { return aclDropFinding(what, at.Port, in.ACLName, in.ACL, in.Dropped) }, at.Trace)
		})
		w.Egresses(fl, func(o *Out) {
			e := o.Egress
			if !e.Dropped && e.Policed == 0 {
				return
			}
			out := *o
			agg.addFlows(fmt.Sprintf("%s|%d", e.ACLName, e.ACL.Seq), o.Flow, o.Port, o.Paths,
				func() string { return out.Flow.String() },
				func(what string) Finding { return aclDropFinding(what, out.Port, e.ACLName, e.ACL, e.Dropped) }, out.Trace)
		})
	}
	agg.flush(p)
}

func aclDropFinding(what string, pt *schema.Port, name string, r *schema.ACLRule, dropped bool) Finding {
	if dropped {
		return Finding{Subject: ptr(subjectOr(r.Action.Src, r.Range)), Summary: fmt.Sprintf("acl %q rule %d denies %s on %s", name, r.Seq, what, pt.ID())}
	}
	return Finding{Subject: ptr(subjectOr(r.Police.Src, r.Range)), Summary: fmt.Sprintf("acl %q rule %d polices %s on %s to %d bit/s", name, r.Seq, what, pt.ID(), r.Police.V)}
}

func runRemark(p *Pass) {
	agg := newPathAgg()
	w := p.Walk()
	// One re-marking ACL rule is one cause: one finding that names what it
	// does to each flow, whether bound in or out.
	for fl := Flow(0); fl < numFlows; fl++ {
		w.Ingresses(fl, func(a *At) {
			in := a.Ingress
			if in.ACL == nil || in.DSCP == a.Arrive.DSCP || a.Class == nil || containsInt(a.Class.DSCP, in.DSCP) {
				return
			}
			at := *a
			agg.addFlows(fmt.Sprintf("%s|%d", in.ACLName, in.ACL.Seq), a.Flow, a.Port, a.Paths,
				func() string {
					return fmt.Sprintf("%s from DSCP %d to %d (class %q is DSCP %s)", at.Flow, at.Arrive.DSCP, in.DSCP, at.Class.Name, dscpList(at.Class.DSCP))
				},
				func(what string) Finding {
					return Finding{Subject: ptr(subjectOr(in.ACL.SetDSCP.Src, in.ACL.Range)), Summary: fmt.Sprintf("acl %q rule %d re-marks %s on %s",
						in.ACLName, in.ACL.Seq, what, at.Port.ID())}
				}, at.Trace)
		})
		w.Egresses(fl, func(o *Out) {
			e := o.Egress
			if e.ACL == nil || e.DSCP == o.DSCP || o.Class == nil || containsInt(o.Class.DSCP, e.DSCP) {
				return
			}
			out := *o
			agg.addFlows(fmt.Sprintf("%s|%d", e.ACLName, e.ACL.Seq), o.Flow, o.Port, o.Paths,
				func() string {
					return fmt.Sprintf("%s from DSCP %d to %d (class %q is DSCP %s)", out.Flow, out.DSCP, e.DSCP, out.Class.Name, dscpList(out.Class.DSCP))
				},
				func(what string) Finding {
					return Finding{Subject: ptr(subjectOr(e.ACL.SetDSCP.Src, e.ACL.Range)), Summary: fmt.Sprintf("egress acl %q rule %d re-marks %s on %s",
						e.ACLName, e.ACL.Seq, what, out.Port.ID())}
				}, out.Trace)
		})
	}
	agg.flush(p)
}
