package nvidiacumulus_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestRunningConfigRoundTrip changes the lab device, reads its running
// configuration, loads that text into a fresh device, and expects the
// same running configuration back: what the lab prints, it parses.
func TestRunningConfigRoundTrip(t *testing.T) {
	c := struct {
		changes []string
		// reload turns a running config into lines OutOfBand takes; nil:
		// start a fresh device from the export, as lab up
		// --running-config does.
		reload func(string) []string
		strip  func(string) string
	}{[]string{"nv set interface swp1 link mtu 9216", "nv set qos pfc default-global switch-priority 3"}, splitLines, func(s string) string { return s }}
	a, err := plat().Emulator(labtest.Env("rt1", plat().Name))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.OutOfBand(c.changes); err != nil {
		t.Fatal(err)
	}
	first := a.Running()
	env := labtest.Env("rt1", plat().Name)
	var lines []string
	if c.reload != nil {
		lines = c.reload(first)
	} else {
		// Junos: start a fresh device from the set form, as
		// lab up --running-config does.
		env.Spec.RunningConfig = a.Export()
	}
	b, err := plat().Emulator(env)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.OutOfBand(lines); err != nil {
		t.Fatalf("reload: %v", err)
	}
	if got, want := c.strip(b.Running()), c.strip(first); got != want {
		t.Errorf("round trip differs:\n%s", cli.UnifiedDiff("first", "reloaded", want, got))
	}
}

func splitLines(s string) []string { return strings.Split(strings.TrimRight(s, "\n"), "\n") }
