package lint

import (
	"fmt"

	"github.com/fabricgen/fabricgen/internal/units"
	"github.com/fabricgen/fabricgen/schema"
)

func linkRules() []*Rule {
	return []*Rule{
		{
			ID: "LNK001", Title: "Both ends of a link have the same speed", Severity: schema.SevError,
			Rationale: "Ends at different speeds do not link up, and headroom is sized per speed.",
			Reference: "NVIDIA NetQ interface speed check",
			Fix:       "Set the same speed on both ports (or the link's speed).",
			Run:       runLinkSpeed,
		},
		{
			ID: "LNK003", Title: "Both ends of a link use the same FEC", Severity: schema.SevError,
			Rationale: "A FEC mismatch means no link or a stream of errors; 400G PAM4 requires RS(544,514) on both ends.",
			Reference: "IEEE 802.3 clause 119",
			Fix:       "Set the same fec on both ports.",
			Run:       runLinkFEC,
		},
		{
			ID: "LNK005", Title: "The cable type reaches the declared length", Severity: schema.SevWarning,
			Rationale: "Passive copper (DAC) reaches a few metres and active optical cables about 100 m (400G SR4 over OM4: 100 m); a length beyond the media's reach is either a typo that under-sizes PFC headroom or a link that will not come up.",
			Reference: "400G SR4/DR4 transceiver datasheets",
			Fix:       `Correct cable_length, or set media = "fiber" for single-mode optics.`,
			Run:       runMediaReach,
		},
		{
			ID: "NIC006", Title: "Dual-homed NIC ports carry identical QoS", Severity: schema.SevError,
			Rationale: "A NIC cabled to two switches (dual-ToR, as in Alibaba HPN) sends over both; a difference in trust, PFC or MTU makes one of its two paths lossy.",
			Reference: "Alibaba HPN (SIGCOMM 2024)",
			Fix:       "Attach the same qos_policy to all ports of the NIC, and give the switch ports they are cabled to the same QoS.",
			Run:       runDualHomed,
		},
		{
			ID: "DLK004", Title: "No PFC on links between switches of the same tier", Severity: schema.SevWarning,
			Rationale: "Clos up-down routing has no cyclic buffer dependency, so PFC cannot deadlock; a leaf–leaf or spine–spine link (an MLAG peer-link, a ring) lets lossless traffic go down and up again, and PFC over it can form a pause cycle that stalls the fabric. Alibaba's HPN removed the ToR peer-link for this reason.",
			Reference: "Hu et al., Deadlocks in datacenter networks (HotNets 2016); Alibaba HPN (SIGCOMM 2024)",
			Fix:       "Make the link lossy for RoCE (a qos_policy without lossless classes on both ports), or remove it from the RoCE path; suppress with a reason if routing provably never sends lossless traffic over it.",
			Run:       runSameTierPFC,
		},
	}
}

func runSameTierPFC(p *Pass) {
	for _, l := range p.Fabric.Links {
		a, b := l.A, l.B
		if a == nil || b == nil || !isSwitch(a) || !isSwitch(b) || a.Device.Kind.V != b.Device.Kind.V || a.Device == b.Device {
			continue
		}
		var pa, pb schema.PrioSet
		if a.QoS != nil {
			pa = a.QoS.Lossless
		}
		if b.QoS != nil {
			pb = b.QoS.Lossless
		}
		if pa == 0 && pb == 0 {
			continue
		}
		on, prios := a, pa
		if pa == 0 {
			on, prios = b, pb
		}
		// The line to change is the link itself (or the ports' policies):
		// the classes' lossless attribute is the shared intent. But when
		// one end's kind disagrees with where it sits (misKinded), the
		// link is a Clos uplink and that kind is the change.
		f := Finding{Subject: ptr(subjectOr(l.Range, portSubject(on.QoS.PFCSource(), on))), Device: on.Device.Name, Port: on.Name,
			Summary: fmt.Sprintf("link %s joins %s and %s, two %s switches, and %s enables PFC on priority %s: lossless traffic can cross the tier down and up again, a pause cycle that can deadlock",
				l.Name, a.ID(), b.ID(), a.Device.Kind.V, on.ID(), prios),
			Related: []Related{{Range: portSubject(on.QoS.PFCSource(), on), Message: "PFC set here"}}}
		if odd, why := misKinded(a.Device, b.Device); odd != nil && !odd.Kind.Src.IsZero() {
			f.Subject = ptr(odd.Kind.Src)
			f.Summary += fmt.Sprintf("; %s is declared %s but %s", odd.Name, odd.Kind.V, why)
			f.Related = append([]Related{{Range: l.Range, Message: "link " + l.Name}}, f.Related...)
			f.Fix = fmt.Sprintf("Correct %s's kind if it is not a %s (the tier its links say it is in); otherwise make the link lossy for RoCE (a qos_policy without lossless classes on both ports), or suppress with a reason if routing provably never sends lossless traffic over it.", odd.Name, odd.Kind.V)
		}
		p.Report(f)
	}
}

// misKinded is, of two switches of one kind joined by a link, the one
// whose kind disagrees with where it sits, and why: a leaf is where the
// NICs attach, so a "leaf" with no NIC linked to it beside a leaf with
// NICs is a spine declared leaf, and a "spine" (or higher) with NICs
// linked to it beside one without is a leaf declared so. Nil when both
// or neither have NICs: the link joins true peers (an MLAG peer link, a
// ring), and the link is the line to change.
func misKinded(a, b *schema.Device) (*schema.Device, string) {
	ha, hb := hasNICPeer(a), hasNICPeer(b)
	if ha == hb {
		return nil, ""
	}
	withNICs, without := a, b
	if hb {
		withNICs, without = b, a
	}
	if a.Kind.V == schema.KindLeaf {
		return without, fmt.Sprintf("no NIC is linked to it, while %s has NICs: it sits above the leaves, a spine", withNICs.Name)
	}
	return withNICs, fmt.Sprintf("NICs are linked to it, while %s has none: it sits at the leaves' tier", without.Name)
}

// hasNICPeer reports whether a port of d is linked to a NIC.
func hasNICPeer(d *schema.Device) bool {
	for _, pt := range d.Ports {
		if pt.Peer != nil && pt.Peer.Device != nil && pt.Peer.Device.Kind.V == schema.KindNIC {
			return true
		}
	}
	return false
}

func runLinkSpeed(p *Pass) {
	get := func(pt *schema.Port) (int64, bool) { return pt.Speed.V, pt.Speed.Set }
	ends := linkEnds[int64]{get: get, src: func(pt *schema.Port) schema.Range { return pt.Speed.Src }}
	var agg lineAgg
	for _, l := range p.Fabric.Links {
		a, b := l.A, l.B
		if a == nil || b == nil || !a.Speed.Set || !b.Speed.Set || a.Speed.V == b.Speed.V {
			continue
		}
		dv, other := ends.pick(a, b)
		subj := subjectOr(dv.Speed.Src, dv.Range)
		if agg.bump(subj, dv) {
			continue
		}
		agg.add(Finding{Subject: ptr(subj), Device: dv.Device.Name, Port: dv.Name,
			Summary: fmt.Sprintf("link %s: %s runs at %s but %s at %s", l.Name, dv.ID(), units.Speed(dv.Speed.V), other.ID(), units.Speed(other.Speed.V)),
			Related: []Related{{Range: subjectOr(other.Speed.Src, other.Range), Message: "other end's speed set here"}}})
	}
	agg.flush(p)
}

func runLinkFEC(p *Pass) {
	get := func(pt *schema.Port) (string, bool) { return pt.FEC.V, pt.FEC.Set }
	ends := linkEnds[string]{get: get, src: func(pt *schema.Port) schema.Range { return pt.FEC.Src }}
	var agg lineAgg
	for _, l := range p.Fabric.Links {
		a, b := l.A, l.B
		if a == nil || b == nil || !a.FEC.Set || !b.FEC.Set || a.FEC.V == b.FEC.V {
			continue
		}
		dv, other := ends.pick(a, b)
		subj := subjectOr(dv.FEC.Src, dv.Range)
		if agg.bump(subj, dv) {
			continue
		}
		agg.add(Finding{Subject: ptr(subj), Device: dv.Device.Name, Port: dv.Name,
			Summary: fmt.Sprintf("link %s: %s uses FEC %q but %s uses %q", l.Name, dv.ID(), dv.FEC.V, other.ID(), other.FEC.V),
			Related: []Related{{Range: subjectOr(other.FEC.Src, other.Range), Message: "other end's FEC set here"}}})
	}
	agg.flush(p)
}

// qosField is one part of a port's effective QoS that must be the same on
// every port of a dual-homed NIC (and on the switch ports it is cabled to).
type qosField struct {
	name string
	key  func(q *schema.PortQoS) string
	src  func(q *schema.PortQoS) schema.Range
}

// dualHomedFields are the fields NIC006 compares, in the order it names
// the first difference.
func dualHomedFields() []qosField {
	fs := []qosField{
		{"trust", func(q *schema.PortQoS) string { return fmt.Sprintf("%q", q.Trust.V) }, func(q *schema.PortQoS) schema.Range { return q.Trust.Src }},
		{"PFC", func(q *schema.PortQoS) string { return q.Lossless.Vector() }, func(q *schema.PortQoS) schema.Range { return q.PFCSource() }},
		{"MTU", func(q *schema.PortQoS) string { return fmt.Sprint(q.MTU.V) }, func(q *schema.PortQoS) schema.Range { return q.MTU.Src }},
	}
	for i := range 64 {
		fs = append(fs, qosField{fmt.Sprintf("DSCP %d → priority", i),
			func(q *schema.PortQoS) string { return fmt.Sprint(q.DSCP[i].V) },
			func(q *schema.PortQoS) schema.Range { return q.DSCP[i].Src }})
	}
	return fs
}

// pfcSourceOf is where the PFC that differs from other's was set: the
// range of the first priority the two disagree on that has one, else the
// port's PFC source.
func pfcSourceOf(q, other *schema.PortQoS) schema.Range {
	for p := range (q.Lossless ^ other.Lossless).All() {
		if r := q.PFCSrc[p]; !r.IsZero() {
			return r
		}
	}
	return q.PFCSource()
}

// runDualHomed compares the ports of a NIC cabled to two or more switches,
// and the switch ports they are cabled to: either side differing makes one
// of the NIC's paths lossy. The finding is at the port that deviates
// (schema.Rank: the more specific attachment, else the value fewer of the
// fabric's host-facing ports hold), the others related; one line that
// breaks many NICs is one finding.
func runDualHomed(p *Pass) {
	fields := dualHomedFields()
	type key struct {
		subj  schema.Range
		field string
		val   string
	}
	var agg causeAgg[key]
	defer agg.flush(p)
	// counts[nic][field][value] is how many NIC-facing ports (NIC ports
	// when nic) hold the value, computed once per field asked.
	counts := map[bool]map[string]map[string]int{}
	count := func(nic bool, f qosField, v string) int {
		if counts[nic] == nil {
			counts[nic] = map[string]map[string]int{}
		}
		m := counts[nic][f.name]
		if m == nil {
			m = map[string]int{}
			for _, g := range groupQoS(p, func(pt *schema.Port) bool {
				return pt.Peer != nil && isNIC(pt) == nic && (nic || isNIC(pt.Peer))
			}) {
				m[f.key(g.qos)] += len(g.ports)
			}
			counts[nic][f.name] = m
		}
		return m[v]
	}
	// compare reports the first field on which ports disagree, at each
	// deviating port's line.
	compare := func(d *schema.Device, ports []*schema.Port, nic bool) bool {
		for _, f := range fields {
			var sides []schema.Side
			for _, pt := range ports {
				v := f.key(pt.QoS)
				src := f.src(pt.QoS)
				if f.name == "PFC" {
					for _, o := range ports {
						if o.QoS.Lossless != pt.QoS.Lossless {
							src = pfcSourceOf(pt.QoS, o.QoS)
							break
						}
					}
				}
				sides = append(sides, schema.Side{Key: v, Src: src, Holders: count(nic, f, v), Level: pt.SourceLevel(src),
					Label: fmt.Sprintf("%s has %s %s", pt.ID(), f.name, v)})
			}
			devs := schema.Deviants(sides)
			if len(devs) == 0 {
				continue
			}
			ref := schema.Reference(sides)
			rp := ports[ref]
			for _, i := range devs {
				dv := ports[i]
				subj := portSubject(sides[i].Src, dv)
				k := key{subj, f.name, sides[i].Key}
				if agg.bump(k, dv, nil) {
					continue
				}
				var msg string
				if nic {
					msg = fmt.Sprintf("dual-homed NIC %s: port %s (to %s) and port %s (to %s) differ: %s %s vs %s",
						d.Name, dv.Name, dv.Peer.Device.Name, rp.Name, rp.Peer.Device.Name, f.name, sides[i].Key, sides[ref].Key)
				} else {
					msg = fmt.Sprintf("dual-homed NIC %s: its switch ports %s and %s differ: %s %s vs %s",
						d.Name, dv.ID(), rp.ID(), f.name, sides[i].Key, sides[ref].Key)
				}
				what := "the NIC's other port"
				if !nic {
					what = "the other switch port"
				}
				agg.add(k, Finding{Subject: ptr(subj), Device: dv.Device.Name, Port: dv.Name, Summary: msg,
					Related: []Related{{Range: portSubject(sides[ref].Src, rp), Message: sides[ref].Label + " (" + what + ")"}}}, dv, nil)
			}
			return true
		}
		return false
	}
	for _, d := range p.Fabric.Devices {
		if d.Kind.V != schema.KindNIC {
			continue
		}
		var ports, sws []*schema.Port
		peers := map[*schema.Device]bool{}
		for _, np := range d.Ports {
			if np.Peer != nil && np.QoS != nil && np.Peer.QoS != nil {
				ports = append(ports, np)
				sws = append(sws, np.Peer)
				peers[np.Peer.Device] = true
			}
		}
		if len(ports) < 2 || len(peers) < 2 {
			continue
		}
		if !sameQoS(ports) && compare(d, ports, true) {
			continue
		}
		if !sameQoS(sws) {
			compare(d, sws, false)
		}
	}
}

// sameQoS reports whether the ports share one effective QoS.
func sameQoS(ports []*schema.Port) bool {
	for _, pt := range ports[1:] {
		if pt.QoS != ports[0].QoS {
			return false
		}
	}
	return true
}

// mediaReach is the longest cable each media type reaches, in metres.
var mediaReach = map[string]float64{"dac": 5, "aoc": 100, "backplane": 1}

func runMediaReach(p *Pass) {
	var agg lineAgg
	for _, l := range p.Fabric.Links {
		reach, ok := mediaReach[l.Media.V]
		if !ok || !l.CableLength.Set || l.CableLength.V <= reach {
			continue
		}
		subj := subjectOr(l.CableLength.Src, l.Range)
		if agg.bump(subj, l.A) {
			continue
		}
		f := Finding{Subject: ptr(subj),
			Summary: fmt.Sprintf("link %s: %gm of %s cable is beyond the media's reach of %gm", l.Name, l.CableLength.V, l.Media.V, reach),
			Related: []Related{{Range: l.Media.Src, Message: "media set here"}}}
		if l.A != nil {
			f.Device, f.Port = l.A.Device.Name, l.A.Name // the first of the links' places
		}
		agg.add(f)
	}
	agg.flush(p)
}
