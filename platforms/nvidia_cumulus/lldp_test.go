package nvidiacumulus

import (
	"fmt"
	"strings"
	"testing"
)

// TestParseLLDP reads the table of nv show interface lldp in the NVUE
// command reference's shape: switch ports with a neighbour are kept, the
// management port and ports without one are not.
func TestParseLLDP(t *testing.T) {
	const table = `Interface  Speed  Type  Remote Host      Remote Port      
---------  -----  ----  ---------------  -----------------
eth0       1G     eth   oob-mgmt-switch  swp10            
swp1       1G     swp   server01         48:b0:2d:76:ee:8e
swp2       1G     swp                                     
swp49      400G   swp   leaf 02          swp49            
swp51s0    100G   swp   spine01          Ethernet0        
`
	cases := []struct {
		name, out string
		want      string // neighbours as "local>system:port", or "error"
	}{
		{"table", table, "swp1>server01:48:b0:2d:76:ee:8e swp49>leaf 02:swp49 swp51s0>spine01:Ethernet0"},
		{"no data", "No Data\n", ""},
		{"empty", "", ""},
		{"crlf", strings.ReplaceAll(table, "\n", "\r\n"), "swp1>server01:48:b0:2d:76:ee:8e swp49>leaf 02:swp49 swp51s0>spine01:Ethernet0"},
		{"not the table", "Error: The requested item does not exist.\n", "error"},
		{"no remote columns", "Interface  Speed\n---------  -----\nswp1       1G\n", "error"},
		{"short row", "Interface  Remote Host  Remote Port\n---------  -----------  -----------\nswp1\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ns, err := parseLLDP(c.out)
			if c.want == "error" {
				if err == nil {
					t.Fatalf("want an error, got %v", ns)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, n := range ns {
				got = append(got, fmt.Sprintf("%s>%s:%s", n.LocalPort, n.RemoteSystem, n.RemotePort))
			}
			if strings.Join(got, " ") != c.want {
				t.Errorf("got %q, want %q", strings.Join(got, " "), c.want)
			}
		})
	}
}

// FuzzParseLLDP: no panic on any output.
func FuzzParseLLDP(f *testing.F) {
	f.Add("Interface  Remote Host  Remote Port\n---------  -----------  -----------\nswp1       a            b\n")
	f.Fuzz(func(t *testing.T, out string) {
		_, _ = parseLLDP(out)
	})
}

// TestLLDPLab: the lab answers nv show interface lldp with a table the
// parser reads (no far ends: the lab's port view names none).
func TestLLDPLab(t *testing.T) {
	out := lldpTable([][]string{{"Interface", "Speed", "Type", "Remote Host", "Remote Port"}, {"swp1", "400G", "swp", "", ""}, {"swp10s0", "100G", "swp", "", ""}})
	if !strings.HasPrefix(out, "Interface  Speed  Type  Remote Host  Remote Port\n---------  -----  ----  -----------  -----------\nswp1") {
		t.Errorf("table:\n%s", out)
	}
	ns, err := parseLLDP(out)
	if err != nil || len(ns) != 0 {
		t.Errorf("neighbours %v, %v; want none", ns, err)
	}
	// With far ends (when the lab names them) the parser reads them back.
	out = lldpTable([][]string{{"Interface", "Speed", "Type", "Remote Host", "Remote Port"}, {"swp1", "400G", "swp", "spine-01", "swp7"}})
	if ns, err := parseLLDP(out); err != nil || len(ns) != 1 || ns[0].RemoteSystem != "spine-01" || ns[0].RemotePort != "swp7" {
		t.Errorf("neighbours %v, %v; want spine-01 swp7", ns, err)
	}
}
