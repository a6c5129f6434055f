package nvidiamlnx

import (
	"github.com/fabricgen/fabricgen/platforms/internal/hostrender"
	"github.com/fabricgen/fabricgen/platforms/internal/hostspec"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// viewBuild is the nvidia_mlnx view builder: the shared host script with
// MLNX_OFED's tools, on the mlx5 driver; on an InfiniBand fabric, the
// job environment (ibenv.go).
func viewBuild(f *schema.Fabric, d *schema.Device, b view.Base) (any, error) {
	if f.InfiniBand() {
		return ibViewBuild(f, d, b)
	}
	return hostrender.Build(f, d, b, hostrender.Flavour{MLNX: true, Driver: hostspec.DefaultDriver})
}
