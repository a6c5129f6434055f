package cisconxos_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/config/configtest"
	cisconxos "github.com/fabricgen/fabricgen/platforms/cisco_nxos"
)

// TestConfigNormalizeDropsVolatile: push's normal form of an NX-OS
// running config drops the banner comments, the version line and empty
// lines.
func TestConfigNormalizeDropsVolatile(t *testing.T) {
	in := "!Command: show running-config\n!Time: Sun Nov 29 19:19:09 2026\n\nversion 10.3(4a) Bios:version 05.47\nhostname leaf2\n"
	if got, want := config.Normalize(in, cisconxos.Platform().Dialect()), "hostname leaf2\n"; got != want {
		t.Errorf("Normalize = %q, want %q", got, want)
	}
}

// TestConfigChanges: an NX-OS policy-map whose classes are ordered is
// rebuilt, a stale generated class-map goes after its last user, and a
// nested change enters each level.
func TestConfigChanges(t *testing.T) {
	cases := []struct {
		name              string
		running, rendered string
		want              []string
	}{
		{"ordered policy-map rebuilt",
			"policy-map type qos P\n  class B\n    set qos-group 3\n  class A\n    set qos-group 0\n",
			"policy-map type qos P\n  class A\n    set qos-group 0\n  class B\n    set qos-group 3\n",
			[]string{"policy-map type qos P", "no class B", "no class A", "class A", "set qos-group 0", "exit", "class B", "set qos-group 3", "exit", "exit"}},
		{"stale generated class-map removed last",
			"class-map type qos match-any FG-DSCP-old\n  match dscp 8\nclass-map type qos match-any OTHER-TEAM\n  match dscp 9\n" +
				"policy-map type qos FABRICGEN-IN\n  class FG-DSCP-old\n    set qos-group 1\n  class FG-DSCP-roce\n    set qos-group 3\n",
			"class-map type qos match-any FG-DSCP-roce\n  match dscp 26\npolicy-map type qos FABRICGEN-IN\n  class FG-DSCP-roce\n    set qos-group 3\n",
			[]string{"class-map type qos match-any FG-DSCP-roce", "match dscp 26", "exit",
				"policy-map type qos FABRICGEN-IN", "no class FG-DSCP-old", "exit",
				"no class-map type qos match-any FG-DSCP-old"}},
		{"nested change",
			"policy-map type queuing OUT\n  class type queuing c-out-8q-q3\n    bandwidth remaining percent 40\n",
			"policy-map type queuing OUT\n  class type queuing c-out-8q-q3\n    bandwidth remaining percent 50\n",
			[]string{"policy-map type queuing OUT", "class type queuing c-out-8q-q3", "no bandwidth remaining percent 40", "bandwidth remaining percent 50", "exit", "exit"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			configtest.Changes(t, cisconxos.Platform().Dialect(), c.running, c.rendered, c.want)
		})
	}
}
