package juniperjunos_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestFaultDropMidChange: the connection drops after three config
// commands (the Junos private candidate is discarded): the device keeps
// or discards what the session staged as the platform does, and the
// fault fires once.
func TestFaultDropMidChange(t *testing.T) {
	labtest.CheckFaultDropMidChange(t, plat(), labtest.DropCase{
		Prompt:    `admin@leaf1[>#] $`,
		Script:    []string{"configure private", "set interfaces et-0/0/1 mtu 9216", "set class-of-service forwarding-classes class A queue-num 3", "set interfaces et-0/0/2 mtu 9216"},
		Unchanged: true, Normalize: stripJunosHeader,
	})
}
