package cisconxos_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestFaultDropMidChange: the connection drops after three config
// commands (nxos applied lines stay); the device keeps or discards what the session staged as
// the platform does, and the fault fires once.
func TestFaultDropMidChange(t *testing.T) {
	c := struct {
		prompt string
		script []string
		// unchanged: the platform discards what the dropped session staged.
		unchanged bool
		// kept is a line the running config must contain after the drop.
		kept string
	}{`leaf1[^\n]*# $`,
		[]string{"configure terminal", "interface Ethernet1/1", "mtu 9216", "priority-flow-control mode on"}, false, "  mtu 9216"}
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
	if c.unchanged && stripNXOSHeader(after) != stripNXOSHeader(before) {
		t.Errorf("running config changed:\n%s", cli.UnifiedDiff("before", "after", before, after))
	}
	if c.kept != "" && !strings.Contains(after, c.kept) {
		t.Errorf("running config lacks %q after the drop:\n%s", c.kept, after)
	}
	// The fault fires once: a new connection works.
	sh2 := labtest.OpenShell(t, l, "leaf1", c.prompt)
	sh2.Run("")
}

// TestFaultReject: a rejected command is refused the platform's way and
// changes nothing; after ClearFault it is accepted.
func TestFaultReject(t *testing.T) {
	c := struct {
		prompt string
		enter  string
		cmd    string
		want   string
	}{`# $`, "configure terminal", "system qos", "ERROR:"}
	var ports []string
	if plat().Spec.Host {
		ports = []string{"eth0"}
	}
	l := labtest.Start(t, lab.DeviceSpec{Name: "d1", Platform: plat().Name, Ports: ports})
	dev := l.Device("d1")
	before := dev.RunningConfig()
	dev.SetFault(lab.Fault{Reject: `^(qos map|system qos|dcb pfc)`})
	sh := labtest.OpenShell(t, l, "d1", c.prompt)
	sh.Run(c.enter)
	if got := sh.Run(c.cmd); !strings.Contains(got, c.want) {
		t.Errorf("%s: got %q, want %q", c.cmd, got, c.want)
	}
	if after := dev.RunningConfig(); stripNXOSHeader(after) != stripNXOSHeader(before) {
		t.Errorf("rejected command changed the config:\n%s", cli.UnifiedDiff("before", "after", before, after))
	}
	dev.ClearFault()
	if got := sh.Run(c.cmd); strings.Contains(got, c.want) {
		t.Errorf("after ClearFault still rejected: %q", got)
	}
}
