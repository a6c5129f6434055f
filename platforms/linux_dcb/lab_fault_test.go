package linuxdcb_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestFaultReject: a rejected command is refused the platform's way and
// changes nothing; after ClearFault it is accepted.
func TestFaultReject(t *testing.T) {
	c := struct {
		prompt string
		enter  string
		cmd    string
		want   string
	}{`\$ $`, "true", "dcb pfc set dev eth0 prio-pfc 3:on", "Operation not permitted"}
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
	if after := dev.RunningConfig(); after != before {
		t.Errorf("rejected command changed the config:\n%s", cli.UnifiedDiff("before", "after", before, after))
	}
	dev.ClearFault()
	if got := sh.Run(c.cmd); strings.Contains(got, c.want) {
		t.Errorf("after ClearFault still rejected: %q", got)
	}
}
