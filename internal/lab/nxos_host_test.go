package lab

import (
	"strings"
	"testing"

	"github.com/scrapli/scrapligo/driver/opoptions"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/schema"
)

func TestNXOSCheckpointRollback(t *testing.T) {
	l := startLab(t, DeviceSpec{Name: "spine1", Platform: schema.CiscoNXOS})
	d := scrapli(t, l, "spine1", schema.CiscoNXOS)
	before := l.Device("spine1").RunningConfig()
	if r, err := d.SendCommand("checkpoint fg1"); err != nil || r.Failed != nil {
		t.Fatalf("checkpoint: %v %v", err, r.Failed)
	}
	mr, err := d.SendConfigs([]string{"class-map type qos match-any ROCE", "match dscp 26", "interface Ethernet1/1", "mtu 9216", "priority-flow-control mode on"}, opoptions.WithStopOnFailed())
	if err != nil || mr.Failed != nil {
		t.Fatalf("config: %v %v", err, mr.Failed)
	}
	r, err := d.SendCommand("show diff rollback-patch checkpoint fg1 running-config")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"class-map type qos match-any ROCE\n  match dscp 26", "interface Ethernet1/1\n  mtu 9216"} {
		if !strings.Contains(r.Result, want) {
			t.Errorf("rollback patch lacks %q:\n%s", want, r.Result)
		}
	}
	mr, err = d.SendConfigs([]string{"bogus command"})
	if err != nil || mr.Failed == nil {
		t.Fatalf("bogus accepted: %v", err)
	}
	if r, err = d.SendCommand("rollback running-config checkpoint fg1"); err != nil || r.Failed != nil {
		t.Fatalf("rollback: %v %v", err, r.Failed)
	}
	if got := stripNXOSHeader(l.Device("spine1").RunningConfig()); got != stripNXOSHeader(before) {
		t.Fatalf("rollback did not restore:\n%s", cli.UnifiedDiff("before", "after", stripNXOSHeader(before), got))
	}
}

func stripNXOSHeader(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "!Time:") || strings.HasPrefix(l, "!Running configuration last done") {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func TestHostCommands(t *testing.T) {
	l := startLab(t, DeviceSpec{Name: "gpu1", Platform: schema.NvidiaMLNX, Ports: []string{"ens1f0np0"}},
		DeviceSpec{Name: "gpu2", Platform: schema.LinuxDCB, Ports: []string{"eth2"}})
	sh := openShell(t, l, "gpu1", `admin@gpu1:~\$ $`)
	cases := []struct{ cmd, want string }{
		{"command -v mlnx_qos", "/usr/sbin/mlnx_qos\n"},
		{"echo $?", "0\n"},
		{"mlnx_qos -i ens1f0np0 --trust dscp --pfc 0,0,0,1,0,0,0,0 --dscp2prio set,26,3", "Priority trust state: dscp"},
		{"cma_roce_tos -d mlx5_0 -t 106", ""},
		{"cma_roce_tos -d mlx5_0", "106\n"},
		{"echo 0 > /sys/class/net/ens1f0np0/ecn/roce_np/enable/5", ""},
		{"cat /sys/class/net/ens1f0np0/ecn/roce_np/enable/5", "0\n"},
		{"ip link set dev ens1f0np0 mtu 9000", ""},
		{"ip link show dev ens1f0np0", "mtu 9000"},
		{"frobnicate", "bash: frobnicate: command not found\n"},
		{"echo $?", "127\n"},
		{"mlnx_qos -i ens1f0np0 --tsa ets,ets,ets,ets,ets,ets,strict,ets --tcbw 50,0,0,40,0,0,0,0", "must sum to 100"},
	}
	for _, c := range cases {
		got := sh.run(c.cmd)
		if (c.want == "" && got != "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.cmd, got, c.want)
		}
	}
	run := l.Device("gpu1").RunningConfig()
	for _, want := range []string{"trust dscp", "pfc 0,0,0,1,0,0,0,0", "dscp-prio 26:3", "mtu 9000", "default_roce_tos 106", "ecn roce_np enable 1,1,1,1,1,0,1,1"} {
		if !strings.Contains(run, want) {
			t.Errorf("state lacks %q:\n%s", want, run)
		}
	}
	sh2 := openShell(t, l, "gpu2", `admin@gpu2:~\$ $`)
	for _, c := range []struct{ cmd, want string }{
		{"command -v mlnx_qos; echo $?", "1\n"},
		{"dcb app add dev eth2 dscp-prio 26:3 48:6", ""},
		{"dcb app show dev eth2 dscp-prio", "dscp-prio AF31:3 CS6:6 \n"},
		{"dcb -N app show dev eth2 dscp-prio", "dscp-prio 26:3 48:6 \n"},
		{"dcb pfc set dev eth2 prio-pfc all:off 3:on", ""},
		{"dcb pfc show dev eth2", "3:on"},
		{"dcb ets set dev eth2 prio-tc all:0 3:3 6:6 tc-tsa all:strict 0:ets 3:ets tc-bw all:0 0:50 3:50", ""},
		{"dcb ets show dev eth2", "tc-bw 0:50 1:0 2:0 3:50"},
	} {
		if got := sh2.run(c.cmd); (c.want == "" && got != "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.cmd, got, c.want)
		}
	}
}

// TestNXOSIPv6ACLWords: an NX-OS ipv6 access-list says "ipv6" for any
// protocol and "icmp" for ICMPv6; the IPv4 word "ip" is refused there, and
// an interface takes one routed ACL per direction and family.
func TestNXOSIPv6ACLWords(t *testing.T) {
	l := startLab(t, DeviceSpec{Name: "spine1", Platform: schema.CiscoNXOS})
	d := scrapli(t, l, "spine1", schema.CiscoNXOS)
	for _, c := range []struct {
		mode, line string
		ok         bool
	}{
		{"ipv6 access-list v6", "10 deny ipv6 any 2001:db8::/32", true},
		{"ipv6 access-list v6", "20 permit icmp any any", true},
		{"ipv6 access-list v6", "30 deny ip any 2001:db8::/32", false},
		{"ip access-list v4", "10 permit ip any any", true},
		{"interface Ethernet1/1", "ip access-group v4 in", true},
		{"interface Ethernet1/1", "ip access-group v4 out", true},
		{"interface Ethernet1/1", "ipv6 traffic-filter v6 out", true},
	} {
		mr, err := d.SendConfigs([]string{c.mode, c.line})
		if err != nil {
			t.Fatal(err)
		}
		if (mr.Failed == nil) != c.ok {
			t.Errorf("%s / %q: failed %v, want accepted %v: %q", c.mode, c.line, mr.Failed, c.ok, mr.Responses[len(mr.Responses)-1].Result)
		}
	}
	run := l.Device("spine1").RunningConfig()
	for _, want := range []string{"ipv6 access-list v6\n  10 deny ipv6 any 2001:db8::/32\n  20 permit icmp any any\n", "  ip access-group v4 in\n  ip access-group v4 out\n"} {
		if !strings.Contains(run, want) {
			t.Errorf("running config lacks %q:\n%s", want, run)
		}
	}
	if strings.Contains(run, "30 deny ip any") {
		t.Errorf("running config holds the refused entry:\n%s", run)
	}
}
