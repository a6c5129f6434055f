package nvidiamlnx_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	nvidiamlnx "github.com/fabricgen/fabricgen/platforms/nvidia_mlnx"
)

// TestSpecReleases: the NIC renders the same for every driver release,
// so it takes no os_version.
func TestSpecReleases(t *testing.T) {
	platformtest.CheckReleases(t, nvidiamlnx.Platform().Spec, nil, []string{"24.10"})
}

// TestSpecPortNames pins the host's netdev names (IFNAMSIZ, no ':' or '/').
func TestSpecPortNames(t *testing.T) {
	platformtest.CheckPortNames(t, nvidiamlnx.Platform().Spec,
		[]string{"eth0", "ens1f0np0", "enp65s0f0np0"},
		[]string{"", ".", "..", "eth0:1", "a/b", "abcdefghijklmnop", "e th0"})
}
