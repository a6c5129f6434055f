package check

import (
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/schema"
)

func transportRules() []*Rule {
	return []*Rule{
		{ID: "CHK017", Layer: Transport, Title: "CE marks become CNPs: every receiving NIC answers ECN marks",
			Severity: schema.SevError, Needs: []string{NPECNMarked, NPCNPSent}, Scope: HostsOnly, Reach: FabricReach, Path: true,
			Thresholds: "a NIC received ECN-marked RoCE packets in the window but sent no CNP; or a switch marked packets toward a NIC that counted none",
			Rationale:  "DCQCN's loop: switches mark, the receiving NIC (notification point) sends a CNP, the sender (reaction point) slows down. With the NP off on the receiver, marks go nowhere and congestion ends in PFC pauses; marks a switch made that never reach the NIC were cleared by a later hop.",
			Reference:  "Zhu et al., DCQCN (SIGCOMM 2015); NVIDIA MLNX_OFED ECN sysfs (/sys/class/net/IF/ecn/roce_np/enable/P); rdma statistic counters np_ecn_marked_roce_packets, np_cnp_sent (iproute2 rdma-statistic(8))",
			Fix:        "Enable the notification point on the RoCE priority of the receiving NIC (echo 1 > /sys/class/net/IF/ecn/roce_np/enable/PRIO, rdma ecn in the intent) and apply; for marks that never arrive, find the hop that clears ECN bits.",
			Run:        checkMarksWithoutCNP},
		{ID: "CHK018", Layer: Transport, Title: "CNPs reach the senders and are handled",
			Severity: schema.SevError, Needs: []string{NPCNPSent, RPCNPHandled}, Scope: HostsOnly, Reach: FabricReach, Path: true,
			Thresholds: "receivers sent CNPs in the window but the senders handled fewer than 90 % of them; or a NIC ignored CNPs",
			Rationale:  "A CNP that is dropped on the way back (its DSCP maps to no queue, or a strict queue is missing) or ignored by a sender whose reaction point is off leaves the sender at full rate: congestion persists and ends in pauses.",
			Reference:  "Zhu et al., DCQCN (SIGCOMM 2015); rdma statistic counters np_cnp_sent, rp_cnp_handled, rp_cnp_ignored (iproute2 rdma-statistic(8))",
			Fix:        "Give CNP's DSCP a strict-priority queue on every hop of the reverse path (lint CNP001), and enable the reaction point on the senders' RoCE priority (roce_rp/enable/PRIO).",
			Run:        checkCNPHandled},
		{ID: "CHK019", Layer: Transport, Title: "No RDMA queue pair is in an error state",
			Severity: schema.SevWarning, Needs: []string{QPState}, Scope: HostsOnly, Reach: HostReach,
			Thresholds: "any RC queue pair in state SQE or ERR",
			Rationale:  "A queue pair in SQE (send queue error) or ERR has stopped: the application sees failed work requests. The completion's error syndrome says why; some are the application's (a bad length or key), some the fabric's (retries exceeded).",
			Reference:  "InfiniBand Architecture Specification vol. 1, QP state machine; iproute2 rdma-resource(8); mlx5 CQE error syndromes (rdma-core providers/mlx5, Linux drivers/infiniband/hw/mlx5/cq.c)",
			Fix:        "Read the syndrome's explanation in the finding: fix the application's buffers or keys for local/remote access and length errors; check the fabric (drops, CHK015, CHK020) for retry-exceeded errors; then restart the application's connection.",
			Run:        checkQPs},
		{ID: "CHK020", Layer: Transport, Title: "No RoCE retransmits: sequence errors and ACK timeouts do not rise",
			Severity: schema.SevWarning, Needs: []string{OutOfSequence, PacketSeqErr, LocalAckTimeout}, Scope: HostsOnly, Reach: HostReach,
			Thresholds: "any increase in the window of out_of_sequence, packet_seq_err, implied_nak_seq_err or local_ack_timeout_err",
			Rationale:  "On a lossless fabric a RoCE receiver never sees a sequence gap: each one is a lost packet (a drop, a corrupted frame) and a go-back-N retransmit, each ACK timeout a stalled flow.",
			Reference:  "SONiC RoCEv2 test plan (no NAK or sequence error); iproute2 rdma-statistic(8) and the mlx5 hw counters documentation",
			Fix:        "Find the loss on the flow's path: lossless drops (CHK015), corrupted frames (CHK005, CHK007, CHK010) or a flapping link (CHK008).",
			Run:        checkTransportErrors},
	}
}

func metaRules() []*Rule {
	return []*Rule{
		{ID: resetRule, Layer: Meta, Title: "Counters only grow between the snapshots",
			Severity: schema.SevInfo, Scope: AllDevices, Reach: HostReach,
			Thresholds: "a counter lower in the second snapshot than in the first",
			Rationale:  "check never clears counters; one that went down was cleared by someone or its device restarted, so its delta means nothing and it is left out of this run rather than read as zero.",
			Reference:  "Meta DNE-TaaC snapshot/check health checks (a counter below its baseline is a reset)",
			Fix:        "Nothing to fix if the reset was expected; run fabricgen check again for a clean window.",
			Run:        func(*Pass) {}},
	}
}

// hostPorts are the linked ports of the host readings.
func hostReadings(p *Pass) []reading {
	var out []reading
	for _, r := range p.Readings() {
		if r.dev.HostPlatform {
			out = append(out, r)
		}
	}
	return out
}

func checkMarksWithoutCNP(p *Pass) {
	for _, r := range hostReadings(p) {
		for _, port := range linkedPorts(r) {
			marked, okM := p.delta(r, port.Name, NPECNMarked)
			sent, okS := p.delta(r, port.Name, NPCNPSent)
			if okM && okS && marked > 0 && sent == 0 {
				p.Report(Finding{Subject: subjectOfNIC(r.dev, port), Device: r.dev.Name, Port: port.Name,
					Summary: fmt.Sprintf("%s received %s ECN-marked RoCE packets but sent no CNP: its notification point is off, so the senders never slow down", port.ID(), diag.FormatValue(marked)),
					Evidence: []diag.Evidence{p.evidence(r, port.Name, NPECNMarked, marked, "packets", "> 0"),
						p.evidence(r, port.Name, NPCNPSent, sent, "CNPs", "> 0 when marks arrive")}})
				continue
			}
			if !okM || marked > 0 || p.topo.roce == nil {
				continue
			}
			// Marks made toward this NIC by the switch at the other end.
			sw := port.Peer
			sr, ok := p.reading(sw.Device.Name)
			if !ok || sw.Device.HostPlatform {
				continue
			}
			q := queueAt(sw, p.topo.roce)
			if d, ok := p.delta(sr, sw.Name, Key(QueueECN, q)); ok && d > 0 {
				p.Report(Finding{Subject: subjectOfNIC(r.dev, port), Device: r.dev.Name, Port: port.Name,
					Trace:   []diag.Step{{Port: sw.ID(), Note: fmt.Sprintf("marks %s packets CE", diag.FormatValue(d))}, {Port: port.ID(), Note: "counts none"}},
					Summary: fmt.Sprintf("%s marked %s RoCE packets toward %s, which counted no ECN-marked packet: the marks are lost (cleared on the way, or on packets the NIC does not see as RoCE)", sw.ID(), diag.FormatValue(d), port.ID()),
					Evidence: []diag.Evidence{p.evidence(sr, sw.Name, Key(QueueECN, q), d, "packets", "> 0"),
						p.evidence(r, port.Name, NPECNMarked, marked, "packets", "> 0 when the switch marks")}})
			}
		}
	}
}

// subjectOfNIC is the NIC's rdma block, else its port.
func subjectOfNIC(d *schema.Device, port *schema.Port) *schema.Range {
	if d.RDMA != nil && !d.RDMA.Range.IsZero() {
		return d.RDMA.Range.Ptr()
	}
	return port.Range.Ptr()
}

func checkCNPHandled(p *Pass) {
	var sent, handled float64
	var senders, receivers []diag.Evidence
	for _, r := range hostReadings(p) {
		for _, port := range linkedPorts(r) {
			if d, ok := p.delta(r, port.Name, NPCNPSent); ok && d > 0 {
				sent += d
				if len(receivers) < 3 {
					receivers = append(receivers, p.evidence(r, port.Name, NPCNPSent, d, "CNPs", ""))
				}
			}
			if d, ok := p.delta(r, port.Name, RPCNPHandled); ok {
				handled += d
				if d > 0 && len(senders) < 3 {
					senders = append(senders, p.evidence(r, port.Name, RPCNPHandled, d, "CNPs", ""))
				}
			}
			if d, ok := p.delta(r, port.Name, RPCNPIgnored); ok && d > 0 {
				p.Report(Finding{Subject: subjectOfNIC(r.dev, port), Device: r.dev.Name, Port: port.Name,
					Summary:  fmt.Sprintf("%s ignored %s CNPs: its reaction point is off on the RoCE priority, so it never slows down", port.ID(), diag.FormatValue(d)),
					Evidence: []diag.Evidence{p.evidence(r, port.Name, RPCNPIgnored, d, "CNPs", "expected 0")}})
			}
		}
	}
	if sent == 0 || handled >= 0.9*sent {
		return
	}
	// Where the CNPs die: switches dropping in CNP's queue.
	var trace []diag.Step
	var drops []diag.Evidence
	var where []string
	var subject *schema.Range
	var dev, port string
	if p.topo.cnp != nil {
		for _, r := range p.Readings() {
			if r.dev.HostPlatform {
				continue
			}
			for _, sp := range linkedPorts(r) {
				q := queueAt(sp, p.topo.cnp)
				if d, ok := p.delta(r, sp.Name, Key(QueueDrops, q)); ok && d > 0 {
					if len(where) == 0 {
						subject, dev, port = sp.Range.Ptr(), r.dev.Name, sp.Name
						trace = append(trace, diag.Step{Port: sp.ID(), Note: fmt.Sprintf("drops CNP (queue %d)", q)})
					}
					if !contains2(where, r.dev.Name) {
						where = append(where, r.dev.Name)
					}
					if len(drops) < 3 {
						drops = append(drops, p.evidence(r, sp.Name, Key(QueueDrops, q), d, "packets", "0 for CNP"))
					}
				}
			}
		}
	}
	lost := "the CNPs are lost on the way back or the senders' reaction point is off"
	if len(where) > 0 {
		lost = "the CNPs die at " + strings.Join(where, ", ") + ", which drops CNP's class"
	}
	ev := append(append(receivers, senders...), drops...)
	ev = append(ev, diag.Evidence{Metric: "rp_cnp_handled_total", Value: handled, Threshold: fmt.Sprintf(">= 90 %% of the %s CNPs sent", diag.FormatValue(sent))})
	if subject == nil {
		for _, r := range hostReadings(p) {
			if r.dev.RDMA != nil {
				subject, dev = r.dev.RDMA.Range.Ptr(), r.dev.Name
				break
			}
		}
	}
	p.Report(Finding{Subject: subject, Device: dev, Port: port, Trace: trace,
		Summary:  fmt.Sprintf("receiving NICs sent %s CNPs in the window but the senders handled %s: %s", diag.FormatValue(sent), diag.FormatValue(handled), lost),
		Evidence: ev})
}

func contains2(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// Syndrome explains an mlx5 completion error syndrome: the hardware's
// name for it and what it usually means.
func Syndrome(code string) string {
	s := strings.ToLower(strings.TrimPrefix(strings.ToLower(code), "0x"))
	if len(s) == 1 {
		s = "0" + s
	}
	switch s {
	case "01":
		return "local length error (LOCAL_LENGTH_ERR): a receive buffer is shorter than the message"
	case "02":
		return "local QP operation error (LOCAL_QP_OP_ERR): a work request the QP cannot execute in its state"
	case "04":
		return "local protection error (LOCAL_PROT_ERR): the local memory key does not cover the buffer"
	case "05":
		return "work request flushed (WR_FLUSH_ERR): the QP was already in error"
	case "0a":
		return "remote access error as ibv_wc_status 10 (IBV_WC_REM_ACCESS_ERR), which field notes also read as a local QP operation error: check the remote key and buffer"
	case "10":
		return "bad response (BAD_RESP_ERR): the responder answered with an unexpected opcode"
	case "11":
		return "local access error (LOCAL_ACCESS_ERR)"
	case "12":
		return "remote invalid request (REMOTE_INVAL_REQ_ERR): the responder refused the request, usually a length beyond its buffer or an operation it does not allow (field notes call it a length error)"
	case "13":
		return "remote access error (REMOTE_ACCESS_ERR): an invalid or stale remote key (rkey) or a buffer outside the registered region"
	case "14":
		return "remote operation error (REMOTE_OP_ERR): the responder failed the operation, e.g. its receive queue or memory registration (field notes read it as a remote access error, an invalid rkey)"
	case "15":
		return "transport retry count exceeded (TRANSPORT_RETRY_EXC_ERR): packets lost on the fabric until the sender gave up"
	case "16":
		return "RNR retry count exceeded (RNR_RETRY_EXC_ERR): the responder had no receive buffer posted"
	case "22":
		return "remote aborted (REMOTE_ABORTED_ERR)"
	}
	return "an error syndrome this fabricgen does not know"
}

func checkQPs(p *Pass) {
	for _, r := range hostReadings(p) {
		var bad []QP
		for _, qp := range r.after.QPs {
			if qp.State == "SQE" || qp.State == "ERR" {
				bad = append(bad, qp)
			}
		}
		if len(bad) == 0 {
			continue
		}
		qp := bad[0]
		why := "no completion syndrome was found in the kernel log"
		if qp.Syndrome != "" {
			why = "syndrome " + qp.Syndrome + ": " + Syndrome(qp.Syndrome)
		}
		more := ""
		if len(bad) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(bad)-1)
		}
		port := r.dev.Port(qp.Port)
		var subject *schema.Range
		if port != nil {
			subject = subjectOfNIC(r.dev, port)
		} else {
			subject = r.dev.Range.Ptr()
		}
		comm := ""
		if qp.Comm != "" {
			comm = " of " + qp.Comm
		}
		p.Report(Finding{Subject: subject, Device: r.dev.Name, Port: qp.Port, Count: len(bad),
			Summary:  fmt.Sprintf("%s: %s QP 0x%x%s on %s is in state %s%s: %s", r.dev.Name, qp.Type, qp.LQPN, comm, qp.Port, qp.State, more, why),
			Evidence: []diag.Evidence{{Device: r.dev.Name, Port: qp.Port, Metric: "qp_state", Value: float64(qp.LQPN), Reading: fmt.Sprintf("%s (QP 0x%x)", qp.State, qp.LQPN), Threshold: "expected RTS, not SQE or ERR", Source: r.after.Source(QPState)}}})
	}
}

func checkTransportErrors(p *Pass) {
	type hit struct {
		r     reading
		port  *schema.Port
		ev    []diag.Evidence
		names []string
		total float64
	}
	var hits []hit
	for _, r := range hostReadings(p) {
		for _, port := range linkedPorts(r) {
			h := hit{r: r, port: port}
			for _, fam := range []string{OutOfSequence, PacketSeqErr, ImpliedNakSeqErr, LocalAckTimeout} {
				if d, ok := p.delta(r, port.Name, fam); ok && d > 0 {
					h.ev = append(h.ev, p.evidence(r, port.Name, fam, d, "", "0 on a lossless fabric"))
					h.names = append(h.names, fmt.Sprintf("%s +%s", fam, diag.FormatValue(d)))
					h.total += d
				}
			}
			if len(h.ev) > 0 {
				hits = append(hits, h)
			}
		}
	}
	if len(hits) == 0 {
		return
	}
	// One cause, one finding: the NIC with the most errors stands for all.
	worst := hits[0]
	var ids []string
	for _, h := range hits {
		if h.total > worst.total {
			worst = h
		}
		ids = append(ids, h.port.ID())
	}
	who := worst.port.ID()
	if len(hits) > 1 {
		list := strings.Join(ids, ", ")
		if len(ids) > 4 {
			list = strings.Join(ids[:4], ", ") + fmt.Sprintf(" and %d more", len(ids)-4)
		}
		who = fmt.Sprintf("%d NIC ports (%s)", len(hits), list)
	}
	p.Report(Finding{Subject: subjectOfNIC(worst.r.dev, worst.port), Device: worst.r.dev.Name, Port: worst.port.Name, Count: len(hits),
		Summary:  fmt.Sprintf("%s retransmit RoCE; the most on %s: %s in %s. Packets are lost or corrupted on their flows' paths", who, worst.port.ID(), strings.Join(worst.names, ", "), worst.r.window()),
		Evidence: worst.ev})
}
