package cisconxos

import (
	"strings"

	"github.com/fabricgen/fabricgen/internal/qosread"
	"github.com/fabricgen/fabricgen/schema"
)

// read reads `show running-config` of Cisco NX-OS: type qos
// class-maps and policy-maps (DSCP and ACL classes setting a qos-group,
// set dscp), the system network-qos (pause pfc-cos) and queuing (ECN)
// policies, and each interface's input policy. Without an input policy
// a port puts everything in qos-group 0.
func read(text string) (*qosread.Device, error) {
	d := qosread.NewDevice()
	d.Default.Trust = "none"
	bs := qosread.ParseBlocks(text, "!")
	acls := map[string][]qosread.ACLEntry{}
	classDSCP := map[string][]int{}
	classACL := map[string][]string{}
	policies := map[string][]qosread.PolicyClass{}
	queuing := map[string][8]bool{}
	nq := map[string]schema.PrioSet{}
	var sysNQ, sysQueuing string
	var ifaces []*qosread.Block
	for _, b := range bs {
		switch {
		case strings.HasPrefix(b.Head, "ip access-list "):
			name := strings.TrimPrefix(b.Head, "ip access-list ")
			for _, k := range b.Kids {
				if e, ok := qosread.ParseACLEntry(k.Head); ok {
					acls[name] = append(acls[name], e)
				}
			}
		case strings.HasPrefix(b.Head, "class-map type qos "):
			f := strings.Fields(b.Head)
			name := f[len(f)-1]
			for _, k := range b.Kids {
				if v, ok := qosread.Cut(k.Head, "match dscp"); ok {
					classDSCP[name] = append(classDSCP[name], qosread.Ints(v)...)
				}
				if v, ok := qosread.Cut(k.Head, "match access-group name"); ok {
					classACL[name] = append(classACL[name], v)
				}
			}
		case strings.HasPrefix(b.Head, "policy-map type qos "):
			name := strings.TrimPrefix(b.Head, "policy-map type qos ")
			policies[name] = qosread.PolicyClasses(b.Kids, "set qos-group")
		case strings.HasPrefix(b.Head, "policy-map type queuing "):
			name := strings.TrimPrefix(b.Head, "policy-map type queuing ")
			var ecn [8]bool
			for _, k := range b.Kids {
				q := readQueue(strings.TrimPrefix(k.Head, "class type queuing "))
				for _, kk := range k.Kids {
					if q >= 0 && strings.HasPrefix(kk.Head, "random-detect ") && strings.HasSuffix(kk.Head, " ecn") {
						ecn[q] = true
					}
				}
			}
			queuing[name] = ecn
		case strings.HasPrefix(b.Head, "policy-map type network-qos "):
			name := strings.TrimPrefix(b.Head, "policy-map type network-qos ")
			var pfc schema.PrioSet
			for _, k := range b.Kids {
				for _, kk := range k.Kids {
					if v, ok := qosread.Cut(kk.Head, "pause pfc-cos"); ok {
						for _, c := range qosread.Ints(v) {
							if qosread.Prio(c) {
								pfc = pfc.With(c)
							}
						}
					}
				}
			}
			nq[name] = pfc
		case b.Head == "system qos":
			for _, k := range b.Kids {
				if v, ok := qosread.Cut(k.Head, "service-policy type network-qos"); ok {
					sysNQ = v
				}
				if v, ok := qosread.Cut(k.Head, "service-policy type queuing output"); ok {
					sysQueuing = v
				}
			}
		case strings.HasPrefix(b.Head, "interface "):
			ifaces = append(ifaces, b)
		}
	}
	d.Default.PFC = nq[sysNQ]
	d.Default.ECN = queuing[sysQueuing]
	for _, b := range ifaces {
		p := d.Named(strings.TrimPrefix(b.Head, "interface "))
		for _, k := range b.Kids {
			switch {
			case strings.HasPrefix(k.Head, "service-policy type qos input "):
				pm := policies[strings.TrimPrefix(k.Head, "service-policy type qos input ")]
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
			case k.Head == "priority-flow-control watch-dog-interval on":
				p.Watchdog = true
			}
		}
	}
	return d, nil
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
