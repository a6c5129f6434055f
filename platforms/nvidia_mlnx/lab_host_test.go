package nvidiamlnx_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestHostCommands: the lab host answers the MLNX_OFED tools push runs.
func TestHostCommands(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "gpu1", Platform: plat().Name, Ports: []string{"ens1f0np0"}})
	sh := labtest.OpenShell(t, l, "gpu1", `admin@gpu1:~\$ $`)
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
		got := sh.Run(c.cmd)
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
}
