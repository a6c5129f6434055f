package check

import (
	"fmt"
	"sort"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/schema"
)

func linkRules() []*Rule {
	return []*Rule{
		{ID: "CHK011", Layer: LinkLayer, Title: "No PFC pause frames on a priority the intent calls lossy",
			Severity: schema.SevError, Needs: []string{PFCRx, PFCTx}, Scope: AllDevices, Reach: HostReach,
			Thresholds: "any pause frame sent or received on a priority without PFC in the intent",
			Rationale:  "Pauses on a lossless priority are normal under incast; pauses on a lossy priority never are. They mean a device's PFC or DSCP-to-priority configuration differs from the intent, and they stall traffic the intent never meant to pause.",
			Reference:  "IEEE 802.1Qbb priority-based flow control; SONiC orchagent's \"PFC frames on lossy queue\" warning (sonic-buildimage issue 5910)",
			Fix:        "Find the device whose PFC enables or priority map differ from the intent (fabricgen plan shows the diff) and apply the intent.",
			Run:        checkLossyPause},
		{ID: "CHK012", Layer: LinkLayer, Title: "No PFC storms: the watchdog never fires, and every stormed queue recovers",
			Severity: schema.SevError, Needs: []string{WDStorms}, Scope: SwitchesOnly, Reach: FabricReach,
			Thresholds: "a watchdog storm detected in the window, a queue stormed now without a restoration, a NIC pause-storm error event, or pauses with nothing to pause: a port sending at least 100 pause frames a second on a lossless priority while its peer sent it less than 1 MiB in that priority (or a peer NIC was paused for 90 % of the window or more); one finding per link",
			Rationale:  "A NIC or switch that pauses forever (a stuck receive pipeline) spreads head-of-line blocking through the fabric; the watchdog breaks the storm, and a queue that stays stormed keeps dropping the lossless class. A NIC has no watchdog for the pauses it receives: a switch port storming toward it is seen in the pause counters, as pauses sent to a peer that has nothing left to send (an ingress with no traffic cannot fill its buffer, so those pauses are not flow control).",
			Reference:  "Guo et al., RDMA over Commodity Ethernet at Scale (SIGCOMM 2016), NIC PFC storm and watchdog; SONiC pfcwd (show pfcwd stats, --check-storm); Meta DNE-TaaC pfc_wd_health_check",
			Fix:        "Find the port the storm comes from (the peer that sends the pauses): restart or replace the NIC or host behind it, check its PFC storm prevention (pfc-prevention-tout), then let the watchdog restore the queue.",
			Run:        checkWatchdog},
		{ID: "CHK013", Layer: LinkLayer, Title: "A queue that pauses also marks ECN (ECN before XOFF)",
			Severity: schema.SevWarning, Needs: []string{PFCTx, QueueECN}, Scope: SwitchesOnly, Reach: FabricReach,
			Thresholds: "PFC frames sent on a lossless priority in the window while the switch marked no packet in that priority's queue; an error when the queue has no ECN at all. A port whose pauses are a storm (CHK012) is left out: that is not congestion",
			Rationale:  "DCQCN needs ECN to mark before PFC fires: when the ECN threshold sits above XOFF (or ECN is off on the queue), congestion shows up as pauses that spread upstream, never as the marks that slow the senders down.",
			Reference:  "Zhu et al., Congestion Control for Large-Scale RDMA Deployments (DCQCN, SIGCOMM 2015); Arista ANTA VerifyInterfacesECNCounters",
			Fix:        "Lower the ECN minimum threshold of the lossless queue below the PFC XOFF threshold (ecn_profile min_threshold), or enable ECN on the queue, and apply.",
			Run:        checkPauseWithoutECN},
	}
}

// pauseKey is one priority of one link.
type pauseKey struct {
	l    *schema.Link
	prio int
}

func checkLossyPause(p *Pass) {
	type side struct {
		port   *schema.Port
		tx, rx float64
		ev     []diag.Evidence
	}
	var order []pauseKey
	by := map[pauseKey][]side{}
	for _, r := range p.Readings() {
		for _, port := range linkedPorts(r) {
			ll := lossless(port)
			for prio := 0; prio < 8; prio++ {
				if ll.Has(prio) {
					continue
				}
				s := side{port: port}
				for _, fam := range []string{PFCTx, PFCRx} {
					if d, ok := p.delta(r, port.Name, Key(fam, prio)); ok && d > 0 {
						s.ev = append(s.ev, p.evidence(r, port.Name, Key(fam, prio), d, "frames", "> 0 on a lossy priority"))
						if fam == PFCTx {
							s.tx = d
						} else {
							s.rx = d
						}
					}
				}
				if len(s.ev) == 0 {
					continue
				}
				k := pauseKey{port.Link, prio}
				if by[k] == nil {
					order = append(order, k)
				}
				by[k] = append(by[k], s)
			}
		}
	}
	// One finding per link and priority: the end that sends the pauses
	// stands for it (its PFC enables are what differ), the other end
	// receives them.
	for _, k := range order {
		sides := by[k]
		sort.SliceStable(sides, func(i, j int) bool { return sides[i].tx > sides[j].tx })
		w := sides[0]
		var ev []diag.Evidence
		var related []diag.Related
		for i, s := range sides {
			ev = append(ev, s.ev...)
			if i > 0 {
				related = append(related, diag.Related{Range: s.port.Range, Message: "the other end of the link"})
			}
		}
		verb := "sends"
		if w.tx == 0 {
			verb = "receives"
		}
		p.Report(Finding{Subject: w.port.Range.Ptr(), Device: w.port.Device.Name, Port: w.port.Name, Related: related,
			Summary:  fmt.Sprintf("%s %s PFC pause frames on priority %d, which the intent keeps lossy (lossless: %s), on link %s", w.port.ID(), verb, k.prio, lossless(w.port), linkName(k.l)),
			Evidence: ev})
	}
}

// stormSignal says whether the pauses a link end sent on a priority are
// a storm (pauses with nothing to pause) rather than congestion, and the
// evidence: the peer's watchdog caught it, the peer NIC was paused for
// nearly all the window, or the peer sent nothing in that priority toward
// the end (an ingress with no traffic cannot fill its buffer, so its
// pauses are not flow control).
func (p *Pass) stormSignal(r reading, port *schema.Port, prio int) ([]diag.Evidence, bool) {
	pauses, ok := p.delta(r, port.Name, Key(PFCTx, prio))
	w := r.window().Seconds()
	if !ok || pauses <= 0 || w <= 0 || pauses/w < p.T.StormPausesPerSecond {
		return nil, false
	}
	pr, ok := p.reading(port.Peer.Device.Name)
	if !ok {
		return nil, false
	}
	peer := port.Peer
	ev := []diag.Evidence{p.evidence(r, port.Name, Key(PFCTx, prio), pauses, "frames", "")}
	if !peer.Device.HostPlatform && peer.QoS != nil {
		q := peer.QoS.Queue[prio].V
		if d, ok := p.delta(pr, peer.Name, Key(WDStorms, q)); ok && d > 0 {
			return append(ev, p.evidence(pr, peer.Name, Key(WDStorms, q), d, "storms", "> 0")), true
		}
	}
	if peer.Device.HostPlatform {
		if d, ok := p.delta(pr, peer.Name, Key(PFCRxDuration, prio)); ok && d >= p.T.StormPausedShare*pr.window().Seconds()*1e6 {
			return append(ev, p.evidence(pr, peer.Name, Key(PFCRxDuration, prio), d/1e6, "s",
				fmt.Sprintf("paused < %.0f %% of the window", 100*p.T.StormPausedShare))), true
		}
	}
	fam, idx := QueueTxBytes, -1
	if peer.Device.HostPlatform {
		fam, idx = PrioTxBytes, prio
	} else if peer.QoS != nil {
		idx = peer.QoS.Queue[prio].V
	}
	if idx < 0 {
		return nil, false
	}
	if d, ok := p.delta(pr, peer.Name, Key(fam, idx)); ok && d < p.T.MinRoCEBytes {
		return append(ev, p.evidence(pr, peer.Name, Key(fam, idx), d, "bytes", "traffic to pause (> 1 MiB)")), true
	}
	return nil, false
}

func checkWatchdog(p *Pass) {
	type hit struct {
		f     Finding
		score int // 2 the watchdog's view, 1 the NIC's own, 0 the pause counters
	}
	var order []*schema.Link
	by := map[*schema.Link][]hit{}
	add := func(l *schema.Link, h hit) {
		if by[l] == nil {
			order = append(order, l)
		}
		by[l] = append(by[l], h)
	}
	for _, r := range p.Readings() {
		host := r.dev.HostPlatform
		for _, port := range linkedPorts(r) {
			if host {
				if d, ok := p.delta(r, port.Name, NICStormErr); ok && d > 0 {
					add(port.Link, hit{score: 1, f: Finding{Subject: port.Range.Ptr(), Device: r.dev.Name, Port: port.Name,
						Summary:  fmt.Sprintf("%s: the NIC's PFC storm prevention fired %s time(s): it paused its link for longer than its timeout", port.ID(), diag.FormatValue(d)),
						Evidence: []diag.Evidence{p.evidence(r, port.Name, NICStormErr, d, "events", "> 0")}}})
				} else if d, ok := p.delta(r, port.Name, NICStormWarn); ok && d > 0 {
					add(port.Link, hit{score: 1, f: Finding{Severity: schema.SevWarning, Subject: port.Range.Ptr(), Device: r.dev.Name, Port: port.Name,
						Summary:  fmt.Sprintf("%s: the NIC warned of a PFC pause storm %s time(s)", port.ID(), diag.FormatValue(d)),
						Evidence: []diag.Evidence{p.evidence(r, port.Name, NICStormWarn, d, "events", "> 0")}}})
				}
			} else {
				for q := 0; q < 8; q++ {
					storms, okS := p.delta(r, port.Name, Key(WDStorms, q))
					restored, _ := p.delta(r, port.Name, Key(WDRestored, q))
					stormed, _ := gauge(r, port.Name, Key(WDStormed, q))
					if (!okS || storms <= 0) && stormed == 0 {
						continue
					}
					ev := []diag.Evidence{p.evidence(r, port.Name, Key(WDStorms, q), storms, "storms", "> 0"),
						p.evidence(r, port.Name, Key(WDRestored, q), restored, "restorations", "")}
					state := "and restored it"
					if stormed > 0 || restored < storms {
						state = "and the queue has not recovered"
					}
					add(port.Link, hit{score: 2, f: Finding{Subject: port.Range.Ptr(), Device: r.dev.Name, Port: port.Name,
						Trace:    []diag.Step{{Port: port.Peer.ID(), Note: "sends the pauses"}, {Port: port.ID(), Note: fmt.Sprintf("queue %d stormed", q)}},
						Summary:  fmt.Sprintf("%s: the PFC watchdog detected a pause storm on queue %d %s; the pauses come from %s", port.ID(), q, state, port.Peer.ID()),
						Evidence: ev}})
				}
			}
			// Pauses with nothing to pause: a storm the peer has no
			// watchdog for (a NIC, or a switch that does not show it).
			for prio := range lossless(port).All() {
				ev, ok := p.stormSignal(r, port, prio)
				if !ok {
					continue
				}
				add(port.Link, hit{score: 0, f: Finding{Subject: port.Range.Ptr(), Device: r.dev.Name, Port: port.Name,
					Trace:    []diag.Step{{Port: port.ID(), Note: "sends the pauses"}, {Port: port.Peer.ID(), Note: fmt.Sprintf("paused on priority %d", prio)}},
					Summary:  fmt.Sprintf("%s sends PFC pause frames on priority %d continuously (%s in %s) while %s has nothing to pause: a pause storm from %s (a stuck receive path), not congestion", port.ID(), prio, diag.FormatValue(ev[0].Value), r.window(), port.Peer.ID(), port.ID()),
					Evidence: ev}})
				break
			}
		}
	}
	// One storm on a link is one finding: the watchdog's view first, then
	// the NIC's own, then the pause counters; the others add their
	// evidence and places.
	for _, l := range order {
		hits := by[l]
		sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
		f := hits[0].f
		seen := map[string]bool{f.Device + ":" + f.Port: true}
		have := map[string]bool{}
		for _, e := range f.Evidence {
			have[e.Device+"\x00"+e.Port+"\x00"+e.Metric] = true
		}
		for _, h := range hits[1:] {
			for _, e := range h.f.Evidence {
				if k := e.Device + "\x00" + e.Port + "\x00" + e.Metric; !have[k] {
					have[k] = true
					f.Evidence = append(f.Evidence, e)
				}
			}
			if k := h.f.Device + ":" + h.f.Port; !seen[k] && h.f.Subject != nil {
				seen[k] = true
				f.Related = append(f.Related, diag.Related{Range: *h.f.Subject, Message: h.f.Summary})
			}
		}
		p.Report(f)
	}
}

func checkPauseWithoutECN(p *Pass) {
	for _, r := range p.Readings() {
		if r.dev.HostPlatform {
			continue
		}
		ports := linkedPorts(r)
		if len(ports) == 0 {
			continue
		}
		for prio := 0; prio < 8; prio++ {
			var pauses float64
			var worst *schema.Port
			var worstN float64
			queue := -1
			for _, port := range ports {
				if !lossless(port).Has(prio) {
					continue
				}
				if port.QoS != nil {
					queue = port.QoS.Queue[prio].V
				}
				// A storm is not congestion: CHK012 reports it.
				if _, storm := p.stormSignal(r, port, prio); storm {
					continue
				}
				if d, ok := p.delta(r, port.Name, Key(PFCTx, prio)); ok {
					pauses += d
					if d > worstN {
						worst, worstN = port, d
					}
				}
			}
			if pauses <= 0 || queue < 0 {
				continue
			}
			var marks float64
			configured := false
			for _, port := range ports {
				if d, ok := p.delta(r, port.Name, Key(QueueECN, queue)); ok {
					configured = true
					marks += d
				}
			}
			if marks > 0 {
				continue
			}
			ev := []diag.Evidence{p.evidence(r, worst.Name, Key(PFCTx, prio), worstN, "frames", "> 0"),
				{Device: r.dev.Name, Metric: Key(QueueECN, queue), Value: marks, Threshold: "> 0 while pausing", Window: r.window(), Source: r.after.Source(QueueECN)}}
			f := Finding{Subject: worst.Range.Ptr(), Device: r.dev.Name, Port: worst.Name, Evidence: ev,
				Summary: fmt.Sprintf("%s sent %s PFC pause frames on priority %d but marked no packet with ECN in queue %d: ECN fires after XOFF, so congestion spreads as pauses instead of slowing the senders", r.dev.Name, diag.FormatValue(pauses), prio, queue)}
			if !configured {
				f.Severity = schema.SevError
				f.Summary = fmt.Sprintf("%s sent %s PFC pause frames on priority %d and has no ECN marking on queue %d at all", r.dev.Name, diag.FormatValue(pauses), prio, queue)
			}
			p.Report(f)
		}
	}
}
