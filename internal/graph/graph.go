// Package graph draws a fabric: its devices by tier (NIC, leaf, spine,
// superspine, core) and the links between them, as Mermaid (which GitHub
// renders in Markdown), Graphviz DOT, or a self-contained SVG laid out
// here (no Graphviz needed). Small fabrics are drawn device by device;
// above Options.MaxSwitches switches devices are aggregated by role and
// pod, so a fabric of 67,000 devices stays a picture of a few nodes.
//
// Output is deterministic: nodes in tier then natural name order, edges
// in node order. Names never reach a format's syntax unescaped: node ids
// are generated (n0, n1, …) and labels are escaped for each format. It
// also draws a finding's hop path (HopPath) for review comments.
package graph

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/internal/natsort"
	"github.com/fabricgen/fabricgen/schema"
)

// DefaultMaxSwitches is how many switches are drawn one by one; above it
// the graph aggregates by role and pod.
const DefaultMaxSwitches = 64

// DefaultMaxNICs is how many NICs are drawn one by one; above it the NICs
// on the same switches are one node with their count. NICs outnumber
// switches, so a fabric of 36 switches and 256 NICs is drawn as 36
// switches and a node per leaf's NICs.
const DefaultMaxNICs = 64

// Options tune Build.
type Options struct {
	// MaxSwitches: with more switches, devices are aggregated by role and
	// pod. 0 means DefaultMaxSwitches.
	MaxSwitches int
	// MaxNICs: in a device-by-device graph with more NICs, the NICs on
	// each switch are drawn as one node. 0 means DefaultMaxNICs.
	MaxNICs int
}

// Node is one device, or a group of devices of one role and pod.
type Node struct {
	// ID is the node's generated identifier (n0, n1, …).
	ID string
	// Name is the device name, or the group's description ("leaf ×2048").
	Name string
	// Detail is the platform, or the group's platforms with counts.
	Detail string
	// Tier orders the node bottom (0, NICs) to top (4, cores).
	Tier int
	// Devices counts the devices the node stands for.
	Devices int
}

// Edge joins two nodes; Links counts the links it stands for.
type Edge struct {
	From, To int
	Links    int
}

// Graph is a fabric's picture.
type Graph struct {
	// Fabric is the fabric's name.
	Fabric string
	Nodes  []Node
	Edges  []Edge
	// Aggregated is true when nodes are groups of devices.
	Aggregated bool
}

// tierNames names the tiers bottom to top.
var tierNames = [...]string{"NICs", "leaves", "spines", "superspines", "cores"}

// TierName is the plural name of tier t.
func TierName(t int) string {
	if t < 0 || t >= len(tierNames) {
		return "other"
	}
	return tierNames[t]
}

// tierOf places a device kind.
func tierOf(k schema.Kind) int {
	switch k {
	case schema.KindNIC:
		return 0
	case schema.KindSpine:
		return 2
	case schema.KindSuperspine:
		return 3
	case schema.KindCore:
		return 4
	default:
		return 1
	}
}

// Build draws the fabric.
func Build(f *schema.Fabric, o Options) *Graph {
	if o.MaxSwitches <= 0 {
		o.MaxSwitches = DefaultMaxSwitches
	}
	if o.MaxNICs <= 0 {
		o.MaxNICs = DefaultMaxNICs
	}
	switches, nics := 0, 0
	for _, d := range f.Devices {
		if d.Kind.V == schema.KindNIC {
			nics++
		} else {
			switches++
		}
	}
	var key func(*schema.Device) string
	var b builder
	if switches > o.MaxSwitches {
		key = podKeys(f)
		b.aggregated = true
	} else {
		key = detailKeys(f, nics > o.MaxNICs)
	}
	return b.build(f, key)
}

// builder turns a device → node key function into a graph.
type builder struct {
	aggregated bool
}

// group is the devices of one node while building.
type group struct {
	key       string
	tier      int
	names     []string
	platforms map[string]int
}

func (b builder) build(f *schema.Fabric, key func(*schema.Device) string) *Graph {
	groups := map[string]*group{}
	nodeOf := map[*schema.Device]string{}
	for _, d := range f.Devices {
		k := key(d)
		nodeOf[d] = k
		g, ok := groups[k]
		if !ok {
			g = &group{key: k, tier: tierOf(d.Kind.V), platforms: map[string]int{}}
			groups[k] = g
		}
		g.names = append(g.names, d.Name)
		g.platforms[string(d.Platform.V)]++
	}
	list := make([]*group, 0, len(groups))
	for _, g := range groups {
		natsort.Sort(g.names)
		list = append(list, g)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].tier != list[j].tier {
			return list[i].tier < list[j].tier
		}
		return natsort.Less(list[i].key, list[j].key)
	})
	g := &Graph{Fabric: f.Name, Aggregated: b.aggregated}
	index := map[string]int{}
	for i, gr := range list {
		index[gr.key] = i
		g.Nodes = append(g.Nodes, Node{ID: fmt.Sprintf("n%d", i), Name: nodeName(gr),
			Detail: platformDetail(gr.platforms), Tier: gr.tier, Devices: len(gr.names)})
	}
	links := map[[2]int]int{}
	for _, l := range f.Links {
		if l.A == nil || l.B == nil {
			continue
		}
		x, y := index[nodeOf[l.A.Device]], index[nodeOf[l.B.Device]]
		if x == y {
			continue
		}
		if x > y {
			x, y = y, x
		}
		links[[2]int{x, y}]++
	}
	for k, n := range links {
		g.Edges = append(g.Edges, Edge{From: k[0], To: k[1], Links: n})
	}
	sort.Slice(g.Edges, func(i, j int) bool {
		a, c := g.Edges[i], g.Edges[j]
		if a.From != c.From {
			return a.From < c.From
		}
		return a.To < c.To
	})
	return g
}

// nodeName is a device's name, or a group's "leaf ×2048 (pod 2)". Group
// keys start with a NUL byte (no device name can) and end with the label.
func nodeName(gr *group) string {
	if !strings.HasPrefix(gr.key, "\x00") {
		return gr.key
	}
	_, label, _ := strings.Cut(gr.key, "\x00label:")
	return fmt.Sprintf("%s ×%d", label, len(gr.names))
}

// platformDetail is "os_a" or "os_a 1024, os_b 1024": the platforms of a
// group, each with its count when more than one.
func platformDetail(ps map[string]int) string {
	names := make([]string, 0, len(ps))
	for p := range ps {
		names = append(names, p)
	}
	sort.Strings(names)
	if len(names) == 1 {
		if ps[names[0]] == 1 {
			return names[0]
		}
		return fmt.Sprintf("%s %d", names[0], ps[names[0]])
	}
	parts := make([]string, len(names))
	for i, p := range names {
		parts[i] = fmt.Sprintf("%s %d", p, ps[p])
	}
	return strings.Join(parts, ", ")
}

// detailKeys draws every switch; NICs too, unless groupNICs, when the
// NICs on the same switches share a node.
func detailKeys(f *schema.Fabric, groupNICs bool) func(*schema.Device) string {
	return func(d *schema.Device) string {
		if d.Kind.V != schema.KindNIC || !groupNICs {
			return d.Name
		}
		ups := neighbours(d, func(o *schema.Device) bool { return o.Kind.V != schema.KindNIC })
		if len(ups) == 0 {
			return "\x00label:unattached NICs"
		}
		return "\x00label:NICs on " + strings.Join(ups, ", ")
	}
}

// neighbours are the sorted, distinct names of d's link peers that keep.
func neighbours(d *schema.Device, keep func(*schema.Device) bool) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range d.Ports {
		if p.Peer == nil || p.Peer.Device == nil || !keep(p.Peer.Device) || seen[p.Peer.Device.Name] {
			continue
		}
		seen[p.Peer.Device.Name] = true
		out = append(out, p.Peer.Device.Name)
	}
	natsort.Sort(out)
	return out
}

// podKeys groups devices by role and pod. A pod is a connected set of
// leaves and spines (links between them, not through superspines or
// cores); NICs belong to their switches' pod; superspines and cores are
// one group per role. The pod number shows only when there are several.
func podKeys(f *schema.Fabric) func(*schema.Device) string {
	parent := map[*schema.Device]*schema.Device{}
	find := func(d *schema.Device) *schema.Device {
		for parent[d] != nil && parent[d] != d {
			if gp := parent[parent[d]]; gp != nil {
				parent[d] = gp
			}
			d = parent[d]
		}
		return d
	}
	inPod := func(d *schema.Device) bool { t := tierOf(d.Kind.V); return t == 1 || t == 2 }
	for _, d := range f.Devices {
		if inPod(d) {
			parent[d] = d
		}
	}
	for _, l := range f.Links {
		if l.A == nil || l.B == nil || !inPod(l.A.Device) || !inPod(l.B.Device) {
			continue
		}
		a, b := find(l.A.Device), find(l.B.Device)
		if a != b {
			if natsort.Less(b.Name, a.Name) {
				a, b = b, a
			}
			parent[b] = a
		}
	}
	// Number the pods by their first device in natural order.
	var roots []string
	rootOf := map[string]bool{}
	for _, d := range f.Devices {
		if inPod(d) {
			r := find(d).Name
			if !rootOf[r] {
				rootOf[r] = true
				roots = append(roots, r)
			}
		}
	}
	natsort.Sort(roots)
	podNo := map[string]int{}
	for i, r := range roots {
		podNo[r] = i + 1
	}
	podOf := func(d *schema.Device) string {
		if len(roots) <= 1 {
			return ""
		}
		return fmt.Sprintf(" (pod %d)", podNo[find(d).Name])
	}
	return func(d *schema.Device) string {
		kind := string(d.Kind.V)
		switch {
		case inPod(d):
			return fmt.Sprintf("\x00%d %04d\x00label:%s%s", tierOf(d.Kind.V), podNo[find(d).Name], kind, podOf(d))
		case d.Kind.V == schema.KindNIC:
			for _, p := range d.Ports {
				if p.Peer != nil && p.Peer.Device != nil && inPod(p.Peer.Device) {
					return fmt.Sprintf("\x000 %04d\x00label:%s%s", podNo[find(p.Peer.Device).Name], kind, podOf(p.Peer.Device))
				}
			}
			return "\x000 9999\x00label:unattached NICs"
		default:
			return fmt.Sprintf("\x00%d\x00label:%s", tierOf(d.Kind.V), kind)
		}
	}
}
