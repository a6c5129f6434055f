package cisconxos_test

import (
	"github.com/fabricgen/fabricgen/internal/platform"
	cisconxos "github.com/fabricgen/fabricgen/platforms/cisco_nxos"
)

// plat is the folder's platform: the lab tests here name it only through
// the folder, so a copy of the folder (scripts/newplatform) runs them too.
func plat() platform.Platform { return cisconxos.Platform() }
