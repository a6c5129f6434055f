package aristaeos_test

import (
	"os"
	"testing"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/platforms/internal/lldp/lldptest"
)

// TestLLDPParse: the documented eAPI shape, a single row, no rows, and
// wrong types and hostile output as errors.
func TestLLDPParse(t *testing.T) {
	sample, err := os.ReadFile("testdata/lldp/neighbors.json")
	if err != nil {
		t.Fatal(err)
	}
	parse := plat().LLDP.Parse
	if plat().LLDP.Command != "show lldp neighbors | json" || parse == nil {
		t.Fatalf("LLDP = %q", plat().LLDP.Command)
	}
	lldptest.Check(t, parse, string(sample), []importer.Neighbor{
		{LocalPort: "Ethernet1", RemoteSystem: "spine1.example.net", RemotePort: "Ethernet1"},
		{LocalPort: "Ethernet2", RemoteSystem: "spine2.example.net", RemotePort: "Ethernet1"},
		{LocalPort: "Management1", RemoteSystem: "oob-sw", RemotePort: "Ethernet48"},
	})
	for _, c := range []struct {
		name, out string
		n         int
		err       bool
	}{
		{"no neighbours", `{"lldpNeighbors": []}`, 0, false},
		{"one row as an object", `{"lldpNeighbors": {"port": "Ethernet3/1", "neighborDevice": "s", "neighborPort": "Ethernet1"}}`, 1, false},
		{"no system name is skipped", `{"lldpNeighbors": [{"port": "Ethernet1", "neighborDevice": "", "neighborPort": "Ethernet1"}]}`, 0, false},
		{"no table", `{"tablesDrops": 0}`, 0, true},
		{"rows of strings", `{"lldpNeighbors": ["Ethernet1"]}`, 0, true},
		{"table a number", `{"lldpNeighbors": 7}`, 0, true},
		{"no local port", `{"lldpNeighbors": [{"port": 5, "neighborDevice": "s", "neighborPort": "e"}]}`, 0, true},
		{"escape in a name", `{"lldpNeighbors": [{"port": "Ethernet1", "neighborDevice": "s\u001b[2J", "neighborPort": "e"}]}`, 0, true},
	} {
		ns, err := parse(c.out)
		if (err != nil) != c.err || len(ns) != c.n {
			t.Errorf("%s: got %v, %v; want %d neighbours, error %v", c.name, ns, err, c.n, c.err)
		}
	}
}

func FuzzLLDPAristaEOS(f *testing.F) {
	sample, err := os.ReadFile("testdata/lldp/neighbors.json")
	if err != nil {
		f.Fatal(err)
	}
	lldptest.Fuzz(f, plat().LLDP.Parse, string(sample), `{"lldpNeighbors": {"port": "a", "neighborDevice": "b", "neighborPort": "c"}}`)
}
