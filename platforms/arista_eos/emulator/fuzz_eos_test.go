package emulator

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
)

func FuzzEOSConfig(f *testing.F) {
	for _, s := range []string{
		"interface Ethernet1\n   mtu 9214\n   tx-queue 3\n      no priority\n",
		"ip access-list X\n   permit udp any any eq 4791\n   no 10\n",
		"policy-map type qos P\n   class C\n      set dscp 26\nno policy-map type quality-of-service P\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		tr := cli.NewTree(eosGrammar())
		_ = tr.Load(text)
		_ = cli.Patch(cli.NewTree(eosGrammar()).Root, tr.Root, "", "   ")
		// Loading a saved configuration (the parser and the tree walk) is
		// fuzzed in the platform folder (FuzzEOSRunningConfig), which
		// has the dialect the parser takes.
	})
}
