package lint

import (
	"fmt"

	"github.com/fabricgen/fabricgen/schema"
)

func cnpRules() []*Rule {
	return []*Rule{
		{
			ID: "CNP001", Title: "CNP leaves every hop of the reverse path in a strict-priority queue", Severity: schema.SevError, Path: true,
			Rationale: "Congestion notifications must reach the sender quickly for DCQCN to cut its rate; NVIDIA's RoCE default puts CNP (DSCP 48, priority 6) in a strict queue while data is DWRR.",
			Reference: "NVIDIA Cumulus Linux RoCE defaults; DOCA DCQCN algorithm",
			Fix:       `Set scheduler = "strict" on the CNP class (or on the CNP queue of this port's qos_policy).`,
			Run:       runCNPStrict,
		},
		{
			ID: "CNP002", Title: "CNP has its own DSCP, and NICs and switches agree on it", Severity: schema.SevError,
			Rationale: "CNPs are UDP 4791 too (BTH opcode 0x81): only the DSCP separates them from data. The NIC's np_cnp_dscp/np_cnp_prio must be what the switches classify as CNP.",
			Reference: "RoCEv2 CNP format; mlx5 np_cnp_dscp/np_cnp_prio",
			Fix:       "Give the cnp class a DSCP no other class uses, and set every NIC's rdma cnp_dscp and cnp_priority to the class's DSCP and priority.",
			Run:       runCNPIdentity,
		},
		{
			ID: "CNP003", Title: "CNP is never in a PFC-paused priority", Severity: schema.SevError, Path: true,
			Rationale: "Pausing congestion feedback together with data delays the rate cut that would have relieved the congestion; CNPs belong in a lossy strict queue.",
			Reference: "NVIDIA Cumulus Linux RoCE defaults (PFC only on priority 3)",
			Fix:       "Give CNP a priority that is not in pfc_priorities (and not the RoCE data priority).",
			Run:       runCNPPaused,
		},
	}
}

func runCNPStrict(p *Pass) {
	agg := newPathAgg()
	p.Walk().Egresses(FlowCNP, func(o *Out) {
		if o.Source || o.Egress.Sched == schema.SchedStrict || o.Class == nil || !containsInt(o.Class.DSCP, o.DSCP) {
			return
		}
		if o.Class.Priority.Set && o.Priority != o.Class.Priority.V {
			return // classified into another priority here: QOS002's finding, on that line
		}
		q := qosOf(o.Port)
		// The deviating value: a queue_map entry sending CNP to a DWRR
		// queue, else the queue's scheduler.
		src := q.Queues[o.Egress.Queue].Sched.Src
		if qs := q.Queue[o.Priority&7].Src; !fromClassQueue(p.Fabric, qs) && !qs.IsZero() {
			src = qs
		}
		subj := portSubject(src, o.Port)
		out := *o
		agg.add(fmt.Sprintf("%s|%d", subj, o.Egress.Queue), o.Flow, o.Port, o.Paths, func() Finding {
			sched := string(out.Egress.Sched)
			if sched == "" {
				sched = "no scheduler"
			}
			return Finding{Subject: ptr(subj), Summary: fmt.Sprintf("%s sends CNP (DSCP %d) to queue %d, scheduled %s, not strict", out.Port.ID(), out.DSCP, out.Egress.Queue, sched)}
		}, out.Trace)
	})
	agg.flush(p)
}

func runCNPIdentity(p *Pass) {
	f := p.Fabric
	cnp := f.ClassByRole(schema.RoleCNP)
	if cnp == nil {
		return
	}
	shared := false // the class's DSCP line has a finding already
	for _, c := range f.Classes {
		if c == cnp {
			continue
		}
		for _, d := range cnp.DSCP {
			if containsInt(c.DSCP, d) {
				shared = true
				p.Report(Finding{Subject: ptr(subjectOr(cnp.DSCPRange, cnp.Range)),
					Summary: fmt.Sprintf("CNP class %q shares DSCP %d with class %q", cnp.Name, d, c.Name),
					Related: []Related{{Range: c.DSCPRange, Message: "other class's DSCP set here"}},
				})
			}
		}
	}
	// The class's DSCP and priority against the NICs': the value that
	// differs from the rest is the line to change (schema.Rank). A class
	// changed under NICs that all still send the old value is one finding
	// at the class, the NICs related; a NIC (or a few) that differs from
	// the others and the class is a finding at the NIC's line, one per line.
	var dscps, prios []nicValue
	for _, d := range f.Devices {
		r := d.RDMA
		if d.Kind.V != schema.KindNIC || r == nil || d.TransportOf() == schema.TransportIWARP {
			continue
		}
		if r.CNPDSCP.Set {
			dscps = append(dscps, nicValue{d, r.CNPDSCP.V, r.CNPDSCP.Src})
		}
		if r.CNPPriority.Set {
			prios = append(prios, nicValue{d, r.CNPPriority.V, r.CNPPriority.Src})
		}
	}
	var agg causeAgg[schema.Range]
	defer agg.flush(p)
	// A CNP class without DSCPs is the class's fault, not the NICs': QOS009.
	if len(cnp.DSCP) > 0 {
		inClass := func(v int) bool { return containsInt(cnp.DSCP, v) }
		ref, odd := classOutlier(dscps, inClass, cnp.DSCPRange)
		if len(ref) > 0 && !shared && !cnp.DSCPRange.IsZero() {
			p.Report(Finding{Subject: ptr(cnp.DSCPRange),
				Summary: fmt.Sprintf("traffic_class %q classifies CNP on DSCP %s, but %s send CNP with DSCP %d", cnp.Name, dscpList(cnp.DSCP), nicNames(ref), ref[0].v),
				Fix:     fmt.Sprintf("Set the class's dscp to [%d], what the NICs send (or change every NIC's rdma cnp_dscp).", ref[0].v),
				Related: marksRelated(ref, func(m nicValue) string { return fmt.Sprintf("NIC %s sends CNP with DSCP %d", m.d.Name, m.v) })})
		}
		for _, m := range odd {
			d, r := m.d, m.d.RDMA
			subj := subjectOr(r.CNPDSCP.Src, r.Range, d.Range)
			if agg.bump(subj, nil, d) {
				continue
			}
			claim, claimRel := claimedBy(f, cnp, r.CNPDSCP.V)
			agg.add(subj, Finding{Subject: ptr(subj), Device: d.Name,
				Summary: fmt.Sprintf("NIC %s sends CNP with DSCP %d; the switches classify CNP (class %q) on DSCP %s%s", d.Name, r.CNPDSCP.V, cnp.Name, dscpList(cnp.DSCP), claim),
				Related: append([]Related{{Range: cnp.DSCPRange, Message: "class DSCP set here"}}, claimRel...)}, nil, d)
		}
	}
	if cnp.Priority.Set {
		ref, odd := classOutlier(prios, func(v int) bool { return v == cnp.Priority.V }, cnp.Priority.Src)
		if len(ref) > 0 && !cnp.Priority.Src.IsZero() {
			p.Report(Finding{Subject: ptr(cnp.Priority.Src),
				Summary: fmt.Sprintf("traffic_class %q puts CNP in priority %d, but %s send CNP on priority %d", cnp.Name, cnp.Priority.V, nicNames(ref), ref[0].v),
				Fix:     fmt.Sprintf("Set the class's priority to %d, what the NICs send on (or change every NIC's rdma cnp_priority).", ref[0].v),
				Related: marksRelated(ref, func(m nicValue) string { return fmt.Sprintf("NIC %s sends CNP on priority %d", m.d.Name, m.v) })})
		}
		for _, m := range odd {
			d, r := m.d, m.d.RDMA
			subj := subjectOr(r.CNPPriority.Src, r.Range, d.Range)
			if agg.bump(subj, nil, d) {
				continue
			}
			agg.add(subj, Finding{Subject: ptr(subj), Device: d.Name,
				Summary: fmt.Sprintf("NIC %s sends CNP on priority %d; class %q uses priority %d", d.Name, r.CNPPriority.V, cnp.Name, cnp.Priority.V),
				Related: []Related{{Range: cnp.Priority.Src, Message: "class priority set here"}}}, nil, d)
		}
	}
}

func runCNPPaused(p *Pass) {
	agg := newPathAgg()
	w := p.Walk()
	w.Ingresses(FlowCNP, func(a *At) {
		if !a.Ingress.Lossless || !onClassDSCP(a) {
			return
		}
		if a.Class.Priority.Set && a.Ingress.Priority != a.Class.Priority.V {
			return // classified into another priority here: QOS002's finding
		}
		q := qosOf(a.Port)
		subj := portSubject(q.PFCSrc[a.Ingress.Priority&7], a.Port)
		at := *a
		agg.add(fmt.Sprintf("%s|%d", subj, at.Ingress.Priority), a.Flow, a.Port, a.Paths, func() Finding {
			return Finding{Subject: ptr(subj), Summary: fmt.Sprintf("CNP (DSCP %d) lands in priority %d on %s, which PFC pauses",
				at.Arrive.DSCP, at.Ingress.Priority, at.Port.ID())}
		}, at.Trace)
	})
	w.Egresses(FlowCNP, func(o *Out) {
		if !o.Source {
			return
		}
		q := qosOf(o.Port)
		if !q.Lossless.Has(o.Priority) {
			return
		}
		subj := portSubject(q.PFCSrc[o.Priority&7], o.Port)
		out := *o
		// The same cause as a hop pausing CNP: one finding per line.
		agg.add(fmt.Sprintf("%s|%d", subj, o.Priority), o.Flow, o.Port, o.Paths, func() Finding {
			return Finding{Subject: ptr(subj), Summary: fmt.Sprintf("CNP (DSCP %d) is sent on priority %d by %s, which PFC pauses", out.DSCP, out.Priority, out.Port.ID())}
		}, out.Trace)
	})
	agg.flush(p)
}
