package emulator

import (
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/schema"
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
		// An existing configuration never fails to load, and what it
		// prints loads to the same print.
		e := &eos{env: &cli.Env{Spec: cli.Spec{Name: "f", Platform: schema.AristaEOS}, Now: time.Now}, g: eosGrammar()}
		bf := cli.NewTree(eosGrammar())
		bf.LoadExisting(text, cli.LoadOptions{Block: eosBanner})
		first := e.render(bf, false)
		again := cli.NewTree(eosGrammar())
		again.LoadExisting(first, cli.LoadOptions{Block: eosBanner})
		if second := e.render(again, false); second != first {
			t.Fatalf("printed config does not load back the same:\n%s", cli.UnifiedDiff("first", "second", first, second))
		}
	})
}
