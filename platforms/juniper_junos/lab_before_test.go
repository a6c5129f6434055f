package juniperjunos_test

import (
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestBeforeRunsAtTheLine: an armed happening runs right before the line
// it names is handled, once, and a device change a Junos exclusive lock
// keeps out is its error.
func TestBeforeRunsAtTheLine(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "spine1", Platform: plat().Name})
	dev := l.Device("spine1")
	sh := labtest.OpenShell(t, l, "spine1", `(?:admin@spine1[>#] )$`)
	armed, err := dev.Before(`^show system commit$`, lab.Happening{OutOfBand: []string{"set system ntp server 192.0.2.200"}})
	if err != nil {
		t.Fatal(err)
	}
	if armed.Ran() {
		t.Fatal("ran before its line")
	}
	sh.Run("show version")
	if armed.Ran() {
		t.Fatal("ran at another line")
	}
	sh.Run("show system commit")
	if err := armed.Wait(time.Second); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(dev.RunningConfig(), "192.0.2.200") {
		t.Error("the change did not happen")
	}
	sh.Run("configure exclusive")
	locked, err := dev.Before(`^show$`, lab.Happening{OutOfBand: []string{"set system ntp server 192.0.2.201"}})
	if err != nil {
		t.Fatal(err)
	}
	sh.Run("show")
	if err := locked.Wait(time.Second); err == nil || !strings.Contains(err.Error(), "locked") {
		t.Errorf("a change while configure exclusive is held: %v, want locked", err)
	}
	if _, err := dev.Before(`(`, lab.Happening{}); err == nil {
		t.Error("a bad pattern was armed")
	}
}
