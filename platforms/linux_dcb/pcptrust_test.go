package linuxdcb_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/rendertest"
	linuxdcb "github.com/fabricgen/fabricgen/platforms/linux_dcb"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

// TestDCBPCPTrustRefused: PCP and both-field trust need dcb apptrust, which
// none of the drivers this platform supports implements (a script with it
// stopped at that line): render and lint refuse them on every driver, at
// the trust attribute, and on mlx5 point at nvidia_mlnx (moved from
// templates/host_test.go).
func TestDCBPCPTrustRefused(t *testing.T) {
	p := linuxdcb.Platform()
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	src := schema.Range{Filename: "hosts.fab.hcl", Start: schema.Pos{Line: 4, Column: 3}}
	for _, driver := range p.Spec.Attrs.Drivers {
		for _, trust := range []schema.Trust{schema.TrustPCP, schema.TrustBoth} {
			t.Run(driver+"/"+string(trust), func(t *testing.T) {
				f, d := rendertest.TinyFabric(p, "eth0")
				d.Driver = rendertest.Set(driver)
				d.Ports[0].QoS.Trust = schema.Value[schema.Trust]{V: trust, Set: true, Src: src}
				_, err := r.Render(f, d)
				if err == nil {
					t.Fatal("rendered")
				}
				for _, want := range []string{"trust " + string(trust) + " on eth0", "dcb apptrust, which " + driver + " does not implement", `set trust = "dscp"`} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error lacks %q: %v", want, err)
					}
				}
				if mlnx := strings.Contains(err.Error(), "nvidia_mlnx"); mlnx != (driver == "mlx5_core") {
					t.Errorf("nvidia_mlnx named: %v, want only for mlx5_core: %v", mlnx, err)
				}
				rs := templates.NewChecker().Check(f, d)
				if len(rs) != 1 || rs[0].Src != src {
					t.Errorf("lint's check: %v, want one refusal at the trust attribute", rs)
				}
			})
		}
	}
}
