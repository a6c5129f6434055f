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

// selfOfGroup adds one group's self paths to sc. All counts are per member
// (one NIC) and scaled by the group's size where states are shared.
func selfOfGroup(g *flowGraph, ix *selfIndex, grp *selfGroup, sc *selfCounts) {
	t := g.t
	n := int64(len(grp.members))
	tierOfMid := func(mi int32) int8 { return t.tier[g.mids[mi].base] }

	// (a) The down cone, backwards from the homes' down mids: bwd counts
	// the paths from a state or mid down to the member's own ports.
	bwdS := map[int32]int64{}
	bwdM := map[int32]int64{}
	peaks := map[int32][]int32{} // up mid → its edges into the down cone
	downAt := [maxTier + 1][]int32{}
	for h, c := range grp.homes {
		for _, mi := range ix.devMids[h] {
			if !g.mids[mi].up {
				bwdM[mi] = int64(c)
				downAt[t.tier[h]] = append(downAt[t.tier[h]], mi)
			}
		}
	}
	for tr := 1; tr <= maxTier; tr++ {
		slices.Sort(downAt[tr])
		for _, mi := range slices.Compact(downAt[tr]) {
			b := bwdM[mi]
			for _, si := range ix.midStates[mi] {
				bwdS[si] = satAdd(bwdS[si], b)
				for _, ei := range ix.inEdges[si] {
					from := g.edges[ei].mid
					if g.mids[from].src != nil {
						continue
					}
					if g.mids[from].up {
						peaks[from] = append(peaks[from], ei)
						continue
					}
					if _, ok := bwdM[from]; !ok && int(tierOfMid(from)) <= maxTier {
						downAt[tierOfMid(from)] = append(downAt[tierOfMid(from)], from)
					}
					bwdM[from] = satAdd(bwdM[from], b)
				}
			}
		}
	}
	if len(peaks) == 0 {
		return
	}

	// (b) The up cone, forwards from the first mids: fwd counts the
	// member's paths reaching a state, mid or edge. Cone feeders of an up
	// mid are kept with their device, for the U-turn rule.
	fwdS := map[int32]int64{}
	fwdM := map[int32]int64{}
	flowE := map[int32]int64{}
	type feeder struct{ si, dev int32 }
	feeders := map[int32][]feeder{}
	upAt := [maxTier + 1][]int32{}
	for _, mi := range grp.first {
		if fwdM[mi] == 0 {
			upAt[tierOfMid(mi)] = append(upAt[tierOfMid(mi)], mi)
		}
		fwdM[mi]++
	}
	downFrom := [maxTier + 1][]int32{}
	for tr := 1; tr <= maxTier; tr++ {
		for _, mi := range upAt[tr] {
			m := &g.mids[mi]
			f := fwdM[mi]
			for _, ei := range m.edges {
				e := &g.edges[ei]
				if t.tier[t.peer[e.oi]] <= int8(tr) {
					continue
				}
				flowE[ei] = satAdd(flowE[ei], f)
				fwdS[e.to] = satAdd(fwdS[e.to], f)
				to := g.states[e.to].mid
				if to < 0 || !g.mids[to].up {
					continue
				}
				if fwdM[to] == 0 {
					upAt[tierOfMid(to)] = append(upAt[tierOfMid(to)], to)
				}
				fwdM[to] = satAdd(fwdM[to], f)
				feeders[to] = append(feeders[to], feeder{e.to, t.base[e.oi]})
			}
			for _, ei := range peaks[mi] {
				e := &g.edges[ei]
				out := t.base[t.peer[e.oi]]
				fl := f
				for _, fd := range feeders[mi] {
					if fd.dev == out {
						fl -= fwdS[fd.si]
					}
				}
				if fl <= 0 {
					continue
				}
				flowE[ei] = satAdd(flowE[ei], fl)
				fwdS[e.to] = satAdd(fwdS[e.to], fl)
				if to := g.states[e.to].mid; to >= 0 {
					if fwdM[to] == 0 {
						downFrom[tierOfMid(to)] = append(downFrom[tierOfMid(to)], to)
					}
					fwdM[to] = satAdd(fwdM[to], fl)
				}
			}
		}
	}
	// Down the cone, from the highest tier: a down mid sends all it has.
	for tr := maxTier; tr >= 2; tr-- {
		for _, mi := range downFrom[tr] {
			f := fwdM[mi]
			for _, ei := range g.mids[mi].edges {
				e := &g.edges[ei]
				if bwdS[e.to] == 0 {
					continue
				}
				flowE[ei] = satAdd(flowE[ei], f)
				fwdS[e.to] = satAdd(fwdS[e.to], f)
				if to := g.states[e.to].mid; to >= 0 {
					if fwdM[to] == 0 {
						downFrom[tierOfMid(to)] = append(downFrom[tierOfMid(to)], to)
					}
					fwdM[to] = satAdd(fwdM[to], f)
				}
			}
		}
	}

	// (c) Back up the cone: an up state's paths down to the member are its
	// mid's, less those that would U-turn to the device it came from.
	upB := map[int32]int64{} // per first mid, what one of the member's own first states reaches
	for tr := maxTier; tr >= 1; tr-- {
		for _, mi := range upAt[tr] {
			var up int64
			byDev := map[int32]int64{}
			for _, ei := range g.mids[mi].edges {
				e := &g.edges[ei]
				if t.tier[t.peer[e.oi]] > int8(tr) {
					up = satAdd(up, bwdS[e.to])
				}
			}
			var peak int64
			for _, ei := range peaks[mi] {
				e := &g.edges[ei]
				b := bwdS[e.to]
				peak = satAdd(peak, b)
				byDev[t.base[t.peer[e.oi]]] += b
			}
			upB[mi] = up
			for _, fd := range feeders[mi] {
				if v := up + peak - byDev[fd.dev]; v > 0 {
					bwdS[fd.si] = satAdd(bwdS[fd.si], v)
				}
			}
		}
	}

	// (d) Self paths of the shared states and edges, times the group's size.
	for si, f := range fwdS {
		if b := bwdS[si]; b > 0 && f > 0 {
			sc.state[si] = satAdd(sc.state[si], satMul(n, satMul(f, b)))
		}
	}
	for ei, f := range flowE {
		if b := bwdS[g.edges[ei].to]; b > 0 && f > 0 {
			sc.edge[ei] = satAdd(sc.edge[ei], satMul(n, satMul(f, b)))
		}
	}
	// Per member: its first edges and states, and its own receiving ports.
	for _, srcs := range grp.members {
		for _, smi := range srcs {
			ei := g.mids[smi].edges[0]
			s0 := g.edges[ei].to
			if mi := g.states[s0].mid; mi >= 0 {
				if b := upB[mi]; b > 0 {
					sc.edge[ei] = satAdd(sc.edge[ei], b)
					sc.state[s0] = satAdd(sc.state[s0], b)
				}
			}
		}
		nb := g.mids[srcs[0]].base
		dev := t.ports[nb].Device
		for j := range dev.Ports {
			for _, si := range ix.recvStates[nb+int32(j)] {
				for _, ei := range ix.inEdges[si] {
					from := g.edges[ei].mid
					if g.mids[from].up {
						continue
					}
					if f := fwdM[from]; f > 0 {
						sc.edge[ei] = satAdd(sc.edge[ei], f)
						sc.state[si] = satAdd(sc.state[si], f)
					}
				}
			}
		}
	}
}
