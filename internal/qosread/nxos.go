package qosread

import "strings"

// readNXOS reads `show running-config` of Cisco NX-OS: type qos
// class-maps and policy-maps (DSCP and ACL classes setting a qos-group,
// set dscp), the system network-qos (pause pfc-cos) and queuing (ECN)
// policies, and each interface's input policy. Without an input policy
// a port puts everything in qos-group 0.
func readNXOS(text string) (*Device, error) {
	d := newDevice()
	d.Default.Trust = "none"
	bs := parseBlocks(text, "!")
	acls := map[string][]aclEntry{}
	classDSCP := map[string][]int{}
	classACL := map[string][]string{}
	policies := map[string][]policyClass{}
	queuing := map[string][8]bool{}
	nq := map[string][8]bool{}
	var sysNQ, sysQueuing string
	var ifaces []*block
	for _, b := range bs {
		switch {
		case strings.HasPrefix(b.head, "ip access-list "):
			name := strings.TrimPrefix(b.head, "ip access-list ")
			for _, k := range b.kids {
				if e, ok := parseACLEntry(k.head); ok {
					acls[name] = append(acls[name], e)
				}
			}
		case strings.HasPrefix(b.head, "class-map type qos "):
			f := strings.Fields(b.head)
			name := f[len(f)-1]
			for _, k := range b.kids {
				if v, ok := cut(k.head, "match dscp"); ok {
					classDSCP[name] = append(classDSCP[name], ints(v)...)
				}
				if v, ok := cut(k.head, "match access-group name"); ok {
					classACL[name] = append(classACL[name], v)
				}
			}
		case strings.HasPrefix(b.head, "policy-map type qos "):
			name := strings.TrimPrefix(b.head, "policy-map type qos ")
			policies[name] = readPolicyClasses(b.kids, "set qos-group")
		case strings.HasPrefix(b.head, "policy-map type queuing "):
			name := strings.TrimPrefix(b.head, "policy-map type queuing ")
			var ecn [8]bool
			for _, k := range b.kids {
				q := nxosQueue(strings.TrimPrefix(k.head, "class type queuing "))
				for _, kk := range k.kids {
					if q >= 0 && strings.HasPrefix(kk.head, "random-detect ") && strings.HasSuffix(kk.head, " ecn") {
						ecn[q] = true
					}
				}
			}
			queuing[name] = ecn
		case strings.HasPrefix(b.head, "policy-map type network-qos "):
			name := strings.TrimPrefix(b.head, "policy-map type network-qos ")
			var pfc [8]bool
			for _, k := range b.kids {
				for _, kk := range k.kids {
					if v, ok := cut(kk.head, "pause pfc-cos"); ok {
						for _, c := range ints(v) {
							if prio(c) {
								pfc[c] = true
							}
						}
					}
				}
			}
			nq[name] = pfc
		case b.head == "system qos":
			for _, k := range b.kids {
				if v, ok := cut(k.head, "service-policy type network-qos"); ok {
					sysNQ = v
				}
				if v, ok := cut(k.head, "service-policy type queuing output"); ok {
					sysQueuing = v
				}
			}
		case strings.HasPrefix(b.head, "interface "):
			ifaces = append(ifaces, b)
		}
	}
	d.Default.PFC = nq[sysNQ]
	d.Default.ECN = queuing[sysQueuing]
	for _, b := range ifaces {
		p := d.port(strings.TrimPrefix(b.head, "interface "))
		for _, k := range b.kids {
			switch {
			case strings.HasPrefix(k.head, "service-policy type qos input "):
				pm := policies[strings.TrimPrefix(k.head, "service-policy type qos input ")]
				p.Trust = "dscp"
				p.Rules = append(p.Rules, policyRules(pm, classACL, acls)...)
				// DSCP classes are the port's DSCP map; codes no class
				// names stay in qos-group 0.
				var m [64]int
				for _, pc := range pm {
					for _, v := range classDSCP[pc.name] {
						if dscpOK(v) && pc.setPrio >= 0 {
							m[v] = pc.setPrio
						}
					}
					if pc.setDSCP >= 0 && len(classDSCP[pc.name]) > 0 {
						p.Rules = append(p.Rules, Rule{DSCP: classDSCP[pc.name], SetDSCP: pc.setDSCP, SetPrio: pc.setPrio})
					}
				}
				p.DSCP = m
			case k.head == "priority-flow-control watch-dog-interval on":
				p.Watchdog = true
			}
		}
	}
	return d, nil
}

// nxosQueue is the queue of an 8-queue class name (c-out-8q-q3, c-8q-nq3,
// c-out-8q-q-default), or -1.
func nxosQueue(class string) int {
	if strings.HasSuffix(class, "-default") {
		return 0
	}
	i := strings.LastIndexAny(class, "qQ")
	if i < 0 {
		return -1
	}
	n, ok := atoi(class[i+1:])
	if !ok || !prio(n) {
		return -1
	}
	return n
}
