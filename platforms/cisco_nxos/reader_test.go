package cisconxos

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/qosread/qosreadtest"
)

func FuzzReadQoS(f *testing.F) {
	qosreadtest.Fuzz(f, read, "class-map type qos match-any X\n  match dscp 0-63\npolicy-map type qos P\n  class X\n    set qos-group 3\ninterface Ethernet1/1\n  service-policy type qos input P\n")
}

// TestReadFixedRestore: the switch-wide "priority-flow-control
// fixed-restore multiplier N" reads back as N × 100 ms on every port; none
// (or a value that is no positive number) leaves it to the switch (0).
func TestReadFixedRestore(t *testing.T) {
	const iface = "interface Ethernet1/1\n  priority-flow-control mode on\n  priority-flow-control watch-dog-interval on\n"
	for _, c := range []struct {
		name, text string
		want       int
	}{
		{"multiplier 2", "priority-flow-control watch-dog-interval on\npriority-flow-control fixed-restore multiplier 2\n" + iface, 200},
		{"multiplier 15 after the ports", iface + "priority-flow-control fixed-restore multiplier 15\n", 1500},
		{"none", "priority-flow-control watch-dog-interval on\n" + iface, 0},
		{"zero", "priority-flow-control fixed-restore multiplier 0\n" + iface, 0},
		{"not a number", "priority-flow-control fixed-restore multiplier x\n" + iface, 0},
	} {
		d, err := read(c.text)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := d.Port("Ethernet1/1"); got.WatchdogRestoreMS != c.want || !got.Watchdog {
			t.Errorf("%s: Ethernet1/1 restore %d ms (watchdog %v), want %d ms (watchdog on)", c.name, got.WatchdogRestoreMS, got.Watchdog, c.want)
		}
		if got := d.Default.WatchdogRestoreMS; got != c.want {
			t.Errorf("%s: default restore %d ms, want %d", c.name, got, c.want)
		}
	}
}
