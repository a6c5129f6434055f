package cisconxos

import (
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/qosread"
	"github.com/fabricgen/fabricgen/schema"
)

// read reads `show running-config` of Cisco NX-OS: type qos
// class-maps and policy-maps (DSCP and ACL classes setting a qos-group,
// set dscp), the system network-qos (pause pfc-cos) and queuing (ECN)
// policies, the PFC watchdog (per port, and its switch-wide fixed-restore
// multiplier), and each interface's input policy. Without an input policy
// a port puts everything in qos-group 0.
func read(text string) (*qosread.Device, error) {
	d := qosread.NewDevice()
	d.Default.Trust = "none"
	bs := config.Parse(text, textForm()).Nodes
	acls := map[string][]qosread.ACLEntry{}
	classDSCP := map[string][]int{}
	classACL := map[string][]string{}
	policies := map[string][]qosread.PolicyClass{}
	queuing := map[string][8]bool{}
	nq := map[string]schema.PrioSet{}
	var sysNQ, sysQueuing string
	var ifaces []*config.Node
	for _, b := range bs {
		head := qosread.Head(b)
		switch {
		case strings.HasPrefix(head, "ip access-list "):
			name := strings.TrimPrefix(head, "ip access-list ")
			for _, k := range b.Children {
				if e, ok := qosread.ParseACLEntry(qosread.Head(k)); ok {
					acls[name] = append(acls[name], e)
				}
			}
		case strings.HasPrefix(head, "class-map type qos "):
			f := strings.Fields(head)
			name := f[len(f)-1]
			for _, k := range b.Children {
				h := qosread.Head(k)
				if v, ok := qosread.Cut(h, "match dscp"); ok {
					classDSCP[name] = append(classDSCP[name], qosread.Ints(v)...)
				}
				if v, ok := qosread.Cut(h, "match access-group name"); ok {
					classACL[name] = append(classACL[name], v)
				}
			}
		case strings.HasPrefix(head, "policy-map type qos "):
			name := strings.TrimPrefix(head, "policy-map type qos ")
			policies[name] = qosread.PolicyClasses(b.Children, "set qos-group")
		case strings.HasPrefix(head, "policy-map type queuing "):
			name := strings.TrimPrefix(head, "policy-map type queuing ")
			var ecn [8]bool
			for _, k := range b.Children {
				q := readQueue(strings.TrimPrefix(qosread.Head(k), "class type queuing "))
				for _, kk := range k.Children {
					if h := qosread.Head(kk); q >= 0 && strings.HasPrefix(h, "random-detect ") && strings.HasSuffix(h, " ecn") {
						ecn[q] = true
					}
				}
			}
			queuing[name] = ecn
		case strings.HasPrefix(head, "policy-map type network-qos "):
			name := strings.TrimPrefix(head, "policy-map type network-qos ")
			var pfc schema.PrioSet
			for _, k := range b.Children {
				for _, kk := range k.Children {
					if v, ok := qosread.Cut(qosread.Head(kk), "pause pfc-cos"); ok {
						for _, c := range qosread.Ints(v) {
							if qosread.Prio(c) {
								pfc = pfc.With(c)
							}
						}
					}
				}
			}
			nq[name] = pfc
		case head == "system qos":
			for _, k := range b.Children {
				h := qosread.Head(k)
				if v, ok := qosread.Cut(h, "service-policy type network-qos"); ok {
					sysNQ = v
				}
				if v, ok := qosread.Cut(h, "service-policy type queuing output"); ok {
					sysQueuing = v
				}
			}
		case strings.HasPrefix(head, "interface "):
			ifaces = append(ifaces, b)
		default:
			readFixedRestore(d, head)
		}
	}
	d.Default.PFC = nq[sysNQ]
	d.Default.ECN = queuing[sysQueuing]
	for _, b := range ifaces {
		head := qosread.Head(b)
		p := d.Named(strings.TrimPrefix(head, "interface "))
		for _, k := range b.Children {
			h := qosread.Head(k)
			switch {
			case strings.HasPrefix(h, "service-policy type qos input "):
				pm := policies[strings.TrimPrefix(h, "service-policy type qos input ")]
				p.Trust = "dscp"
				p.Rules = append(p.Rules, qosread.PolicyRules(pm, classACL, acls)...)
				// DSCP classes are the port's DSCP map; codes no class
				// names stay in qos-group 0.
				var m [64]int
				for _, pc := range pm {
					for _, v := range classDSCP[pc.Name] {
						if qosread.DSCPOK(v) && pc.SetPrio >= 0 {
							m[v] = pc.SetPrio
						}
					}
					if pc.SetDSCP >= 0 && len(classDSCP[pc.Name]) > 0 {
						p.Rules = append(p.Rules, qosread.Rule{DSCP: classDSCP[pc.Name], SetDSCP: pc.SetDSCP, SetPrio: pc.SetPrio})
					}
				}
				p.DSCP = m
			case h == "priority-flow-control watch-dog-interval on":
				p.Watchdog = true
			case h == "priority-flow-control mode off":
				// The switch's no-drop classes do not pause on this
				// port (mode on and auto, the default, leave them to
				// the system network-qos policy and DCBX).
				p.PFC = 0
			}
		}
	}
	return d, nil
}

// readFixedRestore reads the switch-wide "priority-flow-control
// fixed-restore multiplier N" into d's default port (so every port): the
// restoration is N × the default watch-dog interval
// (viewNXOSWatchdogIntervalMS). Any other line, or an N that is no
// positive number, changes nothing.
func readFixedRestore(d *qosread.Device, line string) {
	if v, ok := qosread.Cut(line, "priority-flow-control fixed-restore multiplier"); ok {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			d.Default.WatchdogRestoreMS = n * viewNXOSWatchdogIntervalMS
		}
	}
}

// readQueue is the queue of an 8-queue class name (c-out-8q-q3, c-8q-nq3,
// c-out-8q-q-default), or -1.
func readQueue(class string) int {
	if strings.HasSuffix(class, "-default") {
		return 0
	}
	i := strings.LastIndexAny(class, "qQ")
	if i < 0 {
		return -1
	}
	n, ok := qosread.Atoi(class[i+1:])
	if !ok || !qosread.Prio(n) {
		return -1
	}
	return n
}
