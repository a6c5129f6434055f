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
	sends := ""
	if d.Kind.V == schema.KindNIC {
		sends = " and it sends nothing in it"
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
	return fmt.Sprintf("no port of %s classifies into priority %d%s (%s)", d.Name, prio&7, sends, strings.Join(parts, "; "))
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

// existNote says how the can-exist model bears on one rule: Changed is
// true when the rule asks the model before it reports; Text says how, or
// why the rule needs no change, in one short sentence.
type existNote struct {
	Changed bool
	Text    string
}

// pathExist is the note of a path rule: the walk follows the NICs' own
// packets, so the rule never sees traffic that cannot exist.
const pathExist = "A path rule: it follows the NICs' own RoCE data and CNPs through the walk, so it only ever judges traffic that exists; no change."

// existUse is the table of how the can-exist model bears on each rule of
// the registry, by rule ID; the platform-limit rules are one entry, "PLT",
// and the InfiniBand rules share "IBQ". docs/rules.md renders it (the
// "What can exist means" section and each rule's "Can exist." line), and a
// test fails when a rule of the registry has no entry.
func existUse() map[string]existNote {
	changed := func(s string) existNote { return existNote{Changed: true, Text: s} }
	same := func(s string) existNote { return existNote{Text: s} }
	path := same(pathExist)
	return map[string]existNote{
		"QOS003": changed("A lossless and a lossy priority sharing a queue are reported only when the other priority can exist on the device: a priority nothing classifies into shares the queue with nothing (the walk already follows the class's own priority)."),
		"ETS001": changed("Sums only the DWRR queues that carry a priority that can exist on the port's device, and the finding's detail names the idle ones; a configured vector that already sums to 100 stays right, as an idle queue's share goes to the busy ones."),
		"ETS002": changed("A queue carries traffic when a priority that can exist on the port's device maps to it (before: when the port's own ingress map reached it)."),
		"ETS003": changed("Reports a strict queue carrying a data class only on devices where the class's priority can exist."),
		"ECN003": changed("Judges only the lossless priorities that can exist on the switch: a priority nothing classifies into fills no priority group and no queue."),
		"ECN005": changed("Judges only the queues of the lossless priorities that can exist on the device: a WRED profile on a queue no lossless traffic reaches drops none of it."),

		"ACL001": path, "ACL002": path, "XS001": path, "CNP001": path, "CNP003": path, "ECN001": path,
		"MTU002": path, "PFC002": path, "QOS001": path, "QOS002": path, "NIC007": path, "QOS007": path,

		"BUF001": same("Sizes the headroom of the port's PFC configuration, which the switch reserves whether or not traffic arrives; no change."),
		"BUF002": same("About the cable of a link that has PFC configured, which headroom is sized for; no priority's existence matters."),
		"BUF005": same("About a buffer's xon and xoff values; no priority or queue."),
		"CNP002": same("Compares the DSCP the NICs mark CNPs with against the CNP class: the NICs' marking is what makes CNP exist, so it is judged as marked; no change."),
		"DLK004": same("About PFC configured on links between switches of one tier, which pause whatever the peer classifies; no change."),
		"ECN002": same("About an ecn_profile's thresholds; no priority or queue."),
		"ECN004": same("About a lossless class without an ecn_profile, a property of the class; a lossless class whose priority no DSCP reaches is QOS009's finding."),
		"LNK001": same("About a link's speed; no priority or queue."),
		"LNK003": same("About a link's FEC; no priority or queue."),
		"LNK005": same("About a link's cable reach; no priority or queue."),
		"MTU001": same("About a NIC's MTU against its RDMA path MTU; no priority or queue."),
		"MTU003": same("About the MTUs of a link's two ends; no priority or queue."),
		"NIC001": same("Compares a NIC's PFC vector with its switch port's as programmed: a pause frame for a priority follows the configuration, not the traffic; no change."),
		"NIC003": same("About the ECT bits the NIC itself marks RoCE with, which is traffic that exists by definition; no change."),
		"NIC004": same("About the NIC's own DCQCN setting; no priority or queue."),
		"NIC006": same("Compares the QoS of a dual-homed NIC's ports as configured; no change."),
		"PFC001": same("Compares the PFC vectors of a link's two ends as programmed: a pause frame for a priority follows the configuration, not the traffic; no change."),
		"PFC003": same("Counts the priorities PFC is enabled on, each of which reserves headroom whether or not traffic arrives; no change."),
		"PFC005": same("About 802.3x link pause beside PFC, two port settings; no priority's existence matters."),
		"PFC008": same("Judges the PFC priorities against the lossless classes and the priorities their DSCPs map to, the image the model itself is made of; no change."),
		"QOS004": same("Judges DSCP map entries: an entry that maps a DSCP into a PFC priority is what makes that traffic exist there; no change."),
		"QOS005": same("About the DSCP map's completeness; no priority that may not exist."),
		"QOS006": same("Compares what each NIC marks and maps with the classes: the NICs' marking is what makes a class exist, so it is judged as marked; no change."),
		"QOS008": same("About the RoCE class's lossless attribute, a property of the class; no change."),
		"QOS009": same("Is itself an existence check: the DSCPs the NICs mark against the classes' dscp lists, and a lossless class whose priority no DSCP reaches; no change."),
		"SUP001": same("About suppression comments; no traffic."),
		"VAL001": same("The loader's diagnostics; no traffic."),
		"WDG001": same("A watchdog on a switch port with PFC configured guards against pause frames from its peer, whatever this device classifies; no change."),
		"WDG002": same("About a pfc_watchdog's timers; no priority or queue."),
		"WDG003": same("About the watchdogs' actions fabric-wide; no priority or queue."),
		"WDG004": same("Storm prevention on a NIC port with PFC configured guards against the NIC's own pauses; no change."),
		"WDG005": same("About whether a platform applies the watchdog's restoration time; no priority or queue."),
		"IBQ":    same("InfiniBand: classes travel as service levels on virtual lanes that the subnet manager programs, and the Ethernet priority model does not apply; no change."),
		"PLT":    same("Platform limits judge what render would program, which is every configured value whether or not traffic uses it; no change."),
	}
}

// existKeyOf is the existUse key of rule id: "PLT" for a platform-limit
// rule, "IBQ" for an InfiniBand rule, else the ID.
func existKeyOf(id string) string {
	switch {
	case IsPlatformRule(id):
		return "PLT"
	case strings.HasPrefix(id, "IBQ"):
		return "IBQ"
	}
	return id
}

// existNoteOf is rule id's entry of existUse.
func existNoteOf(id string) (existNote, bool) {
	n, ok := existUse()[existKeyOf(id)]
	return n, ok
}
