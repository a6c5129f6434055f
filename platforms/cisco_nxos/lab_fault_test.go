package cisconxos_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestFaultDropMidChange: the connection drops after three config
// commands (the NX-OS applied lines stay): the device keeps or discards
// what the session staged as the platform does, and the fault fires
// once.
func TestFaultDropMidChange(t *testing.T) {
	labtest.CheckFaultDropMidChange(t, plat(), labtest.DropCase{
		Prompt: `leaf1[^\n]*# $`,
		Script: []string{"configure terminal", "interface Ethernet1/1", "mtu 9216", "priority-flow-control mode on"},
		Kept:   "  mtu 9216",
	})
}

// TestFaultReject: a rejected command is refused the platform's way and
// changes nothing; after ClearFault it is accepted.
func TestFaultReject(t *testing.T) {
	labtest.CheckFaultReject(t, plat(), labtest.RejectCase{
		Prompt: `# $`, Enter: "configure terminal",
		Cmd: "system qos", Reject: `^system qos`,
		Want:      "ERROR:",
		Normalize: stripNXOSHeader,
	})
}
