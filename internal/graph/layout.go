package graph

import "fmt"

// RowWidth is the most nodes one row (rank) of a picture holds, in every
// format. A tier with more nodes is wrapped into rows of at most RowWidth.
//
// Why rows, and why NICs beside their leaves: Mermaid (dagre) and
// Graphviz dot both put every node of a rank side by side, so a tier of
// 32 leaves or 32 NIC groups is one row some 4,000 px wide, which GitHub
// then shrinks to unreadable text. Subgraphs (Mermaid) and clusters (dot)
// do not help: the leaves all link to the spines, so every cluster still
// sits on the same rank, side by side. Rows do: dot pins a row with
// rank=same, and Mermaid, which has no rank constraint, stacks them with
// invisible links (~~~, Mermaid 10.0 and later: "An invisible link" in its
// docs/syntax/flowchart.md) from each row to the next, one per column. The
// leaves are wrapped first, and each row of leaves has its NICs in the
// rows just below it (a band): a NIC's link to its leaf then spans one
// rank and stays short, where stacking all NIC rows under all leaf rows
// would send most of them across the picture. Eight nodes a row makes 36
// switches and 256 NICs (NICs grouped per leaf) nine ranks of at most
// eight nodes, about as tall as it is wide, which a page column shows at
// a readable size.
const RowWidth = 8

// row is one rank of the picture: nodes of one tier, left to right.
type layoutRow struct {
	tier  int
	nodes []int
}

// band is a run of rows drawn as one group (a Mermaid subgraph): a tier,
// or a row of leaves with the NICs attached to them.
type band struct {
	// id is the group's identifier (t1 for a tier, b3 for a band).
	id string
	// label names the group ("leaves", "leaf01 … leaf08 and their NICs").
	label string
	// rows are the band's rows, bottom first.
	rows []layoutRow
}

// wide reports whether some tier is wider than RowWidth: then the picture
// is laid out in rows (bands) rather than one rank per tier.
func (g *Graph) wide() bool {
	for _, t := range g.tiers() {
		if len(t) > RowWidth {
			return true
		}
	}
	return false
}

// chunk wraps nodes into rows of at most RowWidth.
func chunk(tier int, nodes []int) []layoutRow {
	var out []layoutRow
	for len(nodes) > 0 {
		n := min(len(nodes), RowWidth)
		out = append(out, layoutRow{tier: tier, nodes: nodes[:n:n]})
		nodes = nodes[n:]
	}
	return out
}

// bands lays the nodes out, bottom band first. A graph whose tiers all fit
// a row is one band per tier, one row each. Otherwise every tier is
// wrapped into rows of at most RowWidth, and the NICs linked to a leaf go
// into the band of the first leaf row they link to, just below it; NICs
// linked to no leaf keep a band of their own at the bottom.
func (g *Graph) bands() []band {
	tiers := g.tiers() // top first
	if !g.wide() {
		out := make([]band, 0, len(tiers))
		for i := len(tiers) - 1; i >= 0; i-- {
			t := g.Nodes[tiers[i][0]].Tier
			out = append(out, band{id: fmt.Sprintf("t%d", t), label: TierName(t), rows: []layoutRow{{tier: t, nodes: tiers[i]}}})
		}
		return out
	}
	byTier := map[int][]int{}
	for _, tier := range tiers {
		byTier[g.Nodes[tier[0]].Tier] = tier
	}
	leafRows := chunk(1, byTier[1])
	rowOfLeaf := map[int]int{}
	for k, r := range leafRows {
		for _, i := range r.nodes {
			rowOfLeaf[i] = k
		}
	}
	// nicBand is the leaf row a NIC node joins: the lowest one it links to.
	nicBand := map[int]int{}
	for _, e := range g.Edges {
		for _, ends := range [2][2]int{{e.From, e.To}, {e.To, e.From}} {
			nic, leaf := ends[0], ends[1]
			if g.Nodes[nic].Tier != 0 || g.Nodes[leaf].Tier != 1 {
				continue
			}
			if k, ok := nicBand[nic]; !ok || rowOfLeaf[leaf] < k {
				nicBand[nic] = rowOfLeaf[leaf]
			}
		}
	}
	var out []band
	var alone []int
	nicsOf := make([][]int, len(leafRows))
	for _, i := range byTier[0] {
		if k, ok := nicBand[i]; ok {
			nicsOf[k] = append(nicsOf[k], i)
		} else {
			alone = append(alone, i)
		}
	}
	if len(alone) > 0 {
		out = append(out, band{id: "t0", label: TierName(0), rows: chunk(0, alone)})
	}
	if len(nicBand) == 0 && len(leafRows) > 0 {
		out = append(out, band{id: "t1", label: TierName(1), rows: leafRows})
	} else {
		for k, lr := range leafRows {
			first, last := g.Nodes[lr.nodes[0]].Name, g.Nodes[lr.nodes[len(lr.nodes)-1]].Name
			label := first
			if len(lr.nodes) > 1 {
				label += " … " + last
			}
			switch {
			case len(nicsOf[k]) > 0 && len(lr.nodes) > 1:
				label += " and their NICs"
			case len(nicsOf[k]) > 0:
				label += " and its NICs"
			}
			out = append(out, band{id: fmt.Sprintf("b%d", k+1), label: label, rows: append(chunk(0, nicsOf[k]), lr)})
		}
	}
	for i := len(tiers) - 1; i >= 0; i-- {
		t := g.Nodes[tiers[i][0]].Tier
		if t >= 2 {
			out = append(out, band{id: fmt.Sprintf("t%d", t), label: TierName(t), rows: chunk(t, tiers[i])})
		}
	}
	return out
}

// stackLinks are the invisible links that stack the rows of a wide
// picture, bottom row first: each node of a row is linked from the node in
// its column of the row below (the last one, under a longer row), unless a
// real edge already joins them.
func (g *Graph) stackLinks(bands []band) [][2]int {
	real := map[[2]int]bool{}
	for _, e := range g.Edges {
		real[[2]int{e.From, e.To}], real[[2]int{e.To, e.From}] = true, true
	}
	var rows []layoutRow
	for _, b := range bands {
		rows = append(rows, b.rows...)
	}
	var out [][2]int
	for k := 1; k < len(rows); k++ {
		below, above := rows[k-1].nodes, rows[k].nodes
		for c, up := range above {
			down := below[min(c, len(below)-1)]
			if !real[[2]int{down, up}] {
				out = append(out, [2]int{down, up})
			}
		}
	}
	return out
}
