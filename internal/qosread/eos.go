package qosread

import "strings"

// aclEntry is one permit line of an access list, as a match.
type aclEntry struct {
	roce bool
	dscp []int
	deny bool
}

// parseACLEntry reads "SEQ permit|deny PROTO SRC[ PORT] DST [eq N | range A B] [dscp N]"
// (EOS and NX-OS access-list entries).
func parseACLEntry(line string) (aclEntry, bool) {
	f := strings.Fields(line)
	if len(f) < 3 {
		return aclEntry{}, false
	}
	if _, ok := atoi(f[0]); ok {
		f = f[1:]
	}
	var e aclEntry
	switch f[0] {
	case "permit":
	case "deny":
		e.deny = true
	default:
		return aclEntry{}, false
	}
	udp := len(f) > 1 && f[1] == "udp"
	for i := 2; i < len(f); i++ {
		switch f[i] {
		case "eq":
			if i+1 < len(f) && f[i+1] == "4791" && udp {
				e.roce = true
			}
		case "range":
			if i+2 < len(f) && udp {
				a, okA := atoi(f[i+1])
				b, okB := atoi(f[i+2])
				if okA && okB && a <= 4791 && 4791 <= b {
					e.roce = true
				}
			}
		case "dscp":
			if i+1 < len(f) {
				if d, ok := atoi(f[i+1]); ok && dscpOK(d) {
					e.dscp = append(e.dscp, d)
				}
			}
		}
	}
	return e, true
}

// policyClass is one class of a QoS policy: what it sets.
type policyClass struct {
	name             string
	setDSCP, setPrio int
}

// readEOS reads `show running-config` of Arista EOS.
func readEOS(text string) (*Device, error) {
	d := newDevice()
	bs := parseBlocks(text, "!")
	acls := map[string][]aclEntry{}
	classACL := map[string][]string{}
	policies := map[string][]policyClass{}
	var ifaces []*block
	for _, b := range bs {
		switch {
		case strings.HasPrefix(b.head, "qos map dscp "):
			list, tc, ok := strings.Cut(strings.TrimPrefix(b.head, "qos map dscp "), " to traffic-class ")
			if n, okN := atoi(strings.TrimSpace(tc)); ok && okN && prio(n) {
				for _, v := range ints(list) {
					if dscpOK(v) {
						d.Default.DSCP[v] = n
					}
				}
			}
		case strings.HasPrefix(b.head, "qos map traffic-class "):
			tc, q, ok := strings.Cut(strings.TrimPrefix(b.head, "qos map traffic-class "), " to tx-queue ")
			if qn, okQ := atoi(strings.TrimSpace(q)); ok && okQ && prio(qn) {
				for _, v := range ints(tc) {
					if prio(v) {
						d.Default.Queue[v] = qn
					}
				}
			}
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
				if acl, ok := cut(k.head, "match ip access-group"); ok {
					classACL[name] = append(classACL[name], acl)
				}
			}
		case strings.HasPrefix(b.head, "policy-map type quality-of-service "):
			name := strings.TrimPrefix(b.head, "policy-map type quality-of-service ")
			policies[name] = readPolicyClasses(b.kids, "set traffic-class")
		case strings.HasPrefix(b.head, "interface "):
			ifaces = append(ifaces, b)
		}
	}
	for _, b := range ifaces {
		eosInterface(d.port(strings.TrimPrefix(b.head, "interface ")), b, policies, classACL, acls)
	}
	return d, nil
}

// eosInterface reads one interface stanza into its port.
func eosInterface(p *Port, b *block, policies map[string][]policyClass, classACL map[string][]string, acls map[string][]aclEntry) {
	routed, trust := false, ""
	for _, k := range b.kids {
		h := k.head
		switch {
		case h == "no switchport":
			routed = true
		case h == "qos trust dscp":
			trust = "dscp"
		case h == "qos trust cos":
			trust = "pcp"
		case h == "no qos trust":
			trust = "none"
		case strings.HasPrefix(h, "priority-flow-control priority ") && strings.HasSuffix(h, " no-drop"):
			if n, ok := atoi(strings.Fields(h)[2]); ok && prio(n) {
				p.PFC[n] = true
			}
		case h == "priority-flow-control pause watchdog":
			p.Watchdog = true
		case strings.HasPrefix(h, "service-policy type qos input "):
			pm := strings.TrimPrefix(h, "service-policy type qos input ")
			p.Rules = append(p.Rules, policyRules(policies[pm], classACL, acls)...)
		case strings.HasPrefix(h, "tx-queue "):
			q, ok := atoi(strings.TrimPrefix(h, "tx-queue "))
			for _, kk := range k.kids {
				if ok && prio(q) && strings.HasPrefix(kk.head, "random-detect ecn ") {
					p.ECN[q] = true
				}
			}
		}
	}
	switch {
	case trust != "":
		p.Trust = trust
	case routed:
		p.Trust = "dscp"
	default:
		p.Trust = "pcp"
	}
}

// readPolicyClasses reads "class NAME" children with set dscp / set
// <prioKey> N lines.
func readPolicyClasses(kids []*block, prioKey string) []policyClass {
	var out []policyClass
	for _, k := range kids {
		name, ok := cut(k.head, "class")
		if !ok {
			continue
		}
		pc := policyClass{name: strings.TrimPrefix(name, "type qos "), setDSCP: -1, setPrio: -1}
		for _, kk := range k.kids {
			if v, ok := cut(kk.head, "set dscp"); ok {
				if n, ok := atoi(v); ok && dscpOK(n) {
					pc.setDSCP = n
				}
			}
			if v, ok := cut(kk.head, prioKey); ok {
				if n, ok := atoi(v); ok && prio(n) {
					pc.setPrio = n
				}
			}
		}
		out = append(out, pc)
	}
	return out
}

// policyRules turns a policy's ACL classes into marking rules.
func policyRules(classes []policyClass, classACL map[string][]string, acls map[string][]aclEntry) []Rule {
	var out []Rule
	for _, pc := range classes {
		for _, acl := range classACL[pc.name] {
			for _, e := range acls[acl] {
				if e.deny {
					continue
				}
				out = append(out, Rule{RoCE: e.roce, DSCP: e.dscp, SetDSCP: pc.setDSCP, SetPrio: pc.setPrio})
			}
		}
	}
	return out
}
