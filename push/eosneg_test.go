package push

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/push/planfile"
)

// TestEOSUndoesNoLines: a device whose interface has "no qos trust" and a
// tx-queue with "no priority" converges to a render that wants neither,
// through "default …" commands.
//
// The render is EOS text: the test runs on every platform whose
// transaction is a configuration session (EOS and its copies).
func TestEOSUndoesNoLines(t *testing.T) {
	for _, pc := range casesWhere(t, "a config-session platform", func(pc platformCase) bool {
		return pc.dialect().Transaction == dialect.TxnSession
	}) {
		t.Run(string(pc.dev.platform), func(t *testing.T) { eosUndoesNoLines(t, pc) })
	}
}

func eosUndoesNoLines(t *testing.T, pc platformCase) {
	rendered := "interface Ethernet1\n   qos trust dscp\n   !\n   tx-queue 3\n      bandwidth percent 50\n"
	r := newRig(t, testDevice{name: "leaf1", platform: pc.dev.platform, rendered: rendered})
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

// TestRemovesStaleGeneratedObjects: a class-map fabricgen generated (FG-…)
// that the intent no longer produces is removed, after the policy-map
// stops using it, and the device converges.
//
// It runs on every platform whose render has that class (NX-OS's).
func TestRemovesStaleGeneratedObjects(t *testing.T) {
	const class = "class-map type qos match-any FG-DSCP-cnp\n  match dscp 48\n"
	for _, pc := range casesWhere(t, "a render with the FG-DSCP-cnp class-map", func(pc platformCase) bool {
		return strings.Contains(pc.dev.rendered, class)
	}) {
		t.Run(string(pc.dev.platform), func(t *testing.T) { removesStaleGeneratedObjects(t, pc) })
	}
}

func removesStaleGeneratedObjects(t *testing.T, pc platformCase) {
	full := pc.dev.rendered
	dev := pc.dev
	dev.name = "leaf2"
	r := newRig(t, dev)
	if res := r.apply(r.plan(), t.TempDir()); res[0].Status != StatusApplied {
		t.Fatalf("first apply: %s %s", res[0].Status, res[0].Reason)
	}
	// The intent drops the CNP class: its class-map and policy-map class go.
	reduced := strings.NewReplacer(
		"class-map type qos match-any FG-DSCP-cnp\n  match dscp 48\n", "",
		"  class FG-DSCP-cnp\n    set qos-group 6\n", "").Replace(full)
	if reduced == full {
		t.Fatal("fixture has no FG-DSCP-cnp class to drop")
	}
	r.inputs[0].Rendered = []byte(reduced)
	p := r.plan()
	cmds := p.Devices[0].Changes.Commands()
	if len(cmds) == 0 || cmds[len(cmds)-1] != "no class-map type qos match-any FG-DSCP-cnp" {
		t.Fatalf("commands %q do not end by removing the class-map", cmds)
	}
	if res := r.apply(p, t.TempDir()); res[0].Status != StatusApplied {
		t.Fatalf("second apply: %s %s", res[0].Status, res[0].Reason)
	}
	if d := r.plan().Devices[0]; d.Status != planfile.StatusUnchanged {
		t.Fatalf("not converged:\n%s", d.Diff.Text)
	}
	if strings.Contains(r.lab.Device("leaf2").RunningConfig(), "FG-DSCP-cnp") {
		t.Error("the stale class-map is still on the device")
	}
}
