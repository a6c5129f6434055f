package aristaeos_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/rendertest"
	aristaeos "github.com/fabricgen/fabricgen/platforms/arista_eos"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
	"github.com/fabricgen/fabricgen/templates/view"
)

// TestEveryRefusalReported: a device with two values its platform cannot
// express (here trust both and mtu 9216) gets both refusals, from the
// engine's Check and in its render error, each at its own line; fixing one
// still leaves the other (moved from templates/refusals_test.go).
func TestEveryRefusalReported(t *testing.T) {
	f, d := rendertest.TinyFabric(aristaeos.Platform(), "Ethernet1")
	q := d.Ports[0].QoS
	trustSrc := schema.Range{Filename: "p.fab.hcl", Start: schema.Pos{Line: 3, Column: 3}}
	mtuSrc := schema.Range{Filename: "p.fab.hcl", Start: schema.Pos{Line: 7, Column: 3}}
	q.Trust = schema.Value[schema.Trust]{V: schema.TrustBoth, Set: true, Src: trustSrc}
	q.MTU = schema.Value[int]{V: 9216, Set: true, Src: mtuSrc}
	rs := templates.NewChecker().Check(f, d)
	if len(rs) != 2 {
		t.Fatalf("Check: %d refusals, want trust both and mtu 9216: %v", len(rs), rs)
	}
	if rs[0].Src != trustSrc || !strings.Contains(rs[0].Value, "trust both") || rs[1].Src != mtuSrc || !strings.Contains(rs[1].Value, "mtu 9216") {
		t.Errorf("refusals %q at %v, %q at %v", rs[0].Value, rs[0].Src, rs[1].Value, rs[1].Src)
	}
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Render(f, d)
	if err == nil || len(view.AllUnsupported(err)) != 2 || strings.Count(err.Error(), "\n") != 1 {
		t.Errorf("render error %v: want both refusals, one per line", err)
	}
	q.Trust.V = schema.TrustDSCP
	if rs := templates.NewChecker().Check(f, d); len(rs) != 1 || rs[0].Src != mtuSrc {
		t.Errorf("after fixing trust: %v, want the mtu refusal alone", rs)
	}
}
