package schema

// WeightSumSource is the weight to change when the DWRR (ETS) weights of a
// port's queues do not add up to 100: the weight a policy's queue block
// sets, the most specific attachment first (a device's or port's override
// deviates from the classes' weights); else the first weight set (a
// class's). Lint (ETS001) and render (a NIC's ETS refusal) point there.
func (q *PortQoS) WeightSumSource() Range {
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
