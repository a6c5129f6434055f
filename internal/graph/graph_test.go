package graph

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/internal/golden"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

const update = "go test ./internal/graph -update"

func load(t *testing.T, example string, vars map[string]string) *schema.Fabric {
	t.Helper()
	f, diags := schema.Load(filepath.Join("..", "..", "examples", example), schema.Options{Vars: vars, Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatalf("load %s: %v", example, diags)
	}
	return f
}

// hostile is a fabric whose names hold every character the formats use
// as syntax.
func hostile() *schema.Fabric {
	f := &schema.Fabric{Name: `evil"fab</title><script>`}
	dev := func(name string, k schema.Kind, p schema.Platform) *schema.Device {
		d := &schema.Device{Name: name, Kind: schema.Value[schema.Kind]{V: k}, Platform: schema.Value[schema.Platform]{V: p}}
		f.Devices = append(f.Devices, d)
		return d
	}
	link := func(a, b *schema.Device) {
		pa := &schema.Port{Name: "e" + b.Name, Device: a}
		pb := &schema.Port{Name: "e" + a.Name, Device: b}
		pa.Peer, pb.Peer = pb, pa
		a.Ports, b.Ports = append(a.Ports, pa), append(b.Ports, pb)
		l := &schema.Link{A: pa, B: pb}
		pa.Link, pb.Link = l, l
		f.Links = append(f.Links, l)
	}
	sp := dev(`spine"]; n0 --> x["`, schema.KindSpine, `os"a</text>`)
	lf := dev(`leaf<b>&amp;</b>`, schema.KindLeaf, "os<b>")
	nic := dev("nic`|]}#\\", schema.KindNIC, "os`|]}")
	link(nic, lf)
	link(lf, sp)
	link(lf, sp)
	return f
}

func TestGolden(t *testing.T) {
	tests := []struct {
		name string
		f    func(t *testing.T) *schema.Fabric
		o    Options
	}{
		{"roce-storage", func(t *testing.T) *schema.Fabric { return load(t, "roce-storage", nil) }, Options{}},
		{"hostile", func(*testing.T) *schema.Fabric { return hostile() }, Options{}},
		{"scale-small-grouped-nics", func(t *testing.T) *schema.Fabric {
			return load(t, "scale", map[string]string{"leaves": "8", "spines": "2", "nics_per_leaf": "40"})
		}, Options{}},
		{"36-switches-256-nics", func(t *testing.T) *schema.Fabric {
			return load(t, "scale", map[string]string{"leaves": "32", "spines": "4", "nics_per_leaf": "8"})
		}, Options{}},
		{"scale-aggregated", func(t *testing.T) *schema.Fabric {
			return load(t, "scale", map[string]string{"leaves": "80", "spines": "4", "nics_per_leaf": "2"})
		}, Options{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := Build(tt.f(t), tt.o)
			for _, format := range Formats {
				var b bytes.Buffer
				if err := g.Write(&b, format); err != nil {
					t.Fatal(err)
				}
				golden.Check(t, filepath.Join("testdata", tt.name+"."+format), b.Bytes(), update)
				if format == "svg" {
					checkXML(t, b.Bytes())
				}
			}
		})
	}
}

// checkXML fails unless the SVG is well-formed XML.
func checkXML(t *testing.T, b []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	for {
		_, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
	}
}

func TestHostileNamesEscaped(t *testing.T) {
	g := Build(hostile(), Options{})
	m := g.Mermaid()
	for _, bad := range []string{`spine"]`, "<b>", "`", "]}", `evil"`} {
		if strings.Contains(m, bad) {
			t.Errorf("mermaid holds %q unescaped:\n%s", bad, m)
		}
	}
	// Every node line has exactly one quoted label.
	for _, l := range strings.Split(m, "\n") {
		if strings.Contains(l, "[\"") && strings.Count(l, `"`) != 2 {
			t.Errorf("mermaid line with a broken label: %s", l)
		}
	}
	d := g.DOT()
	if !strings.Contains(d, `label="spine\"]; n0 --> x[\"\nos\"a</text>"`) {
		t.Errorf("dot does not quote the spine's label:\n%s", d)
	}
	if strings.Contains(d, `evil"fab`) {
		t.Errorf("dot holds the fabric name unescaped:\n%s", d)
	}
	s := g.SVG()
	if strings.Contains(s, "<script>") || strings.Contains(s, "<b>") {
		t.Errorf("svg holds markup from names:\n%s", s)
	}
	checkXML(t, []byte(s))
}

// TestWideHostileNamesEscaped: the band labels of a wrapped picture name
// its leaves, escaped like every other label.
func TestWideHostileNamesEscaped(t *testing.T) {
	f := &schema.Fabric{Name: "wide"}
	for i := range RowWidth + 1 {
		lf := &schema.Device{Name: fmt.Sprintf("leaf\"]; x[\"<b>%d`", i), Kind: schema.Value[schema.Kind]{V: schema.KindLeaf}, Platform: schema.Value[schema.Platform]{V: "os"}}
		nic := &schema.Device{Name: fmt.Sprintf("nic%d", i), Kind: schema.Value[schema.Kind]{V: schema.KindNIC}, Platform: schema.Value[schema.Platform]{V: "os"}}
		pa, pb := &schema.Port{Name: "e0", Device: nic}, &schema.Port{Name: "e1", Device: lf}
		pa.Peer, pb.Peer = pb, pa
		nic.Ports, lf.Ports = []*schema.Port{pa}, []*schema.Port{pb}
		l := &schema.Link{A: pa, B: pb}
		pa.Link, pb.Link = l, l
		f.Devices = append(f.Devices, lf, nic)
		f.Links = append(f.Links, l)
	}
	g := Build(f, Options{})
	if !g.wide() {
		t.Fatal("not wrapped")
	}
	m := g.Mermaid()
	if !strings.Contains(m, "subgraph b1[") || !strings.Contains(m, " ~~~ ") {
		t.Fatalf("no bands:\n%s", m)
	}
	for _, l := range strings.Split(m, "\n") {
		if strings.Contains(l, "[\"") && strings.Count(l, `"`) != 2 {
			t.Errorf("mermaid line with a broken label: %s", l)
		}
		if strings.Contains(l, "<b>") || strings.Contains(l, "`") {
			t.Errorf("mermaid line holds markup unescaped: %s", l)
		}
	}
	if d := g.DOT(); strings.Contains(d, `leaf"]`) {
		t.Errorf("dot holds a name unescaped:\n%s", d)
	}
}

// TestScaleMermaidSize draws examples/scale at its default size (67,648
// devices): the Mermaid must stay far under GitHub's limits.
func TestScaleMermaidSize(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 67,648 devices")
	}
	f := load(t, "scale", nil)
	g := Build(f, Options{})
	if !g.Aggregated {
		t.Fatal("scale is drawn device by device")
	}
	m := g.Mermaid()
	t.Logf("scale: %d devices, Mermaid %d bytes", len(f.Devices), len(m))
	if len(m) >= 50000 {
		t.Errorf("scale Mermaid is %d bytes, want under 50,000", len(m))
	}
	for _, want := range []string{"leaf ×2048", "spine ×64", "nic ×65536"} {
		if !strings.Contains(m, want) {
			t.Errorf("no %q in:\n%s", want, m)
		}
	}
}

// svgSize is the width and height an SVG declares.
func svgSize(t *testing.T, svg string) (w, h int) {
	t.Helper()
	if _, err := fmt.Sscanf(svg, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d"`, &w, &h); err != nil {
		t.Fatalf("no size in %.120s: %v", svg, err)
	}
	return w, h
}

// TestWideTiersWrap: a fabric of 36 switches and 256 NICs stays a picture
// a screen can show: NICs grouped per leaf, wide tiers wrapped into rows,
// the SVG at most svgMaxRowW plus margins wide and every box inside it.
func TestWideTiersWrap(t *testing.T) {
	maxW := svgMaxRowW + 2*svgMargin
	tests := []struct {
		name      string
		vars      map[string]string
		nodes     int // at most
		wantGroup string
	}{
		{"36 switches, 256 NICs", map[string]string{"leaves": "32", "spines": "4", "nics_per_leaf": "8"}, 36 + 32, "NICs on leaf0001 ×8"},
		{"64 switches, 120 NICs", map[string]string{"leaves": "60", "spines": "4", "nics_per_leaf": "2"}, 64 + 60, "NICs on leaf0001 ×2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := Build(load(t, "scale", tt.vars), Options{})
			if g.Aggregated {
				t.Fatal("drawn aggregated by pod; want switch by switch")
			}
			if len(g.Nodes) > tt.nodes {
				t.Errorf("%d nodes, want at most %d (NICs grouped per leaf)", len(g.Nodes), tt.nodes)
			}
			if !strings.Contains(g.Mermaid(), tt.wantGroup) {
				t.Errorf("no node %q", tt.wantGroup)
			}
			svg := g.SVG()
			w, h := svgSize(t, svg)
			if w > maxW {
				t.Errorf("SVG is %d px wide, want at most %d", w, maxW)
			}
			for _, m := range regexp.MustCompile(`<rect x="(\d+)" y="(\d+)" width="(\d+)"`).FindAllStringSubmatch(svg, -1) {
				x, _ := strconv.Atoi(m[1])
				y, _ := strconv.Atoi(m[2])
				bw, _ := strconv.Atoi(m[3])
				if x+bw > w || y+svgNodeH > h {
					t.Errorf("box at %d,%d (width %d) outside the %dx%d picture", x, y, bw, w, h)
				}
			}
		})
	}
	if testing.Short() {
		return
	}
	w, _ := svgSize(t, Build(load(t, "scale", nil), Options{}).SVG())
	if w > maxW {
		t.Errorf("examples/scale SVG is %d px wide, want at most %d", w, maxW)
	}
}

// TestRowsAtMostRowWidth: at 36 switches and 256 NICs (NICs grouped per
// leaf, and one by one) no rank of any format holds more than RowWidth
// nodes: Mermaid's ranks as its links (invisible ones included) layer the
// nodes, longest path first as dagre starts; DOT's rank=same groups, each
// node in one; the SVG's rows of boxes.
func TestRowsAtMostRowWidth(t *testing.T) {
	vars := map[string]string{"leaves": "32", "spines": "4", "nics_per_leaf": "8"}
	tests := []struct {
		name string
		o    Options
	}{
		{"NICs per leaf", Options{}},
		{"NICs one by one", Options{MaxNICs: 1000}},
	}
	f := load(t, "scale", vars)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := Build(f, tt.o)
			for format, ranks := range map[string]func(*testing.T, string) map[string][]string{
				"mermaid": mermaidRanks, "dot": dotRanks, "svg": svgRanks,
			} {
				var b bytes.Buffer
				if err := g.Write(&b, format); err != nil {
					t.Fatal(err)
				}
				rs := ranks(t, b.String())
				nodes := 0
				for r, ns := range rs {
					nodes += len(ns)
					if len(ns) > RowWidth {
						t.Errorf("%s: rank %s holds %d nodes, want at most %d: %v", format, r, len(ns), RowWidth, ns)
					}
				}
				if nodes != len(g.Nodes) || len(rs) < 3 {
					t.Errorf("%s: %d nodes in %d ranks, want all %d nodes in rows", format, nodes, len(rs), len(g.Nodes))
				}
			}
		})
	}
}

var (
	mermaidNode = regexp.MustCompile(`^\s+(n\d+)\["`)
	mermaidLink = regexp.MustCompile(`^\s+(n\d+) (?:---(?:\|"[^"]*"\|)?|~~~) (n\d+)$`)
)

// mermaidRanks layers a Mermaid flowchart's nodes by the longest path of
// links reaching them (flowchart BT: a link's second node is above its
// first).
func mermaidRanks(t *testing.T, m string) map[string][]string {
	t.Helper()
	var order []string
	up := map[string][]string{}
	in := map[string]int{}
	for _, l := range strings.Split(m, "\n") {
		if n := mermaidNode.FindStringSubmatch(l); n != nil {
			order = append(order, n[1])
		} else if e := mermaidLink.FindStringSubmatch(l); e != nil {
			up[e[1]] = append(up[e[1]], e[2])
			in[e[2]]++
		}
	}
	rank := map[string]int{}
	var queue []string
	for _, n := range order {
		if in[n] == 0 {
			queue = append(queue, n)
		}
	}
	done := 0
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		done++
		for _, u := range up[n] {
			rank[u] = max(rank[u], rank[n]+1)
			if in[u]--; in[u] == 0 {
				queue = append(queue, u)
			}
		}
	}
	if done != len(order) {
		t.Fatalf("mermaid links form a cycle (%d of %d nodes layered)", done, len(order))
	}
	out := map[string][]string{}
	for _, n := range order {
		r := strconv.Itoa(rank[n])
		out[r] = append(out[r], n)
	}
	return out
}

var dotNode = regexp.MustCompile(`^\s+"(n\d+)" \[label=`)

// dotRanks is a DOT graph's rank=same groups; a node outside one fails.
func dotRanks(t *testing.T, d string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	group := ""
	for _, l := range strings.Split(d, "\n") {
		switch {
		case strings.HasPrefix(l, "  subgraph "):
			group = l
		case l == "  }":
			group = ""
		case dotNode.MatchString(l):
			n := dotNode.FindStringSubmatch(l)[1]
			if group == "" {
				t.Errorf("dot node %s is in no rank=same group", n)
			}
			out[group] = append(out[group], n)
		}
	}
	return out
}

// svgRanks is an SVG's boxes by their row (y).
func svgRanks(t *testing.T, s string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, m := range regexp.MustCompile(`<rect x="(\d+)" y="(\d+)" width="\d+" height="`+strconv.Itoa(svgNodeH)+`"`).FindAllStringSubmatch(s, -1) {
		out[m[2]] = append(out[m[2]], m[1])
	}
	return out
}

func TestDeterministic(t *testing.T) {
	f := load(t, "scale", map[string]string{"leaves": "16", "spines": "4", "nics_per_leaf": "2"})
	first := Build(f, Options{}).SVG()
	for i := 0; i < 5; i++ {
		if Build(f, Options{}).SVG() != first {
			t.Fatal("two builds of one fabric differ")
		}
	}
}

func TestWriteUnknownFormat(t *testing.T) {
	if err := (&Graph{}).Write(io.Discard, "png"); err == nil {
		t.Error("png accepted")
	}
}

func TestHopPath(t *testing.T) {
	trace := []diag.Step{{Port: "gpu01:eth2"}, {Port: "leaf1:Ethernet1"}, {Port: "core1:Ethernet3", Note: "DSCP 26 → 0: no trust dscp"},
		{Port: `leaf"9":Ethernet49]`}, {Port: "gpu77:eth0"}}
	tests := []struct {
		name  string
		trace []diag.Step
		at    string
	}{
		{"note-marks-bad", trace, ""},
		{"at-marks-bad", trace[:2], "leaf1:Ethernet1"},
		{"no-bad-hop", trace[:2], ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden.Check(t, filepath.Join("testdata", "hop-"+tt.name+".mermaid"), []byte(Fence(HopPath(tt.trace, tt.at))), update)
		})
	}
	if HopPath(nil, "") != "" {
		t.Error("an empty trace drew a diagram")
	}
}
