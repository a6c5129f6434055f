package dataplane

import (
	"encoding/json"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// responder answers one platform's data-plane commands: show for CLIs
// (the whole line, with its pipes), exec for shells (one command's argv).
// Both only claim the read-only forms they know; anything else is the
// emulator's.
type responder struct {
	show func(v *DeviceView, line string) (out string, status int, ok bool)
	exec func(v *DeviceView, argv []string) (stdout, stderr string, status int, ok bool)
}

// responders is the registry: one per platform (hosts share one), so the
// answers of a platform live in one file of this package.
func responders() map[schema.Platform]responder {
	return map[schema.Platform]responder{
		schema.AristaEOS:     {show: eosShow},
		schema.CiscoNXOS:     {show: nxosShow},
		schema.JuniperJunos:  {show: junosShow},
		schema.NvidiaCumulus: {exec: cumulusExec},
		schema.SONiC:         {exec: sonicExec},
		schema.NvidiaMLNX:    {exec: hostExec},
		schema.LinuxDCB:      {exec: hostExec},
	}
}

// Show answers a CLI line of platform p (ok false: not a data-plane
// command).
func (v *DeviceView) Show(p schema.Platform, line string) (string, int, bool) {
	if v == nil {
		return "", 0, false
	}
	r := responders()[p]
	if r.show == nil {
		return "", 0, false
	}
	return r.show(v, strings.Join(strings.Fields(line), " "))
}

// Exec answers one shell command of platform p.
func (v *DeviceView) Exec(p schema.Platform, argv []string) (string, string, int, bool) {
	if v == nil || len(argv) == 0 {
		return "", "", 0, false
	}
	r := responders()[p]
	if r.exec == nil {
		return "", "", 0, false
	}
	return r.exec(v, argv)
}

// jsonText is v as indented JSON with a trailing newline.
func jsonText(v any) string {
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
