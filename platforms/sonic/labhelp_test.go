package sonic_test

import (
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms/sonic"
)

// plat is the folder's platform: the lab tests here name it only through
// the folder, so a copy of the folder (scripts/newplatform) runs them too.
func plat() platform.Platform { return sonic.Platform() }
