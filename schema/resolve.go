package schema

import (
	"cmp"
	"slices"
	"sort"
	"strings"
)

// finish wires links and subnets, computes every port's effective QoS,
// and sorts everything for deterministic output.
func (r *resolver) finish() {
	sortDevices(r.f.Devices)
	portOrder := func(a, b *Port) int { return NaturalCompare(a.Name, b.Name) }
	for _, dev := range r.f.Devices {
		if !slices.IsSortedFunc(dev.Ports, portOrder) {
			slices.SortStableFunc(dev.Ports, portOrder)
		}
	}
	r.wireLinks()
	for s, g := range r.subnetGateways {
		dev := r.devices[g.name]
		if dev == nil {
			names := make([]string, 0, len(r.devices))
			for n := range r.devices {
				names = append(names, n)
			}
			r.d.errorf(g.rng, "Unknown gateway", "Subnet %q names gateway %q, but no such device is declared.%s", s.Name, g.name, suggest(g.name, names))
			continue
		}
		s.Gateway = dev
	}
	byName := func(n func(i int) string, l int) func(i, j int) bool {
		return func(i, j int) bool { return n(i) < n(j) }
	}
	f := r.f
	sort.Slice(f.Classes, byName(func(i int) string { return f.Classes[i].Name }, 0))
	sort.Slice(f.ECNProfiles, byName(func(i int) string { return f.ECNProfiles[i].Name }, 0))
	sort.Slice(f.Watchdogs, byName(func(i int) string { return f.Watchdogs[i].Name }, 0))
	sort.Slice(f.Policies, byName(func(i int) string { return f.Policies[i].Name }, 0))
	sort.Slice(f.ACLs, byName(func(i int) string { return f.ACLs[i].Name }, 0))
	sort.Slice(f.Subnets, byName(func(i int) string { return f.Subnets[i].Name }, 0))
	r.effectiveQoS()
	r.checkGUIDs()
	f.indexNames()
	f.deriveLossless()
}

// sortDevices sorts devices by NaturalCompare (names are unique).
func sortDevices(ds []*Device) {
	order := func(a, b *Device) int { return NaturalCompare(a.Name, b.Name) }
	// Each device block yields its instances mostly in order, so the slice
	// is a few ascending runs: merge them (n·log(runs) comparisons).
	var runs []int // run start offsets, then len(ds)
	for i := range ds {
		if i == 0 || order(ds[i-1], ds[i]) > 0 {
			runs = append(runs, i)
		}
	}
	runs = append(runs, len(ds))
	if len(runs) > 65 {
		parallelSort(ds, order)
		return
	}
	buf := make([]*Device, len(ds))
	for len(runs) > 2 {
		next := runs[:0:0]
		for k := 0; k+1 < len(runs); k += 2 {
			lo, mid := runs[k], runs[k+1]
			next = append(next, lo)
			if k+2 >= len(runs) { // odd run out: carried over as is
				continue
			}
			hi := runs[k+2]
			i, j, o := lo, mid, lo
			for i < mid && j < hi {
				if order(ds[j], ds[i]) < 0 {
					buf[o] = ds[j]
					j++
				} else {
					buf[o] = ds[i]
					i++
				}
				o++
			}
			o += copy(buf[o:], ds[i:mid])
			copy(buf[o:], ds[j:hi])
			copy(ds[lo:hi], buf[lo:hi])
		}
		runs = append(next, len(ds))
	}
}

// parallelSort sorts ds on both cores: each half concurrently, then a merge.
func parallelSort(ds []*Device, order func(a, b *Device) int) {
	if len(ds) < 4096 {
		slices.SortFunc(ds, order)
		return
	}
	mid := len(ds) / 2
	left, right := slices.Clone(ds[:mid]), slices.Clone(ds[mid:])
	parallelEach(2, func(i int) {
		slices.SortFunc([][]*Device{left, right}[i], order)
	})
	i, j := 0, 0
	for k := range ds {
		if j >= len(right) || (i < len(left) && order(left[i], right[j]) < 0) {
			ds[k] = left[i]
			i++
		} else {
			ds[k] = right[j]
			j++
		}
	}
}

// qosKey identifies a port's attachments; ports with equal keys share a PortQoS.
type qosKey struct {
	fabric, role, device, port *QoSPolicy
	mtu                        Value[int]
}

func (r *resolver) effectiveQoS() {
	cache := map[qosKey]*PortQoS{}
	for _, dev := range r.f.Devices {
		role := r.f.RolePolicies[dev.Kind.V]
		var plain *PortQoS // the device's QoS for ports without attachments of their own
		for _, p := range dev.Ports {
			if p.Policy == nil && !p.MTU.Set && plain != nil {
				p.QoS = plain
				continue
			}
			k := qosKey{r.f.FabricPolicy, role, dev.Policy, p.Policy, p.MTU}
			q, ok := cache[k]
			if !ok {
				var chain []*QoSPolicy
				for _, pol := range []*QoSPolicy{k.fabric, k.role, k.device, k.port} {
					if pol != nil {
						chain = append(chain, pol)
					}
				}
				q = buildQoS(chain, p.MTU)
				cache[k] = q
			}
			p.QoS = q
			if p.Policy == nil && !p.MTU.Set {
				plain = q
			}
		}
	}
}

// buildQoS merges policies (least specific first) over their classes' defaults.
func buildQoS(chain []*QoSPolicy, portMTU Value[int]) *PortQoS {
	q := &PortQoS{Policies: chain}
	for p := range 8 {
		q.Queue[p] = Value[int]{V: p}
		q.PCP[p] = Value[int]{V: p}
	}
	var classes []*TrafficClass
	for _, pol := range chain {
		if !pol.ClassesRange.IsZero() {
			classes = pol.Classes
		}
	}
	for _, c := range classes {
		if !c.Priority.Set {
			continue
		}
		prio := c.Priority.V
		for _, ds := range c.DSCP {
			q.DSCP[ds] = Value[int]{V: prio, Set: true, Src: c.DSCPRange}
		}
		q.Queue[prio] = c.Queue
		qq := &q.Queues[c.Queue.V]
		if c.ECN != nil {
			qq.ECN = Value[*ECNProfile]{V: c.ECN, Set: true, Src: c.ECNRange}
		}
		if c.Sched.Set {
			qq.Sched = c.Sched
		}
		if c.Weight.Set {
			qq.Weight = c.Weight
		}
	}
	var defPrio Value[int]
	for _, pol := range chain {
		if pol.Trust.Set {
			q.Trust = pol.Trust
		}
		for _, k := range sortedKeys(pol.DSCPMap) {
			q.DSCP[k] = pol.DSCPMap[k]
		}
		for _, k := range sortedKeys(pol.QueueMap) {
			q.Queue[k] = pol.QueueMap[k]
		}
		for _, k := range sortedKeys(pol.PCPMap) {
			q.PCP[k] = pol.PCPMap[k]
		}
		for qn, qs := range pol.Queues {
			qq := &q.Queues[qn]
			if qs.ECN.Set {
				qq.ECN = qs.ECN
			}
			if qs.Sched.Set {
				qq.Sched = qs.Sched
			}
			if qs.Weight.Set {
				qq.Weight = qs.Weight
				if !qs.Sched.Set {
					qq.Sched = Value[SchedMode]{V: SchedDWRR, Set: true, Src: qs.Weight.Src}
				}
			}
			if qs.Shaper.Set {
				qq.Shaper = qs.Shaper
			}
		}
		if pol.DefaultPriority.Set {
			defPrio = pol.DefaultPriority
		}
		if pol.Watchdog.Set {
			q.Watchdog = pol.Watchdog
		}
		if pol.MTU.Set {
			q.MTU = pol.MTU
		}
		if pol.LinkPause.Set {
			q.LinkPause = pol.LinkPause
		}
		mergeBuffer(&q.Buffer, pol.Buffer)
	}
	for ds := range q.DSCP {
		if !q.DSCP[ds].Set {
			q.DSCP[ds] = Value[int]{V: defPrio.V, Set: defPrio.Set, Src: defPrio.Src}
		}
	}
	if portMTU.Set {
		q.MTU = portMTU
	}
	q.Lossless, q.PFCSrc = lossless(classes, chain)
	return q
}

func mergeBuffer(dst *BufferSpec, src BufferSpec) {
	set := func(d *Value[int64], s Value[int64]) {
		if s.Set {
			*d = s
		}
	}
	set(&dst.Headroom, src.Headroom)
	set(&dst.XOFF, src.XOFF)
	set(&dst.XON, src.XON)
	set(&dst.IngressLosslessPool, src.IngressLosslessPool)
	set(&dst.EgressLossyPool, src.EgressLossyPool)
	if src.DynamicThreshold.Set {
		dst.DynamicThreshold = src.DynamicThreshold
	}
}

func sortedKeys[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

// NaturalLess orders names with embedded numbers numerically:
// Ethernet2 < Ethernet10, leaf9 < leaf10, et-0/0/2 < et-0/0/10. Digit runs
// of any length compare by value (leading zeros aside), then the shorter
// run first (x1 < x01). The lab and templates sort with it too.
func NaturalLess(a, b string) bool { return NaturalCompare(a, b) < 0 }

// NaturalCompare is the three-way form of NaturalLess: -1, 0 or +1. It
// skips the common prefix first (backing up to the start of a digit run
// the strings differ in), so sorting names that share long prefixes stays
// cheap.
func NaturalCompare(a, b string) int {
	k := 0
	for k < len(a) && k < len(b) && a[k] == b[k] {
		k++
	}
	for k > 0 && isDigit(a[k-1]) {
		k--
	}
	a, b = a[k:], b[k:]
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			i, j := digitRun(a), digitRun(b)
			na, nb := strings.TrimLeft(a[:i], "0"), strings.TrimLeft(b[:j], "0")
			if len(na) != len(nb) {
				return cmp.Compare(len(na), len(nb))
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			if i != j {
				return cmp.Compare(i, j)
			}
			a, b = a[i:], b[j:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digitRun(s string) int {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}
