package aristaeos_test

import (
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

func TestFaultDelay(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "leaf1", Platform: plat().Name})
	sh := labtest.OpenShell(t, l, "leaf1", `#$`)
	l.Device("leaf1").SetFault(lab.Fault{Delay: 150 * time.Millisecond})
	start := time.Now()
	sh.Run("show hostname")
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Errorf("response came after %s, want at least 150ms", d)
	}
}

func TestOutOfBandChange(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "leaf1", Platform: plat().Name})
	dev := l.Device("leaf1")
	if err := dev.ConfigureOutOfBand([]string{"interface Ethernet5", "   description changed by hand"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(dev.RunningConfig(), "interface Ethernet5\n   description changed by hand\n") {
		t.Errorf("out-of-band change missing:\n%s", dev.RunningConfig())
	}
	err := dev.ConfigureOutOfBand([]string{"frobnicate everything"})
	if err == nil || !strings.Contains(err.Error(), "frobnicate") {
		t.Errorf("bad out-of-band line: err = %v, want it to name the line", err)
	}
}

func TestFaultClearedDuringDelay(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "leaf1", Platform: plat().Name})
	dev := l.Device("leaf1")
	sh := labtest.OpenShell(t, l, "leaf1", `#$`)
	dev.SetFault(lab.Fault{Delay: time.Hour, DropAfter: 5})
	if f := dev.Fault(); f.DropAfter != 5 || f.Delay != time.Hour {
		t.Fatalf("Fault() = %+v", f)
	}
	sh.Send("show hostname")
	// The answer is held back: wait until the device has the line, then
	// clear the fault; the answer must come within patience, not an hour.
	until(t, "the device receives the line", func() bool { return slicesContain(dev.History(), "show hostname") })
	dev.ClearFault()
	if out := sh.Wait(); !strings.Contains(out, "Hostname: leaf1") {
		t.Errorf("answer after clearing: %q", out)
	}
	dev.SetFault(lab.Fault{DropAfter: 3})
	sh.Run("configure")
	sh.Run("hostname x1")
	if f := dev.Fault(); f.DropAfter != 2 {
		t.Errorf("after one config command Fault().DropAfter = %d, want 2", f.DropAfter)
	}
}
