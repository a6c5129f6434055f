package cisconxos_test

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
	}{[]string{
		"class-map type qos match-any ROCE", "  match dscp 26", "policy-map type qos QOS", "  class ROCE", "    set qos-group 3",
		"policy-map type network-qos NQ", "  class type network-qos c-8q-nq3", "    mtu 9216", "    pause pfc-cos 3",
		"system qos", "  service-policy type network-qos NQ", "interface Ethernet1/1", "  mtu 9216", "  priority-flow-control mode on",
	}, func(s string) []string {
		var out []string
		for _, l := range splitLines(s) {
			if !strings.HasPrefix(l, "version ") {
				out = append(out, l)
			}
		}
		return out
	}, stripNXOSHeader}
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
