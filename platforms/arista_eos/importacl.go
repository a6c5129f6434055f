package aristaeos

import (
	"fmt"
	"net/netip"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/qosread"
)

// accessList reads "ip|ipv6 access-list [standard] NAME" and its entries
// ("SEQ ACTION PROTO SRC [PORTS] DST [PORTS] [dscp N]", the shape the
// "acl_entry" template prints).
func (im *eosImport) accessList(n *config.Node, aclName string, v6, standard bool) {
	a := im.acls[aclName]
	if a == nil {
		a = &eosACL{name: aclName, src: im.span(n)}
		im.acls[aclName] = a
		im.aclOrder = append(im.aclOrder, aclName)
	} else {
		a.src.To = max(a.src.To, im.span(n).To)
	}
	if v6 {
		a.has6 = true
	} else {
		a.has4 = true
	}
	for _, k := range n.Children {
		h := qosread.Head(k)
		if strings.HasPrefix(h, "remark ") || strings.HasPrefix(h, "statistics ") || strings.HasPrefix(h, "counters ") ||
			strings.Contains(h, " remark ") {
			continue
		}
		r, why := eosEntry(h, v6, standard)
		if r == nil {
			im.unmapped(k, why)
			continue
		}
		if why != "" {
			im.unmapped(k, why)
		}
		r.Src = im.line(k)
		if r.Seq == 0 {
			// An entry without a number (a configuration written by hand or
			// by a generator): EOS numbers it 10 after the last.
			r.Seq = lastSeq(a, v6) + 10
		}
		if v6 {
			a.v6 = append(a.v6, r)
		} else {
			a.v4 = append(a.v4, r)
		}
	}
}

// lastSeq is the highest entry number of a's list of the family.
func lastSeq(a *eosACL, v6 bool) int {
	rs := a.v4
	if v6 {
		rs = a.v6
	}
	last := 0
	for _, r := range rs {
		last = max(last, r.Seq)
	}
	return last
}

// eosEntry reads one access-list entry into an intent rule; the second
// result says why the entry (nil rule) or part of it was not kept.
func eosEntry(h string, v6, standard bool) (*importer.ACLRule, string) {
	f := strings.Fields(h)
	r := &importer.ACLRule{Family: "any"}
	if len(f) > 0 {
		if seq, err := strconv.Atoi(f[0]); err == nil && seq > 0 {
			r.Seq = seq
			f = f[1:]
		}
	}
	if len(f) < 2 || (f[0] != "permit" && f[0] != "deny") {
		return nil, "an access-list entry fabricgen cannot read"
	}
	r.Action = f[0]
	f = f[1:]
	if standard {
		r.Protocol = "ip"
	} else {
		switch p := f[0]; p {
		case "ip", "ipv6":
			r.Protocol = "ip"
		case "icmp", "icmpv6":
			r.Protocol = "icmp"
		case "tcp", "udp":
			r.Protocol = p
		default:
			return nil, "an access-list entry on protocol " + p + ": the intent's rules match ip, udp, tcp or icmp"
		}
		f = f[1:]
	}
	var ok bool
	if r.SrcPrefix, f, ok = eosAddr(f, v6); !ok {
		return nil, "an access-list source fabricgen cannot read (any, host A or a prefix)"
	}
	var why string
	if r.SrcPorts, f, why = eosPorts(f); why != "" {
		return nil, why
	}
	if !standard {
		if r.DstPrefix, f, ok = eosAddr(f, v6); !ok {
			return nil, "an access-list destination fabricgen cannot read (any, host A or a prefix)"
		}
		if r.DstPorts, f, why = eosPorts(f); why != "" {
			return nil, why
		}
	}
	var extra []string
	for _, ps := range []*[][2]int{&r.SrcPorts, &r.DstPorts} {
		if len(*ps) > 1 {
			// fabricgen renders one port or range per side of an entry.
			extra = append(extra, fmt.Sprintf("ports after the first (%d more)", len(*ps)-1))
			*ps = (*ps)[:1]
		}
	}
	for i := 0; i < len(f); i++ {
		if f[i] == "dscp" && i+1 < len(f) {
			if d, ok := eosDSCP(f[i+1]); ok {
				r.DSCP = append(r.DSCP, d)
				i++
				continue
			}
		}
		extra = append(extra, f[i])
	}
	if len(extra) > 0 {
		why = "the entry's " + strings.Join(extra, " ") + ": no intent attribute fabricgen renders on EOS; the rule was kept without it"
	}
	return r, why
}

// eosAddr reads "any", "host A" or a prefix.
func eosAddr(f []string, v6 bool) (string, []string, bool) {
	if len(f) == 0 {
		return "", f, false
	}
	switch f[0] {
	case "any":
		return "", f[1:], true
	case "host":
		if len(f) < 2 {
			return "", f, false
		}
		a, err := netip.ParseAddr(f[1])
		if err != nil || a.Is6() != v6 {
			return "", f, false
		}
		return netip.PrefixFrom(a, a.BitLen()).String(), f[2:], true
	}
	p, err := netip.ParsePrefix(f[0])
	if err != nil || p.Addr().Is6() != v6 {
		return "", f, false
	}
	return p.String(), f[1:], true
}

// eosPorts reads "eq P [P…]", "range A B", "gt N" or "lt N" (ports by
// number: the text form's canonical lines name none).
func eosPorts(f []string) ([][2]int, []string, string) {
	if len(f) == 0 {
		return nil, f, ""
	}
	port := func(s string) (int, bool) {
		v, ok := qosread.Atoi(s)
		return v, ok && v <= 65535
	}
	switch f[0] {
	case "eq":
		var out [][2]int
		i := 1
		for ; i < len(f); i++ {
			v, ok := port(f[i])
			if !ok {
				break
			}
			out = append(out, [2]int{v, v})
		}
		if len(out) == 0 {
			return nil, f, "an access-list port fabricgen cannot read"
		}
		return out, f[i:], ""
	case "range":
		if len(f) < 3 {
			return nil, f, "an access-list port range fabricgen cannot read"
		}
		a, okA := port(f[1])
		b, okB := port(f[2])
		if !okA || !okB || a > b {
			return nil, f, "an access-list port range fabricgen cannot read"
		}
		return [][2]int{{a, b}}, f[3:], ""
	case "gt", "lt":
		if len(f) < 2 {
			return nil, f, "an access-list port fabricgen cannot read"
		}
		v, ok := port(f[1])
		if !ok || (f[0] == "gt" && v >= 65535) || (f[0] == "lt" && v == 0) {
			return nil, f, "an access-list port fabricgen cannot read"
		}
		if f[0] == "gt" {
			return [][2]int{{v + 1, 65535}}, f[2:], ""
		}
		return [][2]int{{0, v - 1}}, f[2:], ""
	case "neq":
		return nil, f, "an access-list port match neq: the intent matches ports and ranges only"
	}
	return nil, f, ""
}

// sameMatch reports whether two rules of one seq in the ip and ipv6 lists
// are the one intent rule of family "any" (no prefix decides a family).
func sameMatch(a, b *importer.ACLRule) bool {
	if a.SrcPrefix != "" || a.DstPrefix != "" || b.SrcPrefix != "" || b.DstPrefix != "" {
		return false
	}
	eq := func(x, y [][2]int) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return true
	}
	if len(a.DSCP) != len(b.DSCP) {
		return false
	}
	for i := range a.DSCP {
		if a.DSCP[i] != b.DSCP[i] {
			return false
		}
	}
	return a.Action == b.Action && a.Protocol == b.Protocol && eq(a.SrcPorts, b.SrcPorts) && eq(a.DstPorts, b.DstPorts)
}

// merged is the intent ACL of an ip and an ipv6 list of one name: a rule in
// both lists (same seq and match, no prefix) is one rule of either family;
// one in a single list gets that list's family, unless the name has only
// an ip list and the rule names no prefix (family "any", which EOS renders
// into the ip list).
func (im *eosImport) merged(a *eosACL) *importer.ACL {
	out := &importer.ACL{Name: a.name, Src: a.src}
	by6 := map[int]*importer.ACLRule{}
	for _, r := range a.v6 {
		by6[r.Seq] = r
	}
	used6 := map[*importer.ACLRule]bool{}
	for _, r := range a.v4 {
		switch r6 := by6[r.Seq]; {
		case r6 != nil && sameMatch(r, r6):
			used6[r6] = true
			r.Family = "any"
		case r.SrcPrefix == "" && r.DstPrefix == "" && !a.has6:
			r.Family = "any"
		default:
			r.Family = "ipv4"
		}
		out.Rules = append(out.Rules, r)
	}
	seqs := map[int]bool{}
	for _, r := range out.Rules {
		seqs[r.Seq] = true
	}
	for _, r := range a.v6 {
		if used6[r] {
			continue
		}
		if seqs[r.Seq] {
			im.dev.Unmapped = append(im.dev.Unmapped, importer.Line{File: im.file, Line: r.Src.From, Text: "ipv6 access-list " + a.name + " entry " + strconv.Itoa(r.Seq),
				Why: "the ip access-list of the same name has another entry with this sequence number; one intent ACL holds one rule per seq"})
			continue
		}
		r.Family = "ipv6"
		out.Rules = append(out.Rules, r)
	}
	sort.SliceStable(out.Rules, func(i, j int) bool { return out.Rules[i].Seq < out.Rules[j].Seq })
	return out
}

// ruleBySeq finds a's rule seq in the family's list.
func ruleBySeq(rs []*importer.ACLRule, seq int) *importer.ACLRule {
	for _, r := range rs {
		if r.Seq == seq {
			return r
		}
	}
	return nil
}

// resolvePolicies maps the re-marking policies bound to ports. fabricgen
// renders an ACL rule with set_dscp as a policy map "PM-<acl>" bound with
// the ACL, one class "<acl>-<seq>" per permit rule up to the last
// re-marking one, each matching a one-entry copy of the rule (view.go,
// viewEOSACLs): such a policy goes back into its ACL's set_dscp. Any other
// policy's classes are reported.
func (im *eosImport) resolvePolicies() {
	done := map[string]bool{}
	// marks are the lines of each policy read back into set_dscp (the
	// policy-map, its class-maps and their one-entry lists): the QoS
	// source of every port that binds it.
	marks := map[string][]importer.Span{}
	usedClass := map[string]bool{}
	defer func() {
		for _, pn := range im.order {
			if ep := im.ports[pn]; marks[ep.policy] != nil {
				ep.markSrc, ep.qos = marks[ep.policy], true
			}
		}
		for name, c := range im.classes {
			if !usedClass[name] {
				im.unmappedAll(c.node, "a class-map no bound policy-map uses")
			}
		}
	}()
	for _, pn := range im.order {
		ep := im.ports[pn]
		if ep.policy == "" {
			continue
		}
		pm := im.policies[ep.policy]
		if pm == nil {
			im.unmapped(ep.policyLn, "the policy-map is not in the configuration")
			continue
		}
		parent := strings.TrimPrefix(pm.name, "PM-")
		if done[pm.name] {
			if ep.aclIn4 != parent && ep.aclIn6 != parent && im.shaped(pm) {
				im.unmapped(ep.policyLn, "the re-marking policy is bound without its access list "+parent+"; the intent binds both as acl_in")
			}
			continue
		}
		done[pm.name] = true
		if im.shaped(pm) && (ep.aclIn4 == parent || ep.aclIn6 == parent) {
			a := im.acls[parent]
			marks[pm.name] = []importer.Span{im.span(pm.node)}
			for _, c := range pm.classes {
				seq, _ := strconv.Atoi(strings.TrimPrefix(c.name, parent+"-"))
				usedClass[c.name] = true
				im.acls[c.name].helper = true
				marks[pm.name] = append(marks[pm.name], im.span(im.classes[c.name].node), im.acls[c.name].src)
				im.checkTC(pm, c, a, seq)
				for _, r := range []*importer.ACLRule{ruleBySeq(a.v4, seq), ruleBySeq(a.v6, seq)} {
					if r != nil && c.setDSCP >= 0 {
						d := c.setDSCP
						r.SetDSCP = &d
					}
				}
			}
			continue
		}
		const why = "a re-marking policy the intent expresses only as an inbound ACL's set_dscp (policy-map PM-<acl>, one class <acl>-<seq> per rule)"
		im.unmapped(pm.node, why)
		for _, c := range pm.classes {
			im.unmapped(c.node, why)
			if cls, ok := im.classes[c.name]; ok && !usedClass[c.name] {
				usedClass[c.name] = true
				im.unmapped(cls.node, "a class-map of "+pm.name+", "+why)
			}
			if c.setTC >= 0 && c.name != "class-default" {
				if im.dev.ClassNames == nil {
					im.dev.ClassNames = map[int]string{}
				}
				if _, ok := im.dev.ClassNames[c.setTC]; !ok {
					im.dev.ClassNames[c.setTC] = c.name
				}
			}
			for _, n := range append([]*config.Node{c.dscpLn, c.tcLn}, c.other...) {
				if n != nil {
					im.unmapped(n, "policy-map "+pm.name+" class "+c.name+": "+why)
				}
			}
		}
	}
	for name, pm := range im.policies {
		if !done[name] {
			im.unmapped(pm.node, "a QoS policy-map bound to no interface")
		}
	}
}

// shaped reports whether pm has the shape fabricgen renders for an ACL's
// re-marking: every class "<acl>-<seq>" matching a one-entry list that
// repeats the parent's rule seq, setting nothing but dscp and traffic-class.
func (im *eosImport) shaped(pm *eosPolicy) bool {
	parent, ok := strings.CutPrefix(pm.name, "PM-")
	a := im.acls[parent]
	if !ok || a == nil || len(pm.classes) == 0 {
		return false
	}
	for _, c := range pm.classes {
		cls, ok := im.classes[c.name]
		seqText, okSeq := strings.CutPrefix(c.name, parent+"-")
		seq, err := strconv.Atoi(seqText)
		if !ok || !okSeq || err != nil || cls.acl != c.name || len(c.other) > 0 {
			return false
		}
		h := im.acls[c.name]
		if h == nil || len(h.v4)+len(h.v6) != 1 {
			return false
		}
		one := append(append([]*importer.ACLRule{}, h.v4...), h.v6...)[0]
		r := ruleBySeq(a.v4, seq)
		if len(h.v6) == 1 {
			r = ruleBySeq(a.v6, seq)
		}
		if r == nil || one.Seq != seq || !sameRule(one, r) {
			return false
		}
	}
	return true
}

// sameRule compares two entries' matches (prefixes included).
func sameRule(a, b *importer.ACLRule) bool {
	return a.SrcPrefix == b.SrcPrefix && a.DstPrefix == b.DstPrefix && sameMatch(
		&importer.ACLRule{Action: "permit", Protocol: a.Protocol, SrcPorts: a.SrcPorts, DstPorts: a.DstPorts, DSCP: a.DSCP},
		&importer.ACLRule{Action: "permit", Protocol: b.Protocol, SrcPorts: b.SrcPorts, DstPorts: b.DstPorts, DSCP: b.DSCP})
}
