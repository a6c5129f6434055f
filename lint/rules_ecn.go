package lint

import (
	"fmt"
	"math"

	"github.com/fabricgen/fabricgen/internal/units"
	"github.com/fabricgen/fabricgen/schema"
)

func ecnRules() []*Rule {
	return []*Rule{
		{
			ID: "ECN001", Title: "ECN marks the RoCE queue at every switch egress", Severity: schema.SevError, Path: true,
			Rationale: "Every switch egress is a DCQCN congestion point; one hop that does not mark forces PFC to do the congestion control there. In a deliberate PFC-only fabric (pfc_only = true) this is info.",
			Reference: "Zhu et al., DCQCN (SIGCOMM 2015); Intel E810 RDMA flow-control guide",
			Fix:       "Remove the queue's ecn = \"off\" override (or set an ecn_profile) for the RoCE queue in the qos_policy of this port.",
			Run:       runECNOnPath,
		},
		{
			ID: "ECN002", Title: "ECN thresholds are sane: min < max, 0 < probability ≤ 100", Severity: schema.SevError,
			Rationale: "A marking curve with min ≥ max or a zero probability never marks (or is rejected by the switch: SONiC YANG requires max ≥ min, probability 0–100). The same holds for the curve as fill levels (min_fill_level < max_fill_level), which Junos drop profiles use.",
			Reference: "SONiC sonic-wred-profile.yang; RFC 3168; Juniper drop profiles (fill levels)",
			Fix:       "Set min_threshold below max_threshold (and min_fill_level below max_fill_level), and max_probability between 1 and 100.",
			Run:       runECNSanity,
		},
		{
			ID: "ECN003", Title: "ECN marks before PFC XOFF triggers", Severity: schema.SevError,
			Rationale: "If the ingress PG reaches XOFF before the egress queue reaches the ECN thresholds, PFC fires first and ECN never acts. With a dynamic threshold alpha = 2^dynamic_threshold, one congested PG pauses at about alpha/(1+alpha) of the lossless pool.",
			Reference: "Intel E810 RDMA flow-control guide; SAI SHARED_DYNAMIC_TH",
			Fix:       "Lower max_threshold below the estimated XOFF trigger, or raise ingress_lossless_pool / dynamic_threshold.",
			Run:       runECNBeforeXOFF,
		},
		{
			ID: "ECN004", Title: "PFC without ECN", Severity: schema.SevWarning,
			Rationale: "A common misconception: PFC alone does not make a fabric lossless under incast; when many ingress ports converge on one egress, pause frames spread and throughput collapses. Pair PFC with ECN (DCQCN). A deliberate lossless-only design (Meta's 400G fabric) sets pfc_only = true and this becomes info.",
			Reference: "Zhu et al., Congestion Control for Large-Scale RDMA Deployments (SIGCOMM 2015); Gangidi et al., RDMA over Ethernet for Distributed AI Training at Meta Scale (SIGCOMM 2024); RFC 3168",
			Fix:       "Give the lossless class an ecn_profile, or set pfc_only = true on the fabric if PFC-only is the design.",
			Run:       runPFCWithoutECN,
		},
	}
}

func runECNOnPath(p *Pass) {
	c := p.Fabric.ClassByRole(schema.RoleRoCE)
	if c == nil || c.ECN == nil {
		return
	}
	sev := schema.SevError
	if p.Fabric.PFCOnly.V {
		sev = schema.SevInfo
	}
	agg := newPathAgg()
	p.Walk().Egresses(FlowRoCE, func(o *Out) {
		if o.Source || o.Egress.ECN != nil || !containsInt(c.DSCP, o.DSCP) || o.Priority != c.Priority.V {
			return
		}
		q := qosOf(o.Port)
		// The line to change: a queue_map entry that moved RoCE into an
		// unmarked queue, else the queue's ECN setting.
		src := q.Queues[o.Egress.Queue].ECN.Src
		if qs := q.Queue[o.Priority&7].Src; !qs.IsZero() && !fromClassQueue(p.Fabric, qs) {
			src = qs
		}
		subj := portSubject(src, o.Port)
		out := *o
		agg.add(fmt.Sprintf("%s|%d", subj, o.Egress.Queue), o.Flow, o.Port, o.Paths, func() Finding {
			return Finding{Subject: ptr(subj), Severity: sev, Summary: fmt.Sprintf("%s does not mark ECN on queue %d, which carries RoCE (DSCP %d)",
				out.Port.ID(), out.Egress.Queue, out.DSCP)}
		}, out.Trace)
	})
	agg.flush(p)
}

func runECNSanity(p *Pass) {
	for _, e := range p.Fabric.ECNProfiles {
		if e.Min.Set && e.Max.Set && e.Min.V >= e.Max.V {
			p.Report(Finding{Subject: ptr(subjectOr(e.Min.Src, e.Range)),
				Summary: fmt.Sprintf("ecn_profile %q: min_threshold %s is not below max_threshold %s", e.Name, units.Size(e.Min.V), units.Size(e.Max.V)),
				Related: []Related{{Range: e.Max.Src, Message: "max_threshold set here"}}})
		}
		if e.Probability.Set && (e.Probability.V <= 0 || e.Probability.V > 100) {
			p.Report(Finding{Subject: ptr(subjectOr(e.Probability.Src, e.Range)),
				Summary: fmt.Sprintf("ecn_profile %q: max_probability %d is outside 1–100", e.Name, e.Probability.V)})
		}
		if e.MinFill.Set && e.MaxFill.Set && e.MinFill.V >= e.MaxFill.V {
			p.Report(Finding{Subject: ptr(subjectOr(e.MinFill.Src, e.Range)),
				Summary: fmt.Sprintf("ecn_profile %q: min_fill_level %d%% is not below max_fill_level %d%%", e.Name, e.MinFill.V, e.MaxFill.V),
				Related: []Related{{Range: e.MaxFill.Src, Message: "max_fill_level set here"}}})
		}
		if e.Min.Set && e.Min.V <= 0 {
			p.Report(Finding{Subject: ptr(subjectOr(e.Min.Src, e.Range)),
				Summary: fmt.Sprintf("ecn_profile %q: min_threshold must be above 0", e.Name)})
		}
	}
}

// xoffTrigger estimates the ingress occupancy at which a lossless PG sends
// XOFF with a dynamic threshold: alpha/(1+alpha) of the pool, alpha = 2^th.
func xoffTrigger(pool int64, th int) int64 {
	alpha := math.Pow(2, float64(th))
	return int64(float64(pool) * alpha / (1 + alpha))
}

func runECNBeforeXOFF(p *Pass) {
	ex := p.Exist()
	for _, g := range existGroups(p, isSwitch) {
		b := g.qos.Buffer
		if !b.IngressLosslessPool.Set || !b.DynamicThreshold.Set {
			continue
		}
		trigger := xoffTrigger(b.IngressLosslessPool.V, b.DynamicThreshold.V)
		// Only a lossless priority that can exist here fills a PG and a queue.
		for prio := range (g.qos.Lossless & ex.Priorities(g.ports[0].Device)).All() {
			qn := g.qos.Queue[prio].V & 7
			e := g.qos.Queues[qn].ECN.V
			if e == nil || !e.Max.Set || e.Max.V <= trigger {
				continue
			}
			reportGroup(p, g, e.Max.Src, fmt.Sprintf("%s: ECN max_threshold %s on queue %d is above the estimated XOFF trigger %s (pool %s, dynamic_threshold %d): PFC fires before ECN marks",
				g.ports[0].ID(), units.Size(e.Max.V), qn, units.Size(trigger), units.Size(b.IngressLosslessPool.V), b.DynamicThreshold.V))
		}
	}
}

func runPFCWithoutECN(p *Pass) {
	sev := schema.SevWarning
	if p.Fabric.PFCOnly.V {
		sev = schema.SevInfo
	}
	for _, c := range p.Fabric.Classes {
		if !c.Lossless.V || c.ECN != nil {
			continue
		}
		msg := fmt.Sprintf("traffic_class %q is lossless (PFC) but has no ecn_profile: PFC alone does not control congestion", c.Name)
		if p.Fabric.PFCOnly.V {
			msg = fmt.Sprintf("traffic_class %q is lossless without ECN, as the fabric's pfc_only design says", c.Name)
		}
		p.Report(Finding{Subject: ptr(subjectOr(c.Lossless.Src, c.Range)), Severity: sev, Summary: msg,
			Related: []Related{{Range: p.Fabric.PFCOnly.Src, Message: "pfc_only set here"}}})
	}
}
