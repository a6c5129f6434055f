package lab

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/schema"
)

// TestChangesPerPlatform: each emulator decides which lines change the
// device; the read-only forms push uses for plan never do.
func TestChangesPerPlatform(t *testing.T) {
	cases := []struct {
		platform schema.Platform
		// pre runs first (to enter a mode).
		pre    []string
		line   string
		change bool
	}{
		{schema.AristaEOS, nil, "show running-config", false},
		{schema.AristaEOS, nil, "show configuration sessions detail | json", false},
		{schema.AristaEOS, nil, "terminal length 0", false},
		{schema.AristaEOS, nil, "configure session fg1", false},
		{schema.AristaEOS, nil, "configure session fg1 commit", true},
		{schema.AristaEOS, nil, "configure session fg1 abort", true},
		{schema.AristaEOS, nil, "configure session fg1 commit timer 00:05:00", true},
		{schema.AristaEOS, nil, "copy running-config startup-config", true},
		{schema.AristaEOS, []string{"configure"}, "qos map dscp 26 to traffic-class 3", true},
		{schema.AristaEOS, []string{"configure"}, "end", false},
		{schema.AristaEOS, []string{"configure"}, "do show running-config", false},
		{schema.AristaEOS, []string{"configure session x"}, "show session-config diffs", false},
		{schema.AristaEOS, []string{"configure session x"}, "commit timer 00:05:00", true},
		{schema.AristaEOS, []string{"configure session x"}, "rollback clean-config", true},

		{schema.CiscoNXOS, nil, "show running-config", false},
		{schema.CiscoNXOS, nil, "show checkpoint summary", false},
		{schema.CiscoNXOS, nil, "show diff rollback-patch checkpoint a running-config", false},
		{schema.CiscoNXOS, nil, "configure terminal", false},
		{schema.CiscoNXOS, nil, "checkpoint fg-1", true},
		{schema.CiscoNXOS, nil, "no checkpoint fg-1", true},
		{schema.CiscoNXOS, nil, "rollback running-config checkpoint fg-1", true},
		{schema.CiscoNXOS, []string{"configure terminal"}, "system qos", true},
		{schema.CiscoNXOS, []string{"configure terminal"}, "exit", false},

		{schema.JuniperJunos, nil, "show configuration | display set | no-more", false},
		{schema.JuniperJunos, nil, "show system commit", false},
		{schema.JuniperJunos, nil, "configure exclusive", false},
		{schema.JuniperJunos, nil, "set cli screen-length 0", false},
		{schema.JuniperJunos, []string{"configure private"}, "set interfaces et-0/0/1 mtu 9216", true},
		{schema.JuniperJunos, []string{"configure private"}, "show | compare", false},
		{schema.JuniperJunos, []string{"configure private"}, "commit check", true},
		{schema.JuniperJunos, []string{"configure private"}, "rollback 1", true},
		{schema.JuniperJunos, []string{"configure private"}, "run show system commit", false},
		{schema.JuniperJunos, []string{"configure private", "load set terminal"}, "set system host-name x", true},

		{schema.NvidiaCumulus, nil, "nv config show -o commands", false},
		{schema.NvidiaCumulus, nil, "nv config diff", false},
		{schema.NvidiaCumulus, nil, "nv show system", false},
		{schema.NvidiaCumulus, nil, "nv config revision -o json", false},
		{schema.NvidiaCumulus, nil, "nv config apply --confirm-status", false},
		{schema.NvidiaCumulus, nil, "nv set interface swp1 link mtu 9216", true},
		{schema.NvidiaCumulus, nil, "nv config apply -y --confirm 300s", true},
		{schema.NvidiaCumulus, nil, "nv config apply --confirm-yes", true},
		{schema.NvidiaCumulus, nil, "printf '%s' x > /tmp/x && cat /tmp/x", false},
		{schema.NvidiaCumulus, nil, "echo $(nv set system timezone UTC)", true},

		{schema.SONiC, nil, "show runningconfiguration all", false},
		{schema.SONiC, nil, "sonic-cfggen -d --print-data", false},
		{schema.SONiC, nil, "sonic-db-cli CONFIG_DB HGET 'PORT|Ethernet0' mtu", false},
		{schema.SONiC, nil, "sonic-db-cli CONFIG_DB HGETALL 'PORT|Ethernet0'", false},
		{schema.SONiC, nil, "sudo sonic-db-cli CONFIG_DB HSET 'PORT|Ethernet0' mtu 9000", true},
		{schema.SONiC, nil, "config list-checkpoints", false},
		{schema.SONiC, nil, "d=$(mktemp -d) && printf '%s' '[]' > $d/p.json", false},
		{schema.SONiC, nil, "sudo config apply-patch --dry-run /tmp/p.json", false},
		{schema.SONiC, nil, "sudo config apply-patch /tmp/p.json", true},
		{schema.SONiC, nil, "sudo config checkpoint fg-1", true},
		{schema.SONiC, nil, "sudo config delete-checkpoint fg-1", true},
		{schema.SONiC, nil, "rm -rf /tmp/tmp.x", false},

		{schema.NvidiaMLNX, nil, "mlnx_qos -i ens1f0np0", false},
		{schema.NvidiaMLNX, nil, "mlnx_qos -i ens1f0np0 --trust dscp", true},
		{schema.NvidiaMLNX, nil, "cat /sys/class/net/ens1f0np0/ecn/roce_np/enable/3", false},
		{schema.NvidiaMLNX, nil, "echo 1 > /sys/class/net/ens1f0np0/ecn/roce_np/enable/3", true},
		{schema.NvidiaMLNX, nil, "echo 1 | tee /sys/class/net/ens1f0np0/ecn/roce_np/enable/3", true},
		{schema.NvidiaMLNX, nil, "cma_roce_tos -d mlx5_0", false},
		{schema.NvidiaMLNX, nil, "cma_roce_tos -d mlx5_0 -t 106", true},
		{schema.NvidiaMLNX, nil, "ib=$(find /sys/class/net/ens1f0np0/device/infiniband -mindepth 1 -maxdepth 1 -printf '%f'); cat /sys/kernel/config/rdma_cm/$ib/ports/1/default_roce_tos", false},
		{schema.NvidiaMLNX, nil, "ib=$(find /sys/class/net/ens1f0np0/device/infiniband -printf '%f') && cma_roce_tos -d \"$ib\" -t 106", true},
		{schema.NvidiaMLNX, nil, "ip link show dev ens1f0np0", false},
		{schema.NvidiaMLNX, nil, "ip -br link show", false},
		{schema.NvidiaMLNX, nil, "ip link set dev ens1f0np0 mtu 9000", true},
		{schema.NvidiaMLNX, nil, "ethtool -a ens1f0np0", false},
		{schema.NvidiaMLNX, nil, "ethtool -A ens1f0np0 rx off tx off || [ $? -eq 78 ]", true},
		{schema.NvidiaMLNX, nil, "ethtool --get-tunable ens1f0np0 pfc-prevention-tout", false},
		{schema.NvidiaMLNX, nil, "mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config", true},
		{schema.NvidiaMLNX, nil, "sudo mlnx_qos -i ens1f0np0 --pfc 0,0,0,1,0,0,0,0", true},
		{schema.NvidiaMLNX, nil, "reboot", false},
		{schema.LinuxDCB, nil, "dcb -N app show dev eth0 dscp-prio", false},
		{schema.LinuxDCB, nil, "[ \"$(dcb -N app show dev eth0 dscp-prio)\" = \"dscp-prio 26:3 \" ] || exit 1", false},
		{schema.LinuxDCB, nil, "dcb pfc show dev eth0", false},
		{schema.LinuxDCB, nil, "dcb pfc set dev eth0 prio-pfc all:off 3:on", true},
		{schema.LinuxDCB, nil, "dcb app replace dev eth0 dscp-prio 26:3", true},
		{schema.LinuxDCB, nil, "modprobe rdma_cm", true},
		{schema.LinuxDCB, nil, "sh -c 'dcb ets set dev eth0 tc-bw all:0 0:100'", true},
		{schema.LinuxDCB, nil, "$CMD show", true},
	}
	for _, c := range cases {
		t.Run(string(c.platform)+"/"+c.line, func(t *testing.T) {
			sp := DeviceSpec{Name: "d1", Platform: c.platform, Username: testUser, Password: testPass, Ports: portsFor(c.platform)}
			env := testEnv("d1", c.platform)
			env.Spec = specOf(sp)
			emu, err := newEmulator(env)
			if err != nil {
				t.Fatal(err)
			}
			s := emu.NewSession(&cli.Term{}, testUser)
			for _, p := range c.pre {
				if r := s.Handle(p); r.Status != 0 {
					t.Fatalf("%s: %q", p, r.Out)
				}
			}
			if got := s.Changes(c.line); got != c.change {
				t.Errorf("changes(%q) = %v, want %v", c.line, got, c.change)
			}
		})
	}
}

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
