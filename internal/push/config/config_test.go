package config_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

func mustDialect(t testing.TB, p schema.Platform) *dialect.Dialect {
	t.Helper()
	d, err := platforms.Dialect(p)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestNormalizeDropsVolatile(t *testing.T) {
	cases := []struct {
		platform schema.Platform
		in, want string
	}{
		{schema.AristaEOS, "! Command: show running-config\r\n! device: leaf1 (cEOSLab, EOS-4.31.2F)\n!\nhostname leaf1   \n\ninterface Ethernet1\n   mtu 9214\n!\nend\n",
			"hostname leaf1\ninterface Ethernet1\n   mtu 9214\n"},
		{schema.CiscoNXOS, "!Command: show running-config\n!Time: Sun Nov 29 19:19:09 2026\n\nversion 10.3(4a) Bios:version 05.47\nhostname leaf2\n",
			"hostname leaf2\n"},
	}
	for _, c := range cases {
		if got := config.Normalize(c.in, mustDialect(t, c.platform)); got != c.want {
			t.Errorf("%s: Normalize = %q, want %q", c.platform, got, c.want)
		}
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

func TestManagedKeepsOnlyOwnedSections(t *testing.T) {
	d := mustDialect(t, schema.AristaEOS)
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

func TestChanges(t *testing.T) {
	cases := []struct {
		name              string
		platform          schema.Platform
		running, rendered string
		want              []string
	}{
		{"eos from factory", schema.AristaEOS, eosRunning, eosRendered, []string{
			"no qos map dscp 26 to traffic-class 1",
			"qos map dscp 26 to traffic-class 3",
			"ip access-list ROCE", "20 permit udp any any eq 4791 dscp 48", "exit",
			"interface Ethernet1", "no mtu 1500", "no qos trust cos", "mtu 9214", "qos trust dscp",
			"tx-queue 3", "no priority", "bandwidth percent 50", "exit", "exit",
		}},
		{"eos converged", schema.AristaEOS, eosRendered, eosRendered, nil},
		{"eos no-form negated", schema.AristaEOS, "interface Ethernet1\n   no qos trust\n", "interface Ethernet1\n   qos trust dscp\n",
			[]string{"interface Ethernet1", "default qos trust", "qos trust dscp", "exit"}},
		{"nxos ordered policy-map rebuilt", schema.CiscoNXOS,
			"policy-map type qos P\n  class B\n    set qos-group 3\n  class A\n    set qos-group 0\n",
			"policy-map type qos P\n  class A\n    set qos-group 0\n  class B\n    set qos-group 3\n",
			[]string{"policy-map type qos P", "no class B", "no class A", "class A", "set qos-group 0", "exit", "class B", "set qos-group 3", "exit", "exit"}},
		{"nxos stale generated class-map removed last", schema.CiscoNXOS,
			"class-map type qos match-any FG-DSCP-old\n  match dscp 8\nclass-map type qos match-any OTHER-TEAM\n  match dscp 9\n" +
				"policy-map type qos FABRICGEN-IN\n  class FG-DSCP-old\n    set qos-group 1\n  class FG-DSCP-roce\n    set qos-group 3\n",
			"class-map type qos match-any FG-DSCP-roce\n  match dscp 26\npolicy-map type qos FABRICGEN-IN\n  class FG-DSCP-roce\n    set qos-group 3\n",
			[]string{"class-map type qos match-any FG-DSCP-roce", "match dscp 26", "exit",
				"policy-map type qos FABRICGEN-IN", "no class FG-DSCP-old", "exit",
				"no class-map type qos match-any FG-DSCP-old"}},
		{"nxos nested change", schema.CiscoNXOS,
			"policy-map type queuing OUT\n  class type queuing c-out-8q-q3\n    bandwidth remaining percent 40\n",
			"policy-map type queuing OUT\n  class type queuing c-out-8q-q3\n    bandwidth remaining percent 50\n",
			[]string{"policy-map type queuing OUT", "class type queuing c-out-8q-q3", "no bandwidth remaining percent 40", "bandwidth remaining percent 50", "exit", "exit"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := mustDialect(t, c.platform)
			cmp, err := config.Compare("dev", c.running, c.rendered, d)
			if err != nil {
				t.Fatal(err)
			}
			got := cmp.Changes.Commands()
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("commands:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			if cmp.Changes.Empty() != (cmp.Diff.Text == "") {
				t.Errorf("change set empty=%v but diff %q", cmp.Changes.Empty(), cmp.Diff.Text)
			}
		})
	}
}

const mlnxShow = `DCBX mode: OS controlled
Priority trust state: dscp
dscp2prio mapping:
	prio:0 dscp:07,06,05,04,03,02,01,00,
	prio:3 dscp:31,30,29,28,27,26,25,24,
Cable len: 7
PFC configuration:
	priority    0   1   2   3   4   5   6   7
	enabled     0   0   0   1   0   0   0   0
	buffer      0   0   0   1   0   0   0   0
tc: 0 ratelimit: unlimited, tsa: ets, bw: 50%
	 priority:  0
tc: 3 ratelimit: unlimited, tsa: ets, bw: 50%
	 priority:  3
tc: 6 ratelimit: unlimited, tsa: strict
	 priority:  6
`

func TestHostFactsFromMlnxQos(t *testing.T) {
	script := "set -eu\nmlnx_qos -i ens1f0np0 --trust dscp\nmlnx_qos -i ens1f0np0 --dscp2prio set,26,3\nmlnx_qos -i ens1f0np0 --pfc 0,0,0,1,0,0,0,0\nmlnx_qos -i ens1f0np0 --dscp2prio set,48,6\n"
	// The DSCP table is read from the APP table, which has the explicit
	// entries only: 26 is there, 48 is not (mlnx_qos's own table shows
	// every DSCP, defaults included).
	state := config.HostState([]string{"mlnx_qos -i ens1f0np0", "dcb -N app show dev ens1f0np0 dscp-prio"}, []string{mlnxShow, "dscp-prio 26:3\n"})
	d := mustDialect(t, schema.NvidiaMLNX)
	cmp, err := config.Compare("nic", state, script, d)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"mlnx_qos -i ens1f0np0 --dscp2prio set,48,6"}
	if got := cmp.Changes.Commands(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("changes %q, want %q", got, want)
	}
	if !strings.Contains(cmp.Diff.Text, "-ens1f0np0 dscp2prio 48 = <unset>\n+ens1f0np0 dscp2prio 48 = 6\n") {
		t.Errorf("diff:\n%s", cmp.Diff.Text)
	}
}

func TestHostScriptErrors(t *testing.T) {
	for _, bad := range []string{
		"modprobe mlx5_core",
		"mlnx_qos --trust dscp",
		`echo 1 > "/sys/$UNSET/x"`,
		"mlnx_qos -i eth0 --bogus 1",
	} {
		if _, err := config.ParseHostScript(bad + "\n"); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(eosRunning)
	f.Add(eosRendered)
	f.Add("a\n\tb\n  c\n d\ne")
	d := mustDialect(f, schema.AristaEOS)
	f.Fuzz(func(t *testing.T, s string) {
		tr := config.Parse(s, d)
		text := tr.Text(d.Indent)
		if again := config.Parse(text, d).Text(d.Indent); again != text {
			t.Errorf("Parse(Text) not stable:\n%q\n%q", text, again)
		}
		run, want := config.Managed(tr, tr, d)
		if !config.Changes(run, want, d).Empty() {
			t.Errorf("a config compared with itself has changes")
		}
	})
}

func FuzzParseHostScript(f *testing.F) {
	f.Add("mlnx_qos -i e --trust dscp\ndcb pfc set dev e prio-pfc all:off 3:on\n")
	f.Add("x=$(find /sys -printf '%f')\ncma_roce_tos -d \"$x\" -t 106\n")
	f.Fuzz(func(t *testing.T, s string) {
		actions, err := config.ParseHostScript(s)
		if err != nil {
			return
		}
		config.HostFacts(actions, config.HostState([]string{"x"}, []string{s}))
	})
}

func FuzzCompareConfigDB(f *testing.F) {
	f.Add(`{"PORT": {"Ethernet0": {"mtu": "9100", "lanes": "0,1"}}}`, `{"PORT": {"Ethernet0": {"mtu": "9216"}}, "DSCP_TO_TC_MAP": {"AZURE": {"26": "3"}}}`)
	f.Add(`{}`, `{"WRED_PROFILE": {"AZURE_LOSSLESS": {"ecn": "ecn_all"}}}`)
	d := mustDialect(f, schema.SONiC)
	f.Fuzz(func(t *testing.T, running, rendered string) {
		c, err := config.Compare("dev", running, rendered, d)
		if err != nil {
			return
		}
		if !c.Changes.Empty() && c.Diff.Text == "" {
			t.Errorf("changes without a diff")
		}
		if self, err := config.Compare("dev", rendered, rendered, d); err == nil && !self.Changes.Empty() {
			t.Errorf("a CONFIG_DB compared with itself has changes: %q", self.Changes.Commands())
		}
	})
}
