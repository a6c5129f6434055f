package schema_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestPortNaming pins each platform folder's port-name rule, read from the
// catalog the loader takes.
func TestPortNaming(t *testing.T) {
	for _, tc := range []struct {
		platform schema.Platform
		good     []string
		bad      []string
	}{
		{schema.AristaEOS, []string{"Ethernet1", "Ethernet49/1", "Ethernet3/1/4"},
			[]string{"ethernet1", "Eth1", "Ethernet", "Ethernet1/", "Ethernet1/2/3/4", "swp1", "Ethernet1a"}},
		{schema.CiscoNXOS, []string{"Ethernet1/1", "Ethernet1/49/1"},
			[]string{"Ethernet1", "Eth1/1", "Ethernet1/1/1/1", "Ethernet/1"}},
		{schema.JuniperJunos, []string{"et-0/0/0", "xe-0/0/1:2", "ge-1/2/3", "mge-0/0/10"},
			[]string{"et-0/0", "et-0/0/0:", "ae0", "xe0/0/1", "fe-0/0/0", "et-0/0/0:x"}},
		{schema.NvidiaCumulus, []string{"swp1", "swp49s0", "swp10s3"},
			[]string{"swp", "swp1s", "Ethernet1", "swp1s0s1", "eth0"}},
		{schema.SONiC, []string{"Ethernet0", "Ethernet248"},
			[]string{"Ethernet1/1", "Ethernet", "eth0"}},
		{schema.NvidiaMLNX, []string{"eth0", "ens1f0np0", "enp65s0f0np0"},
			[]string{"", ".", "..", "eth0:1", "a/b", "abcdefghijklmnop", "e th0"}},
		{schema.LinuxDCB, []string{"eth1"}, []string{"x y"}},
	} {
		pl, ok := platforms.Get(tc.platform)
		if !ok {
			t.Fatalf("no platform %s", tc.platform)
		}
		n := pl.Spec.Ports
		for _, s := range tc.good {
			if !n.Check(s) {
				t.Errorf("%s rejects %q", tc.platform, s)
			}
		}
		for _, s := range tc.bad {
			if n.Check(s) {
				t.Errorf("%s accepts %q", tc.platform, s)
			}
		}
		if n.Form == "" {
			t.Errorf("%s has no description of its port names", tc.platform)
		}
	}
}
