package lint

import (
	"slices"
	"strconv"
	"strings"
)

// A NIC's path to itself is no NIC-to-NIC path: a dual-homed NIC (or any
// NIC of a three-tier fabric) reaches its own ports again, up one home and
// down another. The walk's counts are products of forward and backward sums
// over all sources and receivers, so they include those paths; selfPaths
// computes, per state and per edge, the number of paths that start and end
// at the same NIC, and At.Paths and Out.Paths subtract it.
//
// The count is exact and cheap. NICs whose packets join the same mids at
// the same home devices, with the same number of ports on each, have the
// same self paths: one computation per such group, scaled by its size.
// Per group: the down cone (mids and states from which the NIC's homes are
// reached going down) is found backwards from the homes, the up cone (where
// the NIC's packets climb) forwards from its first mids, and the two meet at
// peak edges (an up mid sending down). Only cone states are touched, never
// a whole tier, so a fabric of 65,536 NICs costs a few states per NIC.

// selfCounts holds the self-path counts of one flow graph (nil maps: none).
type selfCounts struct {
	state map[int32]int64
	edge  map[int32]int64
}

// selfGroup is a set of NICs with the same self paths.
type selfGroup struct {
	// first lists, with multiplicity, the mids the NICs' first states join.
	first []int32
	// homes maps a home device (by first port index) to how many of a
	// member's ports are cabled to it.
	homes map[int32]int
	// members are the NICs' source mids, per member.
	members [][]int32
}

// selfIndex is the reverse adjacency the computation needs.
type selfIndex struct {
	inEdges    [][]int32 // per state, the edges into it
	midStates  [][]int32 // per mid, the states that join it
	devMids    map[int32][]int32
	recvStates map[int32][]int32 // per NIC port index, its receiving states
}

func newSelfIndex(g *flowGraph) *selfIndex {
	ix := &selfIndex{inEdges: make([][]int32, len(g.states)), midStates: make([][]int32, len(g.mids)),
		devMids: map[int32][]int32{}, recvStates: map[int32][]int32{}}
	for i := range g.edges {
		to := g.edges[i].to
		ix.inEdges[to] = append(ix.inEdges[to], int32(i))
	}
	for i := range g.states {
		st := &g.states[i]
		switch {
		case st.mid >= 0:
			ix.midStates[st.mid] = append(ix.midStates[st.mid], int32(i))
		case st.mid == midReceiver && g.t.tier[st.pi] == 0:
			ix.recvStates[st.pi] = append(ix.recvStates[st.pi], int32(i))
		}
	}
	for i := range g.mids {
		if g.mids[i].src == nil {
			ix.devMids[g.mids[i].base] = append(ix.devMids[g.mids[i].base], int32(i))
		}
	}
	return ix
}

// computeSelf fills g.self. It is a no-op when no NIC can reach itself: no
// NIC is homed on two devices and the fabric has no third tier.
func computeSelf(g *flowGraph) {
	t := g.t
	threeTier := false
	for _, tr := range t.tier {
		threeTier = threeTier || tr >= 3
	}
	if !threeTier && !anyMultiHomed(t) {
		return // the common two-tier fabric of single-homed NICs: no NIC reaches itself
	}
	// Source mids by NIC (their base port index), in order.
	byNIC := map[int32][]int32{}
	var order []int32
	for i := range g.mids {
		m := &g.mids[i]
		if m.src == nil || len(m.edges) != 1 {
			continue
		}
		if _, ok := byNIC[m.base]; !ok {
			order = append(order, m.base)
		}
		byNIC[m.base] = append(byNIC[m.base], int32(i))
	}
	groups := map[string]*selfGroup{}
	var keys []string
	for _, nb := range order {
		srcs := byNIC[nb]
		var first []int32
		for _, mi := range srcs {
			if to := g.states[g.edges[g.mids[mi].edges[0]].to].mid; to >= 0 {
				first = append(first, to)
			}
		}
		homes := map[int32]int{}
		dev := t.ports[nb].Device
		for j := range dev.Ports {
			pi := nb + int32(j)
			if p := t.peer[pi]; p >= 0 && t.tier[p] > 0 && !t.stop[pi] {
				homes[t.base[p]]++
			}
		}
		if len(first) == 0 || (len(homes) < 2 && !threeTier) {
			continue
		}
		slices.Sort(first)
		k := groupKey(first, homes)
		grp, ok := groups[k]
		if !ok {
			grp = &selfGroup{first: first, homes: homes}
			groups[k] = grp
			keys = append(keys, k)
		}
		grp.members = append(grp.members, srcs)
	}
	if len(groups) == 0 {
		return
	}
	ix := newSelfIndex(g)
	sc := &selfCounts{state: map[int32]int64{}, edge: map[int32]int64{}}
	for _, k := range keys {
		selfOfGroup(g, ix, groups[k], sc)
	}
	g.self = sc
}

// anyMultiHomed reports whether some NIC is cabled to two switches: one
// pass over the ports (a device's ports are contiguous), no allocation.
func anyMultiHomed(t *topology) bool {
	dev, home := int32(-1), int32(-1)
	for pi := range t.ports {
		if t.tier[pi] != 0 {
			continue
		}
		p := t.peer[pi]
		if p < 0 || t.tier[p] == 0 {
			continue
		}
		if b := t.base[pi]; b != dev {
			dev, home = b, t.base[p]
			continue
		}
		if t.base[p] != home {
			return true
		}
	}
	return false
}

func groupKey(first []int32, homes map[int32]int) string {
	var b strings.Builder
	for _, m := range first {
		b.WriteString(strconv.Itoa(int(m)))
		b.WriteByte(',')
	}
	hs := make([]int32, 0, len(homes))
	for h := range homes {
		hs = append(hs, h)
	}
	slices.Sort(hs)
	for _, h := range hs {
		b.WriteByte(';')
		b.WriteString(strconv.Itoa(int(h)))
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(homes[h]))
	}
	return b.String()
}

// selfRun is one group's computation: counts per member (one NIC).
type selfRun struct {
	g   *flowGraph
	t   *topology
	ix  *selfIndex
	grp *selfGroup
	// bwdS and bwdM count the paths from a state or mid down to the
	// member's own ports; fwdS and fwdM the member's paths reaching one,
	// flowE those over an edge.
	bwdS, bwdM, fwdS, fwdM, flowE map[int32]int64
	// peaks lists, per up mid, its edges into the down cone.
	peaks map[int32][]int32
	// feeders lists, per up mid of the up cone, the cone states that feed
	// it, with the device each came from (the U-turn rule).
	feeders map[int32][]selfFeeder
	// upAt and downFrom list the cone's up mids and down mids by tier.
	upAt, downFrom [maxTier + 1][]int32
	// upB is, per first mid, what one of the member's own first states reaches.
	upB map[int32]int64
}

type selfFeeder struct{ si, dev int32 }

// selfOfGroup adds one group's self paths to sc.
func selfOfGroup(g *flowGraph, ix *selfIndex, grp *selfGroup, sc *selfCounts) {
	r := &selfRun{g: g, t: g.t, ix: ix, grp: grp, bwdS: map[int32]int64{}, bwdM: map[int32]int64{},
		fwdS: map[int32]int64{}, fwdM: map[int32]int64{}, flowE: map[int32]int64{},
		peaks: map[int32][]int32{}, feeders: map[int32][]selfFeeder{}, upB: map[int32]int64{}}
	if !r.downCone() {
		return
	}
	r.upCone()
	r.downFlow()
	r.upBackward()
	r.add(sc)
}

func (r *selfRun) tierOfMid(mi int32) int8 { return r.t.tier[r.g.mids[mi].base] }

// downCone walks backwards from the homes' down mids, tier by tier upwards;
// it reports whether the cone reaches any peak.
func (r *selfRun) downCone() bool {
	g, t := r.g, r.t
	var downAt [maxTier + 1][]int32
	for h, c := range r.grp.homes {
		for _, mi := range r.ix.devMids[h] {
			if !g.mids[mi].up {
				r.bwdM[mi] = int64(c)
				downAt[t.tier[h]] = append(downAt[t.tier[h]], mi)
			}
		}
	}
	for tr := 1; tr <= maxTier; tr++ {
		slices.Sort(downAt[tr])
		for _, mi := range slices.Compact(downAt[tr]) {
			b := r.bwdM[mi]
			for _, si := range r.ix.midStates[mi] {
				r.bwdS[si] = satAdd(r.bwdS[si], b)
				for _, ei := range r.ix.inEdges[si] {
					from := g.edges[ei].mid
					switch {
					case g.mids[from].src != nil:
					case g.mids[from].up:
						r.peaks[from] = append(r.peaks[from], ei)
					default:
						if _, ok := r.bwdM[from]; !ok {
							downAt[r.tierOfMid(from)] = append(downAt[r.tierOfMid(from)], from)
						}
						r.bwdM[from] = satAdd(r.bwdM[from], b)
					}
				}
			}
		}
	}
	return len(r.peaks) > 0
}

// upCone walks forwards from the first mids, tier by tier upwards, and
// sends the member's paths over the peak edges (less the U-turns).
func (r *selfRun) upCone() {
	g, t := r.g, r.t
	for _, mi := range r.grp.first {
		if r.fwdM[mi] == 0 {
			r.upAt[r.tierOfMid(mi)] = append(r.upAt[r.tierOfMid(mi)], mi)
		}
		r.fwdM[mi]++
	}
	for tr := 1; tr <= maxTier; tr++ {
		for _, mi := range r.upAt[tr] {
			f := r.fwdM[mi]
			for _, ei := range g.mids[mi].edges {
				e := &g.edges[ei]
				if t.tier[t.peer[e.oi]] <= int8(tr) {
					continue
				}
				r.flowE[ei] = satAdd(r.flowE[ei], f)
				r.fwdS[e.to] = satAdd(r.fwdS[e.to], f)
				to := g.states[e.to].mid
				if to < 0 || !g.mids[to].up {
					continue
				}
				if r.fwdM[to] == 0 {
					r.upAt[r.tierOfMid(to)] = append(r.upAt[r.tierOfMid(to)], to)
				}
				r.fwdM[to] = satAdd(r.fwdM[to], f)
				r.feeders[to] = append(r.feeders[to], selfFeeder{e.to, t.base[e.oi]})
			}
			for _, ei := range r.peaks[mi] {
				e := &g.edges[ei]
				out := t.base[t.peer[e.oi]]
				fl := f
				for _, fd := range r.feeders[mi] {
					if fd.dev == out {
						fl -= r.fwdS[fd.si]
					}
				}
				if fl > 0 {
					r.sendDown(ei, fl)
				}
			}
		}
	}
}

// sendDown adds fl paths over edge ei into a down-cone state and its mid.
func (r *selfRun) sendDown(ei int32, fl int64) {
	g := r.g
	e := &g.edges[ei]
	r.flowE[ei] = satAdd(r.flowE[ei], fl)
	r.fwdS[e.to] = satAdd(r.fwdS[e.to], fl)
	if to := g.states[e.to].mid; to >= 0 {
		if r.fwdM[to] == 0 {
			r.downFrom[r.tierOfMid(to)] = append(r.downFrom[r.tierOfMid(to)], to)
		}
		r.fwdM[to] = satAdd(r.fwdM[to], fl)
	}
}

// downFlow sends the member's paths down the cone from the highest tier: a
// down mid sends all it has into every cone state below it.
func (r *selfRun) downFlow() {
	for tr := maxTier; tr >= 2; tr-- {
		for _, mi := range r.downFrom[tr] {
			f := r.fwdM[mi]
			for _, ei := range r.g.mids[mi].edges {
				if r.bwdS[r.g.edges[ei].to] > 0 {
					r.sendDown(ei, f)
				}
			}
		}
	}
}

// upBackward counts back up the cone: an up state's paths down to the
// member are its mid's, less those that would U-turn to the device it
// came from.
func (r *selfRun) upBackward() {
	g, t := r.g, r.t
	for tr := maxTier; tr >= 1; tr-- {
		for _, mi := range r.upAt[tr] {
			var up, peak int64
			for _, ei := range g.mids[mi].edges {
				e := &g.edges[ei]
				if t.tier[t.peer[e.oi]] > int8(tr) {
					up = satAdd(up, r.bwdS[e.to])
				}
			}
			byDev := map[int32]int64{}
			for _, ei := range r.peaks[mi] {
				e := &g.edges[ei]
				b := r.bwdS[e.to]
				peak = satAdd(peak, b)
				byDev[t.base[t.peer[e.oi]]] += b
			}
			r.upB[mi] = up
			for _, fd := range r.feeders[mi] {
				if v := up + peak - byDev[fd.dev]; v > 0 {
					r.bwdS[fd.si] = satAdd(r.bwdS[fd.si], v)
				}
			}
		}
	}
}

// add adds the group's self paths to sc: the shared states and edges times
// the group's size, then each member's own first edges and states and the
// edges into its own ports.
func (r *selfRun) add(sc *selfCounts) {
	g, t := r.g, r.t
	n := int64(len(r.grp.members))
	for si, f := range r.fwdS {
		if b := r.bwdS[si]; b > 0 && f > 0 {
			sc.state[si] = satAdd(sc.state[si], satMul(n, satMul(f, b)))
		}
	}
	for ei, f := range r.flowE {
		if b := r.bwdS[g.edges[ei].to]; b > 0 && f > 0 {
			sc.edge[ei] = satAdd(sc.edge[ei], satMul(n, satMul(f, b)))
		}
	}
	for _, srcs := range r.grp.members {
		for _, smi := range srcs {
			ei := g.mids[smi].edges[0]
			s0 := g.edges[ei].to
			if mi := g.states[s0].mid; mi >= 0 {
				if b := r.upB[mi]; b > 0 {
					sc.edge[ei] = satAdd(sc.edge[ei], b)
					sc.state[s0] = satAdd(sc.state[s0], b)
				}
			}
		}
		nb := g.mids[srcs[0]].base
		for j := range t.ports[nb].Device.Ports {
			for _, si := range r.ix.recvStates[nb+int32(j)] {
				for _, ei := range r.ix.inEdges[si] {
					from := g.edges[ei].mid
					if g.mids[from].up {
						continue
					}
					if f := r.fwdM[from]; f > 0 {
						sc.edge[ei] = satAdd(sc.edge[ei], f)
						sc.state[si] = satAdd(sc.state[si], f)
					}
				}
			}
		}
	}
}
