package aristaeos_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestFaultDropMidChange: the connection drops after three config
// commands (the EOS session is discarded): the device keeps or discards
// what the session staged as the platform does, and the fault fires
// once.
func TestFaultDropMidChange(t *testing.T) {
	labtest.CheckFaultDropMidChange(t, plat(), labtest.DropCase{
		Prompt:    `leaf1[^\n]*#$`,
		Script:    []string{"configure session fg1", "interface Ethernet1", "mtu 9214", "priority-flow-control on"},
		Unchanged: true,
	})
}

// TestFaultReject: a rejected command is refused the platform's way and
// changes nothing; after ClearFault it is accepted.
func TestFaultReject(t *testing.T) {
	labtest.CheckFaultReject(t, plat(), labtest.RejectCase{
		Prompt: `#$`, Enter: "configure",
		Cmd: "qos map dscp 26 to traffic-class 3", Reject: `^qos map`,
		Want: "% Unavailable command",
	})
}
