package linuxdcb_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestFaultReject: a rejected command is refused the platform's way and
// changes nothing; after ClearFault it is accepted.
func TestFaultReject(t *testing.T) {
	labtest.CheckFaultReject(t, plat(), labtest.RejectCase{
		Prompt: `\$ $`, Enter: "true",
		Cmd: "dcb pfc set dev eth0 prio-pfc 3:on", Reject: `^dcb pfc`,
		Want: "Operation not permitted",
	})
}
