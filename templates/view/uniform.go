package view

import (
	"fmt"

	"github.com/fabricgen/fabricgen/schema"
)

// Aspect names a part of the effective QoS that some platforms configure
// once per device rather than per port.
type Aspect int

// The aspects RequireUniform compares.
const (
	AspTrust Aspect = iota
	AspDSCP
	AspPCP
	AspQueueMap
	AspQueues
	// AspPFCSet means every port uses the same lossless priorities or none.
	AspPFCSet
	AspWatchdog
	AspBuffer
	aspMTU
)

// RequireUniform fails when two ports of d disagree on an Aspect the platform
// can only configure device-wide. The error names both ports and the value.
// Every differing Aspect is refused, once per line that sets it.
func RequireUniform(d *schema.Device, reason string, aspects ...Aspect) error {
	var ref *schema.Port
	var rej Collector
	type seenKey struct {
		a   Aspect
		src schema.Range
	}
	var seen map[seenKey]bool
	for _, p := range d.Ports {
		if p.QoS == nil {
			continue
		}
		if ref == nil {
			ref = p
			continue
		}
		if p.QoS == ref.QoS {
			continue
		}
		for _, a := range aspects {
			if what, src := differ(a, ref, p); what != "" {
				if seen == nil {
					seen = map[seenKey]bool{}
				}
				if k := (seenKey{a, src}); !seen[k] {
					seen[k] = true
					rej.Add(Unsupported(d, what, reason, src))
				}
			}
		}
	}
	return rej.Err()
}

// differ describes how p differs from ref in Aspect a, or returns "".
func differ(a Aspect, ref, p *schema.Port) (string, schema.Range) {
	r, q := ref.QoS, p.QoS
	per := func(what string, rv, pv any) string {
		return fmt.Sprintf("%s %v on %s but %v on %s", what, pv, p.Name, rv, ref.Name)
	}
	switch a {
	case AspTrust:
		if r.Trust.V != q.Trust.V {
			return per("trust", r.Trust.V, q.Trust.V), q.Trust.Src
		}
	case AspDSCP:
		for i := range r.DSCP {
			if r.DSCP[i].V != q.DSCP[i].V {
				return per(fmt.Sprintf("DSCP %d → priority", i), r.DSCP[i].V, q.DSCP[i].V), q.DSCP[i].Src
			}
		}
	case AspPCP:
		for i := range r.PCP {
			if r.PCP[i].V != q.PCP[i].V {
				return per(fmt.Sprintf("PCP %d → priority", i), r.PCP[i].V, q.PCP[i].V), q.PCP[i].Src
			}
		}
	case AspQueueMap:
		for i := range r.Queue {
			if r.Queue[i].V != q.Queue[i].V {
				return per(fmt.Sprintf("priority %d → queue", i), r.Queue[i].V, q.Queue[i].V), q.Queue[i].Src
			}
		}
	case AspQueues:
		for i := range r.Queues {
			a, b := r.Queues[i], q.Queues[i]
			switch {
			case a.ECN.V != b.ECN.V:
				return per(fmt.Sprintf("queue %d ECN profile", i), ecnName(a.ECN.V), ecnName(b.ECN.V)), b.ECN.Src
			case a.Sched.V != b.Sched.V:
				return per(fmt.Sprintf("queue %d scheduler", i), a.Sched.V, b.Sched.V), b.Sched.Src
			case a.Weight.V != b.Weight.V:
				return per(fmt.Sprintf("queue %d weight", i), a.Weight.V, b.Weight.V), b.Weight.Src
			case a.Shaper.V != b.Shaper.V:
				return per(fmt.Sprintf("queue %d shaper", i), a.Shaper.V, b.Shaper.V), b.Shaper.Src
			}
		}
	case AspPFCSet:
		rp, qp := r.Lossless, q.Lossless
		if rp != 0 && qp != 0 && rp != qp {
			return per("PFC priorities", rp.List(), qp.List()), q.PFCSrc[firstSet(q)]
		}
	case AspWatchdog:
		if r.Lossless != 0 && q.Lossless != 0 && r.Watchdog.V != q.Watchdog.V {
			return per("pfc_watchdog", wdName(r.Watchdog.V), wdName(q.Watchdog.V)), q.Watchdog.Src
		}
	case AspBuffer:
		if !bufferEqual(r.Buffer, q.Buffer) {
			return fmt.Sprintf("buffer settings on %s that differ from %s", p.Name, ref.Name), q.Buffer.Headroom.Src
		}
	case aspMTU:
		if r.MTU.V != q.MTU.V {
			return per("mtu", r.MTU.V, q.MTU.V), q.MTU.Src
		}
	}
	return "", schema.Range{}
}

func firstSet(q *schema.PortQoS) int {
	for p := range q.Lossless.All() {
		return p
	}
	return 0
}

func ecnName(e *schema.ECNProfile) string {
	if e == nil {
		return "off"
	}
	return e.Name
}

func wdName(w *schema.Watchdog) string {
	if w == nil {
		return "off"
	}
	return w.Name
}

func bufferEqual(a, b schema.BufferSpec) bool {
	return a.Headroom.V == b.Headroom.V && a.XOFF.V == b.XOFF.V && a.XON.V == b.XON.V &&
		a.IngressLosslessPool.V == b.IngressLosslessPool.V && a.EgressLossyPool.V == b.EgressLossyPool.V &&
		a.DynamicThreshold.V == b.DynamicThreshold.V && a.DynamicThreshold.Set == b.DynamicThreshold.Set
}
