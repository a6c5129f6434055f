package juniperjunos_test

import (
	"os"
	"testing"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/platforms/internal/lldp/lldptest"
)

// TestLLDPParse: the JSON rendering of <lldp-neighbors-information>, with
// the older lldp-local-port-id and newer lldp-local-interface, a locally
// assigned port ID with its description, and hostile output as errors.
func TestLLDPParse(t *testing.T) {
	sample, err := os.ReadFile("testdata/lldp/neighbors.json")
	if err != nil {
		t.Fatal(err)
	}
	parse := plat().LLDP.Parse
	if plat().LLDP.Command != "show lldp neighbors | display json" || parse == nil {
		t.Fatalf("LLDP = %q", plat().LLDP.Command)
	}
	lldptest.Check(t, parse, string(sample), []importer.Neighbor{
		{LocalPort: "et-0/0/48", RemoteSystem: "eos-spine1", RemotePort: "Ethernet1"},
		{LocalPort: "et-0/0/49", RemoteSystem: "qfx-spine2", RemotePort: "et-0/0/1"},
	})
	for _, c := range []struct {
		name, out string
		n         int
		err       bool
	}{
		{"no neighbours", `{"lldp-neighbors-information": [{"attributes": {}}]}`, 0, false},
		{"object, not list", `{"lldp-neighbors-information": {"lldp-neighbor-information": {"lldp-local-port-id": [{"data": "et-0/0/1"}], "lldp-remote-system-name": [{"data": "s"}], "lldp-remote-port-id": [{"data": "swp1"}]}}}`, 1, false},
		{"data not a list", `{"lldp-neighbors-information": [{"lldp-neighbor-information": [{"lldp-local-port-id": "et-0/0/1"}]}]}`, 0, true},
		{"no table", `{"rpc-error": []}`, 0, true},
		{"rows of strings", `{"lldp-neighbors-information": [{"lldp-neighbor-information": ["x"]}]}`, 0, true},
	} {
		ns, err := parse(c.out)
		if (err != nil) != c.err || len(ns) != c.n {
			t.Errorf("%s: got %v, %v; want %d neighbours, error %v", c.name, ns, err, c.n, c.err)
		}
	}
}

func FuzzLLDPJuniperJunos(f *testing.F) {
	sample, err := os.ReadFile("testdata/lldp/neighbors.json")
	if err != nil {
		f.Fatal(err)
	}
	lldptest.Fuzz(f, plat().LLDP.Parse, string(sample))
}

// TestLabLLDP: the lab's spine answers over SSH with the intent's links.
func TestLabLLDP(t *testing.T) {
	lldptest.CheckLab(t, plat(), "../..", "clos-400g", "spine1", `admin@spine1[>#] $`)
}
