package sonic_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestFaultDropMidChange: the connection drops after three config
// commands (nothing is staged): the device keeps or discards what the
// session staged as the platform does, and the fault fires once.
func TestFaultDropMidChange(t *testing.T) {
	labtest.CheckFaultDropMidChange(t, plat(), labtest.DropCase{
		Prompt:    `:~\$ $`,
		Script:    []string{"sudo config checkpoint a", "sudo config checkpoint b", "sudo config checkpoint c"},
		Unchanged: true,
	})
}
