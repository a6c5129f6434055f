// Package qosread reads the QoS a switch runs from its configuration text
// (the form each platform's running-config command prints): how each port
// classifies a packet (trust, DSCP to priority, ACL and policy re-marking),
// which egress queue a priority uses, PFC, ECN marking, and DSCP rewrites.
// This package is the kit: the types and parsing helpers. Each switch
// platform's reader lives in its folder (platforms/<name>/reader.go), and
// the registry (package platforms) lists them.
//
// The lab's data plane uses it to send traffic through each device's
// current configuration, and fabricgen check to compare what a switch runs
// with the intent. It reads the constructs fabricgen renders and the
// common hand edits (a set dscp policy, a changed map); anything else in
// the configuration is ignored, never an error.
package qosread

import (
	"maps"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// Device is one switch's QoS.
type Device struct {
	// Default is the QoS of a port the configuration says nothing about.
	Default Port
	// Ports holds the ports the configuration names.
	Ports map[string]*Port
}

// Port is how one port treats packets.
type Port struct {
	// Trust is what ingress classification reads: "dscp", "pcp" or
	// "none" (everything to DefaultPrio).
	Trust string
	// DSCP maps code points to priorities under DSCP trust.
	DSCP [64]int
	// DefaultPrio is the priority of untrusted traffic.
	DefaultPrio int
	// Queue maps priorities to egress queues.
	Queue [8]int
	// PFC is the priorities with PFC on, in the intent's type (compare it
	// with schema.PortQoS.Lossless).
	PFC schema.PrioSet
	// ECN marks the egress queues that mark ECN.
	ECN [8]bool
	// Rules are the ingress marking rules (ACLs, policies), first match wins.
	Rules []Rule
	// Rewrite, when 0–63, is the DSCP every packet leaves the port with
	// (an egress rewrite); -1 keeps it.
	Rewrite int
	// RewritePrio maps a priority to the DSCP its packets leave the port
	// with (an egress rewrite of one class: a Junos rewrite rule, a SONiC
	// tc_to_dscp_map); a priority it does not name keeps its DSCP. It
	// applies after Rewrite.
	RewritePrio map[int]int
	// Watchdog is true when the PFC watchdog is on for the port.
	Watchdog bool
	// WatchdogRestoreMS is the PFC watchdog's restoration time in ms when
	// the configuration sets one the platform's reader reads (NX-OS:
	// "priority-flow-control fixed-restore multiplier"); 0 leaves it to the
	// switch.
	WatchdogRestoreMS int
}

// Rule is one ingress marking rule.
type Rule struct {
	// RoCE matches UDP destination port 4791 only; false matches any IP.
	RoCE bool
	// DSCP, when not empty, matches only these code points.
	DSCP []int
	// SetDSCP re-marks (-1: keep); SetPrio picks the priority (-1: by DSCP).
	SetDSCP, SetPrio int
}

// Classify returns the priority and the DSCP a packet with dscp gets at
// this port's ingress (roce: UDP 4791).
func (p *Port) Classify(dscp int, roce bool) (prio, out int) {
	out = dscp
	for _, r := range p.Rules {
		if r.RoCE && !roce {
			continue
		}
		if len(r.DSCP) > 0 && !containsInt(r.DSCP, dscp) {
			continue
		}
		if r.SetDSCP >= 0 {
			out = r.SetDSCP
		}
		if r.SetPrio >= 0 {
			return r.SetPrio, out
		}
		break
	}
	switch p.Trust {
	case "dscp":
		if out >= 0 && out < 64 {
			return p.DSCP[out], out
		}
	}
	return p.DefaultPrio, out
}

// ECNQueues lists the queues marking ECN.
func (p *Port) ECNQueues() []int {
	var out []int
	for i, on := range p.ECN {
		if on {
			out = append(out, i)
		}
	}
	return out
}

// Port returns the named port's QoS, or Default.
func (d *Device) Port(name string) *Port {
	if p := d.Ports[name]; p != nil {
		return p
	}
	return &d.Default
}

// PortNames lists the ports the configuration names, sorted naturally.
func (d *Device) PortNames() []string {
	out := make([]string, 0, len(d.Ports))
	for n := range d.Ports {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return schema.NaturalLess(out[i], out[j]) })
	return out
}

// Reader reads one platform's configuration text (the form its
// running-config command prints) into a Device. Each switch platform's
// folder (platforms/<name>/reader.go) gives one; the registry in package
// platforms lists them.
type Reader func(text string) (*Device, error)

// NewPort is a port as a factory switch has it: DSCP trusted with the
// class-selector map (priority = DSCP >> 3), priority n in queue n, no
// PFC, no ECN, no rewrite.
func NewPort() Port {
	p := Port{Trust: "dscp", Rewrite: -1}
	for d := range p.DSCP {
		p.DSCP[d] = d >> 3
	}
	for i := range p.Queue {
		p.Queue[i] = i
	}
	return p
}

// NewDevice is a device whose every port is a factory port (NewPort).
func NewDevice() *Device { return &Device{Default: NewPort(), Ports: map[string]*Port{}} }

// Named returns the named port, made from Default on first use.
func (d *Device) Named(name string) *Port {
	if p := d.Ports[name]; p != nil {
		return p
	}
	p := d.Default
	p.Rules = append([]Rule(nil), d.Default.Rules...)
	p.RewritePrio = maps.Clone(d.Default.RewritePrio)
	d.Ports[name] = &p
	return &p
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// Ints parses a list of numbers and ranges in any of "1,2,5-7" or "1 2 3"
// forms; bad items are skipped.
func Ints(s string) []int {
	var out []int
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		lo, hi, isRange := strings.Cut(f, "-")
		a, ok := Atoi(lo)
		if !ok {
			continue
		}
		b := a
		if isRange {
			if b, ok = Atoi(hi); !ok || b < a || b-a > 4096 {
				continue
			}
		}
		for i := a; i <= b; i++ {
			out = append(out, i)
		}
	}
	return out
}

// Atoi parses a small non-negative decimal.
func Atoi(s string) (int, bool) {
	if s == "" || len(s) > 6 {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// Prio bounds a priority or queue number.
func Prio(n int) bool { return n >= 0 && n < 8 }

// DSCPOK bounds a code point.
func DSCPOK(n int) bool { return n >= 0 && n < 64 }
