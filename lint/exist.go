package lint

import (
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// Exist is lint's model of which traffic can exist: per device, the
// priorities (0–7) a packet can carry inside it. A rule that speaks of a
// priority or an egress queue asks it before it reports, so a queue no
// existing priority reaches, or a lossy priority nothing classifies into,
// is not reported as if it carried traffic.
//
// A port's priorities are the image of its ingress classification, exactly
// as the hop semantics (Traverse) classify:
//
//   - trust "dscp": the image of the DSCP map, all 64 code points (the
//     loader fills the code points no class or dscp_map entry names with
//     default_priority). An ingress ACL that re-marks the DSCP only changes
//     the code point before that map, so it adds no priority beyond the
//     image; a RoCE v1 frame (no IP header) lands in DSCP 0's priority,
//     which is in the image too;
//   - trust "both": the DSCP map's image and the PCP map's image;
//   - trust "pcp": the PCP map's image where the port can receive tagged
//     frames (it is not routed, and its peer is absent or not routed, as
//     the egress of the walk tags them; anywhere when a NIC sends RoCE v1,
//     whose frames are always tagged), else PCP 0's priority (untagged);
//   - no trust, "none", or a port without QoS: priority 0.
//
// A NIC adds the priorities it sends its own RoCE data and CNPs in (its
// rdma cnp_priority, its DSCP map for what it marks, or the class's
// priority), as the walk's sources do. A device's priorities are the union
// over its ports. The model is computed once per lint run, linear in ports:
// classification is memoised per distinct (PortQoS, tagged) pair, of
// which a fabric has a handful. It is read-only once built, so rules
// running in parallel share it.
type Exist struct {
	dev  map[*schema.Device]schema.PrioSet
	memo map[existKey]schema.PrioSet
	// all is the union over the devices.
	all schema.PrioSet
	// v1 is true when some NIC sends RoCE v1: tagged frames reach any port.
	v1 bool
	// classes are the walk's flows' classes (RoCE data, CNP).
	classes [numFlows]*schema.TrafficClass
}

// existKey is what a port's classification image depends on.
type existKey struct {
	q      *schema.PortQoS
	tagged bool
}

// allPrios is every priority: what can exist on a device the model does not know.
const allPrios = schema.PrioSet(0xff)

// NewExist builds the model for f (nil: an empty model, in which every
// priority can exist everywhere).
func NewExist(f *schema.Fabric) *Exist {
	e := &Exist{memo: map[existKey]schema.PrioSet{}, all: allPrios}
	if f == nil {
		return e
	}
	e.all = 0
	e.dev = make(map[*schema.Device]schema.PrioSet, len(f.Devices))
	e.v1 = hasTransport(f, schema.TransportRoCEv1)
	for fl := Flow(0); fl < numFlows; fl++ {
		e.classes[fl] = flowClass(f, fl)
	}
	last, lastSet, haveLast := existKey{}, schema.PrioSet(0), false
	for _, d := range f.Devices {
		var s schema.PrioSet
		for _, pt := range d.Ports {
			k := e.keyOf(pt)
			if !haveLast || k != last {
				set, ok := e.memo[k]
				if !ok {
					set = classifyImage(k)
					e.memo[k] = set
				}
				last, lastSet, haveLast = k, set, true
			}
			s |= lastSet
			if d.Kind.V == schema.KindNIC && pt.Peer != nil {
				for fl := Flow(0); fl < numFlows; fl++ {
					if _, prio, _, ok := sourcePacket(pt, e.classes[fl], fl); ok {
						s = s.With(prio)
					}
				}
			}
		}
		e.dev[d] = s
		e.all |= s
	}
	return e
}

// keyOf is the memo key of port pt.
func (e *Exist) keyOf(pt *schema.Port) existKey {
	return existKey{q: pt.QoS, tagged: e.v1 || receivesTagged(pt)}
}

// receivesTagged reports whether 802.1Q-tagged frames can arrive at pt: it
// is not routed and its peer is absent (a far end the intent does not
// model) or not routed, as egress tags a frame on an L2 link.
func receivesTagged(pt *schema.Port) bool {
	return !pt.IsRouted() && (pt.Peer == nil || !pt.Peer.IsRouted())
}

// classifyImage is the set of priorities ingress classification can
// produce for a port with key k.
func classifyImage(k existKey) schema.PrioSet {
	q := k.q
	if q == nil {
		return schema.PrioSetOf(0)
	}
	var s schema.PrioSet
	switch q.Trust.V {
	case schema.TrustDSCP:
		s = dscpImage(q)
	case schema.TrustBoth:
		s = dscpImage(q) | pcpImage(q)
	case schema.TrustPCP:
		if k.tagged {
			s = pcpImage(q)
		} else {
			s = schema.PrioSetOf(q.PCP[0].V)
		}
	default:
		s = schema.PrioSetOf(0)
	}
	return s
}

func dscpImage(q *schema.PortQoS) schema.PrioSet {
	var s schema.PrioSet
	for _, v := range q.DSCP {
		s = s.With(v.V)
	}
	return s
}

func pcpImage(q *schema.PortQoS) schema.PrioSet {
	var s schema.PrioSet
	for _, v := range q.PCP {
		s = s.With(v.V)
	}
	return s
}

// Priorities is the set of priorities traffic can carry inside device d
// (every priority for a device the model does not know, or nil).
func (e *Exist) Priorities(d *schema.Device) schema.PrioSet {
	if e == nil || d == nil {
		return allPrios
	}
	s, ok := e.dev[d]
	if !ok {
		return allPrios
	}
	return s
}

// Priority reports whether traffic in priority prio can exist inside device d.
func (e *Exist) Priority(d *schema.Device, prio int) bool {
	return e.Priorities(d).Has(prio & 7)
}

// Anywhere reports whether priority prio can exist on some device of the fabric.
func (e *Exist) Anywhere(prio int) bool {
	if e == nil {
		return true
	}
	return e.all.Has(prio & 7)
}

// QueuePriorities is the set of the priorities that can exist on pt's
// device and that pt's queue map sends to egress queue queue: what that
// queue of pt can carry.
func (e *Exist) QueuePriorities(pt *schema.Port, queue int) schema.PrioSet {
	if pt == nil {
		return 0
	}
	q := qosOf(pt)
	var out schema.PrioSet
	for p := range e.Priorities(pt.Device).All() {
		if q.Queue[p].V&7 == queue&7 {
			out = out.With(p)
		}
	}
	return out
}

// Queues is the set of pt's egress queues that carry some priority that
// can exist on pt's device (bit n for queue n).
func (e *Exist) Queues(pt *schema.Port) schema.PrioSet {
	if pt == nil {
		return 0
	}
	q := qosOf(pt)
	var out schema.PrioSet
	for p := range e.Priorities(pt.Device).All() {
		out = out.With(q.Queue[p].V)
	}
	return out
}

// Why says why priority prio cannot exist on device d ("no port of spine1
// classifies into priority 4 (trust "dscp": its DSCP map gives 0, 3, 6)"),
// or "" when it can.
func (e *Exist) Why(d *schema.Device, prio int) string {
	if d == nil || e.Priority(d, prio) {
		return ""
	}
	if len(d.Ports) == 0 {
		return fmt.Sprintf("%s has no ports, so no traffic crosses it", d.Name)
	}
	var parts []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			parts = append(parts, s)
		}
	}
	for _, pt := range d.Ports {
		add(describeImage(e.keyOf(pt)))
	}
	what := "port"
	if d.Kind.V == schema.KindNIC {
		what = "port or own traffic"
		var sent schema.PrioSet
		for _, pt := range d.Ports {
			if pt.Peer == nil {
				continue
			}
			for fl := Flow(0); fl < numFlows; fl++ {
				if _, pr, _, ok := sourcePacket(pt, e.classes[fl], fl); ok {
					sent = sent.With(pr)
				}
			}
		}
		if sent != 0 {
			add("it sends in priority " + sent.Join(", "))
		}
	}
	return fmt.Sprintf("no %s of %s classifies into priority %d (%s)", what, d.Name, prio&7, strings.Join(parts, "; "))
}

// describeImage says how a port with key k classifies, and into what.
func describeImage(k existKey) string {
	q := k.q
	if q == nil {
		return "no qos_policy: everything is priority 0"
	}
	img := classifyImage(k).Join(", ")
	switch q.Trust.V {
	case schema.TrustDSCP:
		return fmt.Sprintf("trust %q: its DSCP map gives %s", q.Trust.V, img)
	case schema.TrustBoth:
		return fmt.Sprintf("trust %q: its DSCP and PCP maps give %s", q.Trust.V, img)
	case schema.TrustPCP:
		if k.tagged {
			return fmt.Sprintf("trust %q: its PCP map gives %s", q.Trust.V, img)
		}
		return fmt.Sprintf("trust %q on untagged frames: PCP 0 gives %s", q.Trust.V, img)
	case "":
		return "no trust mode: everything is priority 0"
	}
	return fmt.Sprintf("trust %q: everything is priority 0", q.Trust.V)
}

// existGroups is groupQoS(p, keep) with each group split by what can exist
// on its ports' devices: the ports of one group share a PortQoS, and those
// of one split also share the set of priorities their devices carry, so
// the queues that carry traffic are the same at each of them. Splits keep
// the group's order and, within it, the order their ports were first seen.
func existGroups(p *Pass, keep func(pt *schema.Port) bool) []qosGroup {
	ex := p.Exist()
	all := groupQoS(p, keep)
	out := make([]qosGroup, 0, len(all))
	for _, g := range all {
		first := ex.Priorities(g.ports[0].Device)
		same := true
		for _, pt := range g.ports {
			if ex.Priorities(pt.Device) != first {
				same = false
				break
			}
		}
		if same {
			out = append(out, g)
			continue
		}
		idx := map[schema.PrioSet]int{}
		start := len(out)
		for _, pt := range g.ports {
			s := ex.Priorities(pt.Device)
			i, ok := idx[s]
			if !ok {
				i = len(out) - start
				idx[s] = i
				out = append(out, qosGroup{qos: g.qos})
			}
			out[start+i].ports = append(out[start+i].ports, pt)
		}
	}
	return out
}
