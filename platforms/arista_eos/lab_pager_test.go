package aristaeos_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestPagerUntilTerminalLength checks that the lab device pages at the
// PTY height until paging is turned off, as a real box does.
func TestPagerUntilTerminalLength(t *testing.T) {
	labtest.CheckPager(t, plat().Name, "show running-config", " --More-- ", "terminal length 0")
}
