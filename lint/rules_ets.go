package lint

import (
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

func etsRules() []*Rule {
	return []*Rule{
		{
			ID: "ETS001", Title: "ETS/DWRR weights sum to 100", Severity: schema.SevError,
			Rationale: "802.1Qaz ETS bandwidth is a percentage over the non-strict queues; mlx5 rejects a vector that does not sum to 100 (\"BW sum is illegal\") and switches normalise it into shares nobody intended. `dcb ets bandwidth 30 0 0 50 0 0 20 0` sums to 100.",
			Reference: "IEEE 802.1Qaz (ETS); Linux drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c (mlx5e_dbcnl_validate_ets)",
			Fix:       "Adjust the classes' (or queues') weight values so the DWRR queues sum to exactly 100.",
			Run:       runETSSum,
		},
		{
			ID: "ETS002", Title: "No zero weight on a queue that carries traffic", Severity: schema.SevWarning,
			Rationale: "A DWRR queue with weight 0 gets no guaranteed share and starves whenever others are busy; older mlx5 firmware rejects it.",
			Reference: "Linux mlx5 en_dcbnl.c",
			Fix:       "Give every DWRR queue that a priority maps to a weight above 0.",
			Run:       runETSZero,
		},
		{
			ID: "ETS003", Title: "Strict priority only for control and CNP classes", Severity: schema.SevWarning,
			Rationale: "A strict queue is served before everything else: fine for low-volume CNP and network control, but strict bulk or RoCE data starves every other class.",
			Reference: "NVIDIA Cumulus Linux RoCE defaults (CNP strict, RoCE DWRR 50 %)",
			Fix:       `Use scheduler = "dwrr" with a weight for data classes; keep "strict" for cnp and control classes.`,
			Run:       runETSStrict,
		},
	}
}

// etsVector lists the weights of the DWRR queues in active by queue
// number, e.g. "queue 0: 50, queue 3: 60" (strict queues take no weight
// and are left out).
func etsVector(q *schema.PortQoS, active schema.PrioSet) string {
	var parts []string
	for i, qq := range q.Queues {
		if qq.Sched.V == schema.SchedDWRR && active.Has(i) {
			parts = append(parts, fmt.Sprintf("queue %d: %d", i, qq.Weight.V))
		}
	}
	return strings.Join(parts, ", ")
}

// weightSumSource is the weight to change when the DWRR weights of the
// queues in active miss 100: as PortQoS.WeightSumSource (a policy queue
// block's weight, the most specific attachment first; else the first
// weight set), among the queues that carry traffic only.
func weightSumSource(q *schema.PortQoS, active schema.PrioSet) schema.Range {
	for i := len(q.Policies) - 1; i >= 0; i-- {
		pol := q.Policies[i]
		for qn := range q.Queues {
			spec := pol.Queues[qn]
			qq := q.Queues[qn]
			if active.Has(qn) && spec != nil && spec.Weight.Set && qq.Weight.Src == spec.Weight.Src && qq.Sched.V != schema.SchedStrict {
				return spec.Weight.Src
			}
		}
	}
	for qn, qq := range q.Queues {
		if active.Has(qn) && qq.Sched.V != schema.SchedStrict && qq.Weight.Set {
			return qq.Weight.Src
		}
	}
	return q.WeightSumSource()
}

// idleNote says why the DWRR queues idle of port pt are not counted: what
// maps to each, and why that priority cannot exist on pt's device.
func idleNote(ex *Exist, pt *schema.Port, idle []int) string {
	q := qosOf(pt)
	var parts []string
	for _, qn := range idle {
		var mapped schema.PrioSet
		for pr := range q.Queue {
			if q.Queue[pr].V&7 == qn {
				mapped = mapped.With(pr)
			}
		}
		what := fmt.Sprintf("queue %d (weight %d): ", qn, q.Queues[qn].Weight.V)
		if mapped == 0 {
			what += "no priority maps to it"
		} else {
			which := fmt.Sprintf("priority %d maps to it, but ", mapped.List()[0])
			if mapped.Len() > 1 {
				which = fmt.Sprintf("priorities %s map to it, none of which can exist: ", mapped.Join(", "))
			}
			what += which + ex.Why(pt.Device, mapped.List()[0])
		}
		parts = append(parts, what)
	}
	return "Not counted, as no traffic can reach them: " + strings.Join(parts, "; ") + "."
}

func runETSSum(p *Pass) {
	ex := p.Exist()
	for _, g := range existGroups(p, nil) {
		first := g.ports[0]
		active := ex.Queues(first)
		sum, n, all := 0, 0, 0
		var idle []int
		for qn, qq := range g.qos.Queues {
			if qq.Sched.V != schema.SchedDWRR {
				continue
			}
			all += qq.Weight.V
			if !active.Has(qn) {
				idle = append(idle, qn)
				continue
			}
			n++
			sum += qq.Weight.V
		}
		// Weights are shares: a DWRR queue that no existing priority
		// reaches takes none, so the queues that carry traffic must sum
		// to 100; a configured vector that sums to 100 is right as it is
		// (its idle queues' shares go to the busy ones, and the priority
		// that went missing is its own rule's finding).
		if n == 0 || sum == 100 || all == 100 {
			continue
		}
		// The line to change: a device's or port's queue weight that
		// deviates from the classes' weights, else the first class weight.
		msg := fmt.Sprintf("%s: DWRR weights sum to %d, not 100 (%s)", first.ID(), sum, etsVector(g.qos, active))
		detail := ""
		if len(idle) > 0 {
			detail = idleNote(ex, first, idle)
		}
		subj := weightSumSource(g.qos, active)
		var related []Related
		// A class weight the sum leaves out (its queue made strict, or
		// shared with another class's weight) is the change when restoring
		// it makes the classes' vector whole again: then the line that
		// dropped it is the primary, the weights related locations.
		lost := lostWeights(ex, first, g.qos, active)
		if len(lost) > 0 {
			restored := sum
			var whys []string
			for _, lw := range lost {
				restored += lw.Class.Weight.V
				whys = append(whys, lw.why)
			}
			msg += "; " + strings.Join(whys, "; ")
			for _, lw := range lost {
				related = append(related, Related{Range: lw.Cause, Message: lw.causeMsg},
					Related{Range: lw.Class.Weight.Src, Message: fmt.Sprintf("traffic_class %q's weight %d, not counted", lw.Class.Name, lw.Class.Weight.V)})
			}
			if restored == 100 && !lost[0].Cause.IsZero() {
				related = append(related[1:], Related{Range: subj, Message: "weight counted in the sum"})
				subj = lost[0].Cause
			}
		}
		fd := Finding{Subject: ptr(portSubject(subj, first)), Device: first.Device.Name, Port: first.Name,
			Summary: msg, Detail: detail, Count: len(g.ports), Places: portsPlaces(g.ports), Related: related}
		if sum < 100 && !hasDefaultClass(p.Fabric) {
			// The usual cause: the classes leave out the default class,
			// whose queue takes the rest of the bandwidth.
			fd.Summary += fmt.Sprintf("; no traffic_class has role \"default\", so the traffic no class names (priority %d) has no weight: add a default class with weight = %d", g.qos.DSCP[0].V, 100-sum)
			fd.Fix = defaultClassFix(g.qos.DSCP[0].V, 100-sum)
		}
		p.Report(fd)
	}
}

// lostWeight is a class weight that the DWRR sum of a port leaves out
// (schema.LostWeight), worded.
type lostWeight struct {
	schema.LostWeight
	// causeMsg words the cause line as a related location; why words it
	// for the summary.
	causeMsg, why string
}

// lostWeights is schema's PortQoS.LostWeights at port pt, for the classes
// that carry traffic there (their priority exists, their queue is
// active), worded.
func lostWeights(ex *Exist, pt *schema.Port, q *schema.PortQoS, active schema.PrioSet) []lostWeight {
	var out []lostWeight
	for _, lw := range q.LostWeights() {
		c := lw.Class
		if !ex.Priority(pt.Device, c.Priority.V&7) || !active.Has(lw.Queue) {
			continue // nothing reaches the class here: its weight has nothing to share
		}
		w := lostWeight{LostWeight: lw}
		if lw.Owner == nil {
			w.causeMsg = fmt.Sprintf("queue %d made strict here", lw.Queue)
			w.why = fmt.Sprintf("traffic_class %q's weight %d is not counted: its queue %d is strict", c.Name, c.Weight.V, lw.Queue)
		} else {
			w.causeMsg = fmt.Sprintf("traffic_class %q's priority %d mapped to queue %d here", lw.Mover.Name, lw.Mover.Priority.V, lw.Queue)
			w.why = fmt.Sprintf("traffic_class %q's weight %d is not counted: it shares queue %d with traffic_class %q, whose weight the queue takes", c.Name, c.Weight.V, lw.Queue, lw.Owner.Name)
		}
		out = append(out, w)
	}
	return out
}

// hasDefaultClass reports whether a traffic class has role "default".
func hasDefaultClass(f *schema.Fabric) bool {
	for _, c := range f.Classes {
		if c.Role == schema.RoleDefault {
			return true
		}
	}
	return false
}

// defaultClassFix is ETS001's fix when the default class is missing: the
// block to add, its weight the rest of 100.
func defaultClassFix(prio, weight int) string {
	return fmt.Sprintf("Add a block traffic_class \"default\" with role = \"default\", dscp = [0], priority = %d and weight = %d, and list traffic_class.default in the qos_policy's classes; or adjust the other classes' weights to sum to 100.", prio, weight)
}

func runETSZero(p *Pass) {
	ex := p.Exist()
	for _, g := range existGroups(p, nil) {
		used := ex.Queues(g.ports[0])
		for qn, qq := range g.qos.Queues {
			if used.Has(qn) && qq.Sched.V == schema.SchedDWRR && qq.Weight.V == 0 {
				// The line to change: a weight of 0 where one is set, else
				// the scheduler that made the queue DWRR without a weight
				// (a strict class turned dwrr).
				subj, what := qq.Weight.Src, ""
				if !qq.Weight.Set || subj.IsZero() {
					subj, what = qq.Sched.Src, " (scheduled dwrr, and no weight is set)"
				}
				reportGroup(p, g, subj, fmt.Sprintf("%s: queue %d carries traffic but has DWRR weight 0%s", g.ports[0].ID(), qn, what))
			}
		}
	}
}

func runETSStrict(p *Pass) {
	ex := p.Exist()
	for _, g := range existGroups(p, nil) {
		for _, c := range p.Fabric.Classes {
			if c.Role == schema.RoleCNP || c.Role == schema.RoleControl || !c.Priority.Set {
				continue
			}
			if !ex.Priority(g.ports[0].Device, c.Priority.V) {
				continue // nothing classifies into the class's priority here: the queue carries none of it
			}
			qn := g.qos.Queue[c.Priority.V&7].V & 7
			qq := g.qos.Queues[qn]
			if qq.Sched.V == schema.SchedStrict {
				reportGroup(p, g, qq.Sched.Src, fmt.Sprintf("%s: queue %d is strict priority but carries %s class %q", g.ports[0].ID(), qn, c.Role, c.Name))
			}
		}
	}
}
