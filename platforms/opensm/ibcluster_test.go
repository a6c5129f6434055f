package opensm_test

import (
	"path/filepath"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/platforms/opensm"
	"github.com/fabricgen/fabricgen/schema"
)

// TestOpenSMProgramsIBCluster: the README's example, examples/ib-cluster
// (2 spines, 4 leaves, 2 SM hosts, 8 GPU and 2 storage hosts), rendered
// and programmed by the real OpenSM under ibsim, reads back as intended.
func TestOpenSMProgramsIBCluster(t *testing.T) {
	f, diags := schema.Load(filepath.Join("..", "..", "examples", "ib-cluster"), schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags.Errs())
	}
	guid := func(dev string) uint64 {
		d := f.Device(dev)
		if d == nil || d.Port("ib0") == nil || !d.Port("ib0").GUID.Set {
			t.Fatalf("examples/ib-cluster: no %s port ib0 with a guid", dev)
		}
		return d.Port("ib0").GUID.V
	}
	sl := func(class string) int {
		c := f.Class(class)
		if c == nil {
			t.Fatalf("examples/ib-cluster: no traffic_class %s", class)
		}
		return c.SL.V
	}
	opensm.ProveRender(t, f, []opensm.PathCase{
		{"compute partition", guid("gpu01"), guid("gpu08"), 0x8001, sl("compute")},
		{"storage partition, GPU to target", guid("gpu02"), guid("stor01"), 0x8002, sl("storage")},
		{"storage partition, target to GPU", guid("stor02"), guid("gpu07"), 0x8002, sl("storage")},
		{"Default partition", guid("gpu01"), guid("stor02"), 0xffff, sl("default")},
	})
}
