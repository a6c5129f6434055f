package aristaeos_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestRejectSparesReadOnly: under a reject-everything fault, over real
// SSH, every read-back push uses for plan still answers, and a change is
// refused and leaves the device as it was.
func TestRejectSparesReadOnly(t *testing.T) {
	c := struct {
		prompt string
		reads  []string
		// enter runs before change (and is never refused).
		enter  string
		change string
		refuse string
	}{`#$`, []string{"show running-config", "show configuration sessions | json", "show session-config named x diffs"},
		"configure", "qos map dscp 26 to traffic-class 3", "% Unavailable command"}
	var ports []string
	if plat().Spec.Host {
		ports = []string{"eth0"}
	}
	l := labtest.Start(t, lab.DeviceSpec{Name: "d1", Platform: plat().Name, Ports: ports})
	dev := l.Device("d1")
	before := dev.Export()
	dev.SetFault(lab.Fault{Reject: `.*`})
	sh := labtest.OpenShell(t, l, "d1", c.prompt)
	// The session the diff names exists: entering it is not a change.
	sh.Run("configure session x")
	sh.Run("end")
	for _, r := range c.reads {
		if got := sh.Run(r); strings.Contains(got, c.refuse) || strings.Contains(got, "Operation not permitted") {
			t.Errorf("read-only %q refused: %q", r, got)
		}
	}
	sh.Run(c.enter)
	if got := sh.Run(c.change); !strings.Contains(got, c.refuse) {
		t.Errorf("%s: got %q, want the refusal %q", c.change, got, c.refuse)
	}
	if after := dev.Export(); after != before {
		t.Errorf("refused change changed the device:\n%s", cli.UnifiedDiff("before", "after", before, after))
	}
}
