package graph

import (
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"
)

// Formats are the output formats Write takes, in help order.
var Formats = []string{"mermaid", "dot", "svg"}

// Write renders g in format (mermaid, dot or svg).
func (g *Graph) Write(w io.Writer, format string) error {
	var s string
	switch format {
	case "mermaid":
		s = g.Mermaid()
	case "dot":
		s = g.DOT()
	case "svg":
		s = g.SVG()
	default:
		return fmt.Errorf("unknown graph format %q: use one of %s", format, strings.Join(Formats, ", "))
	}
	if _, err := io.WriteString(w, s); err != nil {
		return fmt.Errorf("write graph: %w", err)
	}
	return nil
}

// tiers lists the tiers that have nodes, top (cores) first, each with its
// node indexes in order.
func (g *Graph) tiers() [][]int {
	by := map[int][]int{}
	maxTier := 0
	for i, n := range g.Nodes {
		by[n.Tier] = append(by[n.Tier], i)
		maxTier = max(maxTier, n.Tier)
	}
	var out [][]int
	for t := maxTier; t >= 0; t-- {
		if len(by[t]) > 0 {
			out = append(out, by[t])
		}
	}
	return out
}

// linksLabel is "" for one link, "4 links" for more.
func linksLabel(n int) string {
	if n <= 1 {
		return ""
	}
	return strconv.Itoa(n) + " links"
}

// Mermaid is a Mermaid flowchart, cores at the top, one subgraph per
// tier; links between the same nodes are one edge labelled with their
// count. A tier wider than RowWidth is wrapped into rows, each row of
// leaves a subgraph with its NICs below it, the rows stacked by invisible
// links (see RowWidth).
func (g *Graph) Mermaid() string {
	var b strings.Builder
	b.WriteString("flowchart BT\n")
	bands := g.bands()
	for k := len(bands) - 1; k >= 0; k-- {
		bd := bands[k]
		fmt.Fprintf(&b, "  subgraph %s[\"%s\"]\n", bd.id, mermaidLabel(bd.label))
		for r := len(bd.rows) - 1; r >= 0; r-- {
			for _, i := range bd.rows[r].nodes {
				n := g.Nodes[i]
				fmt.Fprintf(&b, "    %s[\"%s<br/>%s\"]\n", n.ID, mermaidLabel(n.Name), mermaidLabel(n.Detail))
			}
		}
		b.WriteString("  end\n")
	}
	for _, e := range g.Edges {
		from, to := g.Nodes[e.From], g.Nodes[e.To]
		if from.Tier > to.Tier {
			from, to = to, from
		}
		if l := linksLabel(e.Links); l != "" {
			fmt.Fprintf(&b, "  %s ---|\"%s\"| %s\n", from.ID, l, to.ID)
		} else {
			fmt.Fprintf(&b, "  %s --- %s\n", from.ID, to.ID)
		}
	}
	if g.wide() {
		for _, l := range g.stackLinks(bands) {
			fmt.Fprintf(&b, "  %s ~~~ %s\n", g.Nodes[l[0]].ID, g.Nodes[l[1]].ID)
		}
	}
	return b.String()
}

// dotQuote is s as a DOT double-quoted string.
func dotQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// DOT is an undirected Graphviz graph, cores at the top, one rank per
// tier; a tier wider than RowWidth is wrapped into ranks of at most
// RowWidth nodes (each row of leaves with its NICs just below it), stacked
// by invisible edges (see RowWidth). Every id and label is a quoted,
// escaped string.
func (g *Graph) DOT() string {
	var b strings.Builder
	fmt.Fprintf(&b, "graph %s {\n  rankdir=BT;\n  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n", dotQuote(g.Fabric))
	wide := g.wide()
	bands := g.bands()
	for k := len(bands) - 1; k >= 0; k-- {
		bd := bands[k]
		for r := len(bd.rows) - 1; r >= 0; r-- {
			name := fmt.Sprintf("tier%d", bd.rows[r].tier)
			if wide {
				name = fmt.Sprintf("%s row%d", bd.id, r+1)
			}
			fmt.Fprintf(&b, "  subgraph %s {\n    rank=same;\n", dotQuote(name))
			for _, i := range bd.rows[r].nodes {
				n := g.Nodes[i]
				fmt.Fprintf(&b, "    %s [label=%s];\n", dotQuote(n.ID), dotQuote(n.Name+"\n"+n.Detail))
			}
			b.WriteString("  }\n")
		}
	}
	for _, e := range g.Edges {
		fmt.Fprintf(&b, "  %s -- %s", dotQuote(g.Nodes[e.From].ID), dotQuote(g.Nodes[e.To].ID))
		if l := linksLabel(e.Links); l != "" {
			fmt.Fprintf(&b, " [label=%s]", dotQuote(l))
		}
		b.WriteString(";\n")
	}
	if wide {
		for _, l := range g.stackLinks(bands) {
			fmt.Fprintf(&b, "  %s -- %s [style=invis];\n", dotQuote(g.Nodes[l[0]].ID), dotQuote(g.Nodes[l[1]].ID))
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// SVG layout, in pixels.
const (
	svgCharW  = 7
	svgNodeH  = 40
	svgMinW   = 90
	svgGapX   = 16
	svgGapY   = 90
	svgMargin = 24
	svgTitleH = 28
	// svgMaxRowW is the widest a row of nodes gets (RowWidth nodes of
	// about 200 px fit): a wider row wraps into several rows, svgWrapGapY
	// apart.
	svgMaxRowW  = 1800
	svgWrapGapY = 24
)

// SVG is a self-contained picture: one band per tier, cores at the top,
// laid out in the rows Mermaid and DOT use (RowWidth), a row wider than
// svgMaxRowW split again, nodes centred in their row, links as straight lines (labelled with their count when more than
// one). The layout depends only on the graph, so the bytes are the same
// on every run. Text is XML-escaped.
func (g *Graph) SVG() string {
	type box struct{ x, y, w int }
	boxes := make([]box, len(g.Nodes))
	type row struct {
		nodes []int
		w     int
	}
	var rows []row
	var tierOfRow []int // the tier of each row
	width := 0
	var laid []layoutRow // top first
	bands := g.bands()
	for k := len(bands) - 1; k >= 0; k-- {
		for r := len(bands[k].rows) - 1; r >= 0; r-- {
			laid = append(laid, bands[k].rows[r])
		}
	}
	for _, lr := range laid {
		for _, i := range lr.nodes {
			n := g.Nodes[i]
			boxes[i].w = max(svgMinW, svgCharW*max(runeLen(n.Name), runeLen(n.Detail))+16)
		}
		// A row too wide for svgMaxRowW is split into the fewest rows
		// that fit, as even in count as they can be (not 7 and 1).
		for parts := 1; ; parts++ {
			per := (len(lr.nodes) + parts - 1) / parts
			var split []row
			fits := true
			for start := 0; start < len(lr.nodes); start += per {
				cur := row{nodes: lr.nodes[start:min(start+per, len(lr.nodes))]}
				for k, i := range cur.nodes {
					if k > 0 {
						cur.w += svgGapX
					}
					cur.w += boxes[i].w
				}
				fits = fits && (cur.w <= svgMaxRowW || len(cur.nodes) == 1)
				split = append(split, cur)
			}
			if fits {
				for _, rw := range split {
					rows, tierOfRow = append(rows, rw), append(tierOfRow, lr.tier)
				}
				break
			}
		}
	}
	for _, rw := range rows {
		width = max(width, rw.w)
	}
	y := svgMargin + svgTitleH
	for k, rw := range rows {
		if k > 0 {
			if tierOfRow[k] != tierOfRow[k-1] {
				y += svgNodeH + svgGapY
			} else {
				y += svgNodeH + svgWrapGapY
			}
		}
		x := svgMargin + (width-rw.w)/2
		for _, i := range rw.nodes {
			boxes[i].x, boxes[i].y = x, y
			x += boxes[i].w + svgGapX
		}
	}
	totalW := width + 2*svgMargin
	totalH := 2*svgMargin + svgTitleH
	if len(rows) > 0 {
		totalH = y + svgNodeH + svgMargin
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif" font-size="12">`+"\n", totalW, totalH, totalW, totalH)
	fmt.Fprintf(&b, "<title>%s</title>\n", html.EscapeString(g.Fabric))
	b.WriteString(`<rect width="100%" height="100%" fill="#ffffff"/>` + "\n")
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="14" font-weight="bold">%s</text>`+"\n", svgMargin, svgMargin+14, html.EscapeString(g.Fabric))
	for _, e := range g.Edges {
		a, c := boxes[e.From], boxes[e.To]
		ax, ay := a.x+a.w/2, a.y
		cx, cy := c.x+c.w/2, c.y+svgNodeH
		if a.y < c.y {
			ay, cy = a.y+svgNodeH, c.y
		}
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#8a8a8a" stroke-width="1"/>`+"\n", ax, ay, cx, cy)
		if l := linksLabel(e.Links); l != "" {
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" fill="#555555" font-size="10">%s</text>`+"\n", (ax+cx)/2, (ay+cy)/2, l)
		}
	}
	for i, n := range g.Nodes {
		bx := boxes[i]
		fmt.Fprintf(&b, `<g><rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="%s" stroke="#333333"/>`, bx.x, bx.y, bx.w, svgNodeH, tierFill(n.Tier))
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" font-weight="bold">%s</text>`, bx.x+bx.w/2, bx.y+17, html.EscapeString(n.Name))
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" fill="#444444" font-size="10">%s</text></g>`+"\n", bx.x+bx.w/2, bx.y+32, html.EscapeString(n.Detail))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// tierFill colours a tier's nodes.
func tierFill(t int) string {
	fills := [...]string{"#e8f1fb", "#e6f4ea", "#fef7e0", "#fce8e6", "#f3e8fd"}
	if t < 0 || t >= len(fills) {
		return "#eeeeee"
	}
	return fills[t]
}

func runeLen(s string) int { return len([]rune(s)) }
