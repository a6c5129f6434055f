package linuxdcb_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestHostCommands: the lab host answers iproute2's dcb, and has no
// MLNX_OFED tools.
func TestHostCommands(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "gpu2", Platform: plat().Name, Ports: []string{"eth2"}})
	sh2 := labtest.OpenShell(t, l, "gpu2", `admin@gpu2:~\$ $`)
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
		if got := sh2.Run(c.cmd); (c.want == "" && got != "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.cmd, got, c.want)
		}
	}
}
