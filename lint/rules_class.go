package lint

import (
	"fmt"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/schema"
)

func classRules() []*Rule {
	return []*Rule{
		{
			ID: "QOS004", Title: "Only lossless classes' DSCPs map to a PFC priority", Severity: schema.SevError,
			Rationale: "Lossy traffic without congestion control inside a PFC priority causes pauses and head-of-line blocking for RDMA; a default or catch-all mapping into the lossless priority does exactly that.",
			Reference: "Guo et al. (SIGCOMM 2016); SONiC qos_config.j2 (only DSCP 3/4 lossless)",
			Fix:       "Map only the lossless classes' DSCPs to PFC priorities (check dscp_map and default_priority).",
			Run:       runLosslessOnlyRoCE,
		},
		{
			ID: "QOS008", Title: "RoCE classes are lossless (or the fabric says lossy_roce)", Severity: schema.SevError,
			Rationale: "RoCE recovers a lost packet by go-back-N retransmission, so a drop under congestion costs a whole window; a RoCE class without lossless = true gets no PFC at any hop. A fabric built for lossy RoCE (NICs with selective repeat, such as ConnectX-6 Dx and later in their lossy mode) says so once with lossy_roce = true.",
			Reference: "IEEE 802.1Qbb; Zhu et al., Congestion Control for Large-Scale RDMA Deployments (SIGCOMM 2015); Mittal et al., Revisiting Network Support for RDMA (SIGCOMM 2018)",
			Fix:       "Set lossless = true on the RoCE class, or lossy_roce = true on the fabric if lossy RoCE is the design.",
			Edit:      &diag.AttrEdit{Attr: "lossless", Value: "true"},
			Run:       runRoCELossless,
		},
		{
			ID: "ECN005", Title: "No WRED drop on a lossless queue", Severity: schema.SevError,
			Rationale: "An ecn_profile in mode \"drop\" (WRED) on a PFC queue discards the packets PFC was meant to keep; lossless queues mark ECN instead.",
			Reference: "SONiC WRED/ECN HLD; RFC 3168",
			Fix:       `Use mode = "ecn" for the profile on lossless queues.`,
			Run:       runWREDDrop,
		},
		{
			ID: "NIC003", Title: "RoCE data carries ECT bits", Severity: schema.SevError,
			Rationale: "Switches only mark ECN-capable (ECT) packets; tos 104 (DSCP 26 without ECT) is dropped by WRED or never marked, so DCQCN never reacts. tos 106 is DSCP 26 + ECT(0).",
			Reference: "NVIDIA doRoCE.sh (tos 106); RFC 3168 (ECT codepoints)",
			Fix:       "Set rdma tos to DSCP×4+2 (e.g. 106).",
			Run:       runECTBits,
		},
		{
			ID: "NIC004", Title: "DCQCN is on at every NIC (or the fabric is pfc_only)", Severity: schema.SevWarning,
			Rationale: "Switches mark ECN for the NICs' reaction point; a NIC with rdma ecn = false ignores the marks (and sends no CNPs), so its flows rely on PFC alone. Mixed settings make congestion control unfair.",
			Reference: "DOCA DCQCN algorithm (CP/NP/RP); Meta SIGCOMM 2024 (PFC-only at 400G)",
			Fix:       "Set ecn = true in every NIC's rdma block, or declare pfc_only = true on the fabric.",
			Run:       runDCQCN,
		},
	}
}

func runLosslessOnlyRoCE(p *Pass) {
	lossless := map[int]bool{}
	for _, c := range p.Fabric.Classes {
		if c.Lossless.V {
			for _, d := range c.DSCP {
				lossless[d] = true
			}
		}
	}
	intent := p.Fabric.Lossless
	for _, g := range groupQoS(p, func(pt *schema.Port) bool {
		t := pt.QoS.Trust.V
		return t == schema.TrustDSCP || t == schema.TrustBoth
	}) {
		var extra []int
		var src schema.Range
		for d, v := range g.qos.DSCP {
			// A PFC priority no lossless class uses is PFC008's finding.
			if g.qos.Lossless.Has(v.V&7) && intent.Has(v.V&7) && !lossless[d] {
				extra = append(extra, d)
				if src.IsZero() {
					src = v.Src
				}
			}
		}
		if len(extra) == 0 {
			continue
		}
		shown := extra
		if len(shown) > 8 {
			shown = shown[:8]
		}
		reportGroup(p, g, src, fmt.Sprintf("%s maps %d DSCP value(s) of no lossless class (%s) to a PFC priority",
			g.ports[0].ID(), len(extra), dscpList(shown)))
	}
}

func runWREDDrop(p *Pass) {
	ex := p.Exist()
	for _, g := range existGroups(p, nil) {
		// A lossless priority nothing classifies into puts no packet in its queue.
		for prio := range (g.qos.Lossless & ex.Priorities(g.ports[0].Device)).All() {
			qn := g.qos.Queue[prio].V & 7
			e := g.qos.Queues[qn].ECN.V
			if e == nil || !e.Mark.Set || e.Mark.V {
				continue
			}
			reportGroup(p, g, subjectOr(e.Mark.Src, e.Range), fmt.Sprintf("%s: queue %d is lossless (priority %d) but ecn_profile %q drops (WRED) instead of marking",
				g.ports[0].ID(), qn, prio, e.Name))
		}
	}
}

func runECTBits(p *Pass) {
	for _, d := range p.Fabric.Devices {
		r := d.RDMA
		if d.Kind.V != schema.KindNIC || r == nil || !r.ToS.Set || r.ToS.V&3 != 0 || (r.ECN.Set && !r.ECN.V) || d.TransportOf() == schema.TransportIWARP {
			continue
		}
		p.Report(Finding{Subject: ptr(subjectOr(r.ToS.Src, r.Range, d.Range)), Device: d.Name,
			Summary: fmt.Sprintf("NIC %s sends RoCE with tos %d: DSCP %d without ECT bits, so no switch can mark it (use %d)", d.Name, r.ToS.V, r.DSCP(), r.ToS.V|2)})
	}
}

func runDCQCN(p *Pass) {
	if p.Fabric.PFCOnly.V {
		return
	}
	for _, d := range p.Fabric.Devices {
		r := d.RDMA
		if d.Kind.V != schema.KindNIC || r == nil || !r.ECN.Set || r.ECN.V || d.TransportOf() == schema.TransportIWARP {
			continue
		}
		p.Report(Finding{Subject: ptr(subjectOr(r.ECN.Src, r.Range, d.Range)), Device: d.Name,
			Summary: fmt.Sprintf("NIC %s has DCQCN off (rdma ecn = false) in a fabric that marks ECN", d.Name)})
	}
}

func runRoCELossless(p *Pass) {
	if p.Fabric.LossyRoCE.V {
		return
	}
	for _, c := range p.Fabric.Classes {
		if c.Role != schema.RoleRoCE || c.Lossless.V {
			continue
		}
		what := "has no lossless attribute"
		if c.Lossless.Set {
			what = "sets lossless = false"
		}
		p.Report(Finding{Subject: ptr(subjectOr(c.Lossless.Src, c.Range)),
			Summary: fmt.Sprintf("RoCE traffic_class %q %s, so no hop protects it with PFC", c.Name, what)})
	}
}
