package lint

import (
	"fmt"
	"math"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// At is one walk state seen by a rule: a packet of a flow arriving on a port.
type At struct {
	Flow  Flow
	Class *schema.TrafficClass
	// Port is the ingress port; Arrive the packet on its wire; Ingress what
	// the port does (shared, read-only).
	Port    *schema.Port
	Arrive  Packet
	Ingress *Ingress
	// Routed is true when the packet enters a routing device on an L3 port.
	Routed bool
	// Receiver is true when Port is a receiving NIC's port.
	Receiver bool
	// RequiresACL is true when the state lies on a path from or to a NIC in a
	// subnet with require_roce_acl.
	RequiresACL bool
	// Paths is the number of NIC-to-NIC paths through this state.
	Paths int64

	g  *flowGraph
	id int32
}

// Out is one egress edge seen by a rule: the packet leaving Port of its device.
type Out struct {
	Flow  Flow
	Class *schema.TrafficClass
	// Port is the egress port; Priority and DSCP the packet's internal priority
	// and DSCP before egress; Egress what the port does.
	Port     *schema.Port
	Priority int
	DSCP     int
	Egress   *Egress
	// Source is true when Port is the sending NIC's own port.
	Source bool
	// Paths is the number of NIC-to-NIC paths through this edge.
	Paths int64

	g  *flowGraph
	id int32
}

// Ingresses calls fn for every state of the flow, in a deterministic order.
// fn must not keep a; copy it to keep it.
func (w *Walk) Ingresses(fl Flow, fn func(a *At)) {
	g := w.flows[fl]
	a := At{Flow: fl, Class: g.class, g: g}
	for i := range g.states {
		st := &g.states[i]
		bits := g.flags[i]
		a.Port, a.Arrive, a.Ingress, a.Receiver = g.t.ports[st.pi], st.pkt, &g.ingTab[g.ingIdx[i]], bits&flagReceiver != 0
		a.Paths, a.id = g.statePaths(int32(i)), int32(i)
		a.Routed = bits&flagRouted != 0
		a.RequiresACL = g.req != nil && g.req[i] != 0
		fn(&a)
	}
}

// Egresses calls fn for every egress edge of the flow, in a deterministic order.
// fn must not keep o; copy it to keep it.
func (w *Walk) Egresses(fl Flow, fn func(o *Out)) {
	g := w.flows[fl]
	o := Out{Flow: fl, Class: g.class, g: g}
	for i := range g.edges {
		e := &g.edges[i]
		m := &g.mids[e.mid]
		o.Port, o.Priority, o.DSCP, o.Egress, o.Source = g.t.ports[e.oi], m.prio, m.dscp, &g.egTab[g.egIdx[i]], m.src != nil
		o.Paths, o.id = g.edgePaths(int32(i)), int32(i)
		fn(&o)
	}
}

// statePaths is the number of NIC-to-NIC paths through state i: all
// source-receiver pairs, less a NIC's paths to itself.
func (g *flowGraph) statePaths(i int32) int64 {
	st := &g.states[i]
	n := satMul(st.fwd, st.bwd)
	if g.self != nil && n != math.MaxInt64 {
		n -= g.self.state[i]
	}
	return max(n, 0)
}

// edgePaths is the number of NIC-to-NIC paths over edge i.
func (g *flowGraph) edgePaths(i int32) int64 {
	e := &g.edges[i]
	n := satMul(e.flow, g.states[e.to].bwd)
	if g.self != nil && n != math.MaxInt64 {
		n -= g.self.edge[i]
	}
	return max(n, 0)
}

// Arrivals is the number of paths from NICs that reach the state, whether
// or not they go on (a RoCE v1 frame stops at a routed port).
func (a *At) Arrivals() int64 { return a.g.states[a.id].fwd }

// v1Sources returns, per state of the flow that carries a RoCE v1 frame,
// the RoCE v1 NICs whose frames reach it (at most maxV1Sources, by distinct
// transport line). One pass over the edges in creation order: every edge
// into a device's states is created before that device's own edges.
func (w *Walk) v1Sources(fl Flow) map[int32][]*schema.Device {
	g := w.flows[fl]
	midSrc := map[int32][]*schema.Device{}
	out := map[int32][]*schema.Device{}
	for i := range g.edges {
		e := &g.edges[i]
		m := &g.mids[e.mid]
		if !m.l2 {
			continue
		}
		srcs := midSrc[e.mid]
		if m.src != nil {
			srcs = []*schema.Device{m.src.Device}
		}
		if len(srcs) == 0 {
			continue
		}
		out[e.to] = unionDevices(out[e.to], srcs)
		if to := g.states[e.to].mid; to >= 0 {
			midSrc[to] = unionDevices(midSrc[to], srcs)
		}
	}
	return out
}

// maxV1Sources bounds the RoCE v1 NICs v1Sources tracks per state: NICs
// sharing a transport line (a role, a for_each) count once.
const maxV1Sources = 16

func unionDevices(a, b []*schema.Device) []*schema.Device {
	for _, d := range b {
		dup := false
		for _, x := range a {
			dup = dup || x == d || (x.RDMA != nil && d.RDMA != nil && !x.RDMA.Transport.Src.IsZero() && x.RDMA.Transport.Src == d.RDMA.Transport.Src)
		}
		if !dup && len(a) < maxV1Sources {
			a = append(a[:len(a):len(a)], d)
		}
	}
	return a
}

// Trace returns a representative path through the state, source NIC first.
func (a *At) Trace() []Step { return a.g.traceThrough(a.g.states[a.id].parent) }

// Trace returns a representative path through the edge, source NIC first.
func (o *Out) Trace() []Step { return o.g.traceThrough(o.id) }

// traceThrough builds source → … → edge ei → … → receiving NIC.
func (g *flowGraph) traceThrough(ei int32) []Step {
	if ei < 0 {
		return nil
	}
	// Backwards: edge → mid → a feeding state that is not a U-turn → its parent edge …
	var back []Step
	e := &g.edges[ei]
	for {
		m := &g.mids[e.mid]
		if m.src != nil {
			eg := egress(g.t.ports[e.oi], m.prio, m.dscp, m.v6, m.l2)
			back = append(back, Step{Port: m.src.ID(), Note: egressNote(m.dscp, eg), Src: sourceSrc(m.src, m.dscp, eg)})
			break
		}
		si := m.feed[0]
		if m.feed[1] >= 0 && g.t.ports[g.states[si].pi].Peer.Device == g.t.ports[e.oi].Peer.Device {
			si = m.feed[1]
		}
		st := &g.states[si]
		in, eg := ingress(g.t.ports[st.pi], st.pkt), egress(g.t.ports[e.oi], m.prio, m.dscp, m.v6, m.l2)
		back = append(back, Step{Port: g.t.ports[st.pi].ID(), Note: joinNotes(ingressNote(st.pkt, in), egressNote(m.dscp, eg)), Src: hopSrc(g.t.ports[st.pi], st.pkt, in, &eg)})
		if st.parent < 0 {
			break
		}
		e = &g.edges[st.parent]
	}
	steps := make([]Step, 0, len(back)+4)
	for i := len(back) - 1; i >= 0; i-- {
		steps = append(steps, back[i])
	}
	// The source NIC: a dual-homed NIC's path back to itself is never the
	// representative one when another exists.
	var srcDev *schema.Device
	for e := &g.edges[ei]; ; {
		m := &g.mids[e.mid]
		if m.src != nil {
			srcDev = m.src.Device
			break
		}
		if m.feed[0] < 0 || g.states[m.feed[0]].parent < 0 {
			break
		}
		e = &g.edges[g.states[m.feed[0]].parent]
	}
	// Forwards from the edge's target to a receiving NIC.
	si := g.edges[ei].to
	for guard := 0; guard < 2*maxTier+2; guard++ {
		st := &g.states[si]
		in := ingress(g.t.ports[st.pi], st.pkt)
		note := ingressNote(st.pkt, in)
		if st.mid < 0 {
			steps = append(steps, Step{Port: g.t.ports[st.pi].ID(), Note: note, Src: hopSrc(g.t.ports[st.pi], st.pkt, in, nil)})
			break
		}
		m := &g.mids[st.mid]
		next, self := int32(-1), int32(-1)
		for _, ej := range m.edges {
			e := &g.edges[ej]
			if g.states[e.to].bwd == 0 || (m.up && g.t.ports[e.oi].Peer.Device == g.t.ports[st.pi].Peer.Device) {
				continue
			}
			if g.t.ports[e.oi].Peer.Device == srcDev {
				if self < 0 {
					self = ej
				}
				continue
			}
			next = ej
			break
		}
		if next < 0 {
			next = self
		}
		if next < 0 {
			steps = append(steps, Step{Port: g.t.ports[st.pi].ID(), Note: note, Src: hopSrc(g.t.ports[st.pi], st.pkt, in, nil)})
			break
		}
		eg := egress(g.t.ports[g.edges[next].oi], m.prio, m.dscp, m.v6, m.l2)
		steps = append(steps, Step{Port: g.t.ports[st.pi].ID(), Note: joinNotes(note, egressNote(m.dscp, eg)), Src: hopSrc(g.t.ports[st.pi], st.pkt, in, &eg)})
		si = g.edges[next].to
	}
	return steps
}

// hopSrc is where the intent set what the hop at port in did to pkt (eg
// is its egress, nil at the receiving NIC): the ACL rule that dropped or
// re-marked it, the trust that reset or misclassified it, else the
// DSCP/PCP map entry (a class's dscp, a dscp_map entry) that gave it its
// priority.
func hopSrc(in *schema.Port, pkt Packet, ig Ingress, eg *Egress) schema.Range {
	q := qosOf(in)
	switch {
	case ig.ACL != nil && (ig.Dropped || ig.DSCP != pkt.DSCP || ig.Policed > 0):
		return ig.ACL.Range
	case eg != nil && eg.ACL != nil && (eg.Dropped || eg.DSCP != ig.DSCP || eg.Policed > 0):
		return eg.ACL.Range
	case ig.Reset, ig.UntaggedPCP, ig.NoIP:
		return q.Trust.Src
	case ig.Trust == schema.TrustDSCP && !q.DSCP[pkt.DSCP&63].Src.IsZero():
		return q.DSCP[pkt.DSCP&63].Src
	case (ig.Trust == schema.TrustPCP || ig.Trust == schema.TrustBoth) && pkt.Tagged && !q.PCP[pkt.PCP&7].Src.IsZero():
		return q.PCP[pkt.PCP&7].Src
	}
	return q.Trust.Src
}

// sourceSrc is where the intent set what the source NIC marked: its
// egress ACL's rule when one re-marks or drops, else the rdma tos (or the
// cnp_dscp for CNP).
func sourceSrc(src *schema.Port, dscp int, eg Egress) schema.Range {
	if eg.ACL != nil && (eg.Dropped || eg.DSCP != dscp) {
		return eg.ACL.Range
	}
	if r := src.Device.RDMA; r != nil {
		if r.CNPDSCP.Set && r.CNPDSCP.V == dscp && r.DSCP() != dscp {
			return r.CNPDSCP.Src
		}
		if r.ToS.Set {
			return r.ToS.Src
		}
	}
	return schema.Range{}
}

func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// pathAgg groups path observations by a key (usually rule detail + port or
// value source) and reports one finding per group with the path counts per
// flow and one representative trace.
type pathAgg struct {
	order []string
	items map[string]*aggItem
}

type aggItem struct {
	f     Finding
	trace func() []Step
	// flow is the flow of the first observation, the one the trace follows.
	flow  Flow
	ports map[string]*schema.Port
	// paths counts the NIC-to-NIC paths per flow: RoCE data and CNP are
	// different packets on different paths and are never added up unnamed.
	paths [numFlows]int64
	// phrases, when set (addFlows), say per flow what happens to it; the
	// finding is built at flush from them.
	phrases [numFlows]string
	mkAll   func(what string) Finding
}

func newPathAgg() *pathAgg { return &pathAgg{items: map[string]*aggItem{}} }

// add records an observation of flow fl. mk builds the finding on first sight only.
func (g *pathAgg) add(key string, fl Flow, port *schema.Port, paths int64, mk func() Finding, trace func() []Step) {
	if paths <= 0 {
		return // on no NIC-to-NIC path (a dual-homed NIC's path to itself is none)
	}
	it, ok := g.items[key]
	if !ok {
		it = &aggItem{f: mk(), trace: trace, flow: fl, ports: map[string]*schema.Port{}}
		if port != nil && it.f.Device == "" {
			it.f.Device, it.f.Port = port.Device.Name, port.Name
		}
		g.items[key] = it
		g.order = append(g.order, key)
	}
	it.paths[fl] = satAdd(it.paths[fl], paths)
	if port != nil {
		it.ports[port.ID()] = port
	}
}

// addFlows is add for a finding whose summary names every flow it hits:
// phrase says what happens to flow fl (on first sight of the flow), and mk
// builds the finding at flush from the phrases joined ("RoCE data from DSCP
// 26 to 0 and CNP from DSCP 48 to 0"). One cause hitting both flows is one
// finding.
func (g *pathAgg) addFlows(key string, fl Flow, port *schema.Port, paths int64, phrase func() string, mk func(what string) Finding, trace func() []Step) {
	if paths <= 0 {
		return
	}
	g.add(key, fl, port, paths, func() Finding { return Finding{} }, trace)
	it := g.items[key]
	if it.mkAll == nil {
		it.mkAll = mk
	}
	if it.phrases[fl] == "" {
		it.phrases[fl] = phrase()
	}
}

func (g *pathAgg) flush(p *Pass) {
	for _, k := range g.order {
		it := g.items[k]
		if it.mkAll != nil {
			var what []string
			for _, ph := range it.phrases {
				if ph != "" {
					what = append(what, ph)
				}
			}
			dev, port := it.f.Device, it.f.Port
			it.f = it.mkAll(strings.Join(what, " and "))
			if it.f.Device == "" {
				it.f.Device, it.f.Port = dev, port
			}
		}
		it.f.Trace = it.trace()
		it.f.Paths = flowPaths(it.paths, it.flow)
		it.f.Count = len(it.ports)
		if it.f.Count == 0 {
			it.f.Count = 1
		}
		if len(it.ports) > 1 {
			it.f.Places = portPlaces(it.ports)
		}
		p.Report(it.f)
	}
}

// flowPaths lists the non-zero path counts, flow first.
func flowPaths(paths [numFlows]int64, first Flow) []FlowPaths {
	var out []FlowPaths
	if paths[first] > 0 {
		out = append(out, FlowPaths{Flow: first.String(), Paths: paths[first]})
	}
	for fl := Flow(0); fl < numFlows; fl++ {
		if fl != first && paths[fl] > 0 {
			out = append(out, FlowPaths{Flow: fl.String(), Paths: paths[fl]})
		}
	}
	return out
}

// subjectOr returns r unless it is zero, else the first non-zero fallback.
func subjectOr(r schema.Range, fallbacks ...schema.Range) schema.Range {
	if !r.IsZero() {
		return r
	}
	for _, f := range fallbacks {
		if !f.IsZero() {
			return f
		}
	}
	return r
}

// portSubject is the best range for a port value: the value's source, the
// port block, the device block.
func portSubject(src schema.Range, p *schema.Port) schema.Range {
	return subjectOr(src, p.Range, p.Device.Range)
}

func dscpList(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ",")
}

// portPlaces lists ports' blocks as a finding's places (portsPlaces).
func portPlaces(ports map[string]*schema.Port) []Related {
	list := make([]*schema.Port, 0, len(ports))
	for _, pt := range ports {
		list = append(list, pt)
	}
	return portsPlaces(list)
}
