package dataplane

import (
	"encoding/json"
	"math"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// Responder answers one platform's data-plane commands: Show for CLIs
// (the whole line, with its pipes, spaces collapsed), Exec for shells
// (one command's argv). Both only claim the read-only forms they know
// (ok false otherwise); anything else is the emulator's. Each platform's
// folder gives one (platforms/<name>/responder.go; the hosts share
// platforms/internal/hostcheck), and the lab gives each device its
// platform's (Platform.Responder).
type Responder struct {
	// Show answers a CLI line.
	Show func(v *DeviceView, line string) (out string, status int, ok bool)
	// Exec answers one shell command.
	Exec func(v *DeviceView, argv []string) (stdout, stderr string, status int, ok bool)
}

// responder is the device's platform's responder when the device is of
// platform p (the emulator asking), else none.
func (v *DeviceView) responder(p schema.Platform) Responder {
	m := v.m
	m.mu.RLock()
	defer m.mu.RUnlock()
	d := m.devs[v.name]
	if d == nil || d.platform != p {
		return Responder{}
	}
	return d.parts.Responder
}

// Show answers a CLI line of platform p, the asking emulator's, with the
// device's responder (ok false: not a data-plane command).
func (v *DeviceView) Show(p schema.Platform, line string) (string, int, bool) {
	if v == nil {
		return "", 0, false
	}
	r := v.responder(p)
	if r.Show == nil {
		return "", 0, false
	}
	return r.Show(v, strings.Join(strings.Fields(line), " "))
}

// Exec answers one shell command of platform p, the asking emulator's,
// with the device's responder.
func (v *DeviceView) Exec(p schema.Platform, argv []string) (string, string, int, bool) {
	if v == nil || len(argv) == 0 {
		return "", "", 0, false
	}
	r := v.responder(p)
	if r.Exec == nil {
		return "", "", 0, false
	}
	return r.Exec(v, argv)
}

// JSONText is v as indented JSON with a trailing newline.
func JSONText(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b) + "\n"
}

// NIC is a host netdev's QoS as the data plane reads it, for read-back
// commands.
type NIC struct {
	RDMA    string
	Trust   string
	DSCP    map[int]int
	PFC     [8]bool
	PrioTC  [8]int
	NP, RP  [8]bool
	CNPDSCP int
	ToS     int
}

// NIC returns a host port's QoS.
func (v *DeviceView) NIC(port string) NIC {
	m := v.m
	m.rlock()
	defer m.mu.RUnlock()
	d := m.devs[v.name]
	if d == nil {
		return NIC{}
	}
	n := d.nic(port)
	rdma := n.rdma
	if rdma == "" {
		for i, name := range d.order {
			if name == port {
				rdma = "mlx5_" + itoa(i)
			}
		}
	}
	dscp := map[int]int{}
	for k, val := range n.dscp {
		dscp[k] = val
	}
	return NIC{RDMA: rdma, Trust: n.trust, DSCP: dscp, PFC: n.pfc, PrioTC: n.prioTC, NP: n.np, RP: n.rp, CNPDSCP: n.cnpDSCP, ToS: n.tos}
}

// Platform is the device's platform.
func (v *DeviceView) Platform() schema.Platform {
	m := v.m
	m.mu.RLock()
	defer m.mu.RUnlock()
	if d := m.devs[v.name]; d != nil {
		return d.platform
	}
	return ""
}

// Name is the device's name.
func (v *DeviceView) Name() string { return v.name }

// ECNQueues reports, per port and queue, whether the configuration marks ECN.
func (v *DeviceView) ECNQueues() func(port string, q int) bool {
	m := v.m
	m.mu.RLock()
	d := m.devs[v.name]
	m.mu.RUnlock()
	return func(port string, q int) bool {
		if d == nil || q < 0 || q > 7 {
			return false
		}
		m.rlock()
		defer m.mu.RUnlock()
		return d.swPort(port).ECN[q]
	}
}

// RoCEClass is the priority and queue RoCE's code point gets on a
// switch port per its configuration (the intent's RoCE DSCP, 26 when the
// intent has no RoCE class).
func (v *DeviceView) RoCEClass(port string) (prio, queue int) {
	m := v.m
	m.rlock()
	defer m.mu.RUnlock()
	d := m.devs[v.name]
	if d == nil {
		return 3, 3
	}
	dscp := 26
	if m.f != nil {
		if c := m.f.ClassByRole("roce"); c != nil && len(c.DSCP) > 0 {
			dscp = c.DSCP[0]
		}
	}
	qp := d.swPort(port)
	prio, _ = qp.Classify(dscp, true)
	return prio, qp.Queue[prio]
}

// Round rounds x to n decimals.
func Round(x float64, n int) float64 {
	p := 1.0
	for range n {
		p *= 10
	}
	if x < 0 {
		return -float64(int64(-x*p+0.5)) / p
	}
	return float64(int64(x*p+0.5)) / p
}

// Sum8 is the sum of a metric over the eight priorities or queues
// from base.
func Sum8(p *PortView, base Metric) uint64 {
	var s uint64
	for i := 0; i < 8; i++ {
		s += p.C(base + Metric(i))
	}
	return s
}

// MilliWatts converts dBm to mW.
func MilliWatts(dbm float64) float64 { return math.Pow(10, dbm/10) }
