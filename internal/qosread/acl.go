package qosread

import (
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/config"
)

// ACLEntry is one permit line of an access list, as a match.
type ACLEntry struct {
	// RoCE: the entry matches UDP 4791 only.
	RoCE bool
	// DSCP, when not empty, are the code points it matches.
	DSCP []int
	// Deny: a deny entry (it marks nothing).
	Deny bool
}

// ParseACLEntry reads "SEQ permit|deny PROTO SRC[ PORT] DST [eq N | range A B] [dscp N]"
// (EOS and NX-OS access-list entries).
func ParseACLEntry(line string) (ACLEntry, bool) {
	f := strings.Fields(line)
	if len(f) < 3 {
		return ACLEntry{}, false
	}
	if _, ok := Atoi(f[0]); ok {
		f = f[1:]
	}
	var e ACLEntry
	switch f[0] {
	case "permit":
	case "deny":
		e.Deny = true
	default:
		return ACLEntry{}, false
	}
	udp := len(f) > 1 && f[1] == "udp"
	for i := 2; i < len(f); i++ {
		switch f[i] {
		case "eq":
			if i+1 < len(f) && f[i+1] == "4791" && udp {
				e.RoCE = true
			}
		case "range":
			if i+2 < len(f) && udp {
				a, okA := Atoi(f[i+1])
				b, okB := Atoi(f[i+2])
				if okA && okB && a <= 4791 && 4791 <= b {
					e.RoCE = true
				}
			}
		case "dscp":
			if i+1 < len(f) {
				if d, ok := Atoi(f[i+1]); ok && DSCPOK(d) {
					e.DSCP = append(e.DSCP, d)
				}
			}
		}
	}
	return e, true
}

// PolicyClass is one class of a QoS policy: what it sets.
type PolicyClass struct {
	// Name is the class (its class-map).
	Name string
	// SetDSCP and SetPrio are what it sets (-1: nothing).
	SetDSCP, SetPrio int
}

// PolicyClasses reads (EOS and NX-OS policy-maps) "class NAME" children with set dscp / set
// <prioKey> N lines.
func PolicyClasses(kids []*config.Node, prioKey string) []PolicyClass {
	var out []PolicyClass
	for _, k := range kids {
		name, ok := Cut(Head(k), "class")
		if !ok {
			continue
		}
		pc := PolicyClass{Name: strings.TrimPrefix(name, "type qos "), SetDSCP: -1, SetPrio: -1}
		for _, kk := range k.Children {
			h := Head(kk)
			if v, ok := Cut(h, "set dscp"); ok {
				if n, ok := Atoi(v); ok && DSCPOK(n) {
					pc.SetDSCP = n
				}
			}
			if v, ok := Cut(h, prioKey); ok {
				if n, ok := Atoi(v); ok && Prio(n) {
					pc.SetPrio = n
				}
			}
		}
		out = append(out, pc)
	}
	return out
}

// PolicyRules turns a policy's ACL classes into marking rules.
func PolicyRules(classes []PolicyClass, classACL map[string][]string, acls map[string][]ACLEntry) []Rule {
	var out []Rule
	for _, pc := range classes {
		for _, acl := range classACL[pc.Name] {
			for _, e := range acls[acl] {
				if e.Deny {
					continue
				}
				out = append(out, Rule{RoCE: e.RoCE, DSCP: e.DSCP, SetDSCP: pc.SetDSCP, SetPrio: pc.SetPrio})
			}
		}
	}
	return out
}
