package aristaeos_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/platforms/internal/lldp/lldptest"
)

// TestLabLLDP: over SSH, the lab's leaf answers its LLDP command with the
// intent's links, and the folder's parser reads them back.
func TestLabLLDP(t *testing.T) {
	lldptest.CheckLab(t, plat(), "../..", "broken/core-zeroes-dscp", "leaf1", `leaf1[^\n]*#$`, "terminal length 0")
}
