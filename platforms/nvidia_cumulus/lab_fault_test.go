package nvidiacumulus_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestFaultDropMidChange: the connection drops after three config
// commands (the pending NVUE revision is not applied): the device keeps
// or discards what the session staged as the platform does, and the
// fault fires once.
func TestFaultDropMidChange(t *testing.T) {
	labtest.CheckFaultDropMidChange(t, plat(), labtest.DropCase{
		Prompt:    `:~\$ $`,
		Script:    []string{"nv set interface swp1 link mtu 9216", "nv set interface swp2 link mtu 9216", "nv set interface swp3 link mtu 9216"},
		Unchanged: true,
	})
}
