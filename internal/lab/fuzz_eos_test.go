package lab

import (
	"testing"
	"time"

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
		tr := newCfgTree(eosGrammar())
		_ = tr.load(text)
		_ = patch(newCfgTree(eosGrammar()).root, tr.root, "", "   ")
		// An existing configuration never fails to load, and what it
		// prints loads to the same print.
		e := &eos{env: &deviceEnv{spec: emuSpec{Name: "f", Platform: schema.AristaEOS}, now: time.Now}, g: eosGrammar()}
		bf := newCfgTree(eosGrammar())
		bf.loadExisting(text, loadOptions{block: eosBanner})
		first := e.render(bf, false)
		again := newCfgTree(eosGrammar())
		again.loadExisting(first, loadOptions{block: eosBanner})
		if second := e.render(again, false); second != first {
			t.Fatalf("printed config does not load back the same:\n%s", unifiedDiff("first", "second", first, second))
		}
	})
}
