package check

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/internal/units"
	"github.com/fabricgen/fabricgen/schema"
)

func networkRules() []*Rule {
	return []*Rule{
		{ID: "CHK014", Layer: Network, Title: "RoCE stays in its class from hop to hop",
			Severity: schema.SevError, Needs: []string{QueueTxBytes}, Scope: SwitchesOnly, Reach: FabricReach, Path: true,
			Thresholds: "more than 10 % of the RoCE bytes a hop receives in RoCE's class (its neighbours' RoCE queue or priority counters) leave it, or reach the NIC, in another class, with at least 1 MiB of RoCE in the window; one finding per culprit (a neighbour's egress, every hop it feeds), a hop whose neighbours' counters are not read is not evaluated",
			Rationale:  "The field case: cross-subnet RDMA bandwidth halved because RoCE left the core switch with DSCP 0 and landed in the lossy default class downstream; every link was up and every device looked fine on its own. Counting each class's bytes on both sides of every hop finds the hop where the class changes, from the counters alone.",
			Reference:  "Meta DNE-TaaC qos_dscp_tx_queue_health_check (traffic of a DSCP in its tx queue and no other); openconfig/featureprofiles QoS-1.2 DSCP trust classification; RoCEv2 end-to-end QoS planning (NIC, access and core switches)",
			Fix:        "Make the hop keep RoCE's DSCP and class: remove the rewrite (a set dscp policy, an ACL, a missing trust or DSCP map on the routed hop) from the device where the class changes, then run fabricgen plan to see its configuration against the intent.",
			Run:        checkClassContinuity},
		{ID: "CHK015", Layer: Network, Title: "No drops in a lossless class",
			Severity: schema.SevError, Needs: []string{QueueDrops}, Scope: SwitchesOnly, Reach: HostReach,
			Thresholds: "any drop in the window in a lossless priority's egress queue (switch) or receive priority (NIC)",
			Rationale:  "A lossless class must lose nothing: each drop is a go-back-N retransmit for RoCE. Drops there mean PFC is missing on the ingress priority, headroom is too small, or the watchdog is dropping a stormed queue.",
			Reference:  "SONiC RoCEv2 test plan (no loss for lossless DSCPs, sonic-mgmt PR 21514); IEEE 802.1Qbb",
			Fix:        "Check PFC on the ingress priority of every hop before this one, the PFC headroom for the link's length and speed (lint BUF001), and the watchdog (CHK012).",
			Run:        checkLosslessDrops},
		{ID: "CHK016", Layer: Network, Title: "The QoS each device reports matches the intent",
			Severity: schema.SevError, Needs: []string{QoSReadback}, Scope: AllDevices, Reach: HostReach,
			Thresholds: "any class's code point mapped to another priority, another set of PFC priorities, another trust mode, no ECN on a queue the intent marks, or (hosts) a DCQCN notification or reaction point off where the intent sets rdma ecn",
			Rationale:  "What the device runs decides where RoCE lands, not what was rendered: a hand edit, a failed apply or a default on a new device all show up here, on the port they change.",
			Reference:  "NVIDIA NetQ check roce (configuration consistency); Arista AVD anta_runner (expectations from the structured config)",
			Fix:        "Run fabricgen plan for the device to see its configuration against the intent, then fabricgen apply.",
			Run:        checkReadback},
	}
}

// flowCounts are a class's bytes on one side of a hop.
type flowCounts struct{ class, other float64 }

// sent is what the neighbour at the far end of a link put on the wire
// toward the hop, from the neighbour's own counters: its RoCE queue
// (switch) or priority (NIC) bytes, and the rest, with the evidence of
// the RoCE counter. why says what is missing when ok is false.
func (p *Pass) sent(up *schema.Port, toward string) (fc flowCounts, ev diag.Evidence, why string, ok bool) {
	r, read := p.reading(up.Device.Name)
	if !read {
		return fc, ev, up.Device.Name + " could not be read", false
	}
	fam, idx := QueueTxBytes, queueAt(up, p.topo.roce)
	if up.Device.HostPlatform {
		fam, idx = PrioTxBytes, prioAt(up, p.topo.roce)
	}
	if !r.after.Exposes(fam) {
		return fc, ev, fmt.Sprintf("%s (%s) does not expose %s in what fabricgen reads", up.Device.Name, up.Device.Platform.V, fam), false
	}
	got := false
	for i := 0; i < 8; i++ {
		d, ok := p.delta(r, up.Name, Key(fam, i))
		if !ok {
			continue
		}
		got = true
		if i == idx {
			fc.class += d
		} else {
			fc.other += d
		}
	}
	if !got {
		return fc, ev, fmt.Sprintf("%s's %s counters on %s were not read or were reset", up.Device.Name, fam, up.Name), false
	}
	ev = p.evidence(r, up.Name, Key(fam, idx), fc.class, "bytes", "sent in RoCE's class toward "+toward)
	return fc, ev, "", true
}

// received is what the device of port let out: the bytes in RoCE's egress
// queue on every linked port (switch), or in RoCE's receive priority (NIC).
func (p *Pass) received(r reading) (flowCounts, bool) {
	var fc flowCounts
	got := false
	for _, port := range linkedPorts(r) {
		fam, idx := QueueTxBytes, queueAt(port, p.topo.roce)
		if r.dev.HostPlatform {
			fam, idx = PrioRxBytes, prioAt(port, p.topo.roce)
		}
		for i := 0; i < 8; i++ {
			d, ok := p.delta(r, port.Name, Key(fam, i))
			if !ok {
				continue
			}
			got = true
			if i == idx {
				fc.class += d
			} else {
				fc.other += d
			}
		}
	}
	return fc, got
}

// upstream is one neighbour's RoCE toward a hop, from its own counters.
type upstream struct {
	dev string
	// ports are the neighbour's ports toward the hop.
	ports []*schema.Port
	fc    flowCounts
	ev    []diag.Evidence
}

// classChange is one hop where RoCE changed class: pinned to one
// neighbour (culprit), ambiguous between equal ECMP shares (cands), or
// at the hop's own ingress (neither).
type classChange struct {
	r        reading
	in, out  flowCounts
	ups      []*upstream
	deficit  float64
	culprit  *upstream
	cands    []*upstream
	atIngres bool
}

// hopChange judges one hop: nil when RoCE kept its class (or there is
// too little to judge, or it cannot be judged: unknown says why).
func (p *Pass) hopChange(r reading) (c *classChange, roce float64, unknown []string) {
	by := map[string]*upstream{}
	var ups []*upstream
	var in flowCounts
	for _, port := range linkedPorts(r) {
		fc, ev, why, ok := p.sent(port.Peer, r.dev.Name)
		if !ok {
			unknown = append(unknown, why)
			continue
		}
		u := by[port.Peer.Device.Name]
		if u == nil {
			u = &upstream{dev: port.Peer.Device.Name}
			by[u.dev] = u
			ups = append(ups, u)
		}
		u.ports = append(u.ports, port.Peer)
		u.ev = append(u.ev, ev)
		u.fc.class += fc.class
		u.fc.other += fc.other
		in.class += fc.class
		in.other += fc.other
	}
	if len(unknown) > 0 {
		return nil, 0, unknown
	}
	out, ok := p.received(r)
	if !ok || in.class < p.T.MinRoCEBytes {
		return nil, in.class, nil
	}
	deficit := in.class - out.class
	gained := out.other - in.other
	if deficit <= p.T.ClassShare*in.class || gained < deficit/2 {
		return nil, in.class, nil
	}
	sort.Slice(ups, func(i, j int) bool { return ups[i].dev < ups[j].dev })
	c = &classChange{r: r, in: in, out: out, ups: ups, deficit: deficit}
	// Which neighbour's RoCE changed class: the one whose share matches
	// the deficit; all of them when the hop itself classifies RoCE
	// elsewhere.
	for _, u := range ups {
		if u.fc.class > 0 && abs(u.fc.class-deficit) <= 0.25*deficit {
			c.cands = append(c.cands, u)
		}
	}
	if len(c.cands) == 1 {
		c.culprit = c.cands[0]
	} else if len(c.cands) > 1 {
		// Equal shares (ECMP): the neighbour whose configuration
		// rewrites RoCE's DSCP, when exactly one does.
		var rewriting []*upstream
		for _, u := range c.cands {
			if p.rewritesRoCE(u.dev) {
				rewriting = append(rewriting, u)
			}
		}
		if len(rewriting) == 1 {
			c.culprit = rewriting[0]
		}
	}
	if c.culprit != nil && abs(deficit-in.class) <= 0.1*in.class && len(ups) > 1 {
		c.culprit = nil
	}
	if c.culprit == nil && len(c.cands) <= 1 {
		c.atIngres = true
	}
	if c.culprit != nil || c.atIngres {
		c.cands = nil
	}
	return c, in.class, nil
}

func checkClassContinuity(p *Pass) {
	if p.topo.roce == nil {
		return
	}
	total := 0.0
	type group struct {
		key     string
		changes []*classChange
	}
	var groups []*group
	byKey := map[string]*group{}
	skipped := map[string][]string{}
	var reasons []string
	for _, r := range p.Readings() {
		c, roce, unknown := p.hopChange(r)
		total += roce
		if len(unknown) > 0 {
			why := strings.Join(dedupe(unknown), "; ")
			if skipped[why] == nil {
				reasons = append(reasons, why)
			}
			skipped[why] = append(skipped[why], r.dev.Name)
			continue
		}
		if c == nil {
			continue
		}
		key := "ingress\x00" + r.dev.Name
		switch {
		case c.culprit != nil:
			key = "egress\x00" + c.culprit.dev
		case len(c.cands) > 1:
			var names []string
			for _, u := range c.cands {
				names = append(names, u.dev)
			}
			key = "ecmp\x00" + strings.Join(names, "\x00")
		}
		g := byKey[key]
		if g == nil {
			g = &group{key: key}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.changes = append(g.changes, c)
	}
	// A neighbour another hop pins (its only RoCE source there) that is
	// also among equal ECMP shares elsewhere is the same rewrite on its
	// other egress ports: those hops join its finding.
	for _, g := range groups {
		dev, ok := strings.CutPrefix(g.key, "ecmp\x00")
		if !ok {
			continue
		}
		var pinned []string
		for _, n := range strings.Split(dev, "\x00") {
			if byKey["egress\x00"+n] != nil {
				pinned = append(pinned, n)
			}
		}
		if len(pinned) != 1 {
			continue
		}
		into := byKey["egress\x00"+pinned[0]]
		for _, c := range g.changes {
			for _, u := range c.cands {
				if u.dev == pinned[0] {
					c.culprit, c.cands = u, nil
				}
			}
			into.changes = append(into.changes, c)
		}
		g.changes = nil
	}
	for _, g := range groups {
		if len(g.changes) > 0 {
			p.reportClassChange(g.changes)
		}
	}
	for _, why := range reasons {
		devs := skipped[why]
		p.Report(Finding{Severity: schema.SevInfo, Device: devs[0], Count: len(devs),
			Summary: fmt.Sprintf("CHK014 not evaluated at %s: the RoCE its neighbours sent it is not known (%s)", listNames(devs, 4), why),
			Fix:     "Nothing to fix on the fabric; docs/check.md lists what each platform exposes."})
	}
	if total == 0 {
		p.Report(Finding{Severity: schema.SevInfo, Summary: "RoCE class continuity not verified: no RoCE traffic crossed the fabric in the window",
			Fix: "Run fabricgen check while RDMA traffic flows (or give it a longer --interval)."})
	}
}

// reportClassChange reports the hops one cause changed RoCE's class at
// as one finding: a neighbour's egress (to every hop it feeds), an ECMP
// set of neighbours counters cannot tell apart, or a hop's ingress.
func (p *Pass) reportClassChange(cs []*classChange) {
	c := cs[0]
	var heres []string
	var related []diag.Related
	var deficit float64
	for _, x := range cs {
		heres = append(heres, x.r.dev.Name)
		deficit += x.deficit
	}
	ev := func(x *classChange, ups []*upstream) []diag.Evidence {
		var out []diag.Evidence
		for _, u := range ups {
			out = append(out, u.ev...)
		}
		if len(out) > 4 {
			out = out[:4]
		}
		return append(out, p.classEvidence(x.r, x.out, x.out.other-x.in.other)...)
	}
	switch {
	case c.culprit != nil:
		up := c.culprit.ports[0]
		port := up.Peer
		var sent float64
		var evs []diag.Evidence
		for i, x := range cs {
			sent += x.culprit.fc.class
			a := x.culprit.ports[0].Peer
			related = append(related, diag.Related{Range: a.Range, Message: fmt.Sprintf("RoCE from %s arrives at %s in another class", c.culprit.dev, a.ID())})
			if i < 3 {
				evs = append(evs, ev(x, []*upstream{x.culprit})...)
			}
		}
		toward, theirs := x0(heres), heres[0]+"'s classification"
		if len(heres) > 1 {
			theirs = "the classification at each of them"
		}
		p.Report(Finding{Subject: up.Range.Ptr(), Device: c.culprit.dev, Port: up.Name, Related: related, Count: len(cs),
			Trace: []diag.Step{{Port: up.ID(), Note: fmt.Sprintf("RoCE leaves in its class (queue %d)", queueAt(up, p.topo.roce))},
				{Port: port.ID(), Note: "arrives in another class"}},
			Summary: fmt.Sprintf("RoCE data leaves %s in its class toward %s (%s in the window) but arrives in another class: the DSCP changes on the hop from %s (a rewrite on %s's egress, or %s)",
				c.culprit.dev, toward, units.ApproxSize(sent), c.culprit.dev, c.culprit.dev, theirs),
			Evidence: evs})
	case len(c.cands) > 1:
		var names []string
		for _, u := range c.cands {
			names = append(names, u.dev)
		}
		port := c.cands[0].ports[0].Peer
		var evs []diag.Evidence
		for i, x := range cs {
			if i > 0 {
				related = append(related, diag.Related{Range: x.cands[0].ports[0].Peer.Range, Message: "RoCE also arrives at " + x.cands[0].ports[0].Peer.ID() + " in another class"})
			}
			if i < 2 {
				evs = append(evs, ev(x, x.cands)...)
			}
		}
		p.Report(Finding{Subject: port.Range.Ptr(), Device: c.r.dev.Name, Port: port.Name, Related: related, Count: len(cs),
			Trace:    []diag.Step{{Port: c.cands[0].ports[0].ID(), Note: "RoCE leaves in its class"}, {Port: port.ID(), Note: "arrives in another class"}},
			Summary:  fmt.Sprintf("RoCE data arrives at %s in another class than it left %s in (%s in the window, one neighbour's share at each): the DSCP changes on the hops from one of them, and no configuration read back rewrites it (a hidden rewrite; queue counters cannot tell equal ECMP shares apart: compare the neighbours' egress with a capture or a per-ingress-port counter)", andList(heres), orList(names), units.ApproxSize(deficit)),
			Evidence: evs})
	default:
		for _, x := range cs {
			here := x.r.dev.Name
			var big *upstream
			for _, u := range x.ups {
				if big == nil || u.fc.class > big.fc.class {
					big = u
				}
			}
			up := big.ports[0]
			port := up.Peer
			p.Report(Finding{Subject: port.Range.Ptr(), Device: here, Port: port.Name,
				Trace: []diag.Step{{Port: up.ID(), Note: fmt.Sprintf("RoCE leaves in queue %d", queueAt(up, p.topo.roce))},
					{Port: port.ID(), Note: "lands in another class"}},
				Summary:  fmt.Sprintf("RoCE data reaches %s in its class from every neighbour (%s in the window) but %.0f %% of it leaves %s in another class: %s classifies RoCE's DSCP %d outside the intent's class", here, units.ApproxSize(x.in.class), 100*x.deficit/x.in.class, here, here, classDSCP(p.topo.roce)),
				Evidence: ev(x, x.ups)})
		}
	}
}

// x0 is "nic17" or "nic17 and 7 more (nic18, …)" for the hops a cause reaches.
func x0(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return fmt.Sprintf("%d devices (%s)", len(names), listNames(names, 4))
}

// listNames is "a, b, c and 3 more".
func listNames(names []string, n int) string {
	if len(names) <= n {
		return andList(names)
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}

// andList is "a", "a and b", "a, b and c".
func andList(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// orList is "a", "a or b", "a, b or c".
func orList(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// rewritesRoCE reports whether a device's configuration, as read back,
// rewrites RoCE's DSCP on any port.
func (p *Pass) rewritesRoCE(name string) bool {
	r, ok := p.reading(name)
	d := classDSCP(p.topo.roce)
	if !ok || d < 0 {
		return false
	}
	for _, port := range r.after.Ports {
		if port.QoS != nil {
			if out, ok := port.QoS.Remark[d]; ok && out != d {
				return true
			}
		}
	}
	return false
}

// classEvidence shows what a hop let out: RoCE in its class, and what
// the other classes gained over what the neighbours sent in them.
func (p *Pass) classEvidence(r reading, out flowCounts, gained float64) []diag.Evidence {
	src, where := r.after.Source(QueueTxBytes), "RoCE's egress queue, every port"
	if r.dev.HostPlatform {
		src, where = r.after.Source(PrioRxBytes), "RoCE's receive priority"
		if ports := linkedPorts(r); len(ports) == 1 {
			src = r.after.PortSource(ports[0].Name, PrioRxBytes)
		}
	}
	return []diag.Evidence{
		{Device: r.dev.Name, Metric: "roce_bytes_in_class_forwarded", Value: out.class, Unit: "bytes", Window: r.window(),
			Threshold: fmt.Sprintf(">= %.0f %% of what the neighbours sent in RoCE's class (%s)", 100*(1-p.T.ClassShare), where), Source: src},
		{Device: r.dev.Name, Metric: "other_class_bytes_gained", Value: gained, Unit: "bytes", Window: r.window(), Threshold: "expected about 0 B", Source: src},
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func checkLosslessDrops(p *Pass) {
	for _, r := range p.Readings() {
		host := r.dev.HostPlatform
		var first *schema.Port
		var ev []diag.Evidence
		var total float64
		n, what, idx, prio := 0, "", 0, 0
		for _, port := range linkedPorts(r) {
			for pr := range lossless(port).All() {
				fam, i, w := QueueDrops, port.QoS.Queue[pr].V, "egress queue"
				if host {
					fam, i, w = PrioDrops, pr, "receive priority"
				}
				d, ok := p.delta(r, port.Name, Key(fam, i))
				if !ok || d <= 0 {
					continue
				}
				n++
				total += d
				if len(ev) < 4 {
					ev = append(ev, p.evidence(r, port.Name, Key(fam, i), d, "packets", "expected 0 in a lossless class"))
				}
				if first == nil {
					first, what, idx, prio = port, w, i, pr
				}
			}
		}
		if first == nil {
			continue
		}
		where := first.ID()
		if n > 1 {
			where = fmt.Sprintf("%s and %d more ports of %s", first.ID(), n-1, r.dev.Name)
		}
		p.Report(Finding{Subject: first.Range.Ptr(), Device: r.dev.Name, Port: first.Name, Count: n, Evidence: ev,
			Summary: fmt.Sprintf("%s dropped %s packets in %s %d, which carries lossless priority %d", where, diag.FormatValue(total), what, idx, prio)})
	}
}

func checkReadback(p *Pass) {
	for _, r := range p.Readings() {
		var first *schema.Port
		var what []string
		var ev []diag.Evidence
		n := 0
		for _, port := range linkedPorts(r) {
			pp := r.after.Port(port.Name)
			if pp == nil || pp.QoS == nil || port.QoS == nil {
				continue
			}
			diffs, e := readbackDiffs(p, r, port, pp.QoS)
			if len(diffs) == 0 {
				continue
			}
			n++
			if first == nil {
				first, what, ev = port, diffs, e
			}
		}
		if first == nil {
			continue
		}
		p.Report(Finding{Subject: first.Range.Ptr(), Device: r.dev.Name, Port: first.Name, Count: n,
			Summary:  fmt.Sprintf("%s runs QoS that differs from the intent on %s: %s", r.dev.Name, first.Name, strings.Join(what, "; ")),
			Evidence: ev})
	}
}

// readbackDiffs lists how a port's read-back QoS differs from the intent.
func readbackDiffs(p *Pass, r reading, port *schema.Port, q *QoS) ([]string, []diag.Evidence) {
	var out []string
	var ev []diag.Evidence
	// A platform that reads each part with its own command files them
	// under qos:dscp, qos:pfc, qos:trust, qos:dcqcn; else one command.
	src := func(part string) string {
		if s := r.after.PortSource(port.Name, QoSReadback+":"+part); s != "" {
			return s
		}
		return r.after.PortSource(port.Name, QoSReadback)
	}
	part := "dscp"
	// add records a difference: the reading v (in words: reading) and
	// what the intent says, in the intent's words.
	add := func(msg, metric string, v float64, reading, want string) {
		out = append(out, msg)
		ev = append(ev, diag.Evidence{Device: r.dev.Name, Port: port.Name, Metric: metric, Value: v, Reading: reading, Intent: want, Source: src(part)})
	}
	intent := port.QoS
	if q.DSCP != nil {
		for _, c := range p.Fabric.Classes {
			for _, d := range c.DSCP {
				got, ok := q.DSCP[d]
				if !ok {
					got = 0
				}
				if want := intent.DSCP[d].V; got != want {
					add(fmt.Sprintf("DSCP %d (%s) maps to priority %d, the intent says %d", d, c.Name, got, want), Key("qos_dscp_priority", d), float64(got), "", strconv.Itoa(want))
				}
			}
		}
	}
	part = "pfc"
	if q.PFC != nil {
		got := schema.PrioSetOf(q.PFC...)
		if want := intent.Lossless; got != want {
			add(fmt.Sprintf("PFC is on for priorities %s, the intent says %s", got, want), "qos_pfc_priorities", float64(got.Len()), got.String(), want.String())
		}
	}
	part = "trust"
	if q.Trust != "" && intent.Trust.V != "" && !trustEqual(q.Trust, string(intent.Trust.V)) {
		add(fmt.Sprintf("trusts %s, the intent says %s", q.Trust, intent.Trust.V), "qos_trust", 0, q.Trust, string(intent.Trust.V))
	}
	part = "remark"
	if d := classDSCP(p.topo.roce); d >= 0 && q.Remark != nil {
		if out, ok := q.Remark[d]; ok && out != d && !intentRemarks(port, d, out) {
			add(fmt.Sprintf("RoCE (UDP 4791) arriving with DSCP %d is rewritten to DSCP %d, which the intent does not do", d, out), Key("qos_roce_remark", d), float64(out), "", fmt.Sprintf("%d (kept)", d))
		}
	}
	part = "dcqcn"
	if dq, rd := q.DCQCN, r.dev.RDMA; dq != nil && rd != nil && rd.ECN.Set {
		want := rd.ECN.V
		switch {
		case dq.Missing:
			add(fmt.Sprintf("it has no DCQCN controls to read (no MLNX_OFED ECN sysfs), but the intent sets rdma ecn = %t", want), "qos_dcqcn_controls", 0, "absent", "present (MLNX_OFED ECN sysfs), for rdma ecn = true")
		default:
			for _, pt := range []struct {
				name, metric string
				on           bool
			}{{"notification point (CNPs for ECN marks)", "qos_dcqcn_np", dq.NP}, {"reaction point (rate control on CNPs)", "qos_dcqcn_rp", dq.RP}} {
				if pt.on != want {
					add(fmt.Sprintf("the DCQCN %s is %s on priority %d, the intent says rdma ecn = %t", pt.name, onOff(pt.on), dq.Priority, want),
						Key(pt.metric, dq.Priority), b2f(pt.on), onOff(pt.on), onOff(want))
				}
			}
		}
	}
	part = "ecn"
	if q.ECN != nil && p.topo.roce != nil && !r.dev.HostPlatform {
		qr := queueAt(port, p.topo.roce)
		if qr >= 0 && intent.Queues[qr].ECN.V != nil && !contains(q.ECN, qr) {
			add(fmt.Sprintf("queue %d does not mark ECN, the intent gives it ecn_profile %s", qr, intent.Queues[qr].ECN.V.Name), Key("qos_ecn_queue", qr), 0, "off", "on (ecn_profile "+intent.Queues[qr].ECN.V.Name+")")
		}
	}
	return out, ev
}

// intentRemarks reports whether an ACL the intent binds to the port sets
// UDP 4791 with DSCP d to out.
func intentRemarks(port *schema.Port, d, out int) bool {
	for _, acl := range port.ACLIn {
		for _, rule := range acl.Rules {
			if rule.SetDSCP.Set && rule.SetDSCP.V == out && (len(rule.DSCP.V) == 0 || contains(rule.DSCP.V, d)) {
				return true
			}
		}
	}
	return false
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func trustEqual(a, b string) bool {
	norm := func(s string) string {
		switch s {
		case "l3", "dscp":
			return "dscp"
		case "l2", "pcp", "cos":
			return "pcp"
		}
		return s
	}
	return norm(a) == norm(b)
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
