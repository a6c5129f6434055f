package cisconxos_test

import (
	"os"
	"testing"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/platforms/internal/lldp/lldptest"
)

// TestLLDPParse: NX-API's documented shape (short local port names, a
// MAC port ID from a host), the single-row object, no table, and hostile
// output as errors.
func TestLLDPParse(t *testing.T) {
	sample, err := os.ReadFile("testdata/lldp/neighbors-detail.json")
	if err != nil {
		t.Fatal(err)
	}
	parse := plat().LLDP.Parse
	if plat().LLDP.Command != "show lldp neighbors detail | json" || parse == nil {
		t.Fatalf("LLDP = %q", plat().LLDP.Command)
	}
	lldptest.Check(t, parse, string(sample), []importer.Neighbor{
		{LocalPort: "Ethernet1/1", RemoteSystem: "gpu01", RemotePort: "eth0"},
		{LocalPort: "Ethernet1/49", RemoteSystem: "spine1", RemotePort: "Ethernet1/1"},
	})
	for _, c := range []struct {
		name, out string
		n         int
		err       bool
	}{
		{"no neighbours: no table", `{}`, 0, false},
		{"one row as an object", `{"TABLE_nbor_detail": {"ROW_nbor_detail": {"l_port_id": "Ethernet1/2", "sys_name": "s", "port_id": "swp1"}}}`, 1, false},
		{"mgmt0 kept as is", `{"TABLE_nbor_detail": {"ROW_nbor_detail": {"l_port_id": "mgmt0", "sys_name": "oob", "port_id": "swp1"}}}`, 1, false},
		{"table a list", `{"TABLE_nbor_detail": []}`, 0, true},
		{"rows of numbers", `{"TABLE_nbor_detail": {"ROW_nbor_detail": [1]}}`, 0, true},
		{"no local port", `{"TABLE_nbor_detail": {"ROW_nbor_detail": {"sys_name": "s", "port_id": "e"}}}`, 0, true},
	} {
		ns, err := parse(c.out)
		if (err != nil) != c.err || len(ns) != c.n {
			t.Errorf("%s: got %v, %v; want %d neighbours, error %v", c.name, ns, err, c.n, c.err)
		}
	}
}

func FuzzLLDPCiscoNXOS(f *testing.F) {
	sample, err := os.ReadFile("testdata/lldp/neighbors-detail.json")
	if err != nil {
		f.Fatal(err)
	}
	lldptest.Fuzz(f, plat().LLDP.Parse, string(sample))
}

// TestLabLLDP: the lab's leaf answers over SSH with the intent's links.
func TestLabLLDP(t *testing.T) {
	lldptest.CheckLab(t, plat(), "../..", "clos-400g", "leaf2", `leaf2[^\n]*# $`, "terminal length 0")
}
