package lint

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// brutePaths enumerates every path of g depth first, under the walk's one
// routing rule (a packet never leaves an up mid towards the device it came
// from), and counts per state and per edge the paths from a NIC to another
// NIC. It is exponential: for small fabrics only.
func brutePaths(g *flowGraph) (states, edges map[int32]int64) {
	states, edges = map[int32]int64{}, map[int32]int64{}
	t := g.t
	var pathS, pathE []int32
	var visit func(ei int32, src *schema.Device)
	visit = func(ei int32, src *schema.Device) {
		si := g.edges[ei].to
		pathE, pathS = append(pathE, ei), append(pathS, si)
		defer func() { pathE, pathS = pathE[:len(pathE)-1], pathS[:len(pathS)-1] }()
		st := &g.states[si]
		switch st.mid {
		case midStopped:
			return
		case midReceiver:
			if t.tier[st.pi] == 0 && t.ports[st.pi].Device != src {
				for _, s := range pathS {
					states[s]++
				}
				for _, e := range pathE {
					edges[e]++
				}
			}
			return
		}
		m := &g.mids[st.mid]
		from := t.base[t.peer[st.pi]]
		for _, ej := range m.edges {
			if m.up && t.base[t.peer[g.edges[ej].oi]] == from {
				continue
			}
			visit(ej, src)
		}
	}
	for i := range g.mids {
		if m := &g.mids[i]; m.src != nil {
			for _, ei := range m.edges {
				visit(ei, m.src.Device)
			}
		}
	}
	return states, edges
}

// threeTierHCL is a small three-tier fabric: single-homed NICs, whose
// packets can still climb to the superspine and come down to their own
// leaf through the other spine. SWITCH and NIC stand for the fixture's
// platforms (fixturePlatforms; threeTier writes them in).
const threeTierText = `
traffic_class "roce" {
  role     = "roce"
  dscp     = [26]
  priority = 3
  queue    = 3
  lossless = true
}
traffic_class "cnp" {
  role     = "cnp"
  dscp     = [48]
  priority = 6
  queue    = 6
}
qos_policy "p" {
  trust   = "dscp"
  classes = [traffic_class.roce, traffic_class.cnp]
}
fabric "t3" {
  qos_policy = qos_policy.p
}
device "ss1" {
  kind     = "superspine"
  platform = "SWITCH"
  asic     = "broadcom"
  ports {
    names = ["Ethernet0", "Ethernet4"]
  }
}
device "sp" {
  for_each = toset(["sp1", "sp2"])
  name     = each.key
  kind     = "spine"
  platform = "SWITCH"
  asic     = "broadcom"
  ports {
    names = ["Ethernet0", "Ethernet4", "Ethernet8"]
  }
}
device "lf" {
  for_each = toset(["lf1", "lf2"])
  name     = each.key
  kind     = "leaf"
  platform = "SWITCH"
  asic     = "broadcom"
  ports {
    names = ["Ethernet0", "Ethernet4", "Ethernet48", "Ethernet52"]
  }
}
device "nic" {
  for_each = toset(["n1", "n2", "n3"])
  name     = each.key
  kind     = "nic"
  platform = "NIC"
  port "eth0" {}
}
link "ss" {
  for_each = { sp1 = "Ethernet0", sp2 = "Ethernet4" }
  a        = "${each.key}:Ethernet8"
  b        = "ss1:${each.value}"
}
link "up" {
  for_each = { "lf1:Ethernet48" = "sp1:Ethernet0", "lf1:Ethernet52" = "sp2:Ethernet0", "lf2:Ethernet48" = "sp1:Ethernet4", "lf2:Ethernet52" = "sp2:Ethernet4" }
  a        = each.key
  b        = each.value
}
link "host" {
  for_each = { n1 = "lf1:Ethernet0", n2 = "lf1:Ethernet4", n3 = "lf2:Ethernet0" }
  a        = "${each.key}:eth0"
  b        = each.value
}
`

// threeTierHCL is threeTierText with the fixture's platforms.
func threeTierHCL() string {
	sw, nic := fixturePlatforms()
	return strings.NewReplacer(`"SWITCH"`, `"`+string(sw)+`"`, `"NIC"`, `"`+string(nic)+`"`).Replace(threeTierText)
}

// TestSelfPathsExact: in every fabric the walk's path counts, per state and
// per edge, equal a brute-force count of the NIC-to-NIC paths that end at
// another NIC than they start from: dual-homed NICs in two tiers, a lone
// dual-homed host (every path is to itself: none counts), single-homed
// NICs in three tiers.
func TestSelfPathsExact(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t3.fab.hcl"), []byte(threeTierHCL()), 0o644); err != nil {
		t.Fatal(err)
	}
	// The same with n3 dual-homed: a second port on lf1 as well.
	dir2 := t.TempDir()
	dualT3 := strings.Replace(threeTierHCL(), `names = ["Ethernet0", "Ethernet4", "Ethernet48", "Ethernet52"]`, `names = ["Ethernet0", "Ethernet4", "Ethernet8", "Ethernet48", "Ethernet52"]`, 1)
	dualT3 = strings.Replace(dualT3, `  port "eth0" {}`, `  port "eth0" {}
  port "eth1" {}`, 1)
	dualT3 += "link \"n3b\" {\n  a = \"n3:eth1\"\n  b = \"lf1:Ethernet8\"\n}\n"
	if err := os.WriteFile(filepath.Join(dir2, "t3.fab.hcl"), []byte(dualT3), 0o644); err != nil {
		t.Fatal(err)
	}
	load := func(dir string, vars map[string]string) *schema.Fabric {
		f, diags := schema.Load(dir, schema.Options{Vars: vars, Platforms: platforms.Catalog()})
		if diags.HasErrors() {
			t.Fatalf("%s: %v", dir, diags)
		}
		return f
	}
	dual := baseFabric()
	dualHome(dual)
	for _, c := range []struct {
		name string
		f    *schema.Fabric
	}{
		{"fixture, one dual-homed NIC", dual},
		{"roce-storage, 1 node", load("../examples/roce-storage", map[string]string{"storage_nodes": "1"})},
		{"roce-storage, 3 nodes", load("../examples/roce-storage", map[string]string{"storage_nodes": "3"})},
		{"three tiers", load(dir, nil)},
		{"three tiers, a dual-homed NIC", load(dir2, nil)},
		{"ai-training-2subnet", load("../examples/ai-training-2subnet", nil)},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, err := NewWalk(context.Background(), c.f)
			if err != nil {
				t.Fatal(err)
			}
			selfSeen := false
			for fl := Flow(0); fl < numFlows; fl++ {
				g := w.flows[fl]
				selfSeen = selfSeen || g.self != nil
				bs, be := brutePaths(g)
				for i := range g.states {
					if got, want := g.statePaths(int32(i)), bs[int32(i)]; got != want {
						t.Errorf("%s: state %s: %d paths, brute force %d", fl, g.t.ports[g.states[i].pi].ID(), got, want)
					}
				}
				for i := range g.edges {
					if got, want := g.edgePaths(int32(i)), be[int32(i)]; got != want {
						t.Errorf("%s: edge out of %s: %d paths, brute force %d", fl, g.t.ports[g.edges[i].oi].ID(), got, want)
					}
				}
			}
			if c.name != "ai-training-2subnet" && !selfSeen {
				t.Error("no self paths found; the case is meant to have some")
			}
		})
	}
}

// TestLoneDualHomedHostHasNoPaths: a single dual-homed host only reaches
// itself, so a broken hop on its paths is on no NIC-to-NIC path: no finding
// (before, ECN001 reported a path from the host to itself).
func TestLoneDualHomedHostHasNoPaths(t *testing.T) {
	f, diags := schema.Load("../examples/roce-storage", schema.Options{Vars: map[string]string{"storage_nodes": "1"}, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	editQoS(port(f, "leaf1:Ethernet1"), func(q *schema.PortQoS) { q.Queues[3].ECN = schema.Value[*schema.ECNProfile]{Set: true} })
	fs, err := Run(context.Background(), f, Options{Only: []string{"ECN001"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range fs {
		t.Errorf("finding on a path from the host to itself: %s %s (path %s)", fd.Rule, fd.Summary, fd.TraceString())
	}
}
