package push

import (
	"testing"

	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
)

// TestEOSUndoesNoLines: a device whose interface has "no qos trust" and a
// tx-queue with "no priority" converges to a render that wants neither,
// through "default …" commands.
func TestEOSUndoesNoLines(t *testing.T) {
	rendered := "interface Ethernet1\n   qos trust dscp\n   !\n   tx-queue 3\n      bandwidth percent 50\n"
	r := newRig(t, testDevice{name: "leaf1", platform: schema.AristaEOS, rendered: rendered})
	if err := r.lab.Device("leaf1").ConfigureOutOfBand([]string{"interface Ethernet1", "   no qos trust", "   tx-queue 3", "      no priority", "      bandwidth percent 30"}); err != nil {
		t.Fatal(err)
	}
	p := r.plan()
	t.Logf("commands: %q", p.Devices[0].Changes.Commands())
	res := r.apply(p, t.TempDir())
	if res[0].Status != StatusApplied {
		t.Fatalf("apply: %s: %s", res[0].Status, res[0].Reason)
	}
	if d := r.plan().Devices[0]; d.Status != planfile.StatusUnchanged {
		t.Fatalf("second plan: %s\n%s", d.Status, d.Diff.Text)
	}
}
