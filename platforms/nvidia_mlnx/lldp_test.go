package nvidiamlnx_test

import (
	"os"
	"testing"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/platforms/internal/lldp/lldptest"
)

// TestLLDPParse: lldpd's documented JSON (lldpctl -f json) as the platform
// runs it, with hostile output as errors.
func TestLLDPParse(t *testing.T) {
	sample, err := os.ReadFile("testdata/lldp/lldpctl.json")
	if err != nil {
		t.Fatal(err)
	}
	if plat().LLDP.Command != "lldpctl -f json" || plat().LLDP.Parse == nil {
		t.Fatalf("LLDP = %q", plat().LLDP.Command)
	}
	lldptest.Check(t, plat().LLDP.Parse, string(sample), []importer.Neighbor{
		{LocalPort: "ens1f0np0", RemoteSystem: "leaf1", RemotePort: "Ethernet1"},
	})
}

func FuzzLLDPNvidiaMlnx(f *testing.F) {
	sample, err := os.ReadFile("testdata/lldp/lldpctl.json")
	if err != nil {
		f.Fatal(err)
	}
	lldptest.Fuzz(f, plat().LLDP.Parse, string(sample))
}

// TestLabLLDP: the lab's device answers over SSH with the intent's links.
func TestLabLLDP(t *testing.T) {
	lldptest.CheckLab(t, plat(), "../..", "clos-400g", "nic01", `admin@nic01:~\$ $`)
}
