package aristaeos

import (
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
)

// FuzzEOSRunningConfig: an existing configuration never fails to load
// (lab up --running-config), and what the device prints loads to the same
// print. The text goes through the one EOS parser (config.ParseAsPrinted
// with this folder's dialect) into the emulator's grammar.
func FuzzEOSRunningConfig(f *testing.F) {
	for _, s := range []string{
		"interface Ethernet1\n   mtu 9214\n   tx-queue 3\n      no priority\n",
		"ip access-list X\n   permit udp any any eq 4791\n   no 10\n",
		"policy-map type qos P\n   class C\n      set dscp 26\nno policy-map type quality-of-service P\n",
		"banner login\nhello\n   indented text\n!\nEOF\n!\ninterface Ethernet1\n   mtu 9214\n",
		"policy-map type qos 0\npolicy-map type quality-of-service 1",
	} {
		f.Add(s)
	}
	start := func(t *testing.T, text string) cli.Emulator {
		env := &cli.Env{Spec: cli.Spec{Name: "f", Platform: name, RunningConfig: text}, Now: time.Now,
			AfterFunc: func(time.Duration, func()) func() { return func() {} }}
		e, err := Platform().Emulator(env)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	f.Fuzz(func(t *testing.T, text string) {
		if text == "" {
			return
		}
		first := start(t, text).Export()
		if second := start(t, first).Export(); second != first {
			t.Fatalf("printed config does not load back the same:\n%s", cli.UnifiedDiff("first", "second", first, second))
		}
	})
}
