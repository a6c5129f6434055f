package aristaeos

import (
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/qosread"
)

// read reads `show running-config` of Arista EOS.
func read(text string) (*qosread.Device, error) {
	d := qosread.NewDevice()
	bs := config.Parse(text, textForm()).Nodes
	acls := map[string][]qosread.ACLEntry{}
	classACL := map[string][]string{}
	policies := map[string][]qosread.PolicyClass{}
	var ifaces []*config.Node
	for _, b := range bs {
		head := qosread.Head(b)
		switch {
		case strings.HasPrefix(head, "qos map dscp "):
			list, tc, ok := strings.Cut(strings.TrimPrefix(head, "qos map dscp "), " to traffic-class ")
			if n, okN := qosread.Atoi(strings.TrimSpace(tc)); ok && okN && qosread.Prio(n) {
				for _, v := range qosread.Ints(list) {
					if qosread.DSCPOK(v) {
						d.Default.DSCP[v] = n
					}
				}
			}
		case strings.HasPrefix(head, "qos map traffic-class "):
			tc, q, ok := strings.Cut(strings.TrimPrefix(head, "qos map traffic-class "), " to tx-queue ")
			if qn, okQ := qosread.Atoi(strings.TrimSpace(q)); ok && okQ && qosread.Prio(qn) {
				for _, v := range qosread.Ints(tc) {
					if qosread.Prio(v) {
						d.Default.Queue[v] = qn
					}
				}
			}
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
				if acl, ok := qosread.Cut(qosread.Head(k), "match ip access-group"); ok {
					classACL[name] = append(classACL[name], acl)
				}
			}
		case strings.HasPrefix(head, "policy-map type quality-of-service "):
			name := strings.TrimPrefix(head, "policy-map type quality-of-service ")
			policies[name] = qosread.PolicyClasses(b.Children, "set traffic-class")
		case strings.HasPrefix(head, "interface "):
			ifaces = append(ifaces, b)
		}
	}
	for _, b := range ifaces {
		head := qosread.Head(b)
		readInterface(d.Named(strings.TrimPrefix(head, "interface ")), b, policies, classACL, acls)
	}
	return d, nil
}

// readInterface reads one interface stanza into its port.
func readInterface(p *qosread.Port, b *config.Node, policies map[string][]qosread.PolicyClass, classACL map[string][]string, acls map[string][]qosread.ACLEntry) {
	routed, trust := false, ""
	for _, k := range b.Children {
		h := qosread.Head(k)
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
			if n, ok := qosread.Atoi(strings.Fields(h)[2]); ok && qosread.Prio(n) {
				p.PFC = p.PFC.With(n)
			}
		case h == "priority-flow-control pause watchdog":
			p.Watchdog = true
		case strings.HasPrefix(h, "service-policy type qos input "):
			pm := strings.TrimPrefix(h, "service-policy type qos input ")
			p.Rules = append(p.Rules, qosread.PolicyRules(policies[pm], classACL, acls)...)
		case strings.HasPrefix(h, "tx-queue "):
			q, ok := qosread.Atoi(strings.TrimPrefix(h, "tx-queue "))
			for _, kk := range k.Children {
				if ok && qosread.Prio(q) && strings.HasPrefix(qosread.Head(kk), "random-detect ecn ") {
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
