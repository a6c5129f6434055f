package view

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fabricgen/fabricgen/schema"
)

// Base is the part of every platform's view that does not depend on the
// platform: identity, the device-wide QoS realisation and the ports. Every
// platform view embeds it, so templates reach these fields directly
// ({{.Device}}, {{range .Ports}}).
type Base struct {
	// Fabric, Device and Digest identify the render (Digest is Fabric.Digest).
	Fabric, Device, Digest string
	// Platform is the device's platform name; Kind its role (leaf, spine, nic, ...).
	Platform, Kind string
	// OSVersion is the release the render is for (os_version, or the
	// platform's default; "" for host platforms).
	OSVersion string
	// Header holds the lines of the leading comment, without comment markers.
	Header []string
	// Comment is the platform's line-comment marker ("!" or "#"; "" for JSON).
	Comment string
	// Docs names the vendor documentation the embedded templates follow.
	Docs string
	// HeaderText is Header and a "follows: Docs" line, each prefixed with
	// Comment, joined by newlines ("" when the format has no comments).
	HeaderText string
	// QoS is the device-wide QoS realisation (see QoSView).
	QoS QoSView
	// Ports lists the device's ports in natural order.
	Ports []PortView
	// ACLs lists every ACL bound to a port of the device, by name.
	ACLs []ACLView

	cache *ViewCache
	// Stanzas renders the platform's sub-templates (interface, ...).
	Stanzas *StanzaSet
	// Rounded lists the intent's values the platform takes only rounded
	// (a cable length to the lookup row that sizes its headroom); the
	// render says so, one note each.
	Rounded []Rounding
}

// Rounding is one intent value the platform takes as another: the render
// writes To where the intent says From.
type Rounding struct {
	// Device and Port say where (Port "" for a device-wide value).
	Device, Port string
	// What names the intent's attribute ("cable_length").
	What string
	// From is the intent's value, To what the render writes.
	From, To string
	// Why says what makes the platform round, with its source.
	Why string
	// Src is the intent's value.
	Src schema.Range
}

// String is "leaf1:Ethernet0: cable_length 30m is rendered as 40m: why".
func (r Rounding) String() string {
	where := r.Device
	if r.Port != "" {
		where += ":" + r.Port
	}
	return fmt.Sprintf("%s: %s %s is rendered as %s: %s", where, r.What, r.From, r.To, r.Why)
}

// Roundings returns the values the render rounds (see Base.Rounded).
func (b Base) Roundings() []Rounding { return b.Rounded }

// QoSView is a device's QoS as every platform needs it: all maps are
// complete (every DSCP, PCP and priority has an entry).
type QoSView struct {
	// Trust is "dscp", "pcp", "both", "none", or "" when the intent leaves it
	// to the platform default.
	Trust string
	// DSCP is DSCP→priority for all 64 code points.
	DSCP [64]int
	// DSCPByPriority groups code points by priority (ascending priority, only
	// priorities with at least one code point).
	DSCPByPriority []PriorityCodePoints
	// PCP is PCP→priority; PCPByPriority groups it like DSCPByPriority.
	PCP           [8]int
	PCPByPriority []PriorityCodePoints
	// QueueOf is priority→queue.
	QueueOf [8]int
	// Lossless is the device's lossless priorities (schema.Device.Lossless,
	// the union of its ports'; templates list them as .PFC);
	// LosslessQueues the queues they map to.
	Lossless       schema.PrioSet
	LosslessQueues []int
	// Queues lists all eight egress queues with their treatment.
	Queues []QueueView
	// Watchdog is the PFC watchdog, or nil when none is configured.
	Watchdog *WatchdogView
	// MaxMTU is the largest port MTU (0 when no port sets one).
	MaxMTU int
	// Buffer holds the buffer knobs the intent sets (zero: platform default).
	Buffer BufferView
}

// PFC lists the device's lossless priorities in ascending order (nil when
// none): the templates' .PFC.
func (v QoSView) PFC() []int { return v.Lossless.List() }

// PriorityCodePoints is one priority and the code points (DSCP or PCP) that map to it.
type PriorityCodePoints struct {
	Priority int
	Values   []int
}

// QueueView is the effective treatment of one egress queue.
type QueueView struct {
	// ID is the queue number 0–7.
	ID int
	// Priorities lists the priorities mapped to this queue.
	Priorities []int
	// Lossless is true when a PFC priority maps to the queue.
	Lossless bool
	// Strict is true for strict-priority scheduling; Weight is the DWRR/ETS
	// percentage (0 when unset or strict).
	Strict bool
	Weight int
	// Sched is "strict", "dwrr" or "" (platform default).
	Sched string
	// ShaperBps caps the queue in bit/s (0: none).
	ShaperBps int64
	// ECN is the queue's ECN/WRED curve, or nil.
	ECN *ECNView
}

// ECNView is a WRED/ECN curve. Thresholds are bytes.
type ECNView struct {
	Name        string
	MinBytes    int64
	MaxBytes    int64
	Probability int
	// Mark is true for ECN marking, false for WRED dropping.
	Mark bool
	// HasBytes is true when the profile gives the curve in bytes
	// (MinBytes, MaxBytes): a profile may give fill levels only, which the
	// platforms that take bytes refuse (RequireBytes).
	HasBytes bool
	// HasFill is true when the profile also gives the curve as fill levels
	// (MinFill, MaxFill: percent of the queue buffer), for Junos.
	HasFill          bool
	MinFill, MaxFill int
}

// WatchdogView is a PFC watchdog profile, with times in milliseconds.
type WatchdogView struct {
	Name                                  string
	DetectionMS, RestorationMS, PollMS    int64
	Action                                string
	DetectionSet, RestorationSet, PollSet bool
}

// BufferView holds buffer sizes in bytes; zero means "not set".
type BufferView struct {
	HeadroomBytes, XOFFBytes, XONBytes             int64
	IngressLosslessPoolBytes, EgressLossyPoolBytes int64
	// DynamicThreshold is the alpha exponent (-7..7); DynamicThresholdSet says whether it was set.
	DynamicThreshold    int
	DynamicThresholdSet bool
}

// PortView is one port with the per-port part of its configuration.
type PortView struct {
	Name, Description string
	// SpeedBps is the port speed in bit/s (0: unset); SpeedMbps the same in Mb/s.
	SpeedBps  int64
	SpeedMbps int64
	// FEC is "none", "rs", "fc" or "".
	FEC string
	// MTU is the port MTU (0: platform default).
	MTU int
	// IP is the port address with prefix length ("" for L2 and unnumbered
	// ports); IPFamily "ipv4" or "ipv6".
	IP, IPFamily string
	// Routed is true for an L3 port: one with an address, or routed = true
	// without one (BGP unnumbered over the IPv6 link-local address).
	Routed bool
	// Lossless is the port's lossless priorities (schema.PortQoS.Lossless;
	// empty: PFC off on the port). Templates read it as .PFC and
	// .PFCVector too.
	Lossless schema.PrioSet
	// Watchdog is true when the PFC watchdog covers the port (PFC on and a watchdog set).
	Watchdog bool
	// LinkPause is 802.3x global pause.
	LinkPause bool
	// ACLIn and ACLOut name the bound ACLs.
	ACLIn, ACLOut []string
	// CableMeters is the link's cable length in metres (0: unknown).
	CableMeters float64
	// Peer is "device:port" at the other end of the link, or "".
	Peer string
}

// PFC lists the port's lossless priorities in ascending order (nil: PFC
// off on the port): the templates' .PFC.
func (p PortView) PFC() []int { return p.Lossless.List() }

// PFCVector is "0,0,0,1,0,0,0,0", 1 for each lossless priority: the
// templates' .PFCVector.
func (p PortView) PFCVector() string { return p.Lossless.Vector() }

// ACLView is an ACL with its rules in order.
type ACLView struct {
	Name  string
	Rules []RuleView
	// HasIPv4 and HasIPv6 say which families its rules use ("any" rules count as IPv4).
	HasIPv4, HasIPv6 bool
	// Marks lists the rules that re-mark (set_dscp), in order, with every
	// permit rule before them that must keep its DSCP (first match wins).
	Marks []MarkView
}

// RuleView is one ACL rule. Zero values mean "any".
type RuleView struct {
	Seq    int
	Action string
	// Protocol is "udp", "tcp", "icmp" or "ip"; ProtoNum its IP protocol
	// number (0 for ip; icmp is 1, 58 in an IPv6 rule: ICMPv6).
	Protocol string
	ProtoNum int
	// Family is "ipv4", "ipv6" or "any".
	Family string
	// Src and Dst are prefixes ("" = any).
	Src, Dst string
	// SrcPorts and DstPorts are L4 port ranges.
	SrcPorts, DstPorts []PortRangeView
	// DSCP lists matched code points.
	DSCP []int
	// SetDSCP is the re-mark value, -1 when the rule keeps the DSCP.
	SetDSCP int
}

// PortRangeView is an inclusive L4 port range; Single is true when From == To.
type PortRangeView struct {
	From, To int
	Single   bool
}

// MarkView is one re-marking step derived from an ACL rule.
type MarkView struct {
	// Name is "<acl>-<seq>", usable as a class-map or sub-ACL name.
	Name string
	Rule RuleView
	// SetDSCP is the new code point, or -1 to keep the packet's DSCP.
	SetDSCP int
	// Priority and Queue are where the packet lands: for a re-mark, the
	// priority of SetDSCP; for a keep rule, the priority of its matched DSCPs
	// (-1 when they do not agree on one).
	Priority, Queue int
}

// Info is how one platform's files are named and commented, and what its
// header adds to the common lines. Each platform folder gives its own.
type Info struct {
	// Ext is the file extension without the dot ("cfg", "json", "sh", ...).
	Ext string
	// Comment is the line-comment marker ("!", "#"), or "" when the format has none.
	Comment string
	// Docs names the vendor documentation the embedded templates follow.
	Docs string
	// NoRestoration says why the platform's render cannot set the PFC
	// watchdog restoration time ("" when it renders one; lint's WDG005
	// reports the switches it applies to). With RendersRestoration set,
	// it applies only to the devices that returns false for.
	NoRestoration string
	// RendersRestoration, when set, reports whether the render sets the
	// restoration time on d (a platform whose command arrived in some
	// release); nil means NoRestoration applies to every device.
	RendersRestoration func(d *schema.Device) bool
	// ReleaseNote, when set, returns what the header's release line adds
	// for d ("" for nothing).
	ReleaseNote func(d *schema.Device) string
	// HeaderNote, when set, returns a header line of its own for d, after
	// the release line ("" for none).
	HeaderNote func(d *schema.Device) string
	// Files, when set, are the names of the files the platform renders
	// for each device (a subnet manager's opensm.conf, qos-policy.conf,
	// ...): the first from device.tmpl, each other from the template of
	// its name plus ".tmpl", all with the same view; a file whose render
	// is blank is left out. They are written as DEVICE.NAME. Unset, the
	// device gets the one file DEVICE.EXT.
	Files []string
	// Dir, for a platform whose files are installed as they are (a
	// subnet manager's), is the directory on the device that holds them:
	// push writes each file there under its name in Files.
	Dir string
}

// Builder turns the platform-independent view into the platform's view,
// or fails with an *UnsupportedError (or Refusals) for each value the
// platform cannot express.
type Builder func(f *schema.Fabric, d *schema.Device, b Base) (any, error)

// BuildBase fills the platform-independent view of d for the platform
// described by info, its sub-templates run by stanzas. Device-wide values
// come from the device's ports; ports that disagree on a value the
// platform holds device-wide are rejected by the platform builders (see
// uniform.go).
func BuildBase(f *schema.Fabric, d *schema.Device, cache *ViewCache, info Info, stanzas *StanzaSet) (Base, error) {
	b := Base{
		cache:    cache,
		Fabric:   f.Name,
		Device:   d.Name,
		Digest:   f.Digest,
		Platform: string(d.Platform.V),
		Kind:     string(d.Kind.V),
	}
	b.Header = []string{
		"fabricgen: fabric " + OneLine(f.Name) + ", device " + OneLine(d.Name) + " (" + OneLine(string(d.Platform.V)) + ")",
		"intent digest " + digestOrNone(f.Digest),
		"Generated from the fabric intent; edit the intent, not this file.",
	}
	if rel := d.OSVersion.V; rel.Raw != "" {
		b.OSVersion = rel.Raw
		line := "release " + OneLine(rel.Raw)
		if d.OSVersion.Set {
			line += " (os_version)"
		} else {
			line += " (fabricgen's default; set os_version to the device's release)"
		}
		if info.ReleaseNote != nil {
			line += info.ReleaseNote(d)
		}
		b.Header = append(b.Header, line)
	}
	if info.HeaderNote != nil {
		if line := info.HeaderNote(d); line != "" {
			b.Header = append(b.Header, line)
		}
	}
	b.Comment, b.Docs, b.Stanzas = info.Comment, info.Docs, stanzas
	if info.Comment != "" {
		// Sized once: the header is written into the string it becomes.
		const follows = "follows: "
		n := (len(b.Header)+1)*(len(info.Comment)+2) + len(follows) + len(info.Docs)
		for _, l := range b.Header {
			n += len(l)
		}
		var h strings.Builder
		h.Grow(n)
		for _, l := range b.Header {
			h.WriteString(info.Comment)
			h.WriteByte(' ')
			h.WriteString(l)
			h.WriteByte('\n')
		}
		h.WriteString(info.Comment)
		h.WriteString(" " + follows)
		h.WriteString(info.Docs)
		b.HeaderText = h.String()
	}
	var acls map[string]*schema.ACL
	b.Ports = make([]PortView, 0, len(d.Ports))
	for _, p := range d.Ports {
		b.Ports = append(b.Ports, portView(p))
		for _, list := range [][]*schema.ACL{p.ACLIn, p.ACLOut} {
			for _, a := range list {
				if acls == nil {
					acls = map[string]*schema.ACL{}
				}
				acls[a.Name] = a
			}
		}
	}
	q, err := cachedQoSView(cache, d)
	if err != nil {
		return b, err
	}
	b.QoS = q
	names := make([]string, 0, len(acls))
	for n := range acls {
		names = append(names, n)
	}
	sort.Strings(names)
	var rej Collector
	for _, n := range names {
		av, err := aclView(d, acls[n], &b.QoS)
		if !rej.Add(err) {
			return b, err
		}
		b.ACLs = append(b.ACLs, av)
	}
	return b, rej.Err()
}

func digestOrNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func portView(p *schema.Port) PortView {
	pv := PortView{Name: p.Name, Description: p.Description, FEC: p.FEC.V, SpeedBps: p.Speed.V, SpeedMbps: p.Speed.V / 1_000_000}
	if c := p.Cable(); c.Set {
		pv.CableMeters = c.V
	}
	if p.Link != nil {
		if pv.SpeedBps == 0 && p.Link.Speed.Set {
			pv.SpeedBps = p.Link.Speed.V
			pv.SpeedMbps = pv.SpeedBps / 1_000_000
		}
	}
	if p.Peer != nil {
		pv.Peer = p.Peer.ID()
	}
	pv.Routed = p.IsRouted()
	if p.IP.Set {
		pv.IP = p.IP.V.String()
		pv.IPFamily = "ipv4"
		if p.IP.V.Addr().Is6() {
			pv.IPFamily = "ipv6"
		}
	}
	for _, a := range p.ACLIn {
		pv.ACLIn = append(pv.ACLIn, a.Name)
	}
	for _, a := range p.ACLOut {
		pv.ACLOut = append(pv.ACLOut, a.Name)
	}
	q := p.QoS
	if q == nil {
		return pv
	}
	pv.MTU = q.MTU.V
	pv.Lossless = q.Lossless
	pv.Watchdog = q.Lossless != 0 && q.Watchdog.V != nil
	pv.LinkPause = q.LinkPause.V
	return pv
}

// QueuesOf builds the eight egress queues of one port's QoS: their
// scheduling, shaper and ECN from q, their priorities from queueOf (the
// device's priority-to-queue map) and which are lossless from lossless.
// A platform that configures queues per interface builds each port's own
// (a per-port intent never becomes the first port's).
func QueuesOf(q *schema.PortQoS, queueOf [8]int, lossless [8]bool) []QueueView {
	out := make([]QueueView, 8)
	for qid := 0; qid < 8; qid++ {
		qq := q.Queues[qid]
		qv := QueueView{ID: qid, Lossless: lossless[qid], Sched: string(qq.Sched.V), ShaperBps: qq.Shaper.V}
		for pr := 0; pr < 8; pr++ {
			if queueOf[pr] == qid {
				qv.Priorities = append(qv.Priorities, pr)
			}
		}
		qv.Strict = qq.Sched.V == schema.SchedStrict
		if !qv.Strict {
			qv.Weight = qq.Weight.V
		}
		if e := qq.ECN.V; e != nil {
			// schema.Load applies the profile's defaults (probability 100, mode ecn).
			qv.ECN = &ECNView{Name: e.Name, MinBytes: e.Min.V, MaxBytes: e.Max.V, Probability: e.Probability.V, Mark: e.Mark.V,
				HasBytes: e.Min.Set && e.Max.Set, HasFill: e.MinFill.Set && e.MaxFill.Set, MinFill: e.MinFill.V, MaxFill: e.MaxFill.V}
		}
		out[qid] = qv
	}
	return out
}

// LosslessQueueSet reports, per queue, whether it carries a lossless
// priority of v (the device's lossless queues).
func (v *QoSView) LosslessQueueSet() [8]bool {
	var out [8]bool
	for _, qid := range v.LosslessQueues {
		out[qid] = true
	}
	return out
}

// qosView builds the device-wide QoS from the device's first port with QoS;
// uniform.go checks that the other ports agree where the platform needs it.
func qosView(d *schema.Device) (QoSView, error) {
	var v QoSView
	var ref *schema.PortQoS
	for _, p := range d.Ports {
		if p.QoS != nil {
			ref = p.QoS
			break
		}
	}
	if ref == nil {
		for i := range v.QueueOf {
			v.QueueOf[i] = i
			v.PCP[i] = i
		}
		v.DSCPByPriority = groupCodePoints(v.DSCP[:])
		v.PCPByPriority = groupCodePoints(v.PCP[:])
		v.Queues = make([]QueueView, 8)
		for i := range v.Queues {
			v.Queues[i] = QueueView{ID: i, Priorities: []int{i}}
		}
		return v, nil
	}
	v.Trust = string(ref.Trust.V)
	for i := range ref.DSCP {
		v.DSCP[i] = ref.DSCP[i].V
	}
	for i := range ref.PCP {
		v.PCP[i] = ref.PCP[i].V
		if !ref.PCP[i].Set {
			v.PCP[i] = i
		}
	}
	for i := range ref.Queue {
		v.QueueOf[i] = ref.Queue[i].V
		if !ref.Queue[i].Set {
			v.QueueOf[i] = i
		}
	}
	v.DSCPByPriority = groupCodePoints(v.DSCP[:])
	v.PCPByPriority = groupCodePoints(v.PCP[:])
	// PFC: the union of the ports' lossless priorities (ports either use the
	// set or have PFC off; uniform.go enforces that where the platform needs it).
	v.Lossless = d.Lossless
	for _, p := range d.Ports {
		if p.QoS != nil && p.QoS.MTU.V > v.MaxMTU {
			v.MaxMTU = p.QoS.MTU.V
		}
	}
	var lossless [8]bool
	for pr := range v.Lossless.All() {
		lossless[v.QueueOf[pr]] = true
	}
	for qid := 0; qid < 8; qid++ {
		if lossless[qid] {
			v.LosslessQueues = append(v.LosslessQueues, qid)
		}
	}
	v.Queues = QueuesOf(ref, v.QueueOf, lossless)
	if w := ref.Watchdog.V; w != nil {
		v.Watchdog = &WatchdogView{
			Name:           w.Name,
			DetectionMS:    Millis(w.Detection.V),
			RestorationMS:  Millis(w.Restoration.V),
			PollMS:         Millis(w.PollInterval.V),
			Action:         string(w.Action.V),
			DetectionSet:   w.Detection.Set,
			RestorationSet: w.Restoration.Set,
			PollSet:        w.PollInterval.Set,
		}
	}
	bf := ref.Buffer
	v.Buffer = BufferView{
		HeadroomBytes:            bf.Headroom.V,
		XOFFBytes:                bf.XOFF.V,
		XONBytes:                 bf.XON.V,
		IngressLosslessPoolBytes: bf.IngressLosslessPool.V,
		EgressLossyPoolBytes:     bf.EgressLossyPool.V,
		DynamicThreshold:         bf.DynamicThreshold.V,
		DynamicThresholdSet:      bf.DynamicThreshold.Set,
	}
	return v, nil
}

// Millis is d in whole milliseconds.
func Millis(d time.Duration) int64 { return int64(d / time.Millisecond) }

// groupCodePoints inverts a code point → priority map into ascending groups.
func groupCodePoints(m []int) []PriorityCodePoints {
	var by [8][]int
	for cp, pr := range m {
		if pr >= 0 && pr < 8 {
			by[pr] = append(by[pr], cp)
		}
	}
	var out []PriorityCodePoints
	for pr, cps := range by {
		if len(cps) > 0 {
			out = append(out, PriorityCodePoints{Priority: pr, Values: cps})
		}
	}
	return out
}

var protoNums = map[string]int{"icmp": 1, "tcp": 6, "udp": 17, "ip": 0, "": 0}

// icmpv6ProtoNum is ICMPv6's IP protocol (next header) number.
const icmpv6ProtoNum = 58

// aclView converts an ACL and derives its re-marking steps.
func aclView(d *schema.Device, a *schema.ACL, q *QoSView) (ACLView, error) {
	av := ACLView{Name: a.Name}
	var rej Collector
	for _, r := range a.Rules {
		rv := RuleView{
			Seq:      r.Seq,
			Action:   string(r.Action.V),
			Protocol: r.Protocol.V,
			Family:   r.Family,
			SetDSCP:  -1,
			DSCP:     append([]int(nil), r.DSCP.V...),
		}
		if rv.Action == "" {
			rv.Action = string(schema.ActionPermit)
		}
		if rv.Protocol == "" {
			rv.Protocol = "ip"
		}
		if rv.Family == "" {
			rv.Family = "any"
		}
		rv.ProtoNum = protoNums[rv.Protocol]
		if rv.Protocol == "icmp" && rv.Family == "ipv6" {
			rv.ProtoNum = icmpv6ProtoNum
		}
		if r.SrcPrefix.Set {
			rv.Src = r.SrcPrefix.V.String()
		}
		if r.DstPrefix.Set {
			rv.Dst = r.DstPrefix.V.String()
		}
		rv.SrcPorts = portRanges(r.SrcPorts.V)
		rv.DstPorts = portRanges(r.DstPorts.V)
		if r.SetDSCP.Set && r.SetDSCP.V >= 0 {
			rv.SetDSCP = r.SetDSCP.V
		}
		if r.Police.Set && r.Police.V > 0 {
			rej.Add(Unsupported(d, "acl "+a.Name+" rule "+strconv.Itoa(r.Seq)+" police "+Bps(r.Police.V),
				"policing needs a burst size, which the intent does not model", r.Police.Src))
		}
		if rv.Family == "ipv6" {
			av.HasIPv6 = true
		} else {
			av.HasIPv4 = true
		}
		av.Rules = append(av.Rules, rv)
	}
	// Re-marking steps: every permit rule up to the last set_dscp rule, in
	// order, so first-match semantics survive in a QoS policy.
	last := -1
	for i, r := range av.Rules {
		if r.SetDSCP >= 0 && r.Action == string(schema.ActionPermit) {
			last = i
		}
	}
	for _, r := range av.Rules[:last+1] {
		if r.Action != string(schema.ActionPermit) {
			continue
		}
		m := MarkView{Name: fmt.Sprintf("%s-%d", a.Name, r.Seq), Rule: r, SetDSCP: r.SetDSCP, Priority: -1, Queue: -1}
		if r.SetDSCP >= 0 {
			m.Priority = q.DSCP[r.SetDSCP]
		} else if len(r.DSCP) > 0 {
			m.Priority = q.DSCP[r.DSCP[0]]
			for _, c := range r.DSCP[1:] {
				if q.DSCP[c] != m.Priority {
					m.Priority = -1
					break
				}
			}
		}
		if m.Priority >= 0 {
			m.Queue = q.QueueOf[m.Priority]
		}
		av.Marks = append(av.Marks, m)
	}
	return av, rej.Err()
}

func portRanges(rs []schema.PortRange) []PortRangeView {
	var out []PortRangeView
	for _, r := range rs {
		out = append(out, PortRangeView{From: r.From, To: r.To, Single: r.From == r.To})
	}
	return out
}

// Bps formats a rate in bit/s with the largest exact unit.
func Bps(v int64) string {
	switch {
	case v%1_000_000_000 == 0:
		return strconv.FormatInt(v/1_000_000_000, 10) + "G"
	case v%1_000_000 == 0:
		return strconv.FormatInt(v/1_000_000, 10) + "M"
	case v%1_000 == 0:
		return strconv.FormatInt(v/1_000, 10) + "K"
	}
	return strconv.FormatInt(v, 10)
}

// ACLBinding is one ACL bound to a port in one direction and family, for
// the interface templates to print in the platform's words.
type ACLBinding struct {
	// IPv6 is true for the ACL's IPv6 half, false for IPv4.
	IPv6 bool
	// ACL is the ACL's name; Dir is "in" or "out".
	ACL, Dir string
}

// ACLBindingsKey encodes bindings for a stanza cache key.
func ACLBindingsKey(bindings []ACLBinding) string {
	var b strings.Builder
	for _, x := range bindings {
		if x.IPv6 {
			b.WriteString("6 ")
		} else {
			b.WriteString("4 ")
		}
		b.WriteString(x.ACL)
		b.WriteByte(' ')
		b.WriteString(x.Dir)
		b.WriteByte('\n')
	}
	return b.String()
}

// RequireBytes refuses an ECN curve given as fill levels only on a
// platform whose WRED thresholds are bytes (every switch platform but
// Junos).
func RequireBytes(d *schema.Device, qid int, e *ECNView) error {
	if e == nil || e.HasBytes {
		return nil
	}
	return Unsupported(d, fmt.Sprintf("ecn_profile %s on queue %d (fill levels %d–%d %%)", e.Name, qid, e.MinFill, e.MaxFill),
		"this platform takes WRED/ECN thresholds in bytes; give the ecn_profile min_threshold and max_threshold", QueueSrc(d, qid, QECN))
}
