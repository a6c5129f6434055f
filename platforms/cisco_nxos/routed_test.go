package cisconxos

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/rendertest"
)

// TestRoutedUnnumbered: a port with routed = true and no address is an L3
// port on its IPv6 link-local address (BGP unnumbered), not an L2
// switchport; an L2 port stays L2 (moved from templates/refusals_test.go).
func TestRoutedUnnumbered(t *testing.T) {
	routed := []string{"interface Ethernet1/1\n", "  no switchport\n", "  ipv6 address use-link-local-only\n"} // lines of the unnumbered port
	plain := []string{"no switchport", "use-link-local-only"}                                                  // lines no L2 port may have
	render := func(isRouted bool) string {
		f, d := rendertest.TinyFabric(Platform(), "Ethernet1/1")
		if isRouted {
			d.Ports[0].Routed = rendertest.Set(true)
		}
		text, err := rendertest.Render(t, Platform(), f, d)
		if err != nil {
			t.Fatal(err)
		}
		return text
	}
	text := render(true)
	for _, want := range routed {
		if !strings.Contains(text, want) {
			t.Errorf("unnumbered port: no %q in\n%s", strings.TrimSpace(want), text)
		}
	}
	if strings.Contains(text, "ip address") || strings.Contains(text, "family inet address") {
		t.Errorf("unnumbered port got an address:\n%s", text)
	}
	text = render(false)
	for _, not := range plain {
		if strings.Contains(text, not) {
			t.Errorf("L2 port has %q:\n%s", not, text)
		}
	}
}
