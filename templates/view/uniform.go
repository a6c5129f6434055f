package view

import (
	"fmt"
	"github.com/fabricgen/fabricgen/diag"

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
	// AspPFCOn means PFC is on on every port or on none (which priorities
	// is AspPFCSet's).
	AspPFCOn
	aspMTU
)

// RequireUniform fails when two ports of d disagree on an Aspect the platform
// can only configure device-wide. Every differing Aspect is refused at
// the line of the value that deviates from the device's others
// (schema.Rank: the more specific attachment, an override being the
// change, else the value fewer ports hold), once per line, naming a port
// holding each value.
func RequireUniform(d *schema.Device, reason string, aspects ...Aspect) error {
	var ports []*schema.Port
	for _, p := range d.Ports {
		if p.QoS != nil {
			ports = append(ports, p)
		}
	}
	if len(ports) < 2 || samePortQoS(ports) {
		return nil
	}
	var rej Collector
	seen := map[schema.Range]bool{}
	for _, a := range aspects {
		for _, it := range aspectItems(a) {
			if refuseDeviants(d, reason, ports, it, seen, &rej) {
				break // the first item of the aspect the ports disagree on
			}
		}
	}
	return rej.Err()
}

func samePortQoS(ports []*schema.Port) bool {
	for _, p := range ports[1:] {
		if p.QoS != ports[0].QoS {
			return false
		}
	}
	return true
}

// uniformItem is one value an Aspect compares: what it is called, its
// value on a port (ok false: the port does not take part), and where the
// port's value was set.
type uniformItem struct {
	what string
	val  func(q *schema.PortQoS) (v string, ok bool)
	src  func(q *schema.PortQoS) schema.Range
	// say words a refusal (nil: "WHAT V on P but W on R").
	say func(dev, ref *schema.Port, dv, rv string) string
}

// refuseDeviants refuses every value of it that deviates from the
// reference among ports, once per line (seen); it reports whether the
// ports disagree on it.
func refuseDeviants(d *schema.Device, reason string, ports []*schema.Port, it uniformItem, seen map[schema.Range]bool, rej *Collector) bool {
	type sideKey struct {
		v   string
		src schema.Range
	}
	idx := map[sideKey]int{}
	var sides []schema.Side
	var first []*schema.Port // a port holding each side
	vals := map[string]bool{}
	for _, p := range ports {
		v, ok := it.val(p.QoS)
		if !ok {
			continue
		}
		src := it.src(p.QoS)
		k := sideKey{v, src}
		if i, ok := idx[k]; ok {
			sides[i].Holders++
			continue
		}
		idx[k] = len(sides)
		sides = append(sides, schema.Side{Key: v, Src: src, Holders: 1, Level: p.SourceLevel(src)})
		first = append(first, p)
		vals[v] = true
	}
	if len(vals) < 2 {
		return false
	}
	ref := schema.Reference(sides)
	for _, i := range schema.Deviants(sides) {
		if seen[sides[i].Src] && !sides[i].Src.IsZero() {
			continue
		}
		seen[sides[i].Src] = true
		var what string
		if it.say != nil {
			what = it.say(first[i], first[ref], sides[i].Key, sides[ref].Key)
		} else {
			what = fmt.Sprintf("%s %s on %s but %s on %s", it.what, sides[i].Key, first[i].Name, sides[ref].Key, first[ref].Name)
		}
		ue := Unsupported(d, what, reason, sides[i].Src)
		if r := sides[ref].Src; !r.IsZero() {
			ue.Related = []diag.Related{{Range: r, Message: fmt.Sprintf("%s %s on %s (the reference: %d port(s) of %s)", it.what, sides[ref].Key, first[ref].Name, holders(sides, sides[ref].Key), d.Name)}}
		}
		rej.Add(ue)
	}
	return true
}

// holders is how many ports hold value v.
func holders(sides []schema.Side, v string) int {
	n := 0
	for _, s := range sides {
		if s.Key == v {
			n += s.Holders
		}
	}
	return n
}

// aspectItems lists the values Aspect a compares, in the order a refusal
// names the first that differs.
func aspectItems(a Aspect) []uniformItem {
	str := func(v any) string { return fmt.Sprint(v) }
	all := func(v any) (string, bool) { return str(v), true }
	var out []uniformItem
	switch a {
	case AspTrust:
		out = append(out, uniformItem{what: "trust", val: func(q *schema.PortQoS) (string, bool) { return all(q.Trust.V) },
			src: func(q *schema.PortQoS) schema.Range { return q.Trust.Src }})
	case AspDSCP:
		for i := range 64 {
			out = append(out, uniformItem{what: fmt.Sprintf("DSCP %d → priority", i), val: func(q *schema.PortQoS) (string, bool) { return all(q.DSCP[i].V) },
				src: func(q *schema.PortQoS) schema.Range { return q.DSCP[i].Src }})
		}
	case AspPCP:
		for i := range 8 {
			out = append(out, uniformItem{what: fmt.Sprintf("PCP %d → priority", i), val: func(q *schema.PortQoS) (string, bool) { return all(q.PCP[i].V) },
				src: func(q *schema.PortQoS) schema.Range { return q.PCP[i].Src }})
		}
	case AspQueueMap:
		for i := range 8 {
			out = append(out, uniformItem{what: fmt.Sprintf("priority %d → queue", i), val: func(q *schema.PortQoS) (string, bool) { return all(q.Queue[i].V) },
				src: func(q *schema.PortQoS) schema.Range { return q.Queue[i].Src }})
		}
	case AspQueues:
		for i := range 8 {
			out = append(out,
				uniformItem{what: fmt.Sprintf("queue %d ECN profile", i), val: func(q *schema.PortQoS) (string, bool) { return ecnName(q.Queues[i].ECN.V), true },
					src: func(q *schema.PortQoS) schema.Range { return q.Queues[i].ECN.Src }},
				uniformItem{what: fmt.Sprintf("queue %d scheduler", i), val: func(q *schema.PortQoS) (string, bool) { return all(q.Queues[i].Sched.V) },
					src: func(q *schema.PortQoS) schema.Range { return q.Queues[i].Sched.Src }},
				uniformItem{what: fmt.Sprintf("queue %d weight", i), val: func(q *schema.PortQoS) (string, bool) { return all(q.Queues[i].Weight.V) },
					src: func(q *schema.PortQoS) schema.Range { return q.Queues[i].Weight.Src }},
				uniformItem{what: fmt.Sprintf("queue %d shaper", i), val: func(q *schema.PortQoS) (string, bool) { return all(q.Queues[i].Shaper.V) },
					src: func(q *schema.PortQoS) schema.Range { return q.Queues[i].Shaper.Src }})
		}
	case AspPFCSet:
		out = append(out, uniformItem{what: "PFC priorities",
			val: func(q *schema.PortQoS) (string, bool) { return str(q.Lossless.List()), q.Lossless != 0 },
			src: func(q *schema.PortQoS) schema.Range { return q.PFCSrc[firstSet(q)] }})
	case AspWatchdog:
		out = append(out, uniformItem{what: "pfc_watchdog",
			val: func(q *schema.PortQoS) (string, bool) { return wdName(q.Watchdog.V), q.Lossless != 0 },
			src: func(q *schema.PortQoS) schema.Range { return q.Watchdog.Src }})
	case AspBuffer:
		out = append(out, uniformItem{what: "buffer settings",
			val: func(q *schema.PortQoS) (string, bool) { return bufferKey(q.Buffer), true },
			src: func(q *schema.PortQoS) schema.Range { return bufferSrc(q.Buffer) },
			say: func(dev, ref *schema.Port, _, _ string) string {
				return fmt.Sprintf("buffer settings on %s that differ from %s", dev.Name, ref.Name)
			}})
	case AspPFCOn:
		out = append(out, uniformItem{what: "PFC",
			val: func(q *schema.PortQoS) (string, bool) {
				if q.Lossless != 0 {
					return "on", true
				}
				return "off", true
			},
			src: func(q *schema.PortQoS) schema.Range { return q.PFCSource() },
			say: func(dev, ref *schema.Port, dv, _ string) string {
				if dv == "on" {
					return "PFC on " + dev.Name + " but not on " + ref.Name
				}
				return "PFC on " + ref.Name + " but not on " + dev.Name
			}})
	case aspMTU:
		out = append(out, uniformItem{what: "mtu", val: func(q *schema.PortQoS) (string, bool) { return all(q.MTU.V) },
			src: func(q *schema.PortQoS) schema.Range { return q.MTU.Src }})
	}
	return out
}

// bufferKey identifies a port's buffer settings: every knob, and whether
// the dynamic threshold is set.
func bufferKey(b schema.BufferSpec) string {
	return fmt.Sprint(b.Headroom.V, b.XOFF.V, b.XON.V, b.IngressLosslessPool.V, b.EgressLossyPool.V, b.DynamicThreshold.V, b.DynamicThreshold.Set)
}

// bufferSrc is where the port's buffer settings were set: the first set
// knob's line.
func bufferSrc(b schema.BufferSpec) schema.Range {
	for _, v := range []schema.Value[int64]{b.Headroom, b.XOFF, b.XON, b.IngressLosslessPool, b.EgressLossyPool} {
		if v.Set {
			return v.Src
		}
	}
	return b.DynamicThreshold.Src
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
