package nvidiacumulus_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestFaultDropMidChange: the connection drops after three config
// commands (cumulus pending revision not applied); the device keeps or discards what the session staged as
// the platform does, and the fault fires once.
func TestFaultDropMidChange(t *testing.T) {
	c := struct {
		prompt string
		script []string
		// unchanged: the platform discards what the dropped session staged.
		unchanged bool
		// kept is a line the running config must contain after the drop.
		kept string
	}{`:~\$ $`,
		[]string{"nv set interface swp1 link mtu 9216", "nv set interface swp2 link mtu 9216", "nv set interface swp3 link mtu 9216"}, true, ""}
	l := labtest.Start(t, lab.DeviceSpec{Name: "leaf1", Platform: plat().Name})
	dev := l.Device("leaf1")
	before := dev.RunningConfig()
	dev.SetFault(lab.Fault{DropAfter: 3})
	sh := labtest.OpenShell(t, l, "leaf1", c.prompt)
	for _, cmd := range c.script[:len(c.script)-1] {
		sh.Run(cmd)
	}
	sh.Send(c.script[len(c.script)-1])
	if !sh.Closed() {
		t.Fatal("connection not dropped after 3 config commands")
	}
	after := dev.RunningConfig()
	if c.unchanged && after != before {
		t.Errorf("running config changed:\n%s", cli.UnifiedDiff("before", "after", before, after))
	}
	if c.kept != "" && !strings.Contains(after, c.kept) {
		t.Errorf("running config lacks %q after the drop:\n%s", c.kept, after)
	}
	// The fault fires once: a new connection works.
	sh2 := labtest.OpenShell(t, l, "leaf1", c.prompt)
	sh2.Run("")
}
