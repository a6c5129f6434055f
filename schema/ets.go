package schema

import "slices"

// WeightSumSource is the weight to change when the DWRR (ETS) weights of a
// port's queues do not add up to 100: where a class's weight went missing
// from the sum and restoring it makes the sum 100, the line that dropped
// it (LostWeights); else the weight a policy's queue block sets, the most
// specific attachment first (a device's or port's override deviates from
// the classes' weights); else the first weight set (a class's). Lint
// (ETS001) and render (a NIC's ETS refusal) point there.
func (q *PortQoS) WeightSumSource() Range {
	if lost := q.LostWeights(); len(lost) > 0 && !lost[0].Cause.IsZero() {
		sum := 0
		for _, qq := range q.Queues {
			if qq.Sched.V == SchedDWRR {
				sum += qq.Weight.V
			}
		}
		for _, lw := range lost {
			sum += lw.Class.Weight.V
		}
		if sum == 100 {
			return lost[0].Cause
		}
	}
	for i := len(q.Policies) - 1; i >= 0; i-- {
		pol := q.Policies[i]
		for qn := range q.Queues {
			spec := pol.Queues[qn]
			qq := q.Queues[qn]
			if spec != nil && spec.Weight.Set && qq.Weight.Src == spec.Weight.Src && qq.Sched.V != SchedStrict {
				return spec.Weight.Src
			}
		}
	}
	for _, qq := range q.Queues {
		if qq.Sched.V != SchedStrict && qq.Weight.Set {
			return qq.Weight.Src
		}
	}
	return Range{}
}

// Classes is the traffic classes q applies: those of the most specific
// policy of its chain that lists classes, as the resolver builds q.
func (q *PortQoS) Classes() []*TrafficClass {
	var classes []*TrafficClass
	for _, pol := range q.Policies {
		if !pol.ClassesRange.IsZero() {
			classes = pol.Classes
		}
	}
	return classes
}

// LostWeight is a traffic class's DWRR weight that a port's queues do not
// carry, and the line that dropped it.
type LostWeight struct {
	// Class asks for the weight; Queue is the queue its priority maps to.
	Class *TrafficClass
	Queue int
	// Owner is the class whose weight Queue takes instead (the two share
	// the queue), nil when the queue was made strict.
	Owner *TrafficClass
	// Mover is, of two classes sharing Queue, the one whose queue mapping
	// deviates (Cause is its line), nil when the queue was made strict.
	Mover *TrafficClass
	// Cause is the line that dropped the weight: the scheduler that made
	// the queue strict, or Mover's queue mapping.
	Cause Range
}

// LostWeights lists the classes q applies that ask for a DWRR weight above
// 0 but whose weight is not the weight of their queue: a policy's queue
// block made the queue strict, or another class's weight is the queue's,
// the two sharing it. A queue whose weight a policy's queue block
// overrides loses no class weight here: the override is in the sum, and
// WeightSumSource points at it. Of two classes sharing a queue, the one
// whose mapping to it deviates (schema.Rank over the queue lines: the more
// specific attachment, a policy's queue_map, else the class whose queue
// number is not its priority's) is the mover.
func (q *PortQoS) LostWeights() []LostWeight {
	classes := q.Classes()
	var out []LostWeight
	for _, c := range classes {
		if !c.Priority.Set || !c.Weight.Set || c.Weight.V == 0 || (c.Sched.Set && c.Sched.V != SchedDWRR) {
			continue
		}
		prio := c.Priority.V & 7
		qn := q.Queue[prio].V & 7
		qq := q.Queues[qn]
		if qq.Sched.V == SchedStrict {
			if qq.Sched.Src != c.Sched.Src {
				out = append(out, LostWeight{Class: c, Queue: qn, Cause: qq.Sched.Src})
			}
			continue
		}
		if qq.Sched.V != SchedDWRR || qq.Weight.Src == c.Weight.Src {
			continue
		}
		var owner *TrafficClass
		for _, o := range classes {
			if o != c && o.Weight.Set && o.Weight.Src == qq.Weight.Src && o.Priority.Set && q.Queue[o.Priority.V&7].V&7 == qn {
				owner = o
			}
		}
		if owner == nil {
			continue // a policy's queue weight: in the sum
		}
		pair := []*TrafficClass{c, owner}
		if q.Queue[prio].V == prio && owner.Priority.V&7 != qn {
			pair = []*TrafficClass{owner, c}
		}
		sides := make([]Side, len(pair))
		for i, x := range pair {
			src := q.Queue[x.Priority.V&7].Src
			sides[i] = Side{Key: x.Name, Src: src, Holders: 1, Level: q.chainLevel(src)}
		}
		mover := pair[Rank(sides)[0]]
		out = append(out, LostWeight{Class: c, Queue: qn, Owner: owner, Mover: mover, Cause: q.Queue[mover.Priority.V&7].Src})
	}
	return out
}

// chainLevel ranks where src is set along q's attachment chain, for Rank:
// LevelClass for a class's (or no) line, then one level up per policy of
// the chain, the most specific highest (the levels order the attachments
// as Port.SourceLevel does, without naming them).
func (q *PortQoS) chainLevel(src Range) Level {
	for i, pol := range slices.Backward(q.Policies) {
		if pol.Sets(src) {
			return LevelClass + 1 + Level(i)
		}
	}
	return LevelClass
}
