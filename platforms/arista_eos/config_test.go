package aristaeos_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/config/configtest"
	aristaeos "github.com/fabricgen/fabricgen/platforms/arista_eos"
)

// TestConfigNormalizeDropsVolatile: push's normal form of an EOS running
// config drops the banner comments, "!" and "end", trailing blanks and
// empty lines.
func TestConfigNormalizeDropsVolatile(t *testing.T) {
	in := "! Command: show running-config\r\n! device: leaf1 (cEOSLab, EOS-4.31.2F)\n!\nhostname leaf1   \n\ninterface Ethernet1\n   mtu 9214\n!\nend\n"
	want := "hostname leaf1\ninterface Ethernet1\n   mtu 9214\n"
	if got := config.Normalize(in, aristaeos.Platform().Dialect()); got != want {
		t.Errorf("Normalize = %q, want %q", got, want)
	}
}

const eosRunning = `! Command: show running-config
hostname leaf1
ip access-list MGMT
   10 permit ip 192.0.2.0/24 any
ip access-list ROCE
   10 permit udp any any eq 4791
qos map dscp 26 to traffic-class 1
interface Ethernet1
   description uplink
   mtu 1500
   qos trust cos
interface Ethernet9
   mtu 1500
end
`

const eosRendered = `qos map dscp 26 to traffic-class 3
ip access-list ROCE
   10 permit udp any any eq 4791
   20 permit udp any any eq 4791 dscp 48
interface Ethernet1
   description to nic01
   mtu 9214
   qos trust dscp
   !
   tx-queue 3
      no priority
      bandwidth percent 50
`

// TestConfigManagedKeepsOnlyOwnedSections: of the running config, push
// manages the sections the render owns, and only the lines of them the
// render sets.
func TestConfigManagedKeepsOnlyOwnedSections(t *testing.T) {
	d := aristaeos.Platform().Dialect()
	run, want := config.Managed(config.Parse(eosRunning, d), config.Parse(eosRendered, d), d)
	gotRun := config.Canonical(run, d).Text(d.Indent)
	wantRun := "qos map dscp 26 to traffic-class 1\nip access-list ROCE\n   10 permit udp any any eq 4791\ninterface Ethernet1\n   mtu 1500\n   qos trust cos\n"
	if gotRun != wantRun {
		t.Errorf("managed running:\n%s\nwant:\n%s", gotRun, wantRun)
	}
	for _, unrelated := range []string{"MGMT", "hostname", "description", "Ethernet9"} {
		if strings.Contains(gotRun, unrelated) || strings.Contains(config.Canonical(want, d).Text(d.Indent), unrelated) {
			t.Errorf("%s leaked into the managed sections", unrelated)
		}
	}
}

// TestConfigChanges: the EOS change set from a factory config, when
// converged, and for a no-form the device shows.
func TestConfigChanges(t *testing.T) {
	cases := []struct {
		name              string
		running, rendered string
		want              []string
	}{
		{"from factory", eosRunning, eosRendered, []string{
			"no qos map dscp 26 to traffic-class 1",
			"qos map dscp 26 to traffic-class 3",
			"ip access-list ROCE", "20 permit udp any any eq 4791 dscp 48", "exit",
			"interface Ethernet1", "no mtu 1500", "no qos trust cos", "mtu 9214", "qos trust dscp",
			"tx-queue 3", "no priority", "bandwidth percent 50", "exit", "exit",
		}},
		{"converged", eosRendered, eosRendered, nil},
		{"no-form negated", "interface Ethernet1\n   no qos trust\n", "interface Ethernet1\n   qos trust dscp\n",
			[]string{"interface Ethernet1", "default qos trust", "qos trust dscp", "exit"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			configtest.Changes(t, aristaeos.Platform().Dialect(), c.running, c.rendered, c.want)
		})
	}
}

// TestConfigDerivableScope: of an unverified record's claims the device
// bears out, VerifiedScope keeps each; DerivableScope keeps only those the
// render or fabricgen's naming re-derives, and lists the rest as held
// back. A claim the device does not bear out is in neither and not held.
func TestConfigDerivableScope(t *testing.T) {
	const render = "ip access-list roce-mark\n   10 permit udp any any eq 4791\n"
	for name, c := range map[string]configtest.ScopeCase{
		"an exact copy of another team's ACL": {
			Running:     render + "ip access-list MGMT-SSH\n   10 permit tcp 10.0.0.0/8 any eq ssh\n",
			Render:      render,
			Scope:       render + "ip access-list MGMT-SSH\n   10 permit tcp 10.0.0.0/8 any eq ssh\n",
			VerifiedHas: []string{"MGMT-SSH"}, DerivedHas: []string{"roce-mark"}, DerivedLacks: []string{"MGMT-SSH"},
			Held: []string{"ip access-list MGMT-SSH"}},
		"an FG- ACL the render dropped is fabricgen's": {
			Running:     render + "ip access-list FG-OLD\n   10 permit ip any any\n",
			Render:      render,
			Scope:       render + "ip access-list FG-OLD\n   10 permit ip any any\n",
			VerifiedHas: []string{"FG-OLD"}, DerivedHas: []string{"FG-OLD"}},
		"an interface the render does not configure": {
			Running:     "interface Ethernet30/1\n   mtu 9000\n",
			Render:      render,
			Scope:       render + "interface Ethernet30/1\n   mtu 9000\n",
			VerifiedHas: []string{"Ethernet30/1"}, DerivedLacks: []string{"Ethernet30/1"},
			Held: []string{"interface Ethernet30/1"}},
		"a claim the device does not bear out is not held": {
			Running:      render + "ip access-list MGMT-SSH\n   10 permit tcp any any eq ssh\n",
			Render:       render,
			Scope:        render + "ip access-list MGMT-SSH\n   10 permit tcp any any eq 23\n",
			DerivedLacks: []string{"MGMT-SSH"}},
	} {
		t.Run(name, func(t *testing.T) { configtest.Scope(t, aristaeos.Platform().Dialect(), c) })
	}
}
