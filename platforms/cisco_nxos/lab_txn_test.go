package cisconxos_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

func TestNXOSCheckpointsDeviceWide(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "leaf1", Platform: plat().Name})
	dev := l.Device("leaf1")
	a := labtest.OpenShell(t, l, "leaf1", `leaf1[^\n]*# $`)
	if out := a.Run("checkpoint fg-1 description before the change"); !strings.Contains(out, "Done") {
		t.Fatalf("checkpoint: %q", out)
	}
	_ = a.Close()
	b := labtest.OpenShell(t, l, "leaf1", `leaf1[^\n]*# $`)
	b.Run("checkpoint")
	sum := b.Run("show checkpoint summary")
	want := regexp.MustCompile(`(?s)User Checkpoint Summary\n-{80}\n` +
		`1\) fg-1:\nCreated by admin\nCreated at \w{3}, \d\d:\d\d:\d\d \d\d \w{3} \d{4}\nSize is [\d,]+ bytes\nDescription: before the change\n\n` +
		`2\) user-checkpoint-1:\nCreated by admin\nCreated at [^\n]+\nSize is [\d,]+ bytes\nDescription: None\n`)
	if !want.MatchString(sum) {
		t.Errorf("show checkpoint summary:\n%s", sum)
	}
	if out := b.Run("checkpoint fg-1"); !strings.Contains(out, "ERROR: Checkpoint name 'fg-1' is already in use") {
		t.Errorf("second checkpoint of the same name: %q", out)
	}
	before := stripNXOSHeader(dev.RunningConfig())
	b.Run("configure terminal")
	b.Run("interface Ethernet1/2")
	b.Run("mtu 9216")
	b.Run("end")
	if out := b.Run("rollback running-config checkpoint fg-1"); !strings.Contains(out, "Rollback completed successfully") {
		t.Fatalf("rollback: %q", out)
	}
	if got := stripNXOSHeader(dev.RunningConfig()); got != before {
		t.Errorf("rollback did not restore:\n%s", cli.UnifiedDiff("checkpoint", "now", before, got))
	}
	b.Run("no checkpoint fg-1")
	if sum := b.Run("show checkpoint summary"); strings.Contains(sum, "fg-1") || !strings.Contains(sum, "1) user-checkpoint-1:") {
		t.Errorf("after no checkpoint:\n%s", sum)
	}
	if out := b.Run("no checkpoint fg-1"); !strings.Contains(out, "ERROR:") {
		t.Errorf("no checkpoint of a missing one: %q", out)
	}
}
