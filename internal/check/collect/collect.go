// Package collect reads the live state of each device for fabricgen
// check. It is the kit: Runner, Collector and the helpers the
// collectors share. Each platform's collector lives in its folder
// (platforms/<name>/collector.go), the registry (package platforms) lists
// them, and the engine (internal/check/snapshot) runs them over SSH. A
// collector runs only read-only commands with structured output where
// the platform has it.
// Parsers take the command output as text and fill a readings.Device;
// every parser has a fuzz target.
package collect

import (
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/check/readings"
	"github.com/fabricgen/fabricgen/schema"
)

// Runner runs one read-only command on a device and returns its output;
// a command the device refuses is an error.
type Runner interface {
	Run(cmd string) (string, error)
}

// Collector reads one device of its platform.
type Collector interface {
	// Commands lists what Collect may run on the device (for docs and
	// the read-only test), with IF for a port and DEV for an RDMA device.
	Commands() []string
	// Collect reads the device into a snapshot device.
	Collect(r Runner, dev *schema.Device) (*readings.Device, error)
}

// linkedPorts are the device's intent ports on a link, in natural order.
func linkedPorts(d *schema.Device) []*schema.Port {
	var out []*schema.Port
	for _, p := range d.Ports {
		if p.Link != nil {
			out = append(out, p)
		}
	}
	return out
}

// NewDevice starts a snapshot device with the ports the intent links.
func NewDevice(d *schema.Device) *readings.Device {
	out := &readings.Device{Sources: map[string]string{}}
	for _, p := range linkedPorts(d) {
		out.Ports = append(out.Ports, &readings.Port{Name: p.Name, Counters: map[string]uint64{}, Gauges: map[string]float64{}})
	}
	return out
}

// Missing records metric families the platform does not expose.
func Missing(d *readings.Device, fams ...string) {
	d.Missing = append(d.Missing, fams...)
	sort.Strings(d.Missing)
}

// Source records the command a family was read with.
func Source(d *readings.Device, cmd string, fams ...string) {
	for _, f := range fams {
		d.Sources[f] = cmd
	}
}

// PortTemplate is a per-port command with IF in place of the port.
func PortTemplate(cmd, port string) string {
	f := strings.Fields(cmd)
	for i, w := range f {
		if w == port {
			f[i] = "IF"
		}
	}
	return strings.Join(f, " ")
}

// PortSource records the command a family of one port was read with,
// for platforms that read each port with its own command; the device
// keeps the command with IF (and DEV) in place of the port.
func PortSource(d *readings.Device, p *readings.Port, cmd, template string, fams ...string) {
	if p.Sources == nil {
		p.Sources = map[string]string{}
	}
	for _, f := range fams {
		p.Sources[f] = cmd
		d.Sources[f] = template
	}
}
