package templates

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// TestEveryRefusalReported: a device with two values its platform cannot
// express gets both refusals, from Check and in render's error, each at its
// own line; fixing one still leaves the other.
func TestEveryRefusalReported(t *testing.T) {
	f, d := tinyFabric(schema.AristaEOS, "Ethernet1")
	q := d.Ports[0].QoS
	trustSrc := schema.Range{Filename: "p.fab.hcl", Start: schema.Pos{Line: 3, Column: 3}}
	mtuSrc := schema.Range{Filename: "p.fab.hcl", Start: schema.Pos{Line: 7, Column: 3}}
	q.Trust = schema.Value[schema.Trust]{V: schema.TrustBoth, Set: true, Src: trustSrc}
	q.MTU = schema.Value[int]{V: 9216, Set: true, Src: mtuSrc}
	rs := NewChecker().Check(f, d)
	if len(rs) != 2 {
		t.Fatalf("Check: %d refusals, want trust both and mtu 9216: %v", len(rs), rs)
	}
	if rs[0].Src != trustSrc || !strings.Contains(rs[0].Value, "trust both") || rs[1].Src != mtuSrc || !strings.Contains(rs[1].Value, "mtu 9216") {
		t.Errorf("refusals %q at %v, %q at %v", rs[0].Value, rs[0].Src, rs[1].Value, rs[1].Src)
	}
	_, err := newTestRenderer(t).Render(f, d)
	if err == nil || len(view.AllUnsupported(err)) != 2 || strings.Count(err.Error(), "\n") != 1 {
		t.Errorf("render error %v: want both refusals, one per line", err)
	}
	q.Trust.V = schema.TrustDSCP
	if rs := NewChecker().Check(f, d); len(rs) != 1 || rs[0].Src != mtuSrc {
		t.Errorf("after fixing trust: %v, want the mtu refusal alone", rs)
	}
}

// TestRoutedUnnumbered: a port with routed = true and no address is an L3
// port on its IPv6 link-local address on every switch platform (BGP
// unnumbered), not an L2 switchport; an L2 port stays L2 and an addressed
// port keeps its address.
func TestRoutedUnnumbered(t *testing.T) {
	r := newTestRenderer(t)
	for _, c := range []struct {
		plat          schema.Platform
		routed, plain []string // lines of the unnumbered port; lines no L2 port may have
	}{
		{schema.AristaEOS, []string{"interface Ethernet1\n", "   no switchport\n   ipv6 enable\n"}, []string{"no switchport", "ipv6 enable"}},
		{schema.CiscoNXOS, []string{"interface Ethernet1/1\n", "  no switchport\n", "  ipv6 address use-link-local-only\n"}, []string{"no switchport", "use-link-local-only"}},
		{schema.JuniperJunos, []string{"set interfaces et-0/0/0 unit 0 family inet6\n"}, []string{"family inet6"}},
		{schema.NvidiaCumulus, []string{"nv set interface swp1 ip ipv6 enable on\n"}, []string{"ipv6 enable"}},
	} {
		t.Run(string(c.plat), func(t *testing.T) {
			name := portName(c.plat)
			f, d := tinyFabric(c.plat, name)
			if c.plat == schema.JuniperJunos {
				d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{} // Junos takes fill levels
			}
			d.Ports[0].Routed = set(true)
			o, err := r.Render(f, d)
			if err != nil {
				t.Fatal(err)
			}
			text := string(o.Text)
			for _, want := range c.routed {
				if !strings.Contains(text, want) {
					t.Errorf("unnumbered port: no %q in\n%s", strings.TrimSpace(want), text)
				}
			}
			if strings.Contains(text, "ip address") || strings.Contains(text, "family inet address") {
				t.Errorf("unnumbered port got an address:\n%s", text)
			}
			f, d = tinyFabric(c.plat, name)
			if c.plat == schema.JuniperJunos {
				d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{}
			}
			o, err = r.Render(f, d)
			if err != nil {
				t.Fatal(err)
			}
			for _, not := range c.plain {
				if strings.Contains(string(o.Text), not) {
					t.Errorf("L2 port has %q:\n%s", not, o.Text)
				}
			}
		})
	}
}
