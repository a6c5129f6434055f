package opensm

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/ibqos"
	"github.com/fabricgen/fabricgen/schema"
)

// ConfigDir is where the rendered files live on an SM host: Debian's
// OpenSM configuration directory (opensm(8): /etc/opensm/opensm.conf).
// opensm.conf names the other files by their path in it.
const ConfigDir = "/etc/opensm"

// The files every SM host gets, in render order. GUID files are rendered
// only where the routing engine reads them.
const (
	FileConf       = "opensm.conf"
	FilePolicy     = "qos-policy.conf"
	FilePartitions = "partitions.conf"
	FileRoots      = "root-guids.conf"
	FileCNs        = "cn-guids.conf"
	FileIOs        = "io-guids.conf"
)

// View is what the templates print: the same for every SM host of a
// fabric, so it names no device of its own.
type View struct {
	// Paths are the files opensm.conf names ("" when not rendered).
	PolicyPath, PartitionsPath, RootsPath, CNsPath, IOsPath string
	// RoutingEngine is the routing_engine list, with no_fallback unless
	// the sm block allows fallback; "" leaves OpenSM's default (minhop).
	RoutingEngine string
	MaxOpVLs      int
	// Priority is sm_priority; PrioritySet false leaves OpenSM's default.
	Priority    int
	PrioritySet bool
	// Sets are the qos_ca_, qos_swe_, qos_sw0_ and qos_rtr_ option sets,
	// all alike: one set of tables for every port type.
	Sets []QoSSet
	// Groups, Levels, Rules and ULPs are the QoS policy's sections.
	Groups []Group
	Levels []Level
	Rules  []Rule
	ULPs   []ULP
	// Partitions are partitions.conf's rules, the Default one first.
	Partitions []Partition
	// Roots, CNs and IOs are the GUID files' lines.
	Roots, CNs, IOs []string
}

// QoSSet is one opensm.conf option set (prefix "qos_ca", ...).
type QoSSet struct {
	Prefix    string
	MaxVLs    int
	HighLimit int
	VLArbHigh string
	VLArbLow  string
	SL2VL     string
}

// Group is a qos-policy port group.
type Group struct {
	Name, Use string
	GUIDs     []string
	// GUIDList is GUIDs joined by ", ".
	GUIDList string
}

// Level is a qos-level.
type Level struct {
	Name, Use string
	SL        int
}

// Rule is a qos-match-rule.
type Rule struct {
	Use, Source, Destination, PKey, Level string
}

// ULP is a qos-ulps line: "match : SL".
type ULP struct {
	Match string
	SL    int
}

// Partition is a partitions.conf rule.
type Partition struct {
	// Def is the definition before ':' ("compute=0x8001,ipoib,mtu=5,sl=3").
	Def string
	// Members are "GUID=full" or "GUID=limited" (or ALL=…, SELF=full).
	Members []string
	// MemberList is Members joined by ", ".
	MemberList string
}

// Error is a fabric opensm cannot render, at the intent's source.
type Error struct {
	Src schema.Range
	Msg string
}

func (e *Error) Error() string {
	if e.Src.IsZero() {
		return e.Msg
	}
	return e.Src.String() + ": " + e.Msg
}

func hex64(g uint64) string { return fmt.Sprintf("%#016x", g) }

func pkey(v int) string { return fmt.Sprintf("%#04x", v) }

// guids are the port GUIDs of d's HCA ports, in port order.
func guids(d *schema.Device) []string {
	var out []string
	for _, p := range d.Ports {
		if p.GUID.Set {
			out = append(out, hex64(p.GUID.V))
		}
	}
	return out
}

func isSwitch(k schema.Kind) bool {
	switch k {
	case schema.KindLeaf, schema.KindSpine, schema.KindSuperspine, schema.KindCore:
		return true
	}
	return false
}

// engines that read root_guid_file, cn_guid_file and io_guid_file
// (opensm(8) -a, -u, -G; doc/current-routing.txt).
var (
	rootEngines = []string{"ftree", "updn"}
	cnEngines   = []string{"ftree", "dfsssp", "sssp"}
)

// Build derives the view of an InfiniBand fabric's subnet manager files.
// The SM hosts' sm blocks must agree, because every host gets the same
// files (a standby SM with other tables changes them at fail-over).
func Build(f *schema.Fabric) (*View, error) {
	if !f.InfiniBand() {
		return nil, &Error{Src: f.Range, Msg: "platform opensm renders InfiniBand fabrics only: set link_layer = \"infiniband\" on the fabric"}
	}
	t := ibqos.Derive(f)
	sms := ibqos.SubnetManagers(f)
	if err := sameSM(sms); err != nil {
		return nil, err
	}
	v := &View{MaxOpVLs: t.MaxOpVLs}
	var engines []string
	if sm := t.SM; sm != nil && sm.SM != nil {
		engines = sm.SM.RoutingEngine.V
		if sm.SM.Priority.Set {
			v.Priority, v.PrioritySet = sm.SM.Priority.V, true
		}
		if len(engines) > 0 {
			list := slices.Clone(engines)
			if !sm.SM.AllowFallback.V {
				list = append(list, "no_fallback")
			}
			v.RoutingEngine = strings.Join(list, ",")
		}
	}
	sl2vl := make([]string, len(t.SL2VL))
	for i, vl := range t.SL2VL {
		sl2vl[i] = strconv.Itoa(vl)
	}
	for _, p := range []string{"qos_ca", "qos_swe", "qos_sw0", "qos_rtr"} {
		v.Sets = append(v.Sets, QoSSet{Prefix: p, MaxVLs: t.VLs, HighLimit: t.HighLimit,
			VLArbHigh: table(t.High), VLArbLow: table(t.Low), SL2VL: strings.Join(sl2vl, ",")})
	}
	v.PolicyPath = ConfigDir + "/" + FilePolicy
	v.PartitionsPath = ConfigDir + "/" + FilePartitions
	policy(f, t, v)
	partitions(f, v)
	guidFiles(f, engines, v)
	return v, nil
}

// table is a VL arbitration table as opensm.conf writes it; an empty one
// is "0:0", so OpenSM's default table (VL0 weight 4) is not used instead.
func table(es []ibqos.Entry) string {
	if len(es) == 0 {
		return "0:0"
	}
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String()
	}
	return strings.Join(parts, ",")
}

// sameSM checks that the subnet managers' sm blocks agree. A setting they
// disagree on is refused at the line of the SM that deviates (schema.Deviants:
// the value fewer SMs hold; of two, the later SM's), else at its sm block.
func sameSM(sms []*schema.Device) error {
	if len(sms) < 2 {
		return nil
	}
	type setting struct {
		name, val string
		at        schema.Range
	}
	// Values, not where they are written; the election priority is each
	// host's own (sm_priority).
	settings := func(d *schema.Device) []setting {
		sm := d.SM
		if sm == nil {
			sm = &schema.SubnetManager{Range: d.Range}
		}
		or := func(r schema.Range) schema.Range {
			switch {
			case !r.IsZero():
				return r
			case !sm.Range.IsZero():
				return sm.Range
			}
			return d.Range
		}
		maxOp := ibqos.DefaultMaxOpVLs
		if sm.MaxOpVLs.Set {
			maxOp = sm.MaxOpVLs.V
		}
		return []setting{
			{"routing_engine", strings.Join(sm.RoutingEngine.V, ","), or(sm.RoutingEngine.Src)},
			{"allow_fallback", fmt.Sprint(sm.AllowFallback.V), or(sm.AllowFallback.Src)},
			{"max_op_vls", fmt.Sprint(maxOp), or(sm.MaxOpVLs.Src)},
			{"high_limit", fmt.Sprint(sm.HighLimit.V), or(sm.HighLimit.Src)},
		}
	}
	vals := make([][]setting, len(sms))
	for i, d := range sms {
		vals[i] = settings(d)
	}
	for k := range vals[0] {
		// Listed last first: a tie keeps the first SM as the reference.
		sides := make([]schema.Side, 0, len(sms))
		for i := len(sms) - 1; i >= 0; i-- {
			sides = append(sides, schema.Side{Key: vals[i][k].val, Src: vals[i][k].at, Holders: 1})
		}
		devs := schema.Deviants(sides)
		if len(devs) == 0 {
			continue
		}
		ref, dev := len(sms)-1-schema.Reference(sides), len(sms)-1-devs[0]
		show := func(v string) string {
			if v == "" {
				return "(default)"
			}
			return v
		}
		return &Error{Src: vals[dev][k].at, Msg: fmt.Sprintf("subnet managers %s and %s have different sm settings (%s %s on %s, %s on %s): every SM host gets the same OpenSM files apart from its own priority (a standby with other settings changes the fabric at fail-over), so give them the same routing_engine, allow_fallback, max_op_vls and high_limit",
			sms[ref].Name, sms[dev].Name, vals[dev][k].name, show(vals[dev][k].val), sms[dev].Name, show(vals[ref][k].val), sms[ref].Name)}
	}
	return nil
}

// policy fills the QoS policy: a port group per partition, a qos-level
// per class with an SL and DEFAULT, a match rule per partition with an SL
// a class names, and qos-ulps for the default SL and IPoIB partitions.
func policy(f *schema.Fabric, t ibqos.Tables, v *View) {
	defSL := 0
	if t.Default != nil && t.Default.SL.Set {
		defSL = t.Default.SL.V
	}
	v.Levels = append(v.Levels, Level{Name: "DEFAULT", Use: "unmatched requests", SL: defSL})
	classes := slices.Clone(f.Classes)
	sort.SliceStable(classes, func(i, j int) bool { return classes[i].Name < classes[j].Name })
	for _, c := range classes {
		if !c.SL.Set || strings.EqualFold(c.Name, "DEFAULT") {
			continue
		}
		v.Levels = append(v.Levels, Level{Name: c.Name, Use: "traffic_class " + c.Name, SL: c.SL.V})
	}
	v.ULPs = append(v.ULPs, ULP{Match: "default", SL: defSL})
	for _, p := range f.Partitions {
		var g []string
		for _, d := range members(p) {
			g = append(g, guids(d)...)
		}
		if len(g) > 0 {
			v.Groups = append(v.Groups, Group{Name: p.Name, Use: "partition " + p.Name + " members", GUIDs: g, GUIDList: strings.Join(g, ", ")})
		}
		if !p.SL.Set || p.SL.V < 0 || p.SL.V > ibqos.MaxSL {
			continue
		}
		c := t.ClassOfSL[p.SL.V]
		if c != nil && len(g) > 0 {
			v.Rules = append(v.Rules, Rule{Use: "partition " + p.Name, Source: p.Name, Destination: p.Name, PKey: pkey(p.PKey.V), Level: c.Name})
		}
		if p.IPoIB.V {
			// OpenSM rejects the whole policy when an ipoib rule names a
			// partition with fewer than two full members ("IPoIB
			// partition, pkey … - partition has less than two full
			// members", opensm/osm_qos_parser_y.y __validate_pkeys); such
			// a partition is matched by its P_Key instead (qos-ulps "any,
			// pkey", doc/QoS_management_in_OpenSM.txt §6), with the same SL.
			match := "ipoib, pkey "
			if fullPorts(p) < 2 {
				match = "any, pkey "
			}
			v.ULPs = append(v.ULPs, ULP{Match: match + pkey(p.PKey.V), SL: p.SL.V})
		}
	}
}

// fullPorts counts the partition's full member ports (two for a Default
// partition without members: it is rendered ALL=full or ALL=limited with
// SELF=full, and OpenSM counts every end port).
func fullPorts(p *schema.Partition) int {
	if p.Default.V && len(p.Members) == 0 && len(p.FullMembers) == 0 {
		return 2
	}
	n := 0
	for _, d := range members(p) {
		if m, _ := p.MembershipOf(d); m == schema.MemberFull {
			n += len(guids(d))
		}
	}
	return n
}

// members are the partition's members and full members, each once, by name.
func members(p *schema.Partition) []*schema.Device {
	seen := map[*schema.Device]bool{}
	var out []*schema.Device
	for _, d := range append(slices.Clone(p.Members), p.FullMembers...) {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// partitions fills partitions.conf. Without a default partition in the
// intent the Default rule is what OpenSM does without a partitions file
// (doc/partition-config.txt: "Default=0x7fff : ALL=full ;"); lint's IBQ012
// reports the missing partition.
func partitions(f *schema.Fabric, v *View) {
	var def *schema.Partition
	for _, p := range f.Partitions {
		if p.Default.V {
			def = p
		}
	}
	if def == nil {
		v.Partitions = append(v.Partitions, Partition{Def: "Default=0x7fff", Members: []string{"ALL=full", "SELF=full"}, MemberList: "ALL=full, SELF=full"})
	}
	for _, p := range Ordered(f) {
		def := p.Name + "=" + pkey(p.PKey.V)
		if p.IPoIB.V {
			def += ",ipoib"
		}
		if p.MTU.Set {
			if code, ok := ibqos.MTUCode(p.MTU.V); ok {
				def += ",mtu=" + strconv.Itoa(code)
			}
		}
		if p.SL.Set {
			def += ",sl=" + strconv.Itoa(p.SL.V)
		}
		var ms []string
		for _, d := range members(p) {
			m, _ := p.MembershipOf(d)
			for _, g := range guids(d) {
				ms = append(ms, g+"="+string(m))
			}
		}
		if p.Default.V {
			if len(ms) == 0 {
				m := p.Membership.V
				if m == "" {
					m = schema.MemberFull
				}
				ms = append(ms, "ALL="+string(m))
			}
			ms = append(ms, "SELF=full")
		}
		v.Partitions = append(v.Partitions, Partition{Def: def, Members: ms, MemberList: strings.Join(ms, ", ")})
	}
}

// guidFiles fills the root, compute and I/O GUID files the routing
// engines read: roots are the top tier's switches (ftree, updn); I/O nodes
// are partitions' full_members exceptions (storage targets) and compute
// nodes every other HCA port (ftree, dfsssp, sssp), written only when
// there are I/O nodes (without the files every CA is a compute node).
func guidFiles(f *schema.Fabric, engines []string, v *View) {
	uses := func(set []string) bool {
		for _, e := range engines {
			if slices.Contains(set, e) {
				return true
			}
		}
		return false
	}
	if uses(rootEngines) {
		top := 0
		for _, d := range f.Devices {
			if isSwitch(d.Kind.V) {
				top = max(top, d.Kind.V.Tier())
			}
		}
		for _, d := range sortedDevices(f) {
			if isSwitch(d.Kind.V) && d.Kind.V.Tier() == top && d.GUID.Set {
				v.Roots = append(v.Roots, hex64(d.GUID.V))
			}
		}
		if len(v.Roots) > 0 {
			v.RootsPath = ConfigDir + "/" + FileRoots
		}
	}
	if !uses(cnEngines) {
		return
	}
	io := map[*schema.Device]bool{}
	for _, p := range f.Partitions {
		if p.Membership.V != schema.MemberLimited {
			continue
		}
		for _, d := range p.FullMembers {
			io[d] = true
		}
	}
	if len(io) == 0 {
		return
	}
	for _, d := range sortedDevices(f) {
		if isSwitch(d.Kind.V) {
			continue
		}
		if io[d] {
			v.IOs = append(v.IOs, guids(d)...)
		} else {
			v.CNs = append(v.CNs, guids(d)...)
		}
	}
	v.CNsPath, v.IOsPath = ConfigDir+"/"+FileCNs, ConfigDir+"/"+FileIOs
}

func sortedDevices(f *schema.Fabric) []*schema.Device {
	ds := slices.Clone(f.Devices)
	sort.Slice(ds, func(i, j int) bool { return ds[i].Name < ds[j].Name })
	return ds
}

// Ordered is the partitions in partitions.conf order: the Default one
// first, then by name (Fabric.Partitions order).
func Ordered(f *schema.Fabric) []*schema.Partition {
	out := slices.Clone(f.Partitions)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Default.V && !out[j].Default.V })
	return out
}

// PKeyIndex is the index of partition p in the P_Key table OpenSM gives
// d's ports from the rendered partitions.conf, and false when d is not a
// member: the Default partition at index 0, then d's other partitions in
// partitions.conf order (OpenSM 3.3.23 fills the table so; the proof test
// reads it back with smpquery pkeys).
func PKeyIndex(f *schema.Fabric, d *schema.Device, p *schema.Partition) (int, bool) {
	if p.Default.V {
		return 0, true
	}
	i := 1
	for _, q := range Ordered(f) {
		if q.Default.V {
			continue
		}
		if _, ok := q.MembershipOf(d); !ok {
			continue
		}
		if q == p {
			return i, true
		}
		i++
	}
	return 0, false
}
