package schema

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// IBMTUs are the InfiniBand MTUs in bytes (IBTA enum 1–5): the values a
// port, policy or partition mtu takes on an InfiniBand fabric.
var IBMTUs = []int{256, 512, 1024, 2048, 4096}

// RoutingEngines are OpenSM's routing engines, as its routing_engine
// option names them (opensm(8); doc/current-routing.txt).
var RoutingEngines = []string{"minhop", "updn", "dnup", "file", "ftree", "lash", "dor", "torus-2QoS", "nue", "dfsssp", "sssp"}

// The P_Keys of the Default partition: 0x7fff with limited, 0xffff with
// full membership (IBTA; OpenSM's doc/partition-config.txt).
const (
	DefaultPKey     = 0x7fff
	DefaultPKeyFull = 0xffff
)

// ParsePKey parses a P_Key written as a hex string, "0x8001": "0x" and one
// to four hex digits, 0x0001–0xffff, whose low 15 bits are not all zero
// (0x0000 and 0x8000 are the invalid P_Key).
func ParsePKey(s string) (int, error) {
	digits, ok := strings.CutPrefix(s, "0x")
	if !ok {
		digits, ok = strings.CutPrefix(s, "0X")
	}
	if !ok || digits == "" || len(digits) > 4 || !isHex(digits) {
		return 0, fmt.Errorf("%s is not a P_Key: write \"0x\" and one to four hex digits, e.g. \"0x8001\"", quoteShort(s))
	}
	v, err := strconv.ParseUint(digits, 16, 16)
	if err != nil {
		return 0, fmt.Errorf("%s is not a P_Key: %w", quoteShort(s), err)
	}
	if v&0x7fff == 0 {
		return 0, fmt.Errorf("%s is the invalid P_Key (its low 15 bits are zero); use 0x0001–0x7ffe, with bit 15 (0x8000) set for full membership", quoteShort(s))
	}
	return int(v), nil
}

// ParseGUID parses an InfiniBand GUID written as a hex string,
// "0x0002c90300a00101": "0x" and one to sixteen hex digits, not zero.
func ParseGUID(s string) (uint64, error) {
	digits, ok := strings.CutPrefix(s, "0x")
	if !ok {
		digits, ok = strings.CutPrefix(s, "0X")
	}
	if !ok || digits == "" || len(digits) > 16 || !isHex(digits) {
		return 0, fmt.Errorf("%s is not a GUID: write \"0x\" and up to sixteen hex digits (64 bits), e.g. \"0x0002c90300a00101\"", quoteShort(s))
	}
	v, err := strconv.ParseUint(digits, 16, 64)
	if err != nil {
		return 0, fmt.Errorf("%s is not a GUID: %w", quoteShort(s), err)
	}
	if v == 0 {
		return 0, fmt.Errorf("%s is not a GUID: zero is no device's GUID", quoteShort(s))
	}
	return v, nil
}

// FormatGUID writes g as ParseGUID reads it, sixteen hex digits.
func FormatGUID(g uint64) string { return fmt.Sprintf("0x%016x", g) }

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		default:
			return false
		}
	}
	return true
}

// quoteShort quotes s for a message, cut to 40 bytes: a hostile value
// must not make the message huge.
func quoteShort(s string) string {
	if len(s) > 40 {
		return strconv.Quote(s[:40]) + "…"
	}
	return strconv.Quote(s)
}

// hexAttr reads a hex string attribute through parse.
func hexAttr[T any](d *decoder, attrs hcl.Attributes, name string, ctx *hcl.EvalContext, parse func(string) (T, error), example string) Value[T] {
	attr, ok := attrs[name]
	if !ok {
		return Value[T]{}
	}
	v, ok := d.eval(attr, ctx)
	if !ok {
		return Value[T]{}
	}
	if v.Type() != cty.String {
		d.errorf(attr.Expr.Range(), "Incorrect attribute type", "%q must be a hex string such as %s, not %s: quote it (a number loses the leading zeros and reads as decimal).", name, example, typeName(v.Type()))
		return Value[T]{}
	}
	t, err := parse(v.AsString())
	if err != nil {
		d.errorf(attr.Expr.Range(), "Invalid value for \""+name+"\"", "%v.", err)
		return Value[T]{}
	}
	return Value[T]{V: t, Set: true, Src: convRange(attr.Range)}
}

// linkLayerSchema reads link_layer alone, before the rest of the fabric
// block: every other block's check depends on it.
var linkLayerSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "link_layer"}}}

// decodeLinkLayer sets the fabric's link layer from the first fabric
// block (decodeFabric reports the others); unset, it is Ethernet with Src
// at the fabric block.
func (r *resolver) decodeLinkLayer(blocks hcl.Blocks, ctx *hcl.EvalContext) {
	r.f.LinkLayer = Value[LinkLayer]{V: LinkEthernet}
	if len(blocks) == 0 {
		return
	}
	b := blocks[0]
	r.f.LinkLayer.Src = convRange(b.DefRange)
	c, _, _ := b.Body.PartialContent(linkLayerSchema)
	ll := r.d.enum(c.Attributes, "link_layer", ctx, enumLinkLayer...)
	if ll.Set {
		r.f.LinkLayer = Value[LinkLayer]{V: LinkLayer(ll.V), Set: true, Src: ll.Src}
	}
}

// layerHint is an attribute (or block) that only one link layer has,
// with what to use instead on the other.
type layerHint struct {
	name    string
	instead string
}

// wrongLayer reports each attribute of attrs named in roce (on an
// InfiniBand fabric) or ib (on an Ethernet fabric) at its line, saying
// what to use instead; it returns whether it reported any.
func (r *resolver) wrongLayer(attrs hcl.Attributes, what string, roce, ib []layerHint) bool {
	bad := false
	for _, h := range r.foreign(roce, ib) {
		if a, ok := attrs[h.name]; ok {
			r.reportLayer(a.NameRange, fmt.Sprintf("%s %s", what, h.name), h.instead)
			bad = true
		}
	}
	return bad
}

// foreign is the hints of the link layer the fabric is not.
func (r *resolver) foreign(roce, ib []layerHint) []layerHint {
	if r.f.InfiniBand() {
		return roce
	}
	return ib
}

// reportLayer reports what (an attribute or block) at rng as belonging to
// the other link layer.
func (r *resolver) reportLayer(rng hcl.Range, what, instead string) {
	if r.f.InfiniBand() {
		r.d.errorf(rng, "Ethernet-only setting on an InfiniBand fabric", "%s is RoCE (Ethernet) QoS, and this fabric has link_layer = \"infiniband\": %s. Remove it.", what, instead)
		return
	}
	r.d.errorf(rng, "InfiniBand-only setting on an Ethernet fabric", "%s is InfiniBand QoS, and this fabric's link_layer is \"ethernet\"%s: %s. Remove it, or set link_layer = \"infiniband\" in the fabric block.", what, r.linkLayerWhere(), instead)
}

// linkLayerWhere says where the link layer was set, or that it is the default.
func (r *resolver) linkLayerWhere() string {
	if r.f.LinkLayer.Set {
		return fmt.Sprintf(" (set at %s)", r.f.LinkLayer.Src)
	}
	return " (the default)"
}

// checkIBMTU refuses an mtu that is not an IB MTU on an InfiniBand fabric.
func (r *resolver) checkIBMTU(v Value[int], attrs hcl.Attributes) Value[int] {
	if !v.Set || !r.f.InfiniBand() || contains(ibMTUNames(), strconv.Itoa(v.V)) {
		return v
	}
	r.d.errorf(attrs["mtu"].Expr.Range(), "Invalid InfiniBand MTU", "On an InfiniBand fabric mtu is the IB MTU in bytes, one of 256, 512, 1024, 2048 or 4096; got %d.", v.V)
	return Value[int]{}
}

func ibMTUNames() []string {
	out := make([]string, len(IBMTUs))
	for i, m := range IBMTUs {
		out[i] = strconv.Itoa(m)
	}
	return out
}

var partitionSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "pkey"}, {Name: "members"}, {Name: "membership"}, {Name: "full_members"},
	{Name: "ipoib"}, {Name: "mtu"}, {Name: "sl"}, {Name: "default"}, {Name: "description"},
}}

// decodePartitions decodes the partition blocks (after the devices, whose
// names members refer to) into Fabric.Partitions, sorted by name.
func (r *resolver) decodePartitions(blocks hcl.Blocks, ctx *hcl.EvalContext) {
	byPKey := map[int]*Partition{}
	var def *Partition
	for _, b := range blocks {
		if !r.unique("partition", b) {
			continue
		}
		if !r.f.InfiniBand() {
			r.reportLayer(b.DefRange, fmt.Sprintf("partition %q", b.Labels[0]), "Ethernet tenants are separated by VLANs and ACLs, which fabricgen leaves to the switch configuration")
			continue
		}
		c := r.content(b.Body, partitionSchema, ctx)
		d := r.d
		p := &Partition{Name: b.Labels[0], Range: convRange(b.DefRange)}
		d.text(c.Attributes, "description", ctx, TextRule{})
		p.Default = d.boolean(c.Attributes, "default", ctx)
		p.PKey = hexAttr(d, c.Attributes, "pkey", ctx, ParsePKey, `"0x8001"`)
		switch {
		case p.Default.V && !p.PKey.Set && c.Attributes["pkey"] == nil:
			p.PKey = Value[int]{V: DefaultPKey, Src: p.Default.Src}
		case p.Default.V && p.PKey.Set && p.LowPKey() != DefaultPKey:
			d.errorf(c.Attributes["pkey"].Expr.Range(), "Default partition with another P_Key", "Partition %q is the Default partition (default = true), whose P_Key is 0x7fff (0xffff with full membership); remove pkey or write \"0x7fff\".", p.Name)
		case !p.Default.V && p.PKey.Set && p.LowPKey() == DefaultPKey:
			d.errorf(c.Attributes["pkey"].Expr.Range(), "Default P_Key on another partition", "P_Key 0x%04x is the Default partition's; set default = true on partition %q, or give it another P_Key (0x0001–0x7ffe).", p.PKey.V, p.Name)
		case !p.PKey.Set && c.Attributes["pkey"] == nil:
			d.errorf(b.DefRange, "Missing pkey", "Partition %q has no P_Key: add pkey = \"0x8001\" (a hex string, 0x0001–0x7ffe; bit 15 set for full membership), or default = true for the Default partition.", p.Name)
		}
		if p.Default.V {
			if def != nil {
				d.errorf(c.Attributes["default"].Expr.Range(), "Two Default partitions", "Partition %q is already the Default partition (default = true, %s); a fabric has one.", def.Name, def.Default.Src)
			} else {
				def = p
			}
		}
		if p.PKey.Set || p.Default.V {
			if prev, dup := byPKey[p.PKey.V]; dup && p.PKey.V != 0 {
				at := c.Attributes["pkey"]
				if at == nil {
					at = c.Attributes["default"]
				}
				d.errorf(at.Expr.Range(), "Duplicate P_Key", "P_Key 0x%04x is already partition %q's (%s); every partition needs its own.", p.PKey.V, prev.Name, prev.Range)
			} else {
				byPKey[p.PKey.V] = p
			}
		}
		m := d.enum(c.Attributes, "membership", ctx, enumMembership...)
		p.Membership = Value[Membership]{V: Membership(m.V), Set: m.Set, Src: m.Src}
		if !m.Set {
			p.Membership = Value[Membership]{V: MemberFull, Src: p.Range}
		}
		p.Members, p.MembersRange = r.partitionMembers(p, c.Attributes["members"], ctx)
		p.FullMembers, p.FullMembersRange = r.partitionMembers(p, c.Attributes["full_members"], ctx)
		if len(p.Members) == 0 && len(p.FullMembers) == 0 && c.Attributes["members"] == nil && c.Attributes["full_members"] == nil {
			d.errorf(b.DefRange, "Partition without members", "Partition %q lists no members: add members = [\"gpu01\", …] (device names of NICs and subnet managers).", p.Name)
		}
		p.IPoIB = d.boolean(c.Attributes, "ipoib", ctx)
		p.MTU = r.checkIBMTU(d.integer(c.Attributes, "mtu", ctx, 0, 1<<20), c.Attributes)
		p.SL = d.integer(c.Attributes, "sl", ctx, 0, 15)
		r.f.Partitions = append(r.f.Partitions, p)
	}
	sort.Slice(r.f.Partitions, func(i, j int) bool { return r.f.Partitions[i].Name < r.f.Partitions[j].Name })
}

// partitionMembers resolves a members list of device names. An unknown
// name is reported with a suggestion (the first one only, with a count of
// the others: a list of 100,000 misspellings makes one error).
func (r *resolver) partitionMembers(p *Partition, attr *hcl.Attribute, ctx *hcl.EvalContext) ([]*Device, Range) {
	if attr == nil {
		return nil, Range{}
	}
	names := r.portNames(attr, ctx)
	rng := convRange(attr.Range)
	var out []*Device
	seen := make(map[*Device]bool, len(names))
	var unknown []string
	for _, n := range names {
		dev := r.devices[n]
		if dev == nil {
			unknown = append(unknown, n)
			continue
		}
		if seen[dev] {
			r.d.errorf(attr.Expr.Range(), "Duplicate member", "%q appears more than once in %s of partition %q.", n, attr.Name, p.Name)
			continue
		}
		seen[dev] = true
		if k := dev.Kind.V; dev.Kind.Set && k != KindNIC && k != KindSubnetManager {
			r.d.errorf(attr.Expr.Range(), "Switch as partition member", "%q is a %s; partition members are end points (kind = \"nic\" or \"subnet_manager\"). OpenSM gives switches' management ports their membership itself; remove it.", n, k)
			continue
		}
		out = append(out, dev)
	}
	if len(unknown) > 0 {
		others := ""
		if len(unknown) > 1 {
			others = fmt.Sprintf(" (and %d other unknown names)", len(unknown)-1)
		}
		r.d.errorf(attr.Expr.Range(), "Unknown partition member", "%s of partition %q names %s%s, but no such device is declared.%s", attr.Name, p.Name, quoteShort(unknown[0]), others, suggest(unknown[0], r.deviceNames()))
	}
	return out, rng
}

// deviceNames lists the declared devices' names, sorted.
func (r *resolver) deviceNames() []string {
	out := make([]string, 0, len(r.devices))
	for n := range r.devices {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

var smSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "routing_engine"}, {Name: "allow_fallback"}, {Name: "max_op_vls"}, {Name: "high_limit"}, {Name: "priority"},
}}

// decodeSM reads a subnet manager's sm block.
func (r *resolver) decodeSM(blk *hcl.Block, ctx *hcl.EvalContext) *SubnetManager {
	d := r.d
	c := r.content(blk.Body, smSchema, ctx)
	sm := &SubnetManager{Range: convRange(blk.DefRange)}
	if at, ok := c.Attributes["routing_engine"]; ok {
		names := r.portNames(at, ctx)
		seen := map[string]bool{}
		good := names != nil
		for _, n := range names {
			if !contains(RoutingEngines, n) {
				d.errorf(at.Expr.Range(), "Unknown routing engine", "%s is not an OpenSM routing engine; they are %s.%s", quoteShort(n), quoteList(RoutingEngines), suggest(n, RoutingEngines))
				good = false
				break
			}
			if seen[n] {
				d.errorf(at.Expr.Range(), "Duplicate routing engine", "%q appears more than once in routing_engine.", n)
				good = false
				break
			}
			seen[n] = true
		}
		if good && len(names) == 0 {
			d.errorf(at.Expr.Range(), "Empty routing_engine", "routing_engine lists no engine: name one or more, e.g. [\"ftree\"], or remove it for OpenSM's default (minhop).")
			good = false
		}
		if good {
			sm.RoutingEngine = Value[[]string]{V: names, Set: true, Src: convRange(at.Range)}
		}
	}
	sm.AllowFallback = d.boolean(c.Attributes, "allow_fallback", ctx)
	sm.MaxOpVLs = d.integer(c.Attributes, "max_op_vls", ctx, 1, 5)
	sm.HighLimit = d.integer(c.Attributes, "high_limit", ctx, 0, 255)
	// opensm(8), -p: "Range goes from 0 (default and lowest priority)
	// to 15 (highest)".
	sm.Priority = d.integer(c.Attributes, "priority", ctx, 0, 15)
	return sm
}

// checkGUIDs refuses a GUID used twice in the fabric, naming the other
// place (devices are sorted, so the first one keeps it).
func (r *resolver) checkGUIDs() {
	type place struct {
		what string
		src  Range
	}
	seen := map[uint64]place{}
	claim := func(g Value[uint64], what string) {
		if !g.Set {
			return
		}
		if prev, dup := seen[g.V]; dup {
			r.d.add(&Diagnostic{Severity: SevError, Summary: "Duplicate GUID", Subject: &g.Src,
				Detail: fmt.Sprintf("GUID %s of %s is already %s's (%s); every switch and HCA port has its own GUID.", FormatGUID(g.V), what, prev.what, prev.src)})
			return
		}
		seen[g.V] = place{what, g.Src}
	}
	for _, dev := range r.f.Devices {
		claim(dev.GUID, "device "+strconv.Quote(dev.Name))
		for _, p := range dev.Ports {
			claim(p.GUID, "port "+strconv.Quote(dev.Name+":"+p.Name))
		}
	}
}
