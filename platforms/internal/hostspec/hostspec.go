// Package hostspec is what the intent language needs of the platforms
// that configure a host NIC (nvidia_mlnx, linux_dcb): they name ports as
// Linux does, refuse what a shell treats specially, and render the same
// for every release.
package hostspec

import "github.com/fabricgen/fabricgen/schema"

// Drivers are the kernel drivers a NIC may name with driver, on the
// platforms that read it.
var Drivers = []string{"mlx5_core", "ice", "bnxt_en"}

// DefaultDriver is the driver a NIC is rendered for when it names none.
const DefaultDriver = "mlx5_core"

// Spec returns the intent spec of host platform name: Linux interface
// names, the shell's free-text rule, no release form.
func Spec(name schema.Platform) schema.PlatformSpec {
	return schema.PlatformSpec{
		Name:  name,
		Host:  true,
		Ports: schema.HostPorts(),
		Text:  schema.TextRule{Refuse: schema.ShellRefuse, Why: schema.ShellWhy},
	}
}

// DriverAttrs are the attributes of a host platform that reads driver.
func DriverAttrs() schema.DeviceAttrs {
	return schema.DeviceAttrs{Drivers: Drivers, DefaultDriver: DefaultDriver}
}
