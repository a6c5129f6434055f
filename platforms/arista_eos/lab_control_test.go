package aristaeos_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

func shortDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "lab")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(d) })
	return d
}

func TestControlFaultClearedDuringCommand(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "leaf1", Platform: plat().Name})
	ctx := context.Background()
	path := filepath.Join(shortDir(t), lab.ControlSocket)
	srv, err := l.ServeControl(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c, err := lab.DialControl(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sh := labtest.OpenShell(t, l, "leaf1", `#$`)
	if _, err := c.Do(ctx, lab.ControlRequest{Op: "fault", Device: "leaf1", Set: []string{"delay=1h"}}); err != nil {
		t.Fatal(err)
	}
	sh.Send("show hostname")
	dev := l.Device("leaf1")
	until(t, "the device has the line", func() bool { return slicesContain(dev.History(), "show hostname") })
	if _, err := c.Do(ctx, lab.ControlRequest{Op: "fault", Device: "leaf1", Clear: true}); err != nil {
		t.Fatal(err)
	}
	if out := sh.Wait(); !strings.Contains(out, "Hostname: leaf1") {
		t.Errorf("answer: %q", out)
	}
	dctx, cancel := context.WithTimeout(ctx, labtest.Patience(t))
	defer cancel()
	if _, err := c.Do(dctx, lab.ControlRequest{Op: "ping"}); err != nil {
		t.Error(err)
	}
}

func TestControlExpireTimers(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "leaf1", Platform: plat().Name})
	ctx := context.Background()
	srv, err := l.ServeControl(ctx, filepath.Join(shortDir(t), lab.ControlSocket))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	c, err := lab.DialControl(ctx, srv.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	dev := l.Device("leaf1")
	before := dev.RunningConfig()
	rep, err := c.Do(ctx, lab.ControlRequest{Op: "expire-timers", Device: "leaf1"})
	if err != nil || !strings.HasPrefix(rep.Output, "no change") {
		t.Fatalf("expire-timers with nothing pending: %v %q", err, rep.Output)
	}
	sh := labtest.OpenShell(t, l, "leaf1", `leaf1[^\n]*#$`)
	for _, cmd := range []string{"configure session fg", "interface Ethernet2", "mtu 9214", "commit timer 00:10:00"} {
		if out := sh.Run(cmd); strings.Contains(out, "%") {
			t.Fatalf("%s: %s", cmd, out)
		}
	}
	if dev.RunningConfig() == before {
		t.Fatal("the commit with a timer changed nothing")
	}
	rep, err = c.Do(ctx, lab.ControlRequest{Op: "expire-timers", Device: "leaf1"})
	if err != nil || !strings.HasPrefix(rep.Output, "a confirm timer fired") {
		t.Fatalf("expire-timers with a commit timer pending: %v %q", err, rep.Output)
	}
	if dev.RunningConfig() != before {
		t.Errorf("the configuration is not back after the timer fired:\n%s", cli.UnifiedDiff("before", "after", before, dev.RunningConfig()))
	}
	if _, err := c.Do(ctx, lab.ControlRequest{Op: "expire-timers", Device: "leaf9"}); err == nil || !strings.Contains(err.Error(), `no device "leaf9"`) {
		t.Errorf("expire-timers of an unknown device: %v", err)
	}
}

func slicesContain(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
