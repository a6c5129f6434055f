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

// etsVector lists the DWRR queues' weights by queue number, e.g.
// "queue 0: 50, queue 3: 60" (strict queues take no weight and are left out).
func etsVector(q *schema.PortQoS) string {
	var parts []string
	for i, qq := range q.Queues {
		if qq.Sched.V == schema.SchedDWRR {
			parts = append(parts, fmt.Sprintf("queue %d: %d", i, qq.Weight.V))
		}
	}
	return strings.Join(parts, ", ")
}

func runETSSum(p *Pass) {
	for _, g := range groupQoS(p, nil) {
		sum, n := 0, 0
		for _, qq := range g.qos.Queues {
			if qq.Sched.V != schema.SchedDWRR {
				continue
			}
			n++
			sum += qq.Weight.V
		}
		if n == 0 || sum == 100 {
			continue
		}
		// The line to change: a device's or port's queue weight that
		// deviates from the classes' weights, else the first class weight.
		msg := fmt.Sprintf("%s: DWRR weights sum to %d, not 100 (%s)", g.ports[0].ID(), sum, etsVector(g.qos))
		if sum < 100 && !hasDefaultClass(p.Fabric) {
			// The usual cause: the classes leave out the default class,
			// whose queue takes the rest of the bandwidth.
			msg += fmt.Sprintf("; no traffic_class has role \"default\", so the traffic no class names (priority %d) has no weight: add a default class with weight = %d", g.qos.DSCP[0].V, 100-sum)
			first := g.ports[0]
			p.Report(Finding{Subject: ptr(portSubject(g.qos.WeightSumSource(), first)), Device: first.Device.Name, Port: first.Name,
				Summary: msg, Count: len(g.ports), Places: portsPlaces(g.ports), Fix: defaultClassFix(g.qos.DSCP[0].V, 100-sum)})
			continue
		}
		reportGroup(p, g, g.qos.WeightSumSource(), msg)
	}
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

// usedQueues returns the queues some priority reachable from the DSCP/PCP maps lands in.
func usedQueues(q *schema.PortQoS) [8]bool {
	var prios [8]bool
	switch q.Trust.V {
	case schema.TrustPCP:
		for _, v := range q.PCP {
			prios[v.V&7] = true
		}
	case schema.TrustDSCP, schema.TrustBoth:
		for _, v := range q.DSCP {
			prios[v.V&7] = true
		}
	default:
		prios[0] = true
	}
	var used [8]bool
	for pr, ok := range prios {
		if ok {
			used[q.Queue[pr].V&7] = true
		}
	}
	return used
}

func runETSZero(p *Pass) {
	for _, g := range groupQoS(p, nil) {
		used := usedQueues(g.qos)
		for qn, qq := range g.qos.Queues {
			if used[qn] && qq.Sched.V == schema.SchedDWRR && qq.Weight.V == 0 {
				reportGroup(p, g, qq.Weight.Src, fmt.Sprintf("%s: queue %d carries traffic but has DWRR weight 0", g.ports[0].ID(), qn))
			}
		}
	}
}

func runETSStrict(p *Pass) {
	for _, g := range groupQoS(p, nil) {
		for _, c := range p.Fabric.Classes {
			if c.Role == schema.RoleCNP || c.Role == schema.RoleControl || !c.Priority.Set {
				continue
			}
			qn := g.qos.Queue[c.Priority.V&7].V & 7
			qq := g.qos.Queues[qn]
			if qq.Sched.V == schema.SchedStrict {
				reportGroup(p, g, qq.Sched.Src, fmt.Sprintf("%s: queue %d is strict priority but carries %s class %q", g.ports[0].ID(), qn, c.Role, c.Name))
			}
		}
	}
}
