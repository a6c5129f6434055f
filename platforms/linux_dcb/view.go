package linuxdcb

import (
	"github.com/fabricgen/fabricgen/platforms/internal/hostrender"
	"github.com/fabricgen/fabricgen/platforms/internal/hostspec"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// viewBuild is the linux_dcb view builder: the shared host script with
// iproute2 dcb, on the device's NIC driver (mlx5_core by default).
func viewBuild(f *schema.Fabric, d *schema.Device, b view.Base) (any, error) {
	drv := d.Driver.V
	if drv == "" {
		drv = hostspec.DefaultDriver
	}
	return hostrender.Build(f, d, b, hostrender.Flavour{Driver: drv})
}

// viewDriverNote is the linux_dcb header line naming the NIC driver the
// script is for.
func viewDriverNote(d *schema.Device) string {
	if d.Driver.V == "" {
		return ""
	}
	line := "NIC driver " + d.Driver.V
	if d.Driver.Set {
		line += " (driver)"
	} else {
		line += " (fabricgen's default; set driver to the NIC's kernel driver)"
	}
	return line
}
