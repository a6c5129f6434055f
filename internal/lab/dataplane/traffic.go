package dataplane

import (
	"hash/fnv"
	"sort"

	"github.com/fabricgen/fabricgen/internal/qosread"
	"github.com/fabricgen/fabricgen/schema"
)

// RoCEPacket is the size (bytes) of a RoCE packet of the lab's traffic,
// for the responders' byte counters of dropped packets.
const RoCEPacket = 4200

// Load profile: what every NIC sends to its partner.
const (
	// roceShare and bgShare are RoCE's and background traffic's shares
	// of the sender's port speed.
	roceShare, bgShare = 0.4, 0.02
	// bgPacket and cnpPacket are the packet sizes (bytes) of background
	// traffic and CNPs (RoCEPacket is RoCE's).
	bgPacket, cnpPacket = 1500, 64
	// markShare is the share of a congested queue's packets marked CE.
	markShare = 0.05
	// dropShare is the share a congested lossy (or drop-mode) queue drops.
	dropShare = 0.01
	// cnpPerMark is how many CNPs an NP sends per marked packet (CNPs are
	// paced per QP).
	cnpPerMark = 1.0 / 8
	// pauseFrames is the pause frames per second one congested ingress
	// port, or a storming port, sends per priority.
	pauseFrames = 20000
	// linkLossDB is the optical loss of a healthy link.
	linkLossDB = 2.5
	// lossyDrop is the share of RoCE data a queue with neither PFC nor
	// ECN drops: nothing holds RDMA's line-rate bursts back there (no
	// pause, no rate reduction), so a shared lossy queue overflows now
	// and then (the same share a congested lossy queue drops).
	lossyDrop = dropShare
	// hopLatency is one link's share of a flow's round trip, each way
	// (serialisation, switching and queueing at the next device): the
	// round trip of a path of n links is 2 × n × hopLatency.
	hopLatency = 2e-6
)

// goodput is the RoCE data (bytes/s) a reliable-connection QP delivers
// in order from arrived bytes/s of which lost packets/s were lost, over a
// path of hops links at speed bits/s. RC retransmits go-back-N: each loss
// resends what was in flight, a window of W = bandwidth × round trip
// packets, so the efficiency is 1/(1 + p·W) for a loss ratio p (the
// go-back-N throughput bound).
func goodput(arrived, lost float64, speed float64, hops int) float64 {
	pkts := arrived / RoCEPacket
	if pkts <= 0 || lost <= 0 {
		return arrived
	}
	p := lost / (pkts + lost)
	w := speed / 8 * (2 * float64(hops) * hopLatency) / RoCEPacket
	return arrived / (1 + p*w)
}

// compute recomputes every port's rates and gauges from the
// configurations and faults; m.mu is held.
func (m *Model) compute() {
	for _, d := range m.devs {
		if !d.parsed {
			d.parse()
		}
		d.qps = nil
		for _, p := range d.ports {
			m.baseline(d, p)
		}
	}
	m.physicalFaults()
	m.traffic()
	m.storms()
	for _, d := range m.devs {
		m.queuePairs(d)
	}
}

// parse reads the device's configuration text.
func (d *device) parse() {
	d.parsed = true
	d.sw, d.host = nil, nil
	if d.parts.Host {
		d.host = readHost(d.text)
		return
	}
	if d.parts.Read == nil || d.text == "" {
		return
	}
	if q, err := d.parts.Read(d.text); err == nil {
		d.sw = q
	}
}

// swPort is a switch port's QoS (factory when the configuration is unknown).
func (d *device) swPort(name string) *qosread.Port {
	if d.sw == nil {
		return qosread.NewDevice().Port(name)
	}
	return d.sw.Port(name)
}

// nic is a host netdev's QoS (factory when unknown).
func (d *device) nic(name string) *nicState {
	if n := d.host[name]; n != nil {
		return n
	}
	n := readHost("netdev " + name + "\n")[name]
	return n
}

// jitter is a stable per-port variation in [-1, 1].
func jitter(dev, port string, salt uint32) float64 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(dev + "\x00" + port))
	v := h.Sum32() ^ (salt * 2654435761)
	return float64(v%2001)/1000 - 1
}

// lanesFor is the serdes lanes of a speed.
func lanesFor(bps int64) int {
	switch {
	case bps >= 400e9:
		return 8
	case bps >= 100e9:
		return 4
	case bps >= 50e9:
		return 2
	}
	return 1
}

// opticalLanes is the optical channels of a module of that speed.
func opticalLanes(bps int64) int {
	if bps >= 40e9 {
		return 4
	}
	return 1
}

// baseline sets a port's healthy state and clears its rates.
func (m *Model) baseline(d *device, p *port) {
	p.rate = vec{}
	p.up = true
	p.speed = 100e9
	p.fec = "rs"
	if p.intent != nil {
		if p.intent.Link != nil && p.intent.Link.Speed.V > 0 {
			p.speed = p.intent.Link.Speed.V
		} else if p.intent.Speed.V > 0 {
			p.speed = p.intent.Speed.V
		}
		if p.intent.FEC.V != "" {
			p.fec = p.intent.FEC.V
		}
	}
	p.lanes = lanesFor(p.speed)
	p.copper = p.isCopper()
	n := opticalLanes(p.speed)
	if p.copper {
		// A passive copper cable has no laser, no receiver and no
		// monitors: nothing for DDM to report.
		n = 0
	}
	p.tx = make([]float64, n)
	p.rx = make([]float64, n)
	for i := range p.tx {
		p.tx[i] = -1.0 + 0.3*jitter(d.name, p.name, uint32(i))
	}
	p.temp, p.vcc = 0, 0
	if !p.copper {
		p.temp = 45 + 3*jitter(d.name, p.name, 99)
		p.vcc = 3.30 + 0.02*jitter(d.name, p.name, 98)
	}
	p.ber = 5e-10 * (1.5 + jitter(d.name, p.name, 97))
	p.stormed = [8]bool{}
	p.watchdog = false
	if d.parts.Host {
		p.watchdog = d.nic(p.name).pfcTout > 0
	} else {
		p.watchdog = d.swPort(p.name).Watchdog
	}
	// A healthy link corrects a few bits.
	p.rate[FECCorrected] = p.ber * float64(p.speed) / 10
}

// isCopper reports whether the port's link is a passive copper one in
// the intent (media dac or backplane).
func (p *port) isCopper() bool {
	if p.intent == nil || p.intent.Link == nil {
		return false
	}
	m := p.intent.Link.Media.V
	return m == "dac" || m == "backplane"
}

// peerOf is the model port at the other end of p's link, and its device.
func (m *Model) peerOf(p *port) (*device, *port) {
	if p.intent == nil || p.intent.Peer == nil {
		return nil, nil
	}
	pd := m.devs[p.intent.Peer.Device.Name]
	if pd == nil {
		return nil, nil
	}
	return pd, pd.ports[p.intent.Peer.Name]
}

// physicalFaults applies the optics and link faults, then derives each
// port's receive power from its peer's transmit power.
func (m *Model) physicalFaults() {
	type fp struct {
		d *device
		p *port
		f Fault
	}
	var list []fp
	for _, d := range m.devs {
		for _, f := range d.faults {
			if p := d.ports[f.Value]; p != nil && f.Kind.needsPort() {
				list = append(list, fp{d, p, f})
			}
		}
	}
	both := func(e fp, fn func(*port)) {
		fn(e.p)
		if _, pp := m.peerOf(e.p); pp != nil {
			fn(pp)
		}
	}
	for _, e := range list {
		switch e.f.Kind {
		case WeakLaser:
			for i := range e.p.tx {
				e.p.tx[i] = -10.5
			}
		case HotOptic:
			e.p.temp = 74
		case LowVoltage:
			e.p.vcc = 3.05
		case SpeedDown:
			both(e, func(p *port) { p.speed /= 2; p.lanes = max(1, p.lanes/2) })
		case Flap:
			both(e, func(p *port) { p.rate[LinkDown] += 0.2 })
		case BadCable:
			both(e, func(p *port) {
				p.ber = 1e-6
				p.rate[FCSErrors] += 40
				p.rate[SymbolErrors] += 400
				p.rate[FECCorrected] += 4e5
				p.rate[FECUncorrected] += 40
			})
		}
	}
	// Receive power follows the peer's laser.
	for _, d := range m.devs {
		for _, p := range d.ports {
			_, pp := m.peerOf(p)
			for i := range p.rx {
				tx := -1.0
				if pp != nil && i < len(pp.tx) {
					tx = pp.tx[i]
				}
				p.rx[i] = tx - linkLossDB + 0.4*jitter(d.name, p.name, uint32(10+i))
			}
		}
	}
	for _, e := range list {
		if e.f.Kind != DirtyOptic {
			continue
		}
		p := e.p
		for i := range p.rx {
			p.rx[i] = -18.0 + 0.2*jitter(e.d.name, p.name, uint32(20+i))
		}
		p.ber = 1e-5
		p.rate[FCSErrors] += 25
		p.rate[SymbolErrors] += 1000
		p.rate[FECCorrected] += 2e6
		p.rate[FECUncorrected] += 25
	}
}

// lossFraction is the share of packets a port loses on receive.
func (d *device) lossFraction(port string) float64 {
	l := 0.0
	for _, f := range d.faults {
		if f.Value != port {
			continue
		}
		switch f.Kind {
		case DirtyOptic:
			l += 2e-6
		case BadCable:
			l += 5e-6
		case Flap:
			l += 1e-6
		}
	}
	return l
}

// has reports whether the device has a fault of kind (and its value).
func (d *device) has(k Kind) (string, bool) {
	for _, f := range d.faults {
		if f.Kind == k {
			return f.Value, true
		}
	}
	return "", false
}

// endpoint is a NIC port on a link to a switch.
type endpoint struct {
	d *device
	p *port
}

// endpoints lists the NIC ports that can send, in name order.
func (m *Model) endpoints() []endpoint {
	var out []endpoint
	for _, d := range m.devs {
		if !d.parts.Host {
			continue
		}
		for _, name := range d.order {
			p := d.ports[name]
			if pd, pp := m.peerOf(p); pd != nil && pp != nil && !pd.parts.Host {
				out = append(out, endpoint{d, p})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].d.name != out[j].d.name {
			return schema.NaturalLess(out[i].d.name, out[j].d.name)
		}
		return schema.NaturalLess(out[i].p.name, out[j].p.name)
	})
	return out
}

// frag is part of a flow at one device: arrived on in (nil at the
// source) with a DSCP, at rate bytes/s, with its CE-marked and lost
// packets per second.
type frag struct {
	d            *device
	in           *port
	dscp         int
	rate, marked float64
	lost         float64
}

type fragKey struct {
	d    *device
	in   *port
	dscp int
}

// flowKind says what a flow carries.
type flowKind int

const (
	roceData flowKind = iota
	background
	cnpFlow
)

// flowResult is what arrived at the destination.
type flowResult struct {
	rate, marked, lost float64
}

// distances is the hop count to dst from every device that can reach it
// through switches.
func (m *Model) distances(dst *device) map[*device]int {
	dist := map[*device]int{dst: 0}
	queue := []*device{dst}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if u != dst && u.parts.Host {
			continue
		}
		for _, name := range u.order {
			v, _ := m.peerOf(u.ports[name])
			if v == nil {
				continue
			}
			if _, seen := dist[v]; !seen {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return dist
}

// send pushes one flow from src to dst through every equal-cost path,
// counting it on every port it crosses, and returns what arrived.
func (m *Model) send(src, dst endpoint, dist map[*device]int, kind flowKind, dscp, prio int, rate float64) flowResult {
	pkt := float64(RoCEPacket)
	switch kind {
	case background:
		pkt = bgPacket
	case cnpFlow:
		pkt = cnpPacket
	}
	// The sender's NIC: paused for good when its switch port storms PFC
	// on the flow's priority (a NIC has no watchdog for pauses it
	// receives), so the flow never leaves it.
	sp := src.p
	pd, pp := m.peerOf(sp)
	if pd != nil && pp != nil && stormsToward(pd, pp, prio) {
		return flowResult{}
	}
	sp.rate[TxBytes] += rate
	sp.rate[TxPackets] += rate / pkt
	sp.rate[PrioTxBytes+Metric(prio)] += rate
	sp.rate[PrioTxPackets+Metric(prio)] += rate / pkt
	if pd == nil || pp == nil {
		return flowResult{}
	}
	var res flowResult
	cur := map[fragKey]*frag{}
	arrive := func(f *frag, d *device, in *port) {
		in.rate[RxBytes] += f.rate
		in.rate[RxPackets] += f.rate / pkt
		lost := f.rate / pkt * d.lossFraction(in.name)
		k := fragKey{d, in, f.dscp}
		if g := cur[k]; g != nil {
			g.rate += f.rate
			g.marked += f.marked
			g.lost += f.lost + lost
			return
		}
		cur[k] = &frag{d: d, in: in, dscp: f.dscp, rate: f.rate, marked: f.marked, lost: f.lost + lost}
	}
	arrive(&frag{dscp: dscp, rate: rate}, pd, pp)
	for steps := 0; len(cur) > 0 && steps < 64; steps++ {
		next := cur
		cur = map[fragKey]*frag{}
		keys := make([]fragKey, 0, len(next))
		for k := range next {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if keys[i].d.name != keys[j].d.name {
				return keys[i].d.name < keys[j].d.name
			}
			if keys[i].in.name != keys[j].in.name {
				return keys[i].in.name < keys[j].in.name
			}
			return keys[i].dscp < keys[j].dscp
		})
		for _, k := range keys {
			f := next[k]
			d := f.d
			if d == dst.d {
				if f.in != dst.p {
					continue
				}
				n := d.nic(f.in.name)
				pr := n.prioOf(f.dscp)
				f.in.rate[PrioRxBytes+Metric(pr)] += f.rate
				f.in.rate[PrioRxPackets+Metric(pr)] += f.rate / pkt
				res.rate += f.rate
				res.marked += f.marked
				res.lost += f.lost
				continue
			}
			if d.parts.Host {
				continue
			}
			m.forward(f, dist, kind, pkt, func(g *frag, nd *device, np *port) { arrive(g, nd, np) })
		}
	}
	return res
}

// forward moves a fragment through one switch: classify at ingress,
// split over the egress links toward the destination, queue, mark,
// pause or drop as the regime says, and hand each share to the next hop.
func (m *Model) forward(f *frag, dist map[*device]int, kind flowKind, pkt float64, next func(*frag, *device, *port)) {
	d := f.d
	here, ok := dist[d]
	if !ok {
		return
	}
	in := d.swPort(f.in.name)
	prio, out := in.Classify(f.dscp, kind != background)
	type hop struct {
		ep *port
		nd *device
		np *port
	}
	var hops []hop
	for _, name := range d.order {
		ep := d.ports[name]
		nd, np := m.peerOf(ep)
		if nd == nil || np == nil {
			continue
		}
		if dn, ok := dist[nd]; ok && dn == here-1 {
			hops = append(hops, hop{ep, nd, np})
		}
	}
	if len(hops) == 0 {
		return
	}
	congest, congested := d.has(Congest)
	remark, remarks := d.has(Remark)
	_, dropsCNP := d.has(CNPUnmapped)
	share := 1 / float64(len(hops))
	for _, h := range hops {
		eq := d.swPort(h.ep.name)
		q := eq.Queue[prio]
		g := &frag{dscp: out, rate: f.rate * share, marked: f.marked * share, lost: f.lost * share}
		pkts := g.rate / pkt
		if kind == cnpFlow && dropsCNP {
			h.ep.rate[QueueDrops+Metric(q)] += pkts
			continue
		}
		// A peer that storms PFC stops the queue: the watchdog drops it,
		// or it stalls.
		if stormsToward(h.nd, h.np, prio) {
			if h.ep.watchdog {
				h.ep.rate[QueueDrops+Metric(q)] += pkts
				h.ep.rate[WDDropped+Metric(q)] += pkts
			}
			continue
		}
		lossless := in.PFC.Has(prio) || eq.PFC.Has(prio)
		if congested && kind == roceData && lossless {
			mode := congest
			if mode == "marks" && !eq.ECN[q] {
				mode = "pauses"
			}
			if mode == "pauses" && !in.PFC.Has(prio) {
				mode = "drops"
			}
			switch mode {
			case "marks":
				h.ep.rate[QueueECNMarked+Metric(q)] += pkts * markShare
				g.marked += pkts * markShare
			case "pauses":
				frames := pauseFrames * share
				f.in.rate[PFCTxFrames+Metric(prio)] += frames
				f.in.rate[PFCTxPauseUS+Metric(prio)] += 2e5 * share
				if _, up := m.peerOf(f.in); up != nil {
					up.rate[PFCRxFrames+Metric(prio)] += frames
					up.rate[PFCRxPauseUS+Metric(prio)] += 2e5 * share
				}
			case "drops":
				h.ep.rate[QueueDrops+Metric(q)] += pkts * dropShare
				g.lost += pkts * dropShare
				g.rate *= 1 - dropShare
			}
		}
		if kind == roceData && !lossless && !eq.ECN[q] {
			h.ep.rate[QueueDrops+Metric(q)] += pkts * lossyDrop
			g.lost += pkts * lossyDrop
			g.rate *= 1 - lossyDrop
		}
		wire := out
		if eq.Rewrite >= 0 {
			wire = eq.Rewrite
		}
		if v, ok := eq.RewritePrio[prio]; ok {
			wire = v
		}
		if remarks && kind == roceData {
			if v, ok := atoi(remark); ok {
				wire = v
			}
		}
		g.dscp = wire
		h.ep.rate[TxBytes] += g.rate
		h.ep.rate[TxPackets] += g.rate / pkt
		h.ep.rate[QueueTxBytes+Metric(q)] += g.rate
		h.ep.rate[QueueTxPackets+Metric(q)] += g.rate / pkt
		next(g, h.nd, h.np)
	}
}

// stormsToward reports whether the port sends a continuous PFC storm on prio.
func stormsToward(d *device, p *port, prio int) bool {
	for _, f := range d.faults {
		if f.Kind == PauseStorm && f.Value == p.name {
			return pfcOn(d, p.name)[prio]
		}
	}
	return false
}

// pfcOn is a port's PFC priorities per its configuration.
func pfcOn(d *device, port string) [8]bool {
	if d.parts.Host {
		return d.nic(port).pfc
	}
	return d.swPort(port).PFC.Flags()
}

// Flow is one NIC's RoCE flow to its partner NIC, as the data plane last
// computed it.
type Flow struct {
	// Src and SrcPort send to Dst and DstPort; SrcSwitch and DstSwitch
	// are the switches their ports connect to.
	Src, SrcPort, Dst, DstPort string
	SrcSwitch, DstSwitch       string
	// Sent is the RoCE data the sender puts on the wire (bytes/s,
	// retransmissions included); Goodput is what the receiver's QP
	// delivers in order (bytes/s), which its rx_write_requests counter
	// counts.
	Sent, Goodput float64
}

// srcSwitch is the name of the switch e's port connects to.
func srcSwitch(m *Model, e endpoint) string {
	if d, _ := m.peerOf(e.p); d != nil {
		return d.name
	}
	return ""
}

// traffic sends every NIC's flows and the CNPs their marks cause.
func (m *Model) traffic() {
	m.flows = m.flows[:0]
	eps := m.endpoints()
	n := len(eps)
	if n < 2 {
		return
	}
	dists := map[*device]map[*device]int{}
	distTo := func(d *device) map[*device]int {
		if dd := dists[d]; dd != nil {
			return dd
		}
		dd := m.distances(d)
		dists[d] = dd
		return dd
	}
	for i, src := range eps {
		dst := eps[(i+n/2)%n]
		if dst.d == src.d {
			continue
		}
		sn := src.d.nic(src.p.name)
		speed := float64(min(src.p.speed, dst.p.speed))
		dscp := sn.tos >> 2
		prio := sn.prioOf(dscp)
		res := m.send(src, dst, distTo(dst.d), roceData, dscp, prio, roceShare*speed/8)
		m.send(src, dst, distTo(dst.d), background, 0, sn.prioOf(0), bgShare*speed/8)
		// The receiver: marks, CNPs, sequence errors.
		dn := dst.d.nic(dst.p.name)
		dp := dst.p
		rp := dn.prioOf(dscp)
		good := goodput(res.rate, res.lost, speed, distTo(dst.d)[src.d])
		dp.rate[RxWriteRequests] += good / RoCEPacket
		m.flows = append(m.flows, Flow{Src: src.d.name, SrcPort: src.p.name, Dst: dst.d.name, DstPort: dst.p.name,
			SrcSwitch: srcSwitch(m, src), DstSwitch: srcSwitch(m, dst), Sent: roceShare * speed / 8, Goodput: good})
		dp.rate[NPECNMarked] += res.marked
		dp.rate[OutOfSequence] += res.lost
		src.p.rate[PacketSeqErr] += res.lost
		src.p.rate[LocalAckTimeout] += res.lost / 100
		_, npOff := dst.d.has(NPOff)
		if res.marked <= 0 || npOff || !dn.np[rp] {
			continue
		}
		cnps := res.marked * cnpPerMark
		dp.rate[NPCNPSent] += cnps
		back := m.send(dst, src, distTo(src.d), cnpFlow, dn.cnpDSCP, dn.cnpPrio, cnps*cnpPacket)
		got := back.rate / cnpPacket
		if sn.rp[prio] {
			src.p.rate[RPCNPHandled] += got
		} else {
			src.p.rate[RPCNPIgnored] += got
		}
	}
}

// storms adds the pause frames of storming ports and what the peer's
// watchdog sees.
func (m *Model) storms() {
	for _, d := range m.devs {
		for _, f := range d.faults {
			if f.Kind != PauseStorm {
				continue
			}
			p := d.ports[f.Value]
			if p == nil {
				continue
			}
			pd, pp := m.peerOf(p)
			on := pfcOn(d, p.name)
			for prio, en := range on {
				if !en {
					continue
				}
				p.rate[PFCTxFrames+Metric(prio)] += pauseFrames
				p.rate[PFCTxPauseUS+Metric(prio)] += 1e6
				if d.parts.Host && d.nic(p.name).pfcTout > 0 {
					p.rate[StormErr] += 0.2
					p.rate[StormWarn] += 0.2
				}
				if pp == nil {
					continue
				}
				pp.rate[PFCRxFrames+Metric(prio)] += pauseFrames
				pp.rate[PFCRxPauseUS+Metric(prio)] += 1e6
				if pd != nil && !pd.parts.Host && pp.watchdog {
					q := pd.swPort(pp.name).Queue[prio]
					pp.rate[WDStorms+Metric(q)] += 0.2
					pp.stormed[q] = true
				}
			}
		}
	}
}

// queuePairs lists a host's queue pairs: one RC QP per port in RTS, plus
// one in SQE per qp-error fault.
func (m *Model) queuePairs(d *device) {
	if !d.parts.Host {
		return
	}
	for i, name := range d.order {
		rdma := d.nic(name).rdma
		if rdma == "" {
			rdma = "mlx5_" + itoa(i)
		}
		d.qps = append(d.qps, QP{Port: name, RDMA: rdma, LQPN: uint32(0x80 + i), RQPN: uint32(0x1c0 + i), Type: "RC", State: "RTS", Comm: "ib_write_bw", PID: 4100 + i})
	}
	for j, f := range d.faults {
		if f.Kind != QPError || len(d.order) == 0 {
			continue
		}
		name := d.order[0]
		rdma := d.nic(name).rdma
		if rdma == "" {
			rdma = "mlx5_0"
		}
		d.qps = append(d.qps, QP{Port: name, RDMA: rdma, LQPN: uint32(0x2a0 + j), RQPN: uint32(0x3a0 + j), Type: "RC", State: "SQE", Comm: "ib_write_bw", PID: 4200 + j, Syndrome: f.Value})
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
