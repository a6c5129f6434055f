package lint

import (
	"fmt"

	"github.com/fabricgen/fabricgen/schema"
)

// RoCEPort is the UDP destination port of RoCEv2 (data and CNP alike).
const RoCEPort = 4791

// Packet is what lint tracks of a RoCEv2 packet (UDP 4791) on the wire.
type Packet struct {
	// DSCP is the IP code point.
	DSCP int
	// Tagged is true when the frame carries an 802.1Q tag; PCP is its priority.
	Tagged bool
	PCP    int
	// IPv6 is true for IPv6 packets (RoCEv2 GIDs of either family).
	IPv6 bool
	// L2 is true for a RoCE v1 frame: Ethernet with no IP header, so there
	// is no DSCP to classify by (DSCP is 0) and no routing.
	L2 bool
}

// Ingress is what a port does to an arriving packet: ACL, trust and the
// DSCP/PCP → priority → queue/PG classification, and whether PFC protects it.
type Ingress struct {
	// DSCP is the packet's DSCP after ingress ACL re-marking or an untrusted reset.
	DSCP int
	// Priority is the internal (switch) priority, which also names the PG.
	Priority int
	// Queue is the egress queue the priority maps to on this device's ingress map.
	Queue int
	// Lossless is true when PFC is enabled for Priority on this port.
	Lossless bool
	// Trust is the effective trust mode ("" when unset).
	Trust schema.Trust
	// UntaggedPCP is true when the port classifies by PCP but the frame has no tag.
	UntaggedPCP bool
	// NoIP is true when the port classifies by DSCP only but the frame
	// (RoCE v1) has no IP header: it lands in the default priority.
	NoIP bool
	// Reset is true when an untrusting port rewrote the DSCP to 0.
	Reset bool
	// ACL is the ingress ACL rule that matched, or nil; Classified is true when
	// it is a permit matching UDP destination port 4791.
	ACL        *schema.ACLRule
	ACLName    string
	Classified bool
	// Dropped and Policed say the ACL denies or polices the packet.
	Dropped bool
	Policed int64
	// MTU is the ingress port's effective MTU (0: not set).
	MTU int
}

// Egress is what an egress port does: queue, ECN, scheduler, egress ACL, MTU.
type Egress struct {
	Queue  int
	ECN    *schema.ECNProfile
	Sched  schema.SchedMode
	Weight int
	// DSCP leaves the port after egress re-marking.
	DSCP int
	// ACL is the matched egress rule, or nil.
	ACL     *schema.ACLRule
	ACLName string
	Dropped bool
	Policed int64
	// MTU is the port's effective MTU (0: not set).
	MTU int
	// Tagged is true when the frame leaves with an 802.1Q tag carrying PCP = priority.
	Tagged bool
}

// Hop is one device as a packet crosses it, ingress port → egress port.
type Hop struct {
	In      *schema.Port
	Out     *schema.Port
	Arrive  Packet
	Ingress Ingress
	Egress  Egress
	// Leave is the packet on the egress wire.
	Leave Packet
}

// Note describes what the hop did to the packet's DSCP or class, for traces.
func (h Hop) Note() string {
	return ingressNote(h.Arrive, h.Ingress) + egressNote(h.Ingress.DSCP, h.Egress)
}

// Traverse is the hop semantics: what the device of in does to pkt arriving
// on in and leaving through out. NICs are described by the same function
// (in is nil when the NIC originates the packet, out is nil when it is the receiver).
func Traverse(in, out *schema.Port, pkt Packet) Hop {
	h := Hop{In: in, Out: out, Arrive: pkt}
	if in != nil {
		h.Ingress = ingress(in, pkt)
	} else {
		h.Ingress = Ingress{DSCP: pkt.DSCP, Priority: pkt.PCP}
	}
	h.Leave = h.Arrive
	if out != nil {
		h.Egress = egress(out, h.Ingress.Priority, h.Ingress.DSCP, pkt.IPv6, pkt.L2)
		h.Leave = Packet{DSCP: h.Egress.DSCP, Tagged: h.Egress.Tagged || pkt.L2, PCP: h.Ingress.Priority, IPv6: pkt.IPv6, L2: pkt.L2}
	}
	return h
}

func qosOf(p *schema.Port) *schema.PortQoS {
	if p.QoS == nil {
		return &schema.PortQoS{}
	}
	return p.QoS
}

func ingress(in *schema.Port, pkt Packet) Ingress {
	q := qosOf(in)
	r := Ingress{DSCP: pkt.DSCP, Trust: q.Trust.V, MTU: q.MTU.V}
	if !q.MTU.Set {
		r.MTU = 0
	}
	for _, acl := range in.ACLIn {
		if pkt.L2 {
			break // IP ACLs do not match an Ethernet frame without an IP header
		}
		if rule := matchACL(acl, pkt.DSCP, pkt.IPv6); rule != nil {
			r.ACL, r.ACLName = rule, acl.Name
			r.Classified = rule.Action.V != schema.ActionDeny && matchesRoCEPort(rule)
			if rule.Action.V == schema.ActionDeny {
				r.Dropped = true
			}
			r.Policed = rule.Police.V
			if rule.SetDSCP.Set && rule.SetDSCP.V >= 0 {
				r.DSCP = rule.SetDSCP.V
			}
			break
		}
	}
	switch {
	case pkt.L2 && r.Trust == schema.TrustDSCP:
		// No IP header: a DSCP-trusting port puts the frame in the default priority.
		r.NoIP = true
		r.Priority = q.DSCP[0].V
	case pkt.L2 && r.Trust == schema.TrustBoth, r.Trust == schema.TrustPCP:
		pcp := 0
		if pkt.Tagged {
			pcp = pkt.PCP & 7
		} else {
			r.UntaggedPCP = true
		}
		r.Priority = q.PCP[pcp].V
	case r.Trust == schema.TrustDSCP, r.Trust == schema.TrustBoth:
		r.Priority = q.DSCP[r.DSCP&63].V
	default:
		// An untrusting port classifies everything into priority 0 and, like
		// an untrusted Catalyst port under `mls qos`, rewrites the DSCP to 0.
		r.Priority = 0
		if r.DSCP != 0 {
			r.Reset = true
			r.DSCP = 0
		}
	}
	r.Priority &= 7
	r.Queue = q.Queue[r.Priority].V
	r.Lossless = q.Lossless.Has(r.Priority)
	return r
}

func egress(out *schema.Port, prio, dscp int, v6, l2 bool) Egress {
	q := qosOf(out)
	e := Egress{DSCP: dscp, MTU: q.MTU.V}
	e.Queue = q.Queue[prio&7].V & 7
	qq := q.Queues[e.Queue]
	e.ECN, e.Sched, e.Weight = qq.ECN.V, qq.Sched.V, qq.Weight.V
	for _, acl := range out.ACLOut {
		if l2 {
			break
		}
		if rule := matchACL(acl, dscp, v6); rule != nil {
			e.ACL, e.ACLName = rule, acl.Name
			e.Dropped = rule.Action.V == schema.ActionDeny
			e.Policed = rule.Police.V
			if rule.SetDSCP.Set && rule.SetDSCP.V >= 0 {
				e.DSCP = rule.SetDSCP.V
			}
			break
		}
	}
	e.Tagged = l2 || (!out.IsRouted() && out.Peer != nil && !out.Peer.IsRouted())
	return e
}

// matchACL returns the first rule (by sequence) of acl that matches a RoCEv2
// packet with the given DSCP and family, or nil. Prefixes are not known for a
// walk over all NIC pairs, so a prefix match is assumed to match; an ACL no
// rule of which matches leaves the packet alone (classification ACLs).
func matchACL(acl *schema.ACL, dscp int, v6 bool) *schema.ACLRule {
	for _, r := range acl.Rules {
		switch r.Family {
		case "ipv4":
			if v6 {
				continue
			}
		case "ipv6":
			if !v6 {
				continue
			}
		}
		switch r.Protocol.V {
		case "", "ip", "udp":
		default:
			continue
		}
		if r.DstPorts.Set && len(r.DstPorts.V) > 0 && !anyContains(r.DstPorts.V, RoCEPort) {
			continue
		}
		if r.SrcPorts.Set && len(r.SrcPorts.V) > 0 {
			// The RoCEv2 source port is flow entropy: a source-port match
			// catches an arbitrary subset only, so treat it as not matching.
			continue
		}
		if r.DSCP.Set && len(r.DSCP.V) > 0 && !containsInt(r.DSCP.V, dscp) {
			continue
		}
		return r
	}
	return nil
}

// matchesRoCEPort reports whether a rule names UDP destination port 4791.
func matchesRoCEPort(r *schema.ACLRule) bool {
	return r.Protocol.V == "udp" && r.DstPorts.Set && anyContains(r.DstPorts.V, RoCEPort)
}

func anyContains(rs []schema.PortRange, p int) bool {
	for _, r := range rs {
		if r.Contains(p) {
			return true
		}
	}
	return false
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func ingressNote(pkt Packet, in Ingress) string {
	switch {
	case in.Dropped:
		return fmt.Sprintf("dropped by acl %s seq %d", in.ACLName, in.ACL.Seq)
	case in.Reset:
		return fmt.Sprintf("DSCP %d → 0: no trust dscp", pkt.DSCP)
	case in.DSCP != pkt.DSCP:
		return fmt.Sprintf("DSCP %d → %d: acl %s seq %d", pkt.DSCP, in.DSCP, in.ACLName, in.ACL.Seq)
	case in.UntaggedPCP:
		return fmt.Sprintf("untagged, trust pcp → priority %d", in.Priority)
	case in.NoIP:
		return fmt.Sprintf("RoCE v1 frame, trust dscp → priority %d", in.Priority)
	case in.Policed > 0:
		return fmt.Sprintf("policed by acl %s seq %d", in.ACLName, in.ACL.Seq)
	}
	return ""
}

func egressNote(dscp int, e Egress) string {
	switch {
	case e.Dropped:
		return fmt.Sprintf("dropped by egress acl %s seq %d", e.ACLName, e.ACL.Seq)
	case e.DSCP != dscp:
		return fmt.Sprintf("DSCP %d → %d: egress acl %s seq %d", dscp, e.DSCP, e.ACLName, e.ACL.Seq)
	}
	return ""
}
