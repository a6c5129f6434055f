package lab

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/schema"
)

// TestRejectSparesReadOnly: under a reject-everything fault, over real SSH,
// every read-back push uses for plan still answers, and a change on each
// platform is refused and leaves the device as it was.
func TestRejectSparesReadOnly(t *testing.T) {
	cases := []struct {
		platform schema.Platform
		prompt   string
		reads    []string
		// enter runs before change (and is never refused).
		enter  string
		change string
		refuse string
	}{
		{schema.AristaEOS, `#$`, []string{"show running-config", "show configuration sessions | json", "show session-config named x diffs"},
			"configure", "qos map dscp 26 to traffic-class 3", "% Unavailable command"},
		{schema.CiscoNXOS, `# $`, []string{"show running-config", "show checkpoint summary"}, "configure terminal", "system qos", "ERROR:"},
		{schema.JuniperJunos, `[>#] $`, []string{"show configuration | display set | no-more", "show system commit"}, "configure private",
			"set interfaces et-0/0/1 mtu 9216", "syntax error"},
		{schema.NvidiaCumulus, `\$ $`, []string{"nv config show -o commands", "nv config diff", "nv config revision -o json", "nv config apply --confirm-status"},
			"true", "nv set interface swp1 link mtu 9216", "Error:"},
		{schema.SONiC, `\$ $`, []string{"sonic-cfggen -d --print-data", "show runningconfiguration all", "config list-checkpoints",
			"sonic-db-cli CONFIG_DB HGET 'PORT|Ethernet0' mtu"}, "true", "sudo config checkpoint x", "Error:"},
		{schema.NvidiaMLNX, `\$ $`, []string{"mlnx_qos -i eth0", "cma_roce_tos -d mlx5_0", "cat /sys/class/net/eth0/ecn/roce_np/enable/3",
			"find /sys/class/net/eth0/device/infiniband -mindepth 1 -maxdepth 1 -printf '%f'", "ip link show dev eth0", "ethtool -a eth0"},
			"true", "mlnx_qos -i eth0 --trust dscp", "Operation not permitted"},
		{schema.LinuxDCB, `\$ $`, []string{"dcb -N app show dev eth0 dscp-prio", "dcb pfc show dev eth0", "dcb ets show dev eth0", "ip link show dev eth0"},
			"true", "dcb pfc set dev eth0 prio-pfc 3:on", "Operation not permitted"},
	}
	for _, c := range cases {
		t.Run(string(c.platform), func(t *testing.T) {
			l := startLab(t, DeviceSpec{Name: "d1", Platform: c.platform, Ports: portsFor(c.platform)})
			dev := l.Device("d1")
			before := dev.Export()
			dev.SetFault(Fault{Reject: `.*`})
			sh := openShell(t, l, "d1", c.prompt)
			if c.platform == schema.AristaEOS {
				// The session the diff names exists: entering it is not a change.
				sh.run("configure session x")
				sh.run("end")
			}
			for _, r := range c.reads {
				if got := sh.run(r); strings.Contains(got, c.refuse) || strings.Contains(got, "Operation not permitted") {
					t.Errorf("read-only %q refused: %q", r, got)
				}
			}
			sh.run(c.enter)
			if got := sh.run(c.change); !strings.Contains(got, c.refuse) {
				t.Errorf("%s: got %q, want the refusal %q", c.change, got, c.refuse)
			}
			if after := dev.Export(); stripNXOSHeader(after) != stripNXOSHeader(before) {
				t.Errorf("refused change changed the device:\n%s", cli.UnifiedDiff("before", "after", before, after))
			}
		})
	}
}
