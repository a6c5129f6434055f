package lint

import (
	"fmt"

	"github.com/fabricgen/fabricgen/schema"
)

func mtuRules() []*Rule {
	return []*Rule{
		{
			ID: "MTU001", Title: "NIC MTU ≥ RDMA path MTU + 96 bytes", Severity: schema.SevError,
			Rationale: "The kernel derives the usable RoCE MTU from the netdev MTU minus 96 bytes of headers (GRH 40, UDP 8, BTH 12, XRC 4, AtomicETH 28, ICRC 4): path MTU 4096 needs a netdev MTU of at least 4192, else it silently falls back to 2048.",
			Reference: "Linux include/rdma/ib_addr.h iboe_get_mtu",
			Fix:       "Set the NIC port's mtu (e.g. 4200 in the role \"nic\" qos_policy) or lower rdma path_mtu.",
			Run:       runNICMTU,
		},
		{
			ID: "MTU002", Title: "Every hop carries the largest RoCE frame", Severity: schema.SevError, Path: true,
			Rationale: "A hop whose MTU is below the RoCE packet size drops every full-size RDMA packet; RoCE MTU 4096 needs at least 4192 bytes at every hop.",
			Reference: "Linux iboe_get_mtu; NVIDIA NetQ MTU check",
			Fix:       "Raise the mtu of the ports on the path (9216 is the usual switch value).",
			Run:       runPathMTU,
		},
		{
			ID: "MTU003", Title: "Both ends of a switch link have the same MTU", Severity: schema.SevError,
			Rationale: "An MTU mismatch drops frames larger than the smaller end (mlx5 counts them as rx_oversize_pkts_phy).",
			Reference: "NVIDIA NetQ link MTU consistency; mlx5 counters",
			Fix:       "Set the same mtu on both ends of the link.",
			Run:       runLinkMTU,
		},
	}
}

func runNICMTU(p *Pass) {
	for _, d := range p.Fabric.Devices {
		if d.Kind.V != schema.KindNIC || d.RDMA == nil || !d.RDMA.PathMTU.Set || d.TransportOf() == schema.TransportIWARP {
			continue
		}
		need := d.RDMA.PathMTU.V + roceOverhead
		for _, np := range d.Ports {
			if np.QoS == nil || !np.QoS.MTU.Set || np.QoS.MTU.V >= need {
				continue
			}
			p.Report(Finding{Subject: ptr(portSubject(np.QoS.MTU.Src, np)), Device: d.Name, Port: np.Name,
				Summary: fmt.Sprintf("NIC %s has MTU %d but RDMA path_mtu %d needs at least %d", np.ID(), np.QoS.MTU.V, d.RDMA.PathMTU.V, need),
				Related: []Related{{Range: d.RDMA.PathMTU.Src, Message: "path_mtu set here"}}})
		}
	}
}

func runPathMTU(p *Pass) {
	pm := maxPathMTU(p.Fabric)
	if pm == 0 {
		return
	}
	need := pm + roceOverhead
	agg := newPathAgg()
	short := func(pt *schema.Port) bool {
		q := qosOf(pt)
		return q.MTU.Set && q.MTU.V < need && isSwitch(pt)
	}
	add := func(pt *schema.Port, paths int64, trace func() []Step) {
		q := qosOf(pt)
		subj := portSubject(q.MTU.Src, pt)
		agg.add(subj.String()+"|"+fmt.Sprint(q.MTU.V), FlowRoCE, pt, paths, func() Finding {
			return Finding{Subject: ptr(subj), Summary: fmt.Sprintf("%s has MTU %d on the RoCE path; RDMA path MTU %d needs %d", pt.ID(), q.MTU.V, pm, need)}
		}, trace)
	}
	w := p.Walk()
	w.Ingresses(FlowRoCE, func(a *At) {
		if a.Ingress.MTU != 0 && a.Ingress.MTU < need && short(a.Port) {
			at := *a
			add(a.Port, a.Paths, at.Trace)
		}
	})
	w.Egresses(FlowRoCE, func(o *Out) {
		if o.Egress.MTU != 0 && o.Egress.MTU < need && short(o.Port) {
			out := *o
			add(o.Port, o.Paths, out.Trace)
		}
	})
	agg.flush(p)
}

func runLinkMTU(p *Pass) {
	get := func(pt *schema.Port) (int, bool) {
		if pt.QoS == nil {
			return 0, false
		}
		return pt.QoS.MTU.V, pt.QoS.MTU.Set
	}
	ends := linkEnds[int]{get: get, src: func(pt *schema.Port) schema.Range { return pt.QoS.MTU.Src }, chain: true}
	// One line that sets a mismatching MTU on many links is one finding,
	// with the deviating port of each link among its places.
	var agg causeAgg[schema.Range]
	defer agg.flush(p)
	for _, l := range p.Fabric.Links {
		a, b := l.A, l.B
		if a == nil || b == nil || a.QoS == nil || b.QoS == nil || !isSwitch(a) || !isSwitch(b) {
			continue
		}
		if !a.QoS.MTU.Set || !b.QoS.MTU.Set || a.QoS.MTU.V == b.QoS.MTU.V {
			continue
		}
		dv, other := ends.pick(a, b)
		subj := portSubject(dv.QoS.MTU.Src, dv)
		if agg.bump(subj, dv, nil) {
			continue
		}
		agg.add(subj, Finding{Subject: ptr(subj), Device: dv.Device.Name, Port: dv.Name,
			Summary: fmt.Sprintf("link %s: %s has MTU %d but %s has %d", l.Name, dv.ID(), dv.QoS.MTU.V, other.ID(), other.QoS.MTU.V),
			Related: []Related{{Range: portSubject(other.QoS.MTU.Src, other), Message: "other end's MTU set here"}}}, dv, nil)
	}
}
