package lint

import (
	"context"
	"fmt"
	"math"

	"golang.org/x/sync/errgroup"

	"github.com/fabricgen/fabricgen/schema"
)

// Flow is a kind of RoCEv2 traffic the walk follows.
type Flow int

// The flows: RoCE data (every NIC to every NIC, so both directions of every
// pair) and CNP (sent by the receiver back to the sender: the reverse path).
const (
	FlowRoCE Flow = iota
	FlowCNP
	numFlows
)

// String is "RoCE data" or "CNP".
func (fl Flow) String() string {
	if fl == FlowCNP {
		return "CNP"
	}
	return "RoCE data"
}

// Walk is the end-to-end data flow over states (ingress port, packet): each
// state is visited once. Packets climb Kind.Tier() and then descend (up/down
// routing in a Clos); every link to a higher tier is an ECMP member; a packet
// never turns back to the device it came from. Path counts are computed by
// dynamic programming (forward counts from source NIC ports, backward counts
// to receiving NIC ports), never by enumeration.
type Walk struct {
	flows [numFlows]*flowGraph
}

type state struct {
	pkt    Packet
	pi     int32 // port index in the topology
	next   int32 // next state on the same port (another packet variant), or -1
	mid    int32 // midReceiver, midStopped, or the index of the device's mid
	parent int32 // edge that first reached the state with flow
	fwd    int64
	bwd    int64
}

// Per-state flags.
const (
	flagRouted uint8 = 1 << iota
	flagReceiver
)

// Special values of state.mid.
const (
	// midReceiver marks a state at a receiving NIC.
	midReceiver = -1
	// midStopped marks a state where the packet goes no further: a RoCE v1
	// frame at a routed port (it has no IP header to route), or a packet
	// for a NIC that does not speak RoCE (iWARP).
	midStopped = -2
)

type mid struct {
	dev  *schema.Device
	up   bool
	prio int
	dscp int
	v6   bool
	l2   bool         // RoCE v1: an Ethernet frame without an IP header
	src  *schema.Port // the NIC port for a source mid
	base int32        // topology index of the device's first port
	next int32        // next mid of the same device, or -1
	fwd  int64
	bwd  int64
	// feeders are the states that arrive at an up mid: a packet never
	// U-turns back to the device it came from.
	feeders []int32
	feed    [2]int32 // representative feeding states from two different devices
	edges   []int32
}

type edge struct {
	mid  int32
	to   int32
	oi   int32 // egress port index
	flow int64
}

type flowGraph struct {
	t      *topology
	flow   Flow
	class  *schema.TrafficClass
	states []state
	mids   []mid
	edges  []edge
	// The hop semantics, computed once: distinct Ingress and Egress results
	// in tables, indexed per state and per edge (most ports behave alike).
	ingTab []Ingress
	ingIdx []uint32
	egTab  []Egress
	egIdx  []uint32
	// flags holds per-state bits computed once: flagRouted, flagReceiver.
	flags []uint8
	// req marks states on a path from (bit 1) or to (bit 2) a NIC in a
	// subnet with require_roce_acl; nil when no subnet requires it.
	req []uint8
	// self counts, per state and edge, the paths from a NIC to itself,
	// which are no NIC-to-NIC paths (nil: there are none).
	self *selfCounts
}

// topology indexes the fabric's ports once per walk: ports in device order,
// each port's peer and its device's tier, so the walk's hot path needs no maps.
// ingKey identifies everything ingress() reads: the shared PortQoS, the
// bound ACL list and the packet.
type ingKey struct {
	q    *schema.PortQoS
	acl  **schema.ACL
	nacl int32
	dscp int8
	pcp  int8
	tag  bool
	v6   bool
	l2   bool
}

// egKey identifies everything egress() reads.
type egKey struct {
	q      *schema.PortQoS
	acl    **schema.ACL
	nacl   int32
	prio   int8
	dscp   int8
	v6     bool
	tagged bool
	l2     bool
}

// aclID identifies a bound ACL list by its backing array (nil when empty).
func aclID(s []*schema.ACL) **schema.ACL {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

type topology struct {
	ports []*schema.Port
	// Per port, what the hop semantics read (copied once so the flows read
	// arrays instead of chasing port pointers).
	qos     []*schema.PortQoS
	aclIn   []**schema.ACL
	aclOut  []**schema.ACL
	nIn     []int32
	nOut    []int32
	routed  []bool
	stop    []bool  // a NIC port that receives no RoCE (iWARP)
	peer    []int32 // -1 when unlinked
	tier    []int8  // tier of the port's device
	base    []int32 // index of the first port of the port's device
	devBase map[*schema.Device]int32
}

func newTopology(f *schema.Fabric) *topology {
	n := 0
	for _, d := range f.Devices {
		n += len(d.Ports)
	}
	t := &topology{ports: make([]*schema.Port, 0, n), peer: make([]int32, n), tier: make([]int8, n), base: make([]int32, n),
		qos: make([]*schema.PortQoS, n), aclIn: make([]**schema.ACL, n), aclOut: make([]**schema.ACL, n),
		nIn: make([]int32, n), nOut: make([]int32, n), routed: make([]bool, n), stop: make([]bool, n),
		devBase: make(map[*schema.Device]int32, len(f.Devices))}
	idx := make(map[*schema.Port]int32, n)
	for _, d := range f.Devices {
		t.devBase[d] = int32(len(t.ports))
		tr := int8(tierOf(d))
		for _, p := range d.Ports {
			idx[p] = int32(len(t.ports))
			t.tier[len(t.ports)] = tr
			i := len(t.ports)
			t.base[i] = t.devBase[d]
			t.qos[i], t.aclIn[i], t.aclOut[i] = p.QoS, aclID(p.ACLIn), aclID(p.ACLOut)
			t.nIn[i], t.nOut[i], t.routed[i] = int32(len(p.ACLIn)), int32(len(p.ACLOut)), p.IsRouted()
			t.stop[i] = d.Kind.V == schema.KindNIC && d.TransportOf() == schema.TransportIWARP
			t.ports = append(t.ports, p)
		}
	}
	for i, p := range t.ports {
		t.peer[i] = -1
		if p.Peer != nil {
			if j, ok := idx[p.Peer]; ok {
				t.peer[i] = j
			}
		}
	}
	return t
}

func tierOf(d *schema.Device) int { return d.Kind.V.Tier() }

// NewWalk builds the walk for f. It honours ctx between levels.
func NewWalk(ctx context.Context, f *schema.Fabric) (*Walk, error) {
	w := &Walk{}
	t := newTopology(f)
	// The flows are independent: build them concurrently.
	eg, ctx := errgroup.WithContext(ctx)
	for fl := Flow(0); fl < numFlows; fl++ {
		eg.Go(func() error {
			g, err := buildFlow(ctx, f, fl, t)
			if err != nil {
				return fmt.Errorf("walking %s: %w", fl, err)
			}
			w.flows[fl] = g
			return nil
		})
	}
	if err := eg.Wait(); err != nil {
		return nil, err
	}
	return w, nil
}

// Class returns the traffic class the flow carries (nil when the intent has none).
func (w *Walk) Class(fl Flow) *schema.TrafficClass { return w.flows[fl].class }

const maxTier = 3

// levels: up arrivals at tiers 1..3, then down arrivals at tiers 2..0.
func levelOf(up bool, tier int) int {
	if up {
		return tier - 1
	}
	return maxTier + (maxTier - 1 - tier)
}

const numLevels = 2 * maxTier

func flowClass(f *schema.Fabric, fl Flow) *schema.TrafficClass {
	if fl == FlowCNP {
		return f.ClassByRole(schema.RoleCNP)
	}
	return f.ClassByRole(schema.RoleRoCE)
}

// sourcePacket is what NIC port p puts on the wire for the flow, and the
// NIC's priority for it; ok is false when the NIC does not send the flow.
func sourcePacket(p *schema.Port, class *schema.TrafficClass, fl Flow) (dscp, prio int, l2, ok bool) {
	r := p.Device.RDMA
	switch p.Device.TransportOf() {
	case schema.TransportIWARP:
		return 0, 0, false, false // TCP: no RoCE data, no CNP
	case schema.TransportRoCEv1:
		// An Ethernet frame without an IP header: the NIC's priority
		// travels in the VLAN tag's PCP and is all a switch can classify by.
		switch {
		case fl == FlowCNP && r != nil && r.CNPPriority.Set:
			prio = r.CNPPriority.V
		case class != nil:
			prio = class.Priority.V
		}
		return 0, prio & 7, true, true
	}
	switch {
	case fl == FlowRoCE && r != nil && r.ToS.Set:
		dscp = r.DSCP()
	case fl == FlowCNP && r != nil && r.CNPDSCP.Set:
		dscp = r.CNPDSCP.V
	case class != nil && len(class.DSCP) > 0:
		dscp = class.DSCP[0]
	default:
		return 0, 0, false, false
	}
	q := qosOf(p)
	switch {
	case fl == FlowCNP && r != nil && r.CNPPriority.Set:
		prio = r.CNPPriority.V
	case q.Trust.V == schema.TrustDSCP || q.Trust.V == schema.TrustBoth:
		prio = q.DSCP[dscp&63].V
	case class != nil:
		prio = class.Priority.V
	}
	return dscp & 63, prio & 7, false, true
}

// flowBuilder holds the state of buildFlow: the graph under construction,
// the memo tables of ingress and egress classification, and the per-level
// work lists.
type flowBuilder struct {
	g *flowGraph
	t *topology
	// ingMemo and egMemo share classification results between ports with
	// the same key; lastIK/lastIX and lastEK/lastEX short-cut runs of one key.
	ingMemo map[ingKey]uint32
	lastIK  ingKey
	lastIX  uint32
	egMemo  map[egKey]uint32
	lastEK  egKey
	lastEX  uint32
	// slot[pi] heads the list of states at port pi.
	slot []int32
	// buckets[lv] lists the states arriving at level lv; midsAt[lv] the
	// mids created while processing it.
	buckets [numLevels][]int32
	midsAt  [numLevels][]int32
	// devMids is indexed by a device's first port index: its first mid.
	devMids []int32
	sc      *scratch
}

// noIndex marks an unset memo index.
const noIndex = uint32(1<<32 - 1)

func buildFlow(ctx context.Context, f *schema.Fabric, fl Flow, t *topology) (*flowGraph, error) {
	nports := len(t.ports)
	b := &flowBuilder{
		g:       &flowGraph{t: t, flow: fl, class: flowClass(f, fl)},
		t:       t,
		ingMemo: map[ingKey]uint32{}, lastIX: noIndex,
		egMemo: map[egKey]uint32{}, lastEX: noIndex,
		slot:    make([]int32, nports),
		devMids: make([]int32, nports),
		sc:      newScratch(nports),
	}
	g := b.g
	// Every port holds about one state, and a fabric has about as many
	// edges again as ports: the slices are sized for that up front, not
	// copied over and over while they grow.
	g.states = make([]state, 0, nports)
	g.ingIdx = make([]uint32, 0, nports)
	g.edges = make([]edge, 0, nports+nports/4)
	g.egIdx = make([]uint32, 0, nports+nports/4)
	for i := range b.slot {
		b.slot[i] = -1
		b.devMids[i] = -1
	}
	b.addSources(f, fl)
	for lv := 0; lv < numLevels; lv++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		up := lv < maxTier
		b.midsAt[lv] = b.arrive(lv, up)
		for _, mi := range b.midsAt[lv] {
			b.expand(mi)
		}
	}
	b.backward()
	computeSelf(g)
	markRequired(f, g, &b.buckets, &b.midsAt)
	g.flags = make([]uint8, len(g.states))
	for i := range g.states {
		st := &g.states[i]
		if st.mid == midReceiver {
			g.flags[i] |= flagReceiver
		}
		if t.routed[st.pi] && t.tier[st.pi] > 0 {
			g.flags[i] |= flagRouted
		}
	}
	return g, nil
}

// getState returns the state of pkt at port pi, adding it (at the level of
// an up or down arrival at the port's tier) when it is new.
func (b *flowBuilder) getState(pi int32, pkt Packet, up bool) int32 {
	g := b.g
	for i := b.slot[pi]; i >= 0; i = g.states[i].next {
		if g.states[i].pkt == pkt {
			return i
		}
	}
	i := int32(len(g.states))
	g.states = append(g.states, state{pkt: pkt, pi: pi, next: b.slot[pi], mid: -1, parent: -1})
	g.ingIdx = append(g.ingIdx, 0)
	b.slot[pi] = i
	lv := levelOf(up, int(b.t.tier[pi]))
	b.buckets[lv] = append(b.buckets[lv], i)
	return i
}

// addEdge sends mid mi's packet out of port oi with flow paths, classifying
// it at egress and adding the state it arrives as at the peer port.
func (b *flowBuilder) addEdge(mi int32, oi int32, flow int64, devTier int8) {
	g, t := b.g, b.t
	m := &g.mids[mi]
	out := t.ports[oi]
	ek := egKey{q: t.qos[oi], acl: t.aclOut[oi], nacl: t.nOut[oi], prio: int8(m.prio), dscp: int8(m.dscp), v6: m.v6,
		tagged: !t.routed[oi] && !t.routed[t.peer[oi]], l2: m.l2}
	ex := b.lastEX
	if ek != b.lastEK || ex == noIndex {
		var ok bool
		if ex, ok = b.egMemo[ek]; !ok {
			ex = uint32(len(g.egTab))
			g.egTab = append(g.egTab, egress(out, m.prio, m.dscp, m.v6, m.l2))
			b.egMemo[ek] = ex
		}
		b.lastEK, b.lastEX = ek, ex
	}
	eg := &g.egTab[ex]
	leave := Packet{DSCP: eg.DSCP, Tagged: eg.Tagged || m.l2, PCP: m.prio, IPv6: m.v6, L2: m.l2}
	if !leave.Tagged {
		leave.PCP = 0
	}
	pi := t.peer[oi]
	to := b.getState(pi, leave, t.tier[pi] > devTier)
	ei := int32(len(g.edges))
	g.edges = append(g.edges, edge{mid: mi, oi: oi, to: to, flow: flow})
	g.egIdx = append(g.egIdx, ex)
	m = &g.mids[mi]
	m.edges = append(m.edges, ei)
	st := &g.states[to]
	st.fwd = satAdd(st.fwd, flow)
	if st.parent < 0 && flow > 0 {
		st.parent = ei
	}
}

// addSources adds the sources: every linked NIC port sends the flow.
func (b *flowBuilder) addSources(f *schema.Fabric, fl Flow) {
	g, t := b.g, b.t
	// A source mid has one edge: the sources' edge lists share one
	// array, and the mids are sized for the sources and a few mids per
	// switch.
	nsrc, nsw := 0, 0
	for _, d := range f.Devices {
		if d.Kind.V == schema.KindNIC {
			nsrc += len(d.Ports)
		} else {
			nsw++
		}
	}
	g.mids = make([]mid, 0, nsrc+4*nsw)
	srcEdges := make([]int32, nsrc)
	for _, d := range f.Devices {
		if d.Kind.V != schema.KindNIC {
			continue
		}
		base := t.devBase[d]
		for j, p := range d.Ports {
			oi := base + int32(j)
			if t.peer[oi] < 0 || t.tier[t.peer[oi]] <= 0 {
				continue
			}
			dscp, prio, l2, ok := sourcePacket(p, g.class, fl)
			if !ok {
				continue
			}
			mi := int32(len(g.mids))
			g.mids = append(g.mids, mid{dev: d, up: true, prio: prio, dscp: dscp, v6: p.IP.Set && p.IP.V.Addr().Is6(), l2: l2, src: p, base: base, next: -1, fwd: 1, feed: [2]int32{-1, -1},
				edges: srcEdges[:0:1]})
			srcEdges = srcEdges[1:]
			b.addEdge(mi, oi, 1, 0)
		}
	}
}

// ingressIndex classifies state si at its port's ingress (memoised).
func (b *flowBuilder) ingressIndex(si int32) uint32 {
	g, t := b.g, b.t
	st := &g.states[si]
	ik := ingKey{q: t.qos[st.pi], acl: t.aclIn[st.pi], nacl: t.nIn[st.pi],
		dscp: int8(st.pkt.DSCP), pcp: int8(st.pkt.PCP), tag: st.pkt.Tagged, v6: st.pkt.IPv6, l2: st.pkt.L2}
	ix := b.lastIX
	if ik != b.lastIK || ix == noIndex {
		var ok bool
		if ix, ok = b.ingMemo[ik]; !ok {
			ix = uint32(len(g.ingTab))
			g.ingTab = append(g.ingTab, ingress(t.ports[st.pi], st.pkt))
			b.ingMemo[ik] = ix
		}
		b.lastIK, b.lastIX = ik, ix
	}
	return ix
}

// arrive processes the states of level lv: each is classified at ingress
// and joins the mid (device, direction, priority, DSCP, family) it becomes
// inside the switch. It returns the mids created.
func (b *flowBuilder) arrive(lv int, up bool) []int32 {
	g, t := b.g, b.t
	var newMids []int32
	for _, si := range b.buckets[lv] {
		ix := b.ingressIndex(si)
		g.ingIdx[si] = ix
		ing := &g.ingTab[ix]
		st := &g.states[si]
		if t.stop[st.pi] || (st.pkt.L2 && t.routed[st.pi] && t.tier[st.pi] > 0) {
			st.mid = midStopped // no RoCE receiver here, or a frame a switch cannot route (a NIC's own address is no hop)
			continue
		}
		if t.tier[st.pi] == 0 {
			continue // a receiving NIC
		}
		d := t.ports[st.pi].Device
		base := t.base[st.pi]
		mi := int32(-1)
		first := b.devMids[base]
		for i := first; i >= 0; i = g.mids[i].next {
			m := &g.mids[i]
			if m.up == up && m.prio == ing.Priority && m.dscp == ing.DSCP && m.v6 == st.pkt.IPv6 && m.l2 == st.pkt.L2 {
				mi = i
				break
			}
		}
		if mi < 0 {
			mi = int32(len(g.mids))
			g.mids = append(g.mids, mid{dev: d, up: up, prio: ing.Priority, dscp: ing.DSCP, v6: st.pkt.IPv6, l2: st.pkt.L2,
				base: base, next: first, feed: [2]int32{-1, -1}})
			b.devMids[base] = mi
			newMids = append(newMids, mi)
		}
		st.mid = mi
		m := &g.mids[mi]
		m.fwd = satAdd(m.fwd, st.fwd)
		from := t.ports[st.pi].Peer.Device
		if up {
			m.feeders = append(m.feeders, si)
		}
		if st.fwd > 0 {
			switch {
			case m.feed[0] < 0:
				m.feed[0] = si
			case m.feed[1] < 0 && t.ports[g.states[m.feed[0]].pi].Peer.Device != from:
				m.feed[1] = si
			}
		}
	}
	return newMids
}

// expand sends mid mi out of every port that leads on: down, or up while
// going up, never to the same tier or to a NIC that speaks no RoCE. Going
// up, paths that came in from a neighbour are not sent back down to it.
func (b *flowBuilder) expand(mi int32) {
	g, t, sc := b.g, b.t, b.sc
	m := &g.mids[mi]
	dt := t.tier[m.base]
	n := int32(len(m.dev.Ports))
	mup, mfwd := m.up, m.fwd
	if mup {
		sc.next()
		for _, si := range m.feeders {
			sc.add(t.base[t.peer[g.states[si].pi]], g.states[si].fwd)
		}
	}
	for oi := m.base; oi < m.base+n; oi++ {
		pi := t.peer[oi]
		if pi < 0 {
			continue
		}
		pt := t.tier[pi]
		if pt == dt || (pt > dt && !mup) || t.stop[pi] {
			continue // same tier, back up, or a NIC that speaks no RoCE
		}
		flow := mfwd
		if mup && pt < dt {
			flow -= sc.get(t.base[pi])
		}
		if flow <= 0 {
			continue
		}
		b.addEdge(mi, oi, flow, dt)
	}
}

// backward computes the backward counts, in reverse level order, then
// those of the source mids.
func (b *flowBuilder) backward() {
	g, t, sc := b.g, b.t, b.sc
	for lv := numLevels - 1; lv >= 0; lv-- {
		for _, mi := range b.midsAt[lv] {
			computeMidBwd(g, t, sc, mi)
		}
		for _, si := range b.buckets[lv] {
			st := &g.states[si]
			switch {
			case st.mid == midReceiver:
				st.bwd = 1
			case st.mid == midStopped:
				st.bwd = 0
			case !g.mids[st.mid].up:
				st.bwd = g.mids[st.mid].bwd
			}
		}
	}
	for i := range g.mids {
		if g.mids[i].src != nil {
			computeMidBwd(g, t, sc, int32(i))
		}
	}
}

// requiringSubnets lists the subnets with require_roce_acl.
func requiringSubnets(f *schema.Fabric) []*schema.Subnet {
	var out []*schema.Subnet
	for _, s := range f.Subnets {
		if s.RequireRoCEACL.V && s.Prefix.Set {
			out = append(out, s)
		}
	}
	return out
}

func inSubnets(p *schema.Port, subs []*schema.Subnet) bool {
	if !p.IP.Set {
		return false
	}
	for _, s := range subs {
		if s.Prefix.V.Contains(p.IP.V.Addr()) {
			return true
		}
	}
	return false
}

// markRequired propagates "from a requiring subnet" forwards and "to a
// requiring subnet" backwards over the state graph (reachability, one pass each).
func markRequired(f *schema.Fabric, g *flowGraph, buckets, midsAt *[numLevels][]int32) {
	subs := requiringSubnets(f)
	if len(subs) == 0 {
		return
	}
	g.req = make([]uint8, len(g.states))
	midReq := make([]uint8, len(g.mids))
	for i := range g.mids {
		if m := &g.mids[i]; m.src != nil && inSubnets(m.src, subs) {
			for _, ei := range m.edges {
				g.req[g.edges[ei].to] |= 1
			}
		}
	}
	for lv := 0; lv < numLevels; lv++ {
		for _, si := range buckets[lv] {
			if st := &g.states[si]; st.mid >= 0 && g.req[si]&1 != 0 {
				midReq[st.mid] |= 1
			}
		}
		for _, mi := range midsAt[lv] {
			if midReq[mi]&1 != 0 {
				for _, ei := range g.mids[mi].edges {
					g.req[g.edges[ei].to] |= 1
				}
			}
		}
	}
	for lv := numLevels - 1; lv >= 0; lv-- {
		for _, mi := range midsAt[lv] {
			for _, ei := range g.mids[mi].edges {
				if g.req[g.edges[ei].to]&2 != 0 {
					midReq[mi] |= 2
					break
				}
			}
		}
		for _, si := range buckets[lv] {
			st := &g.states[si]
			switch {
			case st.mid == midReceiver && inSubnets(g.t.ports[st.pi], subs):
				g.req[si] |= 2
			case st.mid >= 0 && midReq[st.mid]&2 != 0:
				g.req[si] |= 2
			}
		}
	}
}

// computeMidBwd sums the completions over the mid's edges and, for an up
// mid, gives each feeding state the completions that do not U-turn to its
// own peer device.
func computeMidBwd(g *flowGraph, t *topology, sc *scratch, mi int32) {
	m := &g.mids[mi]
	var sum int64
	if len(m.feeders) > 0 {
		sc.next()
	}
	for _, ei := range m.edges {
		e := &g.edges[ei]
		b := g.states[e.to].bwd
		sum = satAdd(sum, b)
		if len(m.feeders) > 0 {
			sc.add(t.base[t.peer[e.oi]], b)
		}
	}
	m.bwd = sum
	for _, si := range m.feeders {
		st := &g.states[si]
		st.bwd = sum - sc.get(t.base[t.peer[st.pi]])
	}
}

// scratch is a per-device accumulator reset in O(1) by a generation stamp,
// indexed by the device's first port index.
type scratch struct {
	val []int64
	gen []int32
	cur int32
}

func newScratch(n int) *scratch { return &scratch{val: make([]int64, n), gen: make([]int32, n)} }

func (s *scratch) next() { s.cur++ }

func (s *scratch) add(k int32, v int64) {
	if s.gen[k] != s.cur {
		s.gen[k], s.val[k] = s.cur, 0
	}
	s.val[k] = satAdd(s.val[k], v)
}

func (s *scratch) get(k int32) int64 {
	if s.gen[k] != s.cur {
		return 0
	}
	return s.val[k]
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}
