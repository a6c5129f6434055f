// Package importer turns a running device's configuration into fabricgen
// intent: the reverse of rendering. Each platform folder reads its own
// configuration forms into a Device (platforms/<name>/importer.go, listed
// in the registry); this package holds that vendor-neutral model, the
// report of what no intent expresses, and the writer that factors devices
// into qos_policy, traffic_class, ecn_profile, pfc_watchdog and device
// blocks (hclwrite, with a provenance comment on every block).
//
// A Device says what the device does, as effective values per port (the
// same facts as schema.PortQoS), never how its configuration spelled them:
// the writer decides how to factor them into policies and classes.
package importer

import (
	"maps"
	"slices"
)

// Span is where something was read: a file and its first and last line
// (1-based; To == From for one line; both 0 for the whole file).
type Span struct {
	File     string `json:"file"`
	From, To int    `json:"-"`
}

// Line is one line of a file the import reports: where, the text as read
// (control characters escaped by the report), and why.
type Line struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Text string `json:"text"`
	Why  string `json:"why"`
}

// Device is one device read back from its configuration.
type Device struct {
	// Name is the configuration's own hostname; "" lets the caller use the
	// file's stem.
	Name string
	// Fabric is the fabric name a fabricgen render's header names ("" in
	// a configuration fabricgen did not write).
	Fabric string
	// Platform is the registry name of the platform that read it.
	Platform string
	// Kind is "nic" for a host, else "" (the writer makes switches leaves
	// unless links say otherwise).
	Kind string
	// OSVersion, Model, ASIC, HWSKU, Driver and BufferModel are the device
	// attributes the configuration names ("" when it does not).
	OSVersion, Model, ASIC, HWSKU, Driver, BufferModel string
	// Src is the file the device was read from.
	Src Span
	// Default is the QoS of a port the configuration names no QoS for (the
	// switch-wide maps); nil when the device has no switch-wide QoS.
	Default *QoS
	// Ports are the ports the configuration names, in its order.
	Ports []*Port
	// ACLs are the access lists the configuration defines, in its order.
	ACLs []*ACL
	// ClassNames names priorities (0–7) with the configuration's own names
	// (class-maps, forwarding classes, map names), where it has some.
	ClassNames map[int]string
	// Neighbors are the device's LLDP neighbours, when it was read live
	// (import --inventory): the writer's link blocks.
	Neighbors []Neighbor
	// RDMA is a host's rdma block (nil: a switch, or a host script that
	// sets none of it).
	RDMA *RDMA
	// Unmapped lists the QoS-relevant lines no intent expresses, and why.
	Unmapped []Line
	// Twice lists ports configured more than once (the device's own
	// precedence was applied, as the device applies it).
	Twice []Line
}

// Port is one port of a device.
type Port struct {
	Name        string
	Description string
	// IP is the address with its prefix length ("10.0.0.1/31"), "" for none.
	IP string
	// Routed is true for an L3 port (with or without an address).
	Routed bool
	// MTU is the port's MTU (0: the configuration sets none).
	MTU int
	// Speed is the configured speed in bit/s (0: none); FEC is "rs", "fc",
	// "none" or "".
	Speed int64
	FEC   string
	// CableM is the cable length in metres the configuration gives the
	// port (SONiC CABLE_LENGTH, a Cumulus PFC cable length); 0: none.
	CableM float64
	// QoS is the port's effective QoS; nil means the device's Default.
	QoS *QoS
	// ACLIn and ACLOut name the bound ACLs.
	ACLIn, ACLOut []string
	// Src is the port's stanza.
	Src Span
}

// QoS is the effective QoS of a port: every field the configuration
// decides. A nil pointer or map means the configuration leaves it to the
// platform's default.
type QoS struct {
	// Trust is "dscp", "pcp", "both" or "none"; "" is the platform default.
	Trust string
	// DSCP maps code points to priorities (all 64 when the device has a
	// map); DefaultPriority, when set, is the priority of those it omits.
	DSCP            map[int]int
	DefaultPriority *int
	// PCP maps PCP values to priorities.
	PCP map[int]int
	// Queue maps priorities to egress queues.
	Queue map[int]int
	// PFC is the lossless priorities; PFCSet is true when the configuration
	// decides them (PFCSet with no priorities: PFC off).
	PFC    []int
	PFCSet bool
	// Queues are the egress queues' treatment, by queue number.
	Queues map[int]*Queue
	// Watchdog is the PFC watchdog; WatchdogOff an explicit "off".
	Watchdog    *Watchdog
	WatchdogOff bool
	// MTU from a policy (0: none); LinkPause the 802.3x pause setting.
	MTU       int
	LinkPause *bool
	// Buffer is the buffer knobs the configuration sets (nil: none).
	Buffer *Buffer
	// Src is where the QoS was read (the stanzas that decided it).
	Src []Span
}

// Buffer is a policy's buffer knobs, in bytes (0: not set).
type Buffer struct {
	Headroom, XOFF, XON, IngressLosslessPool, EgressLossyPool int64
	// DynamicThreshold is the alpha (dynamic_th), nil when not set.
	DynamicThreshold *int
}

// Queue is one egress queue's treatment.
type Queue struct {
	// Sched is "strict", "dwrr" or "".
	Sched string
	// Weight is the DWRR/ETS percent (nil: none).
	Weight *int
	// ShaperBps caps the queue's rate in bit/s (0: none).
	ShaperBps int64
	// ECN is the queue's marking curve (nil: none); ECNOff an explicit off.
	ECN    *ECN
	ECNOff bool
}

// ECN is a WRED/ECN curve.
type ECN struct {
	// Name is the configuration's own name for the curve, if any.
	Name string
	// MinBytes and MaxBytes are the thresholds in bytes (0: not given).
	MinBytes, MaxBytes int64
	// MinFill and MaxFill are the thresholds in percent of the queue
	// buffer (nil: not given).
	MinFill, MaxFill *int
	// Probability is the marking probability at the max threshold, percent.
	Probability int
	// Mark is true for ECN marking, false for WRED drop.
	Mark bool
}

// Watchdog is a PFC watchdog's timers (0: not given) and action ("drop",
// "forward", "alert" or "").
type Watchdog struct {
	Name                               string
	DetectionMS, RestorationMS, PollMS int64
	Action                             string
}

// ACL is an access list.
type ACL struct {
	Name  string
	Rules []*ACLRule
	Src   Span
}

// ACLRule is one entry of an access list, in the intent's terms.
type ACLRule struct {
	Seq int
	// Action is "permit" or "deny"; Family "ipv4", "ipv6" or "any".
	Action, Family string
	// Protocol is "ip", "tcp", "udp", "icmp" or a number; "" for any.
	Protocol string
	// SrcPrefix and DstPrefix are CIDR prefixes ("" for any).
	SrcPrefix, DstPrefix string
	// SrcPorts and DstPorts are port ranges [from, to].
	SrcPorts, DstPorts [][2]int
	// DSCP are the matched code points; SetDSCP the re-mark (nil: none).
	DSCP    []int
	SetDSCP *int
	// PoliceBps caps the matched traffic in bit/s (0: none).
	PoliceBps int64
	Src       Span
}

// RDMA is a NIC's rdma settings (the device block's rdma attributes);
// a nil pointer or "" is not set by the host's configuration.
type RDMA struct {
	// Transport is "roce_v2", "roce_v1" or "iwarp".
	Transport string
	// PathMTU is the RDMA path MTU (256–4096).
	PathMTU *int
	// ToS is rdma_cm's type of service (DSCP << 2 | ECN bits).
	ToS *int
	// CNPDSCP and CNPPriority are the congestion notifications' marking.
	CNPDSCP, CNPPriority *int
	// ECN is DCQCN on the RoCE priority.
	ECN *bool
	// Src is where the settings were read.
	Src []Span
}

// Neighbor is one LLDP neighbour of a port: the system name and port the
// far end advertises.
type Neighbor struct {
	LocalPort    string `json:"local_port"`
	RemoteSystem string `json:"remote_system"`
	RemotePort   string `json:"remote_port"`
}

// SameQoS reports whether two QoS readings are the same, where they were
// read aside (Src). An empty map is the same as none.
func SameQoS(a, b *QoS) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Trust == b.Trust && maps.Equal(a.DSCP, b.DSCP) && samePtr(a.DefaultPriority, b.DefaultPriority) &&
		maps.Equal(a.PCP, b.PCP) && maps.Equal(a.Queue, b.Queue) && slices.Equal(a.PFC, b.PFC) && a.PFCSet == b.PFCSet &&
		maps.EqualFunc(a.Queues, b.Queues, sameQueue) && samePtr(a.Watchdog, b.Watchdog) && a.WatchdogOff == b.WatchdogOff &&
		a.MTU == b.MTU && samePtr(a.LinkPause, b.LinkPause) && sameBuffer(a.Buffer, b.Buffer)
}

// samePtr reports whether two optional values are both absent or equal.
func samePtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func sameQueue(a, b *Queue) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Sched == b.Sched && samePtr(a.Weight, b.Weight) && a.ShaperBps == b.ShaperBps && sameECNValue(a.ECN, b.ECN) && a.ECNOff == b.ECNOff
}

func sameECNValue(a, b *ECN) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Name == b.Name && a.MinBytes == b.MinBytes && a.MaxBytes == b.MaxBytes && samePtr(a.MinFill, b.MinFill) &&
		samePtr(a.MaxFill, b.MaxFill) && a.Probability == b.Probability && a.Mark == b.Mark
}

func sameBuffer(a, b *Buffer) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Headroom == b.Headroom && a.XOFF == b.XOFF && a.XON == b.XON && a.IngressLosslessPool == b.IngressLosslessPool &&
		a.EgressLossyPool == b.EgressLossyPool && samePtr(a.DynamicThreshold, b.DynamicThreshold)
}
