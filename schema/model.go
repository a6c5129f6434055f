package schema

import (
	"net/netip"
	"time"
)

// Platform names one platform: its folder under platforms/, template set
// and SSH dialect. The platforms a fabric may name are those of the
// catalog its loader is given (Options.Platforms).
type Platform string

// Kind is a device's role in the fabric.
type Kind string

// The device kinds, from the edge inwards.
const (
	KindNIC        Kind = "nic"
	KindLeaf       Kind = "leaf"
	KindSpine      Kind = "spine"
	KindSuperspine Kind = "superspine"
	KindCore       Kind = "core"
	// KindSubnetManager is an InfiniBand subnet manager host (platform
	// opensm): an end point like a NIC, with its own HCA port.
	KindSubnetManager Kind = "subnet_manager"
)

// Kinds returns every device kind, edge first.
func Kinds() []Kind {
	return []Kind{KindNIC, KindSubnetManager, KindLeaf, KindSpine, KindSuperspine, KindCore}
}

// Tier orders kinds from the edge inwards: nic and subnet_manager 0,
// leaf 1, spine 2, superspine and core 3. Up/down routing in a Clos climbs
// tiers, then descends.
func (k Kind) Tier() int {
	switch k {
	case KindNIC, KindSubnetManager:
		return 0
	case KindLeaf:
		return 1
	case KindSpine:
		return 2
	default:
		return 3
	}
}

// LinkLayer is the fabric's link layer: Ethernet (RoCE) or InfiniBand.
type LinkLayer string

// Link layers.
const (
	// LinkEthernet is an Ethernet fabric carrying RoCE: PFC, ECN, DSCP.
	LinkEthernet LinkLayer = "ethernet"
	// LinkInfiniBand is an InfiniBand fabric: credit-based, its QoS
	// (SL to VL, VL arbitration, partitions) set by the subnet manager.
	LinkInfiniBand LinkLayer = "infiniband"
)

// Membership is an InfiniBand partition membership.
type Membership string

// Partition memberships (IBTA: the P_Key's bit 15 set for full members).
const (
	MemberFull    Membership = "full"
	MemberLimited Membership = "limited"
)

// Trust is the field a port classifies ingress packets by.
type Trust string

// Trust modes.
const (
	TrustDSCP Trust = "dscp"
	TrustPCP  Trust = "pcp"
	TrustBoth Trust = "both"
	// TrustNone means the port trusts nothing: every packet lands in the default priority.
	TrustNone Trust = "none"
)

// SchedMode is how an egress queue is scheduled.
type SchedMode string

// Scheduling modes.
const (
	SchedStrict SchedMode = "strict"
	SchedDWRR   SchedMode = "dwrr"
)

// ClassRole says what a traffic class carries, which changes what lint expects of it.
type ClassRole string

// Traffic class roles.
const (
	RoleRoCE    ClassRole = "roce"    // RDMA data: lossless, ECN
	RoleCNP     ClassRole = "cnp"     // congestion notifications: strict, never paused
	RoleControl ClassRole = "control" // network control (BGP, LLDP): strict allowed
	RoleDefault ClassRole = "default" // everything else, lossy
	RoleBulk    ClassRole = "bulk"    // other lossy traffic with its own queue
)

// WatchdogAction is what the PFC watchdog does to a stormed queue.
type WatchdogAction string

// PFC watchdog actions.
const (
	WatchdogDrop    WatchdogAction = "drop"
	WatchdogForward WatchdogAction = "forward"
	WatchdogAlert   WatchdogAction = "alert"
)

// Fabric is the fully resolved intent of one directory: every value is
// typed, every reference resolved, and every value carries the range in the
// intent that set it. Slices are sorted by name (Links: declaration order); nothing after schema needs
// to re-read a file.
type Fabric struct {
	// Name is the fabric block's label.
	Name string
	// Description is the fabric block's description attribute.
	Description string
	// Dir is the directory the intent was read from.
	Dir string
	// Digest is the SHA-256 (hex) of the intent: every source file's name and
	// bytes, and the values of all variables. Renders and plans carry it.
	Digest string
	// Range is the fabric block's declaration range.
	Range Range
	// Files holds every source file's bytes by the name used in ranges, for
	// snippets and suppression comments.
	Files map[string][]byte

	Classes     []*TrafficClass
	ECNProfiles []*ECNProfile
	Watchdogs   []*Watchdog
	Policies    []*QoSPolicy
	ACLs        []*ACL
	Subnets     []*Subnet
	Devices     []*Device
	// Links are in declaration order: link blocks (instances in for_each/
	// count order), then links declared by ports (peer), then mesh blocks.
	Links []*Link

	// Levels holds the policies attached at fabric level (index 0) and per
	// kind (role blocks), for reporting; the effective result is in Port.QoS.
	FabricPolicy *QoSPolicy
	RolePolicies map[Kind]*QoSPolicy

	// PFCOnly is true when the fabric deliberately runs lossless without ECN
	// (fabric attribute pfc_only); lint then reports PFC-without-ECN as info.
	PFCOnly Value[bool]
	// LossyRoCE is true when the fabric deliberately carries RoCE without
	// PFC (fabric attribute lossy_roce, e.g. NICs with their own loss
	// recovery); lint then accepts a RoCE class without lossless = true.
	LossyRoCE Value[bool]
	// LinkLayer is the fabric's link layer (attribute link_layer; unset:
	// ethernet with Src at the fabric block).
	LinkLayer Value[LinkLayer]
	// Partitions are the InfiniBand partitions (partition blocks), sorted
	// by name; none on Ethernet.
	Partitions []*Partition

	// Lossless is the set of priorities the fabric's lossless classes use
	// (classes without a priority do not count): the priorities PFC should
	// protect on every port. Load and Reindex compute it.
	Lossless PrioSet

	devices map[string]*Device
	classes map[string]*TrafficClass
}

// Reindex rebuilds the name lookups (Device, Class, Device.Port) and the
// lossless sets derived from the classes and ports (Fabric.Lossless,
// Device.Lossless) after a Fabric was built or edited in Go code; Load does
// the same itself. A PortQoS built in Go sets its own Lossless.
func (f *Fabric) Reindex() {
	for _, d := range f.Devices {
		d.ports = make(map[string]*Port, len(d.Ports))
		for _, p := range d.Ports {
			d.ports[p.Name] = p
		}
	}
	f.indexNames()
	f.deriveLossless()
}

// indexNames rebuilds the fabric-level lookups only; Load has built each
// device's port map while decoding it.
func (f *Fabric) indexNames() {
	f.devices = make(map[string]*Device, len(f.Devices))
	for _, d := range f.Devices {
		f.devices[d.Name] = d
	}
	f.classes = make(map[string]*TrafficClass, len(f.Classes))
	for _, c := range f.Classes {
		f.classes[c.Name] = c
	}
}

// InfiniBand reports whether the fabric's link layer is InfiniBand.
func (f *Fabric) InfiniBand() bool { return f.LinkLayer.V == LinkInfiniBand }

// Device returns the device with the given name, or nil.
func (f *Fabric) Device(name string) *Device { return f.devices[name] }

// Class returns the traffic class with the given name, or nil.
func (f *Fabric) Class(name string) *TrafficClass { return f.classes[name] }

// ClassByRole returns the first class (by name) with the given role, or nil.
func (f *Fabric) ClassByRole(r ClassRole) *TrafficClass {
	for _, c := range f.Classes {
		if c.Role == r {
			return c
		}
	}
	return nil
}

// Value is one effective value with the range of the attribute that set it.
// Set is false when nothing in the intent set the value and V is the zero
// value (or a documented default, with Src at the enclosing block).
type Value[T any] struct {
	V   T
	Set bool
	Src Range
}

// TrafficClass is an end-to-end class: its wire identity and the treatment
// every hop must give it.
type TrafficClass struct {
	Name  string
	Range Range
	Role  ClassRole
	// RoleRange is where role was set.
	RoleRange Range
	// DSCP lists the code points (0–63) that identify the class on the wire, sorted.
	DSCP      []int
	DSCPRange Range
	// Priority is the 802.1p / switch priority (0–7).
	Priority Value[int]
	// Queue is the egress queue / traffic class (0–7).
	Queue Value[int]
	// Lossless is true when PFC protects the class.
	Lossless Value[bool]
	// ECN is the class's ECN profile, or nil.
	ECN *ECNProfile
	// ECNRange is where ecn was set.
	ECNRange Range
	// Sched is strict or dwrr; Weight the DWRR/ETS weight in percent.
	Sched  Value[SchedMode]
	Weight Value[int]
	// SL is the InfiniBand service level (0–15) that identifies the class
	// on an InfiniBand fabric, where Priority is not used.
	SL Value[int]
	// VL is the InfiniBand virtual lane (0–14) the class's SL maps to;
	// unset, it is SL (Set false, Src at sl).
	VL Value[int]
}

// Partition is an InfiniBand partition (partition block): a P_Key, its
// members and the parameters of its IPoIB broadcast group.
type Partition struct {
	Name  string
	Range Range
	// PKey is the P_Key as written (0x0001–0x7fff, with bit 15 allowed);
	// OpenSM uses its low 15 bits.
	PKey Value[int]
	// Members are the member devices; Membership their membership.
	Members      []*Device
	MembersRange Range
	Membership   Value[Membership]
	// FullMembers are members that are full whatever Membership says.
	FullMembers      []*Device
	FullMembersRange Range
	// IPoIB runs IP over InfiniBand on the partition.
	IPoIB Value[bool]
	// MTU is the partition's (broadcast group's) MTU in bytes, 256–4096;
	// unset: OpenSM's default, 2048.
	MTU Value[int]
	// SL is the partition's service level; unset: 0.
	SL Value[int]
	// Default marks the Default partition (P_Key 0x7fff).
	Default Value[bool]
}

// LowPKey is the partition's P_Key without the membership bit (bit 15):
// the 15 bits that name the partition.
func (p *Partition) LowPKey() int { return p.PKey.V & 0x7fff }

// MembershipOf is d's membership in the partition, and false when d is no
// member.
func (p *Partition) MembershipOf(d *Device) (Membership, bool) {
	for _, m := range p.FullMembers {
		if m == d {
			return MemberFull, true
		}
	}
	for _, m := range p.Members {
		if m == d {
			if p.Membership.V == "" {
				return MemberFull, true
			}
			return p.Membership.V, true
		}
	}
	return "", false
}

// SubnetManager is an InfiniBand subnet manager's settings (a
// subnet_manager device's sm block).
type SubnetManager struct {
	Range Range
	// RoutingEngine lists OpenSM routing engines in order (routing_engine).
	RoutingEngine Value[[]string]
	// AllowFallback lets OpenSM fall back to minhop when every engine
	// fails (unset: false, rendered as no_fallback).
	AllowFallback Value[bool]
	// MaxOpVLs is OpenSM's max_op_vls (1: VL0, 2: VL0–1, 3: VL0–3,
	// 4: VL0–7, 5: VL0–14).
	MaxOpVLs Value[int]
	// HighLimit is the VL arbitration high limit (0–255; 255 unbounded).
	HighLimit Value[int]
	// Priority is the SM priority (0–15) in master election.
	Priority Value[int]
}

// ECNProfile is a WRED/ECN marking curve.
type ECNProfile struct {
	Name  string
	Range Range
	// Min and Max are thresholds in bytes.
	Min Value[int64]
	Max Value[int64]
	// Probability is the marking probability at Max, in percent (0–100).
	Probability Value[int]
	// MinFill and MaxFill give the same curve as fill levels in percent of
	// the queue buffer, for platforms whose drop profiles take no byte
	// thresholds (Junos QFX). Unset: such platforms cannot render the profile.
	MinFill Value[int]
	MaxFill Value[int]
	// Mark is true for ECN marking; false means WRED drops instead (mode = "drop").
	Mark Value[bool]
}

// Watchdog is a PFC watchdog profile.
type Watchdog struct {
	Name         string
	Range        Range
	Detection    Value[time.Duration]
	Restoration  Value[time.Duration]
	PollInterval Value[time.Duration]
	Action       Value[WatchdogAction]
}

// QoSPolicy is a qos_policy block as written: the values it sets. Unset
// values inherit from a less specific attachment. The effective merge of all
// levels for one port is PortQoS.
type QoSPolicy struct {
	Name  string
	Range Range
	// Classes lists the traffic classes the policy realises; DSCP→priority,
	// priority→queue, PFC, ECN and scheduler default from them.
	Classes      []*TrafficClass
	ClassesRange Range
	Trust        Value[Trust]
	// DSCPMap overrides DSCP→priority entries (key DSCP 0–63).
	DSCPMap map[int]Value[int]
	// DefaultPriority is the priority of DSCPs no class or map entry names.
	DefaultPriority Value[int]
	// QueueMap overrides priority→queue entries (key priority 0–7).
	QueueMap map[int]Value[int]
	// PCPMap overrides PCP→priority entries (key PCP 0–7), used with trust pcp/both.
	PCPMap map[int]Value[int]
	// PFC overrides the lossless priorities (pfc_priorities); Set with the
	// empty set disables PFC.
	PFC Value[PrioSet]
	// Queues overrides per-queue ECN and scheduling (key queue 0–7).
	Queues map[int]*QueueSpec
	// Watchdog is the PFC watchdog profile; WatchdogOff disables it explicitly.
	Watchdog    Value[*Watchdog]
	WatchdogOff Value[bool]
	MTU         Value[int]
	// LinkPause is 802.3x global pause.
	LinkPause Value[bool]
	Buffer    BufferSpec
}

// QueueSpec is one queue's ECN and scheduler as written in a policy.
type QueueSpec struct {
	Queue int
	Range Range
	// ECN is the profile; ECNOff disables marking on the queue explicitly.
	ECN    Value[*ECNProfile]
	ECNOff Value[bool]
	Sched  Value[SchedMode]
	Weight Value[int]
	// Shaper caps the queue's rate in bit/s (0: none).
	Shaper Value[int64]
}

// BufferSpec holds buffer knobs in bytes. Unset fields mean the platform default
// (or, for headroom, the SONiC formula for the link).
type BufferSpec struct {
	Headroom Value[int64] // per lossless PG
	XOFF     Value[int64]
	XON      Value[int64]
	// IngressLosslessPool and EgressLossyPool size the shared pools.
	IngressLosslessPool Value[int64]
	EgressLossyPool     Value[int64]
	// DynamicThreshold is SONiC/Cumulus alpha (dynamic_th, -7…7).
	DynamicThreshold Value[int]
}

// PortQoS is the effective QoS of one port: the merge of the fabric, role,
// device and port attachments, most specific winning per value, with the
// classes' defaults under them. Every entry records its source.
type PortQoS struct {
	// Policies are the attached policies, least specific first (fabric, role, device, port).
	Policies []*QoSPolicy
	Trust    Value[Trust]
	// DSCP is DSCP→priority for all 64 code points.
	DSCP [64]Value[int]
	// PCP is PCP→priority for the 8 PCP values.
	PCP [8]Value[int]
	// Queue is priority→queue.
	Queue [8]Value[int]
	// Lossless is the set of priorities PFC protects on the port: the
	// classes' lossless priorities, replaced by the last pfc_priorities of
	// the attached policies. The loader computes it once per PortQoS.
	Lossless PrioSet
	// PFCSrc[p] is the range that decided priority p's PFC (the class's
	// lossless attribute or the policy's pfc_priorities); zero when
	// nothing did.
	PFCSrc [8]Range
	// Queues holds effective ECN and scheduling per queue.
	Queues    [8]QueueQoS
	Watchdog  Value[*Watchdog]
	MTU       Value[int]
	LinkPause Value[bool]
	Buffer    BufferSpec
}

// PFCSource is where the port's PFC was set: the range of its first
// lossless priority that has one, else the first range that turned PFC off
// (zero when neither).
func (q *PortQoS) PFCSource() Range {
	for p := range q.Lossless.All() {
		if !q.PFCSrc[p].IsZero() {
			return q.PFCSrc[p]
		}
	}
	for _, r := range q.PFCSrc {
		if !r.IsZero() {
			return r
		}
	}
	return Range{}
}

// QueueQoS is the effective treatment of one egress queue.
type QueueQoS struct {
	ECN    Value[*ECNProfile]
	Sched  Value[SchedMode]
	Weight Value[int]
	Shaper Value[int64]
}

// ACL is an ordered list of rules.
type ACL struct {
	Name  string
	Range Range
	Rules []*ACLRule
}

// ACLAction is what a rule does with a matching packet.
type ACLAction string

// ACL actions.
const (
	ActionPermit ACLAction = "permit"
	ActionDeny   ACLAction = "deny"
)

// ACLRule is one rule: matches (zero value: any) and an action.
type ACLRule struct {
	// Seq is the rule's sequence number (explicit or 10, 20, … in order).
	Seq   int
	Range Range
	// Family is "ipv4", "ipv6", or "any" when no prefix says.
	Family    string
	Protocol  Value[string] // "udp", "tcp", "icmp", "ip" (any)
	SrcPrefix Value[netip.Prefix]
	DstPrefix Value[netip.Prefix]
	// SrcPorts and DstPorts are L4 port ranges; empty: any.
	SrcPorts Value[[]PortRange]
	DstPorts Value[[]PortRange]
	// DSCP matches these code points; empty: any.
	DSCP   Value[[]int]
	Action Value[ACLAction]
	// SetDSCP re-marks a permitted packet (-1 / unset: keep).
	SetDSCP Value[int]
	// Police caps the matched traffic in bit/s (0: none).
	Police Value[int64]
}

// PortRange is an inclusive L4 port range.
type PortRange struct{ From, To int }

// Contains reports whether p is in the range.
func (r PortRange) Contains(p int) bool { return p >= r.From && p <= r.To }

// Subnet is an IP prefix where hosts live; crossing between subnets is a routed hop.
type Subnet struct {
	Name   string
	Range  Range
	Prefix Value[netip.Prefix]
	// Gateway is the device routing the subnet (usually the leaf), or nil.
	Gateway *Device
	// RoCEClassification says UDP 4791 must be classified by ACL on every
	// routed hop into or out of this subnet (attribute require_roce_acl).
	RequireRoCEACL Value[bool]
}

// Credentials say how to authenticate; they are references only, never secrets.
type Credentials struct {
	Range    Range
	Username Value[string]
	// PasswordEnv names the environment variable holding the password.
	PasswordEnv Value[string]
	// KeyFile is a private key path; PassphraseEnv names the variable with its passphrase.
	KeyFile       Value[string]
	PassphraseEnv Value[string]
	// Agent uses the SSH agent (SSH_AUTH_SOCK).
	Agent Value[bool]
}

// Device is anything with ports.
type Device struct {
	Name     string
	Range    Range
	Kind     Value[Kind]
	Platform Value[Platform]
	// MgmtAddress is host or host:port for SSH.
	MgmtAddress Value[string]
	// HostPlatform is true when the device's platform configures a host
	// NIC rather than a switch (its PlatformSpec's Host), recorded by the
	// loader.
	HostPlatform bool
	// OSVersion is the release the device runs, parsed by the loader;
	// unset, it is its platform's default release (PlatformSpec's
	// DefaultVersion) with Src at the device block.
	OSVersion Value[Version]
	// ASIC is the switch ASIC family (one of its platform's
	// DeviceAttrs.ASICs); required where the platform reads asic.
	ASIC Value[string]
	// Model is the hardware model, where the platform reads model (its
	// DeviceAttrs.Family selects the family's statements); Family is its
	// family ("" elsewhere).
	Model  Value[string]
	Family HardwareFamily
	// Driver is a NIC's kernel driver, where the platform reads driver
	// (one of its DeviceAttrs.Drivers; unset: DefaultDriver with Src at
	// the device block).
	Driver Value[string]
	// HWSKU is a switch's hardware SKU (DEVICE_METADATA hwsku on SONiC),
	// where the platform reads hwsku; unset when the intent names none.
	HWSKU Value[string]
	// BufferModel is a SONiC switch's buffer model, "traditional" or
	// "dynamic", where the platform reads buffer_model: the intent's, or
	// (Set false, Src at the device block) the one the vendor's image
	// for the device's asic and release is built with.
	BufferModel Value[string]
	// SKUHeadroom, when the device's hwsku is known and its platform has
	// the data, is the lossless headroom the SKU's own data requires of a
	// port (see DeviceAttrs.SKUHeadroom); nil otherwise.
	SKUHeadroom func(speedMbps int64, cableM float64) (SKUHeadroom, bool)
	// text is the platform's free-text rule, recorded by the loader for
	// CheckRenderable.
	text        TextRule
	Credentials Credentials
	// Policy is the device-level QoS attachment, or nil.
	Policy *QoSPolicy
	// Host is the host a NIC belongs to (NICs only).
	Host Value[string]
	// GUID is an InfiniBand switch's node GUID (attribute guid), used
	// for routing roots and the emulated topology.
	GUID Value[uint64]
	// SM is a subnet manager's settings: its sm block, or an SM with
	// nothing set (Range at the device) when it has none; nil for every
	// kind but subnet_manager.
	SM *SubnetManager
	// RDMA holds NIC RDMA settings (NICs only), or nil. NICs declared by one
	// for_each/count block with constant rdma attributes share one RDMA.
	RDMA  *RDMA
	Ports []*Port // sorted by natural port order (Ethernet2 before Ethernet10)
	// Lossless is the union of the ports' lossless priorities (ports use
	// the set or have PFC off). Load and Reindex compute it.
	Lossless PrioSet

	ports map[string]*Port
}

// Port returns the named port, or nil.
func (d *Device) Port(name string) *Port { return d.ports[name] }

// IsRouter reports whether the device routes: any port is routed.
func (d *Device) IsRouter() bool {
	for _, p := range d.Ports {
		if p.IsRouted() {
			return true
		}
	}
	return false
}

// Transport is the RDMA transport a NIC speaks on the wire.
type Transport string

// RDMA transports.
const (
	// TransportRoCEv2 is RoCE over UDP/IP (port 4791): routable, classified by DSCP.
	TransportRoCEv2 Transport = "roce_v2"
	// TransportRoCEv1 is RoCE directly over Ethernet (ethertype 0x8915):
	// it stays in one L2 domain and is classified by the VLAN tag's PCP.
	TransportRoCEv1 Transport = "roce_v1"
	// TransportIWARP is RDMA over TCP: TCP recovers losses, so it needs no
	// PFC and no ECN marking from the fabric.
	TransportIWARP Transport = "iwarp"
)

// RDMA is a NIC's RDMA configuration.
type RDMA struct {
	Range Range
	// Transport is the wire protocol (default roce_v2 with the block's
	// range as Src); roce_mode "v1"/"v2" sets it too.
	Transport Value[Transport]
	// RoCEMode is "v2" or "v1" for RoCE transports (from roce_mode or transport).
	RoCEMode Value[string]
	// PathMTU is the RDMA path MTU (256, 512, 1024, 2048, 4096).
	PathMTU Value[int]
	// CNPDSCP and CNPPriority are what the NIC marks congestion notifications with.
	CNPDSCP     Value[int]
	CNPPriority Value[int]
	// ToS is the rdma_cm type of service (DSCP<<2 | ECN bits), e.g. 106.
	ToS Value[int]
	// ECN enables DCQCN (notification and reaction points) on the RoCE priority.
	ECN Value[bool]
	// SL is the InfiniBand service level the NIC's applications use
	// (NCCL_IB_SL, UCX_IB_SL); InfiniBand fabrics only.
	SL Value[int]
}

// DSCP is the RoCE data code point the NIC marks: ToS >> 2.
func (r *RDMA) DSCP() int { return r.ToS.V >> 2 }

// TransportOf is the NIC's transport: roce_v2 when it has no rdma block.
func (d *Device) TransportOf() Transport {
	if d.RDMA == nil || !d.RDMA.Transport.Set && d.RDMA.Transport.V == "" {
		return TransportRoCEv2
	}
	return d.RDMA.Transport.V
}

// Port is one device port.
type Port struct {
	Name   string
	Range  Range
	Device *Device
	// Speed is in bit/s.
	Speed Value[int64]
	FEC   Value[string] // "none", "rs", "fc"
	// MTU is the port's own mtu attribute (it beats every policy's mtu; the
	// effective value is QoS.MTU).
	MTU Value[int]
	// Description is free text for the port.
	Description string
	// GUID is an InfiniBand HCA port's port GUID (attribute guid).
	GUID Value[uint64]
	// IP is the port's L3 address with prefix length; unset for L2 ports.
	IP Value[netip.Prefix]
	// Routed marks an L3 port without an address of its own (unnumbered /
	// IPv6 link-local BGP); a port with an IP is routed too (IsRouted).
	Routed Value[bool]
	// Policy is the port-level QoS attachment, or nil.
	Policy *QoSPolicy
	// ACLIn and ACLOut are bound ACLs.
	ACLIn                   []*ACL
	ACLOut                  []*ACL
	ACLInRange, ACLOutRange Range
	// CableLength is the cable in this port, in metres, when no link
	// names the port (cable_length without peer: a far end the intent
	// does not model); Cable gives the one that applies.
	CableLength Value[float64]
	// Link is the link this port is on, or nil; Peer the port at its other end.
	Link *Link
	Peer *Port
	// QoS is the effective QoS. Ports whose attachments are identical share
	// one PortQoS (a fabric of 260,000 ports has a handful): treat it as read-only.
	QoS *PortQoS
}

// Cable is the cable length of the port: its link's, else its own
// cable_length.
func (p *Port) Cable() Value[float64] {
	if p.Link != nil && p.Link.CableLength.Set {
		return p.Link.CableLength
	}
	return p.CableLength
}

// IsRouted reports whether the port is an L3 interface.
func (p *Port) IsRouted() bool { return p.IP.Set || p.Routed.V }

// ID is "device:port".
func (p *Port) ID() string { return p.Device.Name + ":" + p.Name }

// Link joins two ports.
type Link struct {
	// Name is the link block label, with [key] for for_each/count instances.
	Name           string
	Range          Range
	A, B           *Port
	ARange, BRange Range
	// Speed in bit/s (defaults to the ports' speed when unset).
	Speed Value[int64]
	// CableLength in metres.
	CableLength Value[float64]
	Media       Value[string] // "dac", "aoc", "fiber", "backplane"
}

// Other returns the link's port that is not p.
func (l *Link) Other(p *Port) *Port {
	if l.A == p {
		return l.B
	}
	return l.A
}
