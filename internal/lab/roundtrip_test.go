package lab

import (
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/schema"
)

func testEnv(name string, p schema.Platform) *cli.Env {
	return &cli.Env{Spec: cli.Spec{Name: name, Platform: p, Username: testUser, Password: testPass},
		AfterFunc: func(time.Duration, func()) func() { return func() {} }, Now: time.Now}
}

// TestRunningConfigRoundTrip changes each switch, reads its running
// configuration, loads that text into a fresh device, and expects the
// same running configuration back: what the lab prints, it parses.
func TestRunningConfigRoundTrip(t *testing.T) {
	cases := []struct {
		platform schema.Platform
		changes  []string
		// reload turns a running config into lines ConfigureOutOfBand takes.
		reload func(string) []string
		strip  func(string) string
	}{
		{schema.AristaEOS, []string{
			"qos map dscp 26 to traffic-class 3", "ip access-list ROCE", "   permit udp any any eq 4791",
			"class-map type qos match-any CM", "   match ip access-group ROCE", "policy-map type qos PM", "   class CM", "      set dscp 26",
			"interface Ethernet1", "   mtu 9214", "   qos trust dscp", "   service-policy type qos input PM",
			"   priority-flow-control on", "   priority-flow-control priority 3 no-drop", "   tx-queue 3", "      no priority", "      bandwidth percent 50",
		}, splitLines, func(s string) string { return s }},
		{schema.CiscoNXOS, []string{
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
		}, stripNXOSHeader},
		{schema.JuniperJunos, []string{
			"set class-of-service forwarding-classes class NO-LOSS queue-num 3 no-loss",
			`set interfaces et-0/0/1 description "to gpu01"`, "set interfaces et-0/0/1 unit 0 family inet filter input-list [ A B ]",
		}, nil, stripJunosHeader},
		{schema.NvidiaCumulus, []string{"nv set interface swp1 link mtu 9216", "nv set qos pfc default-global switch-priority 3"}, splitLines, func(s string) string { return s }},
	}
	for _, c := range cases {
		t.Run(string(c.platform), func(t *testing.T) {
			a, err := newEmulator(testEnv("rt1", c.platform))
			if err != nil {
				t.Fatal(err)
			}
			if err := a.OutOfBand(c.changes); err != nil {
				t.Fatal(err)
			}
			first := a.Running()
			env := testEnv("rt1", c.platform)
			var lines []string
			if c.reload != nil {
				lines = c.reload(first)
			} else {
				// Junos: start a fresh device from the set form, as
				// lab up --running-config does.
				env.Spec.RunningConfig = a.Export()
			}
			b, err := newEmulator(env)
			if err != nil {
				t.Fatal(err)
			}
			if err := b.OutOfBand(lines); err != nil {
				t.Fatalf("reload: %v", err)
			}
			if got, want := c.strip(b.Running()), c.strip(first); got != want {
				t.Errorf("round trip differs:\n%s", cli.UnifiedDiff("first", "reloaded", want, got))
			}
		})
	}
}

func splitLines(s string) []string { return strings.Split(strings.TrimRight(s, "\n"), "\n") }
