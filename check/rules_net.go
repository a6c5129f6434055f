package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/schema"
)

func networkRules() []*Rule {
	return []*Rule{
		{ID: "CHK014", Layer: Network, Title: "RoCE stays in its class from hop to hop",
			Severity: schema.SevError, Needs: []string{QueueTxBytes}, Scope: SwitchesOnly, Path: true,
			Thresholds: "more than 10 % of the RoCE bytes a hop receives in RoCE's class (its neighbours' RoCE queue or priority counters) leave it, or reach the NIC, in another class, with at least 1 MiB of RoCE in the window",
			Rationale:  "The field case: cross-subnet RDMA bandwidth halved because RoCE left the core switch with DSCP 0 and landed in the lossy default class downstream; every link was up and every device looked fine on its own. Counting each class's bytes on both sides of every hop finds the hop where the class changes, from the counters alone.",
			Reference:  "Meta DNE-TaaC qos_dscp_tx_queue_health_check (traffic of a DSCP in its tx queue and no other); openconfig/featureprofiles QoS-1.2 DSCP trust classification; RoCEv2 end-to-end QoS planning (NIC, access and core switches)",
			Fix:        "Make the hop keep RoCE's DSCP and class: remove the rewrite (a set dscp policy, an ACL, a missing trust or DSCP map on the routed hop) from the device where the class changes, then run fabricgen plan to see its configuration against the intent.",
			Run:        checkClassContinuity},
		{ID: "CHK015", Layer: Network, Title: "No drops in a lossless class",
			Severity: schema.SevError, Needs: []string{QueueDrops}, Scope: SwitchesOnly,
			Thresholds: "any drop in the window in a lossless priority's egress queue (switch) or receive priority (NIC)",
			Rationale:  "A lossless class must lose nothing: each drop is a go-back-N retransmit for RoCE. Drops there mean PFC is missing on the ingress priority, headroom is too small, or the watchdog is dropping a stormed queue.",
			Reference:  "SONiC RoCEv2 test plan (no loss for lossless DSCPs, sonic-mgmt PR 21514); IEEE 802.1Qbb",
			Fix:        "Check PFC on the ingress priority of every hop before this one, the PFC headroom for the link's length and speed (lint BUF001), and the watchdog (CHK012).",
			Run:        checkLosslessDrops},
		{ID: "CHK016", Layer: Network, Title: "The QoS each device reports matches the intent",
			Severity: schema.SevError, Needs: []string{QoSReadback}, Scope: AllDevices,
			Thresholds: "any class's code point mapped to another priority, another set of PFC priorities, another trust mode, or no ECN on a queue the intent marks",
			Rationale:  "What the device runs decides where RoCE lands, not what was rendered: a hand edit, a failed apply or a default on a new device all show up here, on the port they change.",
			Reference:  "NVIDIA NetQ check roce (configuration consistency); Arista AVD anta_runner (expectations from the structured config)",
			Fix:        "Run fabricgen plan for the device to see its configuration against the intent, then fabricgen apply.",
			Run:        checkReadback},
	}
}

// flowCounts are a class's bytes on one side of a hop.
type flowCounts struct{ class, other float64 }

// sent is what the neighbour at the far end of port's link put on the
// wire toward the port's device: its RoCE queue (switch) or priority
// (NIC) bytes, and the rest.
func (p *Pass) sent(up *schema.Port) (flowCounts, bool) {
	r, ok := p.reading(up.Device.Name)
	if !ok {
		return flowCounts{}, false
	}
	var fc flowCounts
	got := false
	fam, idx := QueueTxBytes, queueAt(up, p.topo.roce)
	if up.Device.Platform.V.IsHost() {
		fam, idx = PrioTxBytes, prioAt(up, p.topo.roce)
	}
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
	return fc, got
}

// received is what the device of port let out: the bytes in RoCE's egress
// queue on every linked port (switch), or in RoCE's receive priority (NIC).
func (p *Pass) received(r reading) (flowCounts, bool) {
	var fc flowCounts
	got := false
	for _, port := range linkedPorts(r) {
		fam, idx := QueueTxBytes, queueAt(port, p.topo.roce)
		if r.dev.Platform.V.IsHost() {
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

func checkClassContinuity(p *Pass) {
	if p.topo.roce == nil {
		return
	}
	total := 0.0
	for _, r := range p.Readings() {
		type upstream struct {
			dev   string
			ports []*schema.Port
			fc    flowCounts
		}
		ups := map[string]*upstream{}
		var in flowCounts
		known := true
		for _, port := range linkedPorts(r) {
			fc, ok := p.sent(port.Peer)
			if !ok {
				known = false
				continue
			}
			u := ups[port.Peer.Device.Name]
			if u == nil {
				u = &upstream{dev: port.Peer.Device.Name}
				ups[u.dev] = u
			}
			u.ports = append(u.ports, port.Peer)
			u.fc.class += fc.class
			u.fc.other += fc.other
			in.class += fc.class
			in.other += fc.other
		}
		out, ok := p.received(r)
		if !ok || !known || in.class < p.T.MinRoCEBytes {
			total += in.class
			continue
		}
		total += in.class
		deficit := in.class - out.class
		gained := out.other - in.other
		if deficit <= p.T.ClassShare*in.class || gained < deficit/2 {
			continue
		}
		// Which neighbour's RoCE changed class: the one whose share
		// matches the deficit; all of them when the device itself
		// classifies RoCE elsewhere.
		names := make([]string, 0, len(ups))
		for n := range ups {
			names = append(names, n)
		}
		sort.Strings(names)
		here := r.dev.Name
		var cands []*upstream
		for _, n := range names {
			u := ups[n]
			if u.fc.class > 0 && abs(u.fc.class-deficit) <= 0.25*deficit {
				cands = append(cands, u)
			}
		}
		var culprit *upstream
		if len(cands) == 1 {
			culprit = cands[0]
		} else if len(cands) > 1 {
			// Equal shares (ECMP): the neighbour whose configuration
			// rewrites RoCE's DSCP, when exactly one does.
			var rewriting []*upstream
			for _, u := range cands {
				if p.rewritesRoCE(u.dev) {
					rewriting = append(rewriting, u)
				}
			}
			if len(rewriting) == 1 {
				culprit = rewriting[0]
			}
		}
		if culprit == nil && len(cands) > 1 {
			var list []string
			for _, u := range cands {
				list = append(list, u.dev)
			}
			port := cands[0].ports[0].Peer
			p.Report(Finding{Subject: port.Range.Ptr(), Device: here, Port: port.Name,
				Trace:    []diag.Step{{Port: cands[0].ports[0].ID(), Note: "RoCE leaves in its class"}, {Port: port.ID(), Note: "arrives in another class"}},
				Summary:  fmt.Sprintf("RoCE data arrives at %s in another class than it left %s in (%s in the window, one neighbour's share): the DSCP changes on the hop from one of them, and no configuration read back rewrites it (a hidden rewrite; counters cannot tell equal ECMP shares apart)", here, strings.Join(list, " or "), bytesText(deficit)),
				Evidence: p.classEvidence(r, in, out)})
			continue
		}
		if culprit == nil || abs(deficit-in.class) <= 0.1*in.class && len(ups) > 1 {
			// Everything changed class at this device: its ingress.
			var big *upstream
			for _, n := range names {
				if big == nil || ups[n].fc.class > big.fc.class {
					big = ups[n]
				}
			}
			up := big.ports[0]
			port := up.Peer
			p.Report(Finding{Subject: port.Range.Ptr(), Device: here, Port: port.Name,
				Trace: []diag.Step{{Port: up.ID(), Note: fmt.Sprintf("RoCE leaves in queue %d", queueAt(up, p.topo.roce))},
					{Port: port.ID(), Note: "lands in another class"}},
				Summary:  fmt.Sprintf("RoCE data reaches %s in its class from every neighbour (%s in the window) but %.0f %% of it leaves %s in another class: %s classifies RoCE's DSCP %d outside the intent's class", here, bytesText(in.class), 100*deficit/in.class, here, here, classDSCP(p.topo.roce)),
				Evidence: p.classEvidence(r, in, out)})
			continue
		}
		up := culprit.ports[0]
		port := up.Peer
		p.Report(Finding{Subject: up.Range.Ptr(), Device: culprit.dev, Port: up.Name,
			Related: []diag.Related{{Range: port.Range, Message: "where RoCE arrives in another class"}},
			Trace: []diag.Step{{Port: up.ID(), Note: fmt.Sprintf("RoCE leaves in its class (queue %d)", queueAt(up, p.topo.roce))},
				{Port: port.ID(), Note: "arrives in another class"}},
			Summary:  fmt.Sprintf("RoCE data leaves %s in its class toward %s (%s in the window) but arrives at %s in another class: the DSCP changes on the hop %s → %s (a rewrite on %s's egress, or %s's classification)", culprit.dev, here, bytesText(culprit.fc.class), here, culprit.dev, here, culprit.dev, here),
			Evidence: p.classEvidence(r, culprit.fc, out)})
	}
	if total == 0 {
		p.Report(Finding{Severity: schema.SevInfo, Summary: "RoCE class continuity not verified: no RoCE traffic crossed the fabric in the window",
			Fix: "Run fabricgen check while RDMA traffic flows (or give it a longer --interval)."})
	}
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

// classEvidence shows a hop's class counters.
func (p *Pass) classEvidence(r reading, in, out flowCounts) []diag.Evidence {
	src := r.after.Source(QueueTxBytes)
	if r.dev.Platform.V.IsHost() {
		src = r.after.Source(PrioRxBytes)
	}
	return []diag.Evidence{
		{Device: r.dev.Name, Metric: "roce_bytes_in_class_received", Value: in.class, Unit: "bytes", Window: r.window(), Threshold: "sent by the neighbours in RoCE's queue"},
		{Device: r.dev.Name, Metric: "roce_bytes_in_class_forwarded", Value: out.class, Unit: "bytes", Window: r.window(), Threshold: fmt.Sprintf(">= %.0f %% of what arrived", 100*(1-p.T.ClassShare)), Source: src},
		{Device: r.dev.Name, Metric: "other_class_bytes_gained", Value: out.other - in.other, Unit: "bytes", Window: r.window(), Threshold: "≈ 0", Source: src},
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// bytesText prints a byte count as "1.2 GB".
func bytesText(b float64) string {
	switch {
	case b >= 1e9:
		return fmt.Sprintf("%.1f GB", b/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.1f MB", b/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.1f kB", b/1e3)
	}
	return fmt.Sprintf("%.0f B", b)
}

func checkLosslessDrops(p *Pass) {
	for _, r := range p.Readings() {
		host := r.dev.Platform.V.IsHost()
		var first *schema.Port
		var ev []diag.Evidence
		var total float64
		n, what, idx, prio := 0, "", 0, 0
		for _, port := range linkedPorts(r) {
			for _, pr := range lossless(port).List() {
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
					ev = append(ev, p.evidence(r, port.Name, Key(fam, i), d, "packets", "0 in a lossless class"))
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
	src := r.after.Source(QoSReadback)
	add := func(msg, metric string, v float64, want string) {
		out = append(out, msg)
		ev = append(ev, diag.Evidence{Device: r.dev.Name, Port: port.Name, Metric: metric, Value: v, Threshold: want, Source: src})
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
					add(fmt.Sprintf("DSCP %d (%s) maps to priority %d, the intent says %d", d, c.Name, got, want), Key("qos_dscp_priority", d), float64(got), fmt.Sprintf("= %d (intent)", want))
				}
			}
		}
	}
	if q.PFC != nil {
		got := schema.PrioSetOf(q.PFC...)
		if want := intent.Lossless(); got != want {
			add(fmt.Sprintf("PFC is on for priorities %s, the intent says %s", got, want), "qos_pfc_priorities", float64(got.Len()), "= "+want.String()+" (intent)")
		}
	}
	if q.Trust != "" && intent.Trust.V != "" && !trustEqual(q.Trust, string(intent.Trust.V)) {
		add(fmt.Sprintf("trusts %s, the intent says %s", q.Trust, intent.Trust.V), "qos_trust", 0, "= "+string(intent.Trust.V)+" (intent)")
	}
	if d := classDSCP(p.topo.roce); d >= 0 && q.Remark != nil {
		if out, ok := q.Remark[d]; ok && out != d && !intentRemarks(port, d, out) {
			add(fmt.Sprintf("RoCE (UDP 4791) arriving with DSCP %d is rewritten to DSCP %d, which the intent does not do", d, out), Key("qos_roce_remark", d), float64(out), fmt.Sprintf("= %d (intent)", d))
		}
	}
	if q.ECN != nil && p.topo.roce != nil && !r.dev.Platform.V.IsHost() {
		qr := queueAt(port, p.topo.roce)
		if qr >= 0 && intent.Queues[qr].ECN.V != nil && !contains(q.ECN, qr) {
			add(fmt.Sprintf("queue %d does not mark ECN, the intent gives it ecn_profile %s", qr, intent.Queues[qr].ECN.V.Name), Key("qos_ecn_queue", qr), 0, "ECN on (intent)")
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
