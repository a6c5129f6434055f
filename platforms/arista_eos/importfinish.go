package aristaeos

import (
	"fmt"
	"maps"
	"sort"

	"github.com/fabricgen/fabricgen/internal/importer"
)

// checkTC reports a fabricgen-shaped class whose "set traffic-class" is not
// the one the intent derives: the DSCP map's class of the code point the
// rule sets, or of the code points it matches (view.go's MarkView).
func (im *eosImport) checkTC(pm *eosPolicy, c eosPolicyClass, a *eosACL, seq int) {
	if im.dscp == nil || c.tcLn == nil {
		return
	}
	want := -1
	r := ruleBySeq(a.v4, seq)
	if r == nil {
		r = ruleBySeq(a.v6, seq)
	}
	switch {
	case c.setDSCP >= 0:
		if v, ok := im.dscp[c.setDSCP]; ok {
			want = v
		}
	case r != nil && len(r.DSCP) > 0:
		want = -2
		for _, d := range r.DSCP {
			v, ok := im.dscp[d]
			if !ok || (want != -2 && v != want) {
				want = -1
				break
			}
			want = v
		}
	}
	if want != c.setTC {
		im.unmapped(c.tcLn, "policy-map "+pm.name+" class "+c.name+": the intent puts a re-marked packet in the DSCP map's traffic class of its code point, not a class of its own")
	}
}

// finish builds the Device's ports, default QoS and ACLs from what was read.
func (im *eosImport) finish() {
	d := im.dev
	if im.dscp != nil || im.pcp != nil || im.queue != nil {
		d.Default = &importer.QoS{DSCP: maps.Clone(im.dscp), PCP: maps.Clone(im.pcp), Queue: maps.Clone(im.queue), Src: append([]importer.Span(nil), im.mapSrc...)}
		if im.dscp != nil && len(im.dscp) < 64 {
			im.unmapped(im.firstDSCP, "the qos map dscp lines name some code points only; the others keep EOS's default traffic class, which the intent cannot name (the imported DSCP map lists only the mapped ones)")
		}
	}
	wdUsed := false
	referenced := map[string]bool{}
	for _, pn := range im.order {
		ep := im.ports[pn]
		p := ep.p
		p.ACLIn = im.bindings(ep, "in", ep.aclIn4, ep.aclIn6)
		p.ACLOut = im.bindings(ep, "out", ep.aclOut4, ep.aclOut6)
		p.ACLIn, p.ACLOut = im.defined(ep, p.ACLIn), im.defined(ep, p.ACLOut)
		for _, n := range append(append([]string(nil), p.ACLIn...), p.ACLOut...) {
			referenced[n] = true
		}
		if ep.qos {
			q := &importer.QoS{Trust: ep.trust, Src: append(append(append(append([]importer.Span(nil), im.mapSrc...), p.Src), ep.profSrc...), ep.markSrc...)}
			if d.Default != nil {
				// The switch-wide maps, shared by every port (read-only, as
				// the whole Device is to its readers): a 50 MB configuration
				// has 100,000 ports.
				q.DSCP, q.PCP, q.Queue = d.Default.DSCP, d.Default.PCP, d.Default.Queue
			}
			switch {
			case ep.pfcOn:
				q.PFC, q.PFCSet = append([]int(nil), ep.pfc...), true
				sort.Ints(q.PFC)
			case len(ep.pfc) > 0 || ep.pfcSet:
				q.PFCSet = true // off, or no-drop priorities without "priority-flow-control on"
			}
			if len(q.PFC) > 0 {
				if ep.wdOn {
					w := importer.Watchdog{}
					if im.wd != nil {
						w = *im.wd
						q.Src = append(q.Src, im.wdSrc...)
					}
					q.Watchdog, wdUsed = &w, true
				} else {
					q.WatchdogOff = true
				}
			}
			im.linkPause(ep, q)
			if len(ep.queues) > 0 {
				q.Queues = map[int]*importer.Queue{}
				for id, qq := range ep.queues {
					cp := *qq
					q.Queues[id] = &cp
				}
			}
			p.QoS = q
		}
		d.Ports = append(d.Ports, p)
	}
	if im.wd != nil && !wdUsed {
		for _, n := range im.wdLines {
			im.unmapped(n, "no port with PFC enables the watchdog (priority-flow-control pause watchdog), so its timers apply nowhere")
		}
	}
	for _, n := range im.aclOrder {
		a := im.acls[n]
		if a.helper && !referenced[n] {
			continue
		}
		d.ACLs = append(d.ACLs, im.merged(a))
	}
	im.uniform()
	sort.SliceStable(d.Unmapped, func(i, j int) bool { return d.Unmapped[i].Line < d.Unmapped[j].Line })
}

// uniform makes the ports agree where the EOS render holds one setting
// per switch (view.go refuses ports that differ): the trust of every port
// and the watchdog of every lossless port. The value most ports have wins
// (the first seen on a tie); each other port's line is reported, so the
// imported intent renders and nothing changes silently.
func (im *eosImport) uniform() {
	d := im.dev
	trustOf := func(p *importer.Port) string {
		if p.QoS != nil {
			return p.QoS.Trust
		}
		if d.Default != nil {
			return d.Default.Trust
		}
		return ""
	}
	best, n, split := majority(d.Ports, trustOf)
	if split {
		for _, p := range d.Ports {
			if trustOf(p) == best {
				continue
			}
			ep := im.ports[p.Name]
			if ep.trustLn != nil {
				im.unmapped(ep.trustLn, fmt.Sprintf("EOS renders one trust per switch: this port's is not kept; the imported intent gives it the trust of %s (%s)", ports(n), trustWords(best)))
			} else {
				im.unmapped(ep.node, fmt.Sprintf("this port has no qos trust line (EOS's default); EOS renders one trust per switch, so the imported intent gives it the trust of %s (%s)", ports(n), trustWords(best)))
			}
			im.ownQoS(p).Trust = best
		}
	}
	var lossless []*importer.Port
	for _, p := range d.Ports {
		if p.QoS != nil && len(p.QoS.PFC) > 0 {
			lossless = append(lossless, p)
		}
	}
	wdOf := func(p *importer.Port) string {
		if p.QoS.Watchdog != nil {
			return "on"
		}
		return "off"
	}
	best, n, split = majority(lossless, wdOf)
	if !split {
		return
	}
	for _, p := range lossless {
		if wdOf(p) == best {
			continue
		}
		ep := im.ports[p.Name]
		if best == "off" {
			im.unmapped(ep.wdLn, fmt.Sprintf("EOS renders the PFC watchdog of every lossless port alike: %s run without it, so this port's is not kept", ports(n)))
			p.QoS.Watchdog, p.QoS.WatchdogOff = nil, true
			continue
		}
		im.unmapped(ep.node, fmt.Sprintf("this lossless port runs without the PFC watchdog; EOS renders the watchdog of every lossless port alike, so the imported intent gives it the watchdog of %s", ports(n)))
		w := importer.Watchdog{}
		if im.wd != nil {
			w = *im.wd
		}
		p.QoS.Watchdog, p.QoS.WatchdogOff = &w, false
	}
}

// majority is the value of most ports (the first seen on a tie), how many
// ports have it, and whether any port has another.
func majority(ports []*importer.Port, of func(*importer.Port) string) (string, int, bool) {
	count := map[string]int{}
	var order []string
	for _, p := range ports {
		v := of(p)
		if count[v] == 0 {
			order = append(order, v)
		}
		count[v]++
	}
	if len(order) < 2 {
		return "", 0, false
	}
	best := order[0]
	for _, v := range order[1:] {
		if count[v] > count[best] {
			best = v
		}
	}
	return best, count[best], true
}

// ports says "1 other port" or "N other ports".
func ports(n int) string {
	if n == 1 {
		return "1 other port"
	}
	return fmt.Sprintf("%d other ports", n)
}

// trustWords says a trust value in EOS's words.
func trustWords(t string) string {
	switch t {
	case "dscp":
		return "qos trust dscp"
	case "pcp":
		return "qos trust cos"
	case "none":
		return "no qos trust"
	}
	return "no trust line, EOS's default"
}

// ownQoS is p's QoS, made from the switch-wide maps when p had none.
func (im *eosImport) ownQoS(p *importer.Port) *importer.QoS {
	if p.QoS != nil {
		return p.QoS
	}
	q := &importer.QoS{Src: append(append([]importer.Span(nil), im.mapSrc...), p.Src)}
	if d := im.dev.Default; d != nil {
		q.DSCP, q.PCP, q.Queue = d.DSCP, d.PCP, d.Queue
	}
	p.QoS = q
	return q
}

// bindings is a port's ACLs of one direction: one name for the ip and ipv6
// access-groups of the same list; two lists in one direction are one too
// many for the intent (the renderer binds one ACL per direction), so the
// ipv6 one is reported.
func (im *eosImport) bindings(ep *eosPort, dir, v4, v6 string) []string {
	switch {
	case v4 == "" && v6 == "":
		return nil
	case v4 == "" || v4 == v6:
		return []string{v6}
	case v6 == "":
		return []string{v4}
	}
	im.unmapped(ep.aclLn[dir+"6"], "a second ACL bound "+dir+" ("+v6+" besides "+v4+"): the intent binds one ACL per direction, whose rules may be of both families; merge them")
	return []string{v4}
}

// defined keeps the bound ACLs the configuration defines, reporting the
// others (EOS accepts a binding of a list not yet written; the intent
// cannot name one).
func (im *eosImport) defined(ep *eosPort, names []string) []string {
	var out []string
	for _, n := range names {
		if im.acls[n] == nil {
			im.unmapped(ep.aclLn[bindingKey(ep, n)], "the access list "+n+" is not in the configuration")
			continue
		}
		out = append(out, n)
	}
	return out
}

// bindingKey finds the access-group line that binds n on the port.
func bindingKey(ep *eosPort, n string) string {
	for _, k := range []string{"in4", "in6", "out4", "out6"} {
		if l := ep.aclLn[k]; l != nil && (k == "in4" && ep.aclIn4 == n || k == "in6" && ep.aclIn6 == n || k == "out4" && ep.aclOut4 == n || k == "out6" && ep.aclOut6 == n) {
			return k
		}
	}
	return "in4"
}

// linkPause reads "flowcontrol send|receive on|off": 802.3x pause is the
// intent's link_pause when both directions agree.
func (im *eosImport) linkPause(ep *eosPort, q *importer.QoS) {
	switch {
	case ep.fcSend == nil && ep.fcRecv == nil:
	case ep.fcSend != nil && ep.fcRecv != nil && *ep.fcSend == *ep.fcRecv:
		v := *ep.fcSend
		q.LinkPause = &v
	case (ep.fcSend == nil || !*ep.fcSend) && (ep.fcRecv == nil || !*ep.fcRecv):
		v := false
		q.LinkPause = &v
	default:
		for _, n := range ep.fcLn {
			im.unmapped(n, "802.3x pause in one direction only: the intent's link_pause turns both on or off")
		}
	}
}
