package lint

import (
	"fmt"
	"slices"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/internal/natsort"
	"github.com/fabricgen/fabricgen/schema"
)

// qosGroup is a set of ports sharing one effective PortQoS.
type qosGroup struct {
	qos   *schema.PortQoS
	ports []*schema.Port
}

// groups returns the linked ports grouped by shared PortQoS, computed once per Run.
func (p *Pass) groups() []qosGroup { return p.qosGroups() }

// groupQoS returns the pass's linked-port groups filtered by keep (nil: all).
func groupQoS(p *Pass, keep func(pt *schema.Port) bool) []qosGroup {
	all := p.groups()
	if keep == nil {
		return all
	}
	out := make([]qosGroup, 0, len(all))
	for _, g := range all {
		n := 0
		for _, pt := range g.ports {
			if keep(pt) {
				n++
			}
		}
		switch {
		case n == len(g.ports):
			out = append(out, g)
		case n > 0:
			ports := make([]*schema.Port, 0, n)
			for _, pt := range g.ports {
				if keep(pt) {
					ports = append(ports, pt)
				}
			}
			out = append(out, qosGroup{qos: g.qos, ports: ports})
		}
	}
	return out
}

// buildGroups groups the ports keep accepts by their shared PortQoS, in first-seen order.
func buildGroups(f *schema.Fabric, keep func(p *schema.Port) bool) []qosGroup {
	// Two passes: count each group's ports, then fill slices of that
	// size (a group may hold hundreds of thousands of ports, which
	// appending would copy about twice over).
	idx := map[*schema.PortQoS]int{}
	var out []qosGroup
	var counts []int
	last, li := (*schema.PortQoS)(nil), -1
	group := func(q *schema.PortQoS) int {
		if q == last {
			return li
		}
		i, ok := idx[q]
		if !ok {
			i = len(out)
			idx[q] = i
			out = append(out, qosGroup{qos: q})
			counts = append(counts, 0)
		}
		last, li = q, i
		return i
	}
	for _, d := range f.Devices {
		for _, p := range d.Ports {
			if p.QoS != nil && keep(p) {
				counts[group(p.QoS)]++
			}
		}
	}
	for i := range out {
		out[i].ports = make([]*schema.Port, 0, counts[i])
	}
	for _, d := range f.Devices {
		for _, p := range d.Ports {
			if p.QoS != nil && keep(p) {
				i := group(p.QoS)
				out[i].ports = append(out[i].ports, p)
			}
		}
	}
	return out
}

// isSwitch reports whether the port belongs to a switch (not a host NIC).
func isSwitch(p *schema.Port) bool { return p.Device.Kind.V != schema.KindNIC }

// isNIC reports whether the port belongs to a NIC.
func isNIC(p *schema.Port) bool { return p.Device.Kind.V == schema.KindNIC }

// linked reports whether the port is on a link.
func linked(p *schema.Port) bool { return p.Peer != nil }

func reportGroup(p *Pass, g qosGroup, subject schema.Range, msg string) {
	first := g.ports[0]
	p.Report(Finding{
		Subject: ptr(portSubject(subject, first)),
		Device:  first.Device.Name, Port: first.Name,
		Summary: msg, Count: len(g.ports), Places: portsPlaces(g.ports),
	})
}

// portsPlaces lists the blocks of a finding's ports as its places, sorted
// by port, at most diag.MaxPlaces; none for one port (the finding's own).
func portsPlaces(ports []*schema.Port) []Related {
	if len(ports) < 2 {
		return nil
	}
	byID := make(map[string]*schema.Port, len(ports))
	ids := make([]string, 0, len(ports))
	for _, pt := range ports {
		if _, ok := byID[pt.ID()]; !ok {
			byID[pt.ID()] = pt
			ids = append(ids, pt.ID())
		}
	}
	if len(ids) < 2 {
		return nil
	}
	natsort.Sort(ids)
	var out []Related
	for _, id := range ids {
		if len(out) == diag.MaxPlaces {
			break
		}
		if r := byID[id].Range; !r.IsZero() {
			out = append(out, Related{Range: r, Message: "port " + id})
		}
	}
	return out
}

// maxPathMTU is the largest RDMA path MTU any NIC uses (0 when none is set).
func maxPathMTU(f *schema.Fabric) int {
	m := 0
	for _, d := range f.Devices {
		if d.RDMA != nil && d.RDMA.PathMTU.V > m {
			m = d.RDMA.PathMTU.V
		}
	}
	return m
}

// roceOverhead is what the kernel adds to the RDMA path MTU for the IP MTU:
// GRH 40 + UDP 8 + BTH 12 + XRC 4 + AtomicETH 28 + ICRC 4 (iboe_get_mtu).
const roceOverhead = 96

// linkEnds picks the end of a link whose value is the one to change
// (schema.Rank): each end is a side holding its value with every port of
// the two devices that holds it too, so the end whose value is rare
// around the link (unlike its device's other ports) deviates; for values
// of the QoS attachment chain (chain) the more specific attachment
// deviates first. A tie blames a. Each device's values are counted once.
type linkEnds[T comparable] struct {
	get    func(*schema.Port) (T, bool)
	src    func(*schema.Port) schema.Range
	chain  bool
	counts map[*schema.Device]map[T]int
}

func (e *linkEnds[T]) held(d *schema.Device, v T) int {
	if e.counts == nil {
		e.counts = map[*schema.Device]map[T]int{}
	}
	m, ok := e.counts[d]
	if !ok {
		m = map[T]int{}
		for _, o := range d.Ports {
			if ov, ok := e.get(o); ok {
				m[ov]++
			}
		}
		e.counts[d] = m
	}
	return m[v]
}

// pick returns the deviating end of a link and the other end.
func (e *linkEnds[T]) pick(a, b *schema.Port) (dev, other *schema.Port) {
	side := func(p *schema.Port) schema.Side {
		v, _ := e.get(p)
		n := e.held(a.Device, v)
		if b.Device != a.Device {
			n += e.held(b.Device, v)
		}
		s := schema.Side{Key: fmt.Sprint(v), Src: e.src(p), Holders: n}
		if e.chain {
			s.Level = p.SourceLevel(s.Src)
		}
		return s
	}
	sides := []schema.Side{side(a), side(b)}
	if sides[0].Key == sides[1].Key {
		sides[1].Key += "\x00b" // ends that print alike still differ
	}
	if i, _ := schema.Outlier(sides); i == 1 {
		return b, a
	}
	return a, b
}

// lineAgg collects a rule's per-object findings by the line they point at:
// the first finding at a line stands for all of them, with their number in
// Count (one line that breaks many links or ports is one cause, one
// finding). Findings are reported in first-seen order.
type lineAgg struct {
	idx map[lineKey]int
	out []Finding
	// places are the device and port of each finding added at out[i]'s
	// line, the first diag.MaxPlaces in natural order, each once (they
	// become its Places).
	places [][][2]string
}

type lineKey struct {
	file string
	line int32
}

// add records f; it reports whether f is the first at its line.
func (a *lineAgg) add(f Finding) bool {
	if a.idx == nil {
		a.idx = map[lineKey]int{}
	}
	f.Count = max(f.Count, 1)
	place := [2]string{f.Device, f.Port}
	if f.Subject == nil {
		a.out = append(a.out, f)
		a.places = append(a.places, [][2]string{place})
		return true
	}
	k := lineKey{f.Subject.Filename, f.Subject.Start.Line}
	if i, ok := a.idx[k]; ok {
		a.out[i].Count += f.Count
		a.places[i] = firstPlaces(a.places[i], place)
		return false
	}
	a.idx[k] = len(a.out)
	a.out = append(a.out, f)
	a.places = append(a.places, [][2]string{place})
	return true
}

// bump counts one more finding at r's line, at port pt (nil: none), when
// one was recorded there, so a caller can skip building the message of a
// repeat.
func (a *lineAgg) bump(r schema.Range, pt *schema.Port) bool {
	if r.IsZero() {
		return false
	}
	i, ok := a.idx[lineKey{r.Filename, r.Start.Line}]
	if ok {
		a.out[i].Count++
		if pt != nil {
			a.places[i] = firstPlaces(a.places[i], [2]string{pt.Device.Name, pt.Name})
		}
	}
	return ok
}

// firstPlaces adds place (device, port) to ps, which holds the first
// diag.MaxPlaces places in natural order, each once, and keeps it so:
// what a finding lists does not depend on the order its places were met.
func firstPlaces(ps [][2]string, place [2]string) [][2]string {
	name := func(p [2]string) string { return p[0] + ":" + p[1] }
	at, _ := slices.BinarySearchFunc(ps, place, func(a, b [2]string) int {
		switch x, y := name(a), name(b); {
		case natsort.Less(x, y):
			return -1
		case natsort.Less(y, x):
			return 1
		}
		return 0
	})
	if at < len(ps) && ps[at] == place || at >= diag.MaxPlaces {
		return ps
	}
	ps = slices.Insert(ps, at, place)
	if len(ps) > diag.MaxPlaces {
		ps = ps[:diag.MaxPlaces]
	}
	return ps
}

func (a *lineAgg) flush(p *Pass) {
	for _, f := range a.placed(p) {
		p.Report(f)
	}
}

// placed is the findings, each with its places when it has several.
func (a *lineAgg) placed(p *Pass) []Finding {
	var find placeFunc
	for i := range a.out {
		if len(a.places[i]) > 1 {
			if find == nil {
				find = placesOf(p.Fabric)
			}
			a.out[i].Places = find.list(a.places[i])
		}
	}
	return a.out
}

// causeAgg collects a rule's findings by cause (any comparable key, such
// as the line and the value it sets): the first finding of a cause stands
// for all of them, Count is how many places it reaches and Places are
// their blocks (ports, or devices for a finding about whole devices),
// sorted, deduplicated, at most diag.MaxPlaces. Findings come out in
// first-seen order.
type causeAgg[K comparable] struct {
	idx   map[K]int
	out   []Finding
	ports [][]*schema.Port
	devs  [][]*schema.Device
}

// bump counts port pt or device d (the other nil) as one more place of
// cause k when k already has a finding, so a caller can skip building the
// message of a repeat; it reports whether k had one.
func (a *causeAgg[K]) bump(k K, pt *schema.Port, d *schema.Device) bool {
	i, ok := a.idx[k]
	if ok {
		a.out[i].Count++
		a.place(i, pt, d)
	}
	return ok
}

// add records f as cause k's finding, at port pt or device d, unless k
// has one (then it counts one more place, as bump).
func (a *causeAgg[K]) add(k K, f Finding, pt *schema.Port, d *schema.Device) {
	if a.bump(k, pt, d) {
		return
	}
	if a.idx == nil {
		a.idx = map[K]int{}
	}
	a.idx[k] = len(a.out)
	f.Count = 1
	a.out = append(a.out, f)
	a.ports = append(a.ports, nil)
	a.devs = append(a.devs, nil)
	a.place(len(a.out)-1, pt, d)
}

func (a *causeAgg[K]) place(i int, pt *schema.Port, d *schema.Device) {
	if pt != nil {
		a.ports[i] = append(a.ports[i], pt)
	}
	if d != nil {
		a.devs[i] = append(a.devs[i], d)
	}
}

// findings is the findings, each with the places of its cause.
func (a *causeAgg[K]) findings() []Finding {
	for i := range a.out {
		a.out[i].Places = addPlaces(portsPlaces(a.ports[i]), devicesPlaces(a.devs[i]))
	}
	return a.out
}

// flush reports the findings.
func (a *causeAgg[K]) flush(p *Pass) {
	for _, f := range a.findings() {
		p.Report(f)
	}
}

// devicesPlaces lists the blocks of a finding's devices as its places,
// sorted by name, at most diag.MaxPlaces; none for one device (the
// finding's own).
func devicesPlaces(devs []*schema.Device) []Related {
	if len(devs) < 2 {
		return nil
	}
	byName := make(map[string]*schema.Device, len(devs))
	names := make([]string, 0, len(devs))
	for _, d := range devs {
		if _, ok := byName[d.Name]; !ok {
			byName[d.Name] = d
			names = append(names, d.Name)
		}
	}
	if len(names) < 2 {
		return nil
	}
	natsort.Sort(names)
	var out []Related
	for _, n := range names {
		if len(out) == diag.MaxPlaces {
			break
		}
		if r := byName[n].Range; !r.IsZero() {
			out = append(out, Related{Range: r, Message: "device " + n})
		}
	}
	return out
}

// nicValue is one NIC's value of a marking its class sets too (cnp_dscp,
// the DSCP of tos), and where the NIC sets it.
type nicValue struct {
	d   *schema.Device
	v   int
	src schema.Range
}

// classOutlier weighs a class's value against the NICs' (schema.Rank):
// the class, holding with every NIC whose value agrees with it, is one
// side, each other NIC value another (listed first, so a tie blames the
// NICs). When the reference is a NIC value, the class is the odd one out:
// classOutlier returns the NICs holding that value (the ones to list as
// related) and the NICs holding neither (each still a place to change).
// Otherwise it returns nil and every NIC that disagrees.
func classOutlier(marks []nicValue, agrees func(v int) bool, classSrc schema.Range) (ref, odd []nicValue) {
	var sides []schema.Side
	var dis []nicValue
	agree := 0
	for _, m := range marks {
		if agrees(m.v) {
			agree++
			continue
		}
		sides = append(sides, schema.Side{Key: fmt.Sprint(m.v), Src: m.src, Holders: 1})
		dis = append(dis, m)
	}
	if len(dis) == 0 {
		return nil, nil
	}
	sides = append(sides, schema.Side{Key: "class", Src: classSrc, Holders: 1 + agree})
	r := schema.Reference(sides)
	if r == len(sides)-1 {
		return nil, dis
	}
	for _, m := range dis {
		if fmt.Sprint(m.v) == sides[r].Key {
			ref = append(ref, m)
		} else {
			odd = append(odd, m)
		}
	}
	return ref, odd
}

// marksRelated lists the lines of NIC marks as related locations, each
// line once, at most diag.MaxPlaces, saying what the NICs there do.
func marksRelated(ms []nicValue, what func(m nicValue) string) []Related {
	var out []Related
	seen := map[schema.Range]bool{}
	for _, m := range ms {
		r := subjectOr(m.src, m.d.Range)
		if seen[r] || r.IsZero() {
			continue
		}
		if len(out) == diag.MaxPlaces {
			break
		}
		seen[r] = true
		out = append(out, Related{Range: r, Message: what(m)})
	}
	return out
}

// nicNames is "NIC gpu1" or "NIC gpu1 and 15 other NICs".
func nicNames(ms []nicValue) string {
	names := make([]string, 0, len(ms))
	for _, m := range ms {
		names = append(names, m.d.Name)
	}
	natsort.Sort(names)
	switch len(names) {
	case 0:
		return "no NIC"
	case 1:
		return "NIC " + names[0]
	case 2:
		return "NICs " + names[0] + " and " + names[1]
	}
	return fmt.Sprintf("NIC %s and %d other NICs", names[0], len(names)-1)
}
