package nvidiamlnx_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestFaultDropMidChange: the connection drops after three config
// commands (host commands stay): the device keeps or discards what the
// session staged as the platform does, and the fault fires once.
func TestFaultDropMidChange(t *testing.T) {
	labtest.CheckFaultDropMidChange(t, plat(), labtest.DropCase{
		Prompt: `\$ $`,
		Script: []string{"ip link set dev ens1f0np0 mtu 9000", "mlnx_qos -i ens1f0np0 --trust dscp", "echo 1 > /sys/class/net/ens1f0np0/ecn/roce_np/enable/3"},
		Kept:   "mtu 9000",
	})
}
