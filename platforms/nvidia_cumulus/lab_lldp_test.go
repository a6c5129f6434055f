package nvidiacumulus_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestLabLLDP: over real SSH, the lab's switch answers the platform's
// LLDP command with a table its parser reads, so import --inventory
// reads a lab device without an error.
func TestLabLLDP(t *testing.T) {
	p := plat()
	l := labtest.Start(t, lab.DeviceSpec{Name: "d1", Platform: p.Name, Ports: []string{"swp1", "swp2"}})
	sh := labtest.OpenShell(t, l, "d1", `\$ $`)
	out := sh.Run(p.LLDP.Command)
	if !strings.Contains(out, "Remote Host") || !strings.Contains(out, "swp2") {
		t.Fatalf("%s answered %q", p.LLDP.Command, out)
	}
	i := strings.Index(out, "Interface")
	if _, err := p.LLDP.Parse(out[i:]); err != nil {
		t.Errorf("parse: %v\n%s", err, out)
	}
}
