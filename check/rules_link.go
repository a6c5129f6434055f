package check

import (
	"fmt"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/schema"
)

func linkRules() []*Rule {
	return []*Rule{
		{ID: "CHK011", Layer: LinkLayer, Title: "No PFC pause frames on a priority the intent calls lossy",
			Severity: schema.SevError, Needs: []string{PFCRx, PFCTx}, Scope: AllDevices,
			Thresholds: "any pause frame sent or received on a priority without PFC in the intent",
			Rationale:  "Pauses on a lossless priority are normal under incast; pauses on a lossy priority never are. They mean a device's PFC or DSCP-to-priority configuration differs from the intent, and they stall traffic the intent never meant to pause.",
			Reference:  "IEEE 802.1Qbb priority-based flow control; SONiC orchagent's \"PFC frames on lossy queue\" warning (sonic-buildimage issue 5910)",
			Fix:        "Find the device whose PFC enables or priority map differ from the intent (fabricgen plan shows the diff) and apply the intent.",
			Run:        checkLossyPause},
		{ID: "CHK012", Layer: LinkLayer, Title: "No PFC storms: the watchdog never fires, and every stormed queue recovers",
			Severity: schema.SevError, Needs: []string{WDStorms}, Scope: SwitchesOnly,
			Thresholds: "a watchdog storm detected in the window, a queue stormed now without a restoration, or a NIC pause-storm error event",
			Rationale:  "A NIC or switch that pauses forever (a stuck receive pipeline) spreads head-of-line blocking through the fabric; the watchdog breaks the storm, and a queue that stays stormed keeps dropping the lossless class.",
			Reference:  "Guo et al., RDMA over Commodity Ethernet at Scale (SIGCOMM 2016), NIC PFC storm and watchdog; SONiC pfcwd (show pfcwd stats, --check-storm); Meta DNE-TaaC pfc_wd_health_check",
			Fix:        "Find the port the storm comes from (the peer that sends the pauses): restart or replace the NIC or host behind it, check its PFC storm prevention (pfc-prevention-tout), then let the watchdog restore the queue.",
			Run:        checkWatchdog},
		{ID: "CHK013", Layer: LinkLayer, Title: "A queue that pauses also marks ECN (ECN before XOFF)",
			Severity: schema.SevWarning, Needs: []string{PFCTx, QueueECN}, Scope: SwitchesOnly,
			Thresholds: "PFC frames sent on a lossless priority in the window while the switch marked no packet in that priority's queue; an error when the queue has no ECN at all",
			Rationale:  "DCQCN needs ECN to mark before PFC fires: when the ECN threshold sits above XOFF (or ECN is off on the queue), congestion shows up as pauses that spread upstream, never as the marks that slow the senders down.",
			Reference:  "Zhu et al., Congestion Control for Large-Scale RDMA Deployments (DCQCN, SIGCOMM 2015); Arista ANTA VerifyInterfacesECNCounters",
			Fix:        "Lower the ECN minimum threshold of the lossless queue below the PFC XOFF threshold (ecn_profile min_threshold), or enable ECN on the queue, and apply.",
			Run:        checkPauseWithoutECN},
	}
}

func checkLossyPause(p *Pass) {
	for _, r := range p.Readings() {
		for _, port := range linkedPorts(r) {
			ll := lossless(port)
			for prio := 0; prio < 8; prio++ {
				if ll.Has(prio) {
					continue
				}
				var ev []diag.Evidence
				for _, fam := range []string{PFCRx, PFCTx} {
					if d, ok := p.delta(r, port.Name, Key(fam, prio)); ok && d > 0 {
						ev = append(ev, p.evidence(r, port.Name, Key(fam, prio), d, "frames", "> 0 on a lossy priority"))
					}
				}
				if len(ev) == 0 {
					continue
				}
				p.Report(Finding{Subject: port.Range.Ptr(), Device: r.dev.Name, Port: port.Name,
					Summary:  fmt.Sprintf("%s sends or receives PFC pause frames on priority %d, which the intent keeps lossy (lossless: %s), on link %s", port.ID(), prio, ll, linkName(port.Link)),
					Evidence: ev})
			}
		}
	}
}

func checkWatchdog(p *Pass) {
	for _, r := range p.Readings() {
		host := r.dev.Platform.V.IsHost()
		for _, port := range linkedPorts(r) {
			if host {
				if d, ok := p.delta(r, port.Name, NICStormErr); ok && d > 0 {
					p.Report(Finding{Subject: port.Range.Ptr(), Device: r.dev.Name, Port: port.Name,
						Summary:  fmt.Sprintf("%s: the NIC's PFC storm prevention fired %s time(s): it paused its link for longer than its timeout", port.ID(), diag.FormatValue(d)),
						Evidence: []diag.Evidence{p.evidence(r, port.Name, NICStormErr, d, "events", "> 0")}})
				} else if d, ok := p.delta(r, port.Name, NICStormWarn); ok && d > 0 {
					p.Report(Finding{Severity: schema.SevWarning, Subject: port.Range.Ptr(), Device: r.dev.Name, Port: port.Name,
						Summary:  fmt.Sprintf("%s: the NIC warned of a PFC pause storm %s time(s)", port.ID(), diag.FormatValue(d)),
						Evidence: []diag.Evidence{p.evidence(r, port.Name, NICStormWarn, d, "events", "> 0")}})
				}
				continue
			}
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
				p.Report(Finding{Subject: port.Range.Ptr(), Device: r.dev.Name, Port: port.Name,
					Trace:    []diag.Step{{Port: port.Peer.ID(), Note: "sends the pauses"}, {Port: port.ID(), Note: fmt.Sprintf("queue %d stormed", q)}},
					Summary:  fmt.Sprintf("%s: the PFC watchdog detected a pause storm on queue %d %s; the pauses come from %s", port.ID(), q, state, port.Peer.ID()),
					Evidence: ev})
			}
		}
	}
}

func checkPauseWithoutECN(p *Pass) {
	for _, r := range p.Readings() {
		if r.dev.Platform.V.IsHost() {
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
