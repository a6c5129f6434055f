package schema

import (
	"fmt"
	"net/netip"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// resolver turns evaluated blocks into the resolved model.
type resolver struct {
	d        *decoder
	f        *Fabric
	declared map[string]map[string]hcl.Range

	ecn      map[string]*ECNProfile
	wd       map[string]*Watchdog
	classes  map[string]*TrafficClass
	acls     map[string]*ACL
	policies map[string]*QoSPolicy
	devices  map[string]*Device
	// links holds decoded link instances until ports are wired.
	links []*rawLink
	// subnetGateways holds gateway names until devices exist.
	subnetGateways map[*Subnet]gatewayRef
	// shared holds blocks decoded once for all instances (invariantBody):
	// *hclsyntax.Body → *RDMA or Credentials.
	shared sync.Map
	// contents caches the content of bodies without dynamic blocks: contentKey → *hcl.BodyContent.
	contents sync.Map
	// invariantBodies caches invariantBody: *hclsyntax.Body → bool.
	invariantBodies sync.Map
	// nameLists caches portNames of invariant expressions: hclsyntax.Expression → []string.
	nameLists sync.Map
	// kindNames are the allowed device kinds, listed once rather than
	// per device instance.
	kindNames []string
	// platforms is the catalog (Options.Platforms), indexed once per
	// load: the loader looks a platform up for every device and port.
	platforms catalog
}

type gatewayRef struct {
	name string
	rng  hcl.Range
}

func newResolver(d *decoder, f *Fabric, platforms []PlatformSpec) *resolver {
	return &resolver{
		d: d, f: f, declared: map[string]map[string]hcl.Range{},
		ecn: map[string]*ECNProfile{}, wd: map[string]*Watchdog{}, classes: map[string]*TrafficClass{},
		acls: map[string]*ACL{}, policies: map[string]*QoSPolicy{}, devices: map[string]*Device{},
		subnetGateways: map[*Subnet]gatewayRef{},
		kindNames:      kindNames(),
		platforms:      newCatalog(platforms),
	}
}

// loadAs reads a cache entry of type T; an entry of another type is a
// miss (the caches store one type each, so it never happens).
func loadAs[T any](m *sync.Map, k any) (T, bool) {
	v, hit := m.Load(k)
	if !hit {
		var zero T
		return zero, false
	}
	t, ok := v.(T)
	return t, ok
}

// content expands dynamic blocks and decodes body against s.
func (r *resolver) content(body hcl.Body, s *hcl.BodySchema, ctx *hcl.EvalContext) *hcl.BodyContent {
	if sb, ok := body.(*hclsyntax.Body); ok && !hasDynamic(sb) {
		// Without dynamic blocks the content is the same in every
		// for_each/count instance: decode the body against s once.
		k := contentKey{sb, s}
		if c, hit := loadAs[*hcl.BodyContent](&r.contents, k); hit {
			return c
		}
		c, ds := sb.Content(s)
		r.d.addHCL(ds)
		r.d.markRequired(c, s)
		r.contents.Store(k, c)
		return c
	}
	c, ds := dynblock.Expand(body, ctx).Content(s)
	r.d.addHCL(ds)
	r.d.markRequired(c, s)
	return c
}

// contentKey identifies one body decoded against one schema.
type contentKey struct {
	body   *hclsyntax.Body
	schema *hcl.BodySchema
}

func hasDynamic(sb *hclsyntax.Body) bool {
	for _, b := range sb.Blocks {
		if b.Type == "dynamic" {
			return true
		}
	}
	return false
}

// invariantBody returns body's identity when every attribute is
// instance-invariant and it has no nested blocks: such a block decodes to
// the same value in every for_each/count instance.
// The answer is cached per body: a block inside a count of 65,536 is asked
// 65,536 times.
func (r *resolver) invariantBody(body hcl.Body) (*hclsyntax.Body, bool) {
	sb, ok := body.(*hclsyntax.Body)
	if !ok || len(sb.Blocks) > 0 {
		return nil, false
	}
	if v, hit := loadAs[bool](&r.invariantBodies, sb); hit {
		return sb, v
	}
	inv := true
	for _, a := range sb.Attributes {
		if !instanceInvariant(a.Expr) {
			inv = false
			break
		}
	}
	r.invariantBodies.Store(sb, inv)
	return sb, inv
}

// unique reports whether b's label is its kind's first declaration (duplicates were reported by declareRefs).
func (r *resolver) unique(kind string, b *hcl.Block) bool {
	return r.declared[kind][b.Labels[0]] == b.DefRange
}

var ecnSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "min_threshold"}, {Name: "max_threshold"},
	{Name: "max_probability"}, {Name: "mode"}, {Name: "description"},
	{Name: "min_fill_level"}, {Name: "max_fill_level"},
}}

func (r *resolver) decodeECNProfiles(blocks hcl.Blocks, ctx *hcl.EvalContext) {
	for _, b := range blocks {
		if !r.unique("ecn_profile", b) {
			continue
		}
		if r.f.InfiniBand() {
			r.reportLayer(b.DefRange, fmt.Sprintf("ecn_profile %q", b.Labels[0]), "InfiniBand has no ECN marking curve to configure; its congestion is handled by credits and the VL arbitration (traffic_class weight)")
			continue
		}
		c := r.content(b.Body, ecnSchema, ctx)
		e := &ECNProfile{Name: b.Labels[0], Range: convRange(b.DefRange)}
		r.d.text(c.Attributes, "description", ctx, TextRule{})
		e.Min = unitValue(r.d, c.Attributes, "min_threshold", ctx, ParseSize)
		e.Max = unitValue(r.d, c.Attributes, "max_threshold", ctx, ParseSize)
		e.Probability = r.d.integer(c.Attributes, "max_probability", ctx, 0, 100)
		if !e.Probability.Set {
			e.Probability = Value[int]{V: 100, Src: e.Range}
		}
		e.MinFill = r.d.integer(c.Attributes, "min_fill_level", ctx, 0, 100)
		e.MaxFill = r.d.integer(c.Attributes, "max_fill_level", ctx, 0, 100)
		if e.MinFill.Set != e.MaxFill.Set {
			r.d.errorf(b.DefRange, "Incomplete fill levels", "ecn_profile %q sets only one of min_fill_level and max_fill_level; set both (percent of the queue buffer) or neither.", e.Name)
		}
		switch {
		case e.Min.Set != e.Max.Set:
			r.d.errorf(b.DefRange, "Incomplete thresholds", "ecn_profile %q sets only one of min_threshold and max_threshold; set both (bytes) or neither.", e.Name)
		case !e.Min.Set && !e.MinFill.Set && !e.MaxFill.Set:
			r.d.errorf(b.DefRange, "ECN profile without a curve", "ecn_profile %q gives no thresholds: set min_threshold and max_threshold (bytes, e.g. \"150KB\" and \"1500KB\"), and for Junos min_fill_level and max_fill_level (percent of the queue buffer).", e.Name)
		}
		mode := r.d.enum(c.Attributes, "mode", ctx, enumECNMode...)
		e.Mark = Value[bool]{V: mode.V != "drop", Set: mode.Set, Src: mode.Src}
		if !mode.Set {
			e.Mark.Src = e.Range
		}
		r.ecn[e.Name] = e
		r.f.ECNProfiles = append(r.f.ECNProfiles, e)
	}
}

var watchdogSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "detection", Required: true}, {Name: "restoration"},
	{Name: "poll_interval"}, {Name: "action"}, {Name: "description"},
}}

func (r *resolver) decodeWatchdogs(blocks hcl.Blocks, ctx *hcl.EvalContext) {
	for _, b := range blocks {
		if !r.unique("pfc_watchdog", b) {
			continue
		}
		if r.f.InfiniBand() {
			r.reportLayer(b.DefRange, fmt.Sprintf("pfc_watchdog %q", b.Labels[0]), "InfiniBand has no PFC to watch; its flow control is credit-based")
			continue
		}
		c := r.content(b.Body, watchdogSchema, ctx)
		w := &Watchdog{Name: b.Labels[0], Range: convRange(b.DefRange)}
		r.d.text(c.Attributes, "description", ctx, TextRule{})
		w.Detection = unitValue(r.d, c.Attributes, "detection", ctx, ParseDuration)
		w.Restoration = unitValue(r.d, c.Attributes, "restoration", ctx, ParseDuration)
		w.PollInterval = unitValue(r.d, c.Attributes, "poll_interval", ctx, ParseDuration)
		if !w.Restoration.Set {
			// The fabric-wide default: SONiC stores an unset restoration
			// time as "" and never restores a stormed queue, so every
			// platform gets an explicit one.
			w.Restoration = Value[time.Duration]{V: max(DefaultRestoration, w.PollInterval.V), Src: w.Range}
		}
		a := r.d.enum(c.Attributes, "action", ctx, enumWatchdogAction...)
		w.Action = Value[WatchdogAction]{V: WatchdogAction(a.V), Set: a.Set, Src: a.Src}
		if !a.Set {
			w.Action = Value[WatchdogAction]{V: WatchdogDrop, Src: w.Range}
		}
		r.wd[w.Name] = w
		r.f.Watchdogs = append(r.f.Watchdogs, w)
	}
}

var classSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "role"}, {Name: "dscp"}, {Name: "priority", Required: true}, {Name: "queue"},
	{Name: "lossless"}, {Name: "ecn"}, {Name: "scheduler"}, {Name: "weight"}, {Name: "description"},
	{Name: "sl"}, {Name: "vl"},
}}

// classSchemaIB is classSchema on an InfiniBand fabric, where sl, not
// priority, identifies a class (decodeClasses requires sl itself, and
// refuses priority with what to use instead).
var classSchemaIB = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "role"}, {Name: "dscp"}, {Name: "priority"}, {Name: "queue"},
	{Name: "lossless"}, {Name: "ecn"}, {Name: "scheduler"}, {Name: "weight"}, {Name: "description"},
	{Name: "sl"}, {Name: "vl"},
}}

// classLayerRoCE and classLayerIB are the traffic_class attributes of one
// link layer only, with what to use on the other.
var (
	classLayerRoCE = []layerHint{
		{"dscp", "the SL (sl) identifies a class on InfiniBand; the application or the SM's QoS policy chooses it"},
		{"priority", "use sl = N (0–15) to identify the class"},
		{"queue", "use vl = N (0–14) to choose the virtual lane; unset it is sl"},
		{"lossless", "every InfiniBand data VL is lossless by construction (credit-based flow control)"},
		{"ecn", "there is no ECN marking curve on InfiniBand; weight sets the class's share"},
	}
	classLayerIB = []layerHint{
		{"sl", "on Ethernet a class is identified by priority (0–7) and dscp"},
		{"vl", "on Ethernet use queue (0–7)"},
	}
)

var classRoles = []string{"roce", "cnp", "control", "default", "bulk"}

func (r *resolver) decodeClasses(blocks hcl.Blocks, ctx *hcl.EvalContext) {
	for _, b := range blocks {
		if !r.unique("traffic_class", b) {
			continue
		}
		ib := r.f.InfiniBand()
		s := classSchema
		if ib {
			s = classSchemaIB
		}
		c := r.content(b.Body, s, ctx)
		tc := &TrafficClass{Name: b.Labels[0], Range: convRange(b.DefRange)}
		r.d.text(c.Attributes, "description", ctx, TextRule{})
		if r.wrongLayer(c.Attributes, fmt.Sprintf("traffic_class %q:", tc.Name), classLayerRoCE, classLayerIB) && ib {
			// Reported; decode the rest without the RoCE attributes.
			c = withoutAttrs(c, classLayerRoCE)
		}
		if ib {
			r.decodeClassIB(tc, b, c, ctx)
		}
		role := r.d.enum(c.Attributes, "role", ctx, classRoles...)
		if ib && (role.V == string(RoleRoCE) || role.V == string(RoleCNP)) {
			r.d.errorf(c.Attributes["role"].Expr.Range(), "Ethernet-only class role on an InfiniBand fabric", "role = %q is a RoCE role, and this fabric has link_layer = \"infiniband\": use role = \"default\" for unmatched traffic, \"control\", or leave role out (bulk).", role.V)
			role = Value[string]{}
		}
		tc.Role, tc.RoleRange = ClassRole(role.V), role.Src
		if !role.Set {
			tc.Role, tc.RoleRange = RoleBulk, tc.Range
		}
		dscp := r.d.intList(c.Attributes, "dscp", ctx, 0, 63)
		tc.DSCP, tc.DSCPRange = dscp.V, dscp.Src
		tc.Priority = r.d.integer(c.Attributes, "priority", ctx, 0, 7)
		tc.Queue = r.d.integer(c.Attributes, "queue", ctx, 0, 7)
		if !tc.Queue.Set && tc.Priority.Set {
			tc.Queue = tc.Priority
		}
		tc.Lossless = r.d.boolean(c.Attributes, "lossless", ctx)
		if n, rng, ok := r.refAttr(c.Attributes, "ecn", ctx, "ecn_profile", false); ok {
			tc.ECN, tc.ECNRange = r.ecn[n], convRange(rng)
		}
		sch := r.d.enum(c.Attributes, "scheduler", ctx, enumScheduler...)
		tc.Sched = Value[SchedMode]{V: SchedMode(sch.V), Set: sch.Set, Src: sch.Src}
		tc.Weight = r.d.integer(c.Attributes, "weight", ctx, 0, 100)
		if tc.Weight.Set && tc.Sched.Set && tc.Sched.V == SchedStrict {
			r.d.errorf(c.Attributes["weight"].Expr.Range(), "Weight on a strict class", "Class %q is scheduled strict; a DWRR weight has no meaning. Remove weight or use scheduler = \"dwrr\".", tc.Name)
		}
		if tc.Weight.Set && !tc.Sched.Set {
			tc.Sched = Value[SchedMode]{V: SchedDWRR, Set: true, Src: tc.Weight.Src}
		}
		r.classes[tc.Name] = tc
		r.f.Classes = append(r.f.Classes, tc)
	}
}

// decodeClassIB reads a class's sl and vl on an InfiniBand fabric: sl is
// required, vl defaults to it.
func (r *resolver) decodeClassIB(tc *TrafficClass, b *hcl.Block, c *hcl.BodyContent, ctx *hcl.EvalContext) {
	tc.SL = r.d.integer(c.Attributes, "sl", ctx, 0, 15)
	if _, written := c.Attributes["sl"]; !written {
		r.d.errorf(b.DefRange, "Missing sl", "On an InfiniBand fabric a traffic_class is identified by its service level: add sl = N (0–15) to traffic_class %q.", tc.Name)
	}
	tc.VL = r.d.integer(c.Attributes, "vl", ctx, 0, 14)
	if !tc.VL.Set {
		tc.VL = Value[int]{V: tc.SL.V, Src: tc.SL.Src}
	}
}

// withoutAttrs is c without the attributes named in hints (reported
// already), so that they are not decoded as well.
func withoutAttrs(c *hcl.BodyContent, hints []layerHint) *hcl.BodyContent {
	out := *c
	out.Attributes = make(hcl.Attributes, len(c.Attributes))
	for n, a := range c.Attributes {
		out.Attributes[n] = a
	}
	for _, h := range hints {
		delete(out.Attributes, h.name)
	}
	return &out
}

var aclSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "description"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "rule"}},
}

var ruleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "seq"}, {Name: "action", Required: true}, {Name: "protocol"}, {Name: "src_prefix"},
	{Name: "dst_prefix"}, {Name: "src_port"}, {Name: "dst_port"}, {Name: "dscp"}, {Name: "set_dscp"},
	{Name: "police"}, {Name: "family"}, {Name: "description"},
}}

func (r *resolver) decodeACLs(blocks hcl.Blocks, ctx *hcl.EvalContext) {
	for _, b := range blocks {
		if !r.unique("acl", b) {
			continue
		}
		c := r.content(b.Body, aclSchema, ctx)
		acl := &ACL{Name: b.Labels[0], Range: convRange(b.DefRange)}
		r.d.text(c.Attributes, "description", ctx, TextRule{})
		seqs := map[int]hcl.Range{}
		for i, rb := range c.Blocks {
			rc := r.content(rb.Body, ruleSchema, ctx)
			rule := r.decodeRule(rc, rb, ctx, i)
			if prev, dup := seqs[rule.Seq]; dup {
				r.d.errorf(rb.DefRange, "Duplicate sequence number", "Rule sequence %d of acl %q is already used at %s.", rule.Seq, acl.Name, convRange(prev))
			}
			seqs[rule.Seq] = rb.DefRange
			acl.Rules = append(acl.Rules, rule)
		}
		if len(acl.Rules) == 0 {
			r.d.errorf(b.DefRange, "Empty acl", "acl %q has no rule blocks; add at least one rule { action = \"permit\" ... }.", acl.Name)
		}
		sort.SliceStable(acl.Rules, func(i, j int) bool { return acl.Rules[i].Seq < acl.Rules[j].Seq })
		r.acls[acl.Name] = acl
		r.f.ACLs = append(r.f.ACLs, acl)
	}
}

func (r *resolver) decodeRule(c *hcl.BodyContent, b *hcl.Block, ctx *hcl.EvalContext, i int) *ACLRule {
	d := r.d
	rule := &ACLRule{Range: convRange(b.DefRange), Seq: (i + 1) * 10}
	d.text(c.Attributes, "description", ctx, TextRule{})
	if s := d.integer(c.Attributes, "seq", ctx, 1, 1<<30); s.Set {
		rule.Seq = s.V
	}
	a := d.enum(c.Attributes, "action", ctx, enumACLAction...)
	rule.Action = Value[ACLAction]{V: ACLAction(a.V), Set: a.Set, Src: a.Src}
	rule.Protocol = d.enum(c.Attributes, "protocol", ctx, enumProtocol...)
	rule.SrcPrefix = d.prefix(c.Attributes, "src_prefix", ctx, false)
	rule.DstPrefix = d.prefix(c.Attributes, "dst_prefix", ctx, false)
	rule.SrcPorts = d.portRanges(c.Attributes, "src_port", ctx)
	rule.DstPorts = d.portRanges(c.Attributes, "dst_port", ctx)
	if (rule.SrcPorts.Set || rule.DstPorts.Set) && rule.Protocol.V != "udp" && rule.Protocol.V != "tcp" {
		d.errorf(b.DefRange, "Port match without protocol", "A rule that matches L4 ports must say protocol = \"udp\" or \"tcp\".")
	}
	rule.DSCP = d.intList(c.Attributes, "dscp", ctx, 0, 63)
	if a, ok := c.Attributes["set_dscp"]; ok && r.f.InfiniBand() {
		r.reportLayer(a.NameRange, "set_dscp", "re-marking has nothing to mark on InfiniBand; a class's SL is chosen by the application or the SM's QoS policy")
	}
	rule.SetDSCP = d.integer(c.Attributes, "set_dscp", ctx, 0, 63)
	if !rule.SetDSCP.Set {
		rule.SetDSCP.V = -1
	}
	if rule.SetDSCP.Set && rule.Action.V == ActionDeny {
		d.errorf(c.Attributes["set_dscp"].Expr.Range(), "set_dscp on a deny rule", "A denied packet is dropped; set_dscp only applies to permit rules.")
	}
	rule.Police = unitValue(d, c.Attributes, "police", ctx, ParseSpeed)
	fam := d.enum(c.Attributes, "family", ctx, enumFamily...)
	rule.Family = "any"
	for _, p := range []Value[netip.Prefix]{rule.SrcPrefix, rule.DstPrefix} {
		if !p.Set {
			continue
		}
		f := "ipv4"
		if p.V.Addr().Is6() {
			f = "ipv6"
		}
		if rule.Family != "any" && rule.Family != f {
			d.errorf(b.DefRange, "Mixed address families", "src_prefix and dst_prefix must both be IPv4 or both IPv6.")
		}
		rule.Family = f
	}
	if fam.Set {
		if rule.Family != "any" && rule.Family != fam.V {
			d.errorf(c.Attributes["family"].Expr.Range(), "Family does not match prefixes", "family = %q but the rule's prefixes are %s.", fam.V, rule.Family)
		}
		rule.Family = fam.V
	}
	return rule
}

var fabricSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "description"}, {Name: "qos_policy"}, {Name: "pfc_only"}, {Name: "lossy_roce"}, {Name: "link_layer"},
}}

var fabricLayerRoCE = []layerHint{
	{"pfc_only", "InfiniBand has no PFC: every data VL is lossless by credit-based flow control"},
	{"lossy_roce", "InfiniBand has no PFC to do without"},
}

func (r *resolver) decodeFabric(blocks hcl.Blocks, ctx *hcl.EvalContext, files []*hcl.File) {
	if len(blocks) == 0 {
		var subj *Range
		if len(files) > 0 {
			rng := convRange(hcl.Range{Filename: fileName(files[0]), Start: hcl.InitialPos, End: hcl.InitialPos})
			subj = &rng
		}
		r.d.add(&Diagnostic{Severity: SevError, Summary: "Missing fabric block", Subject: subj,
			Detail: "Every fabric directory needs exactly one block such as:\n  fabric \"dc1\" {\n    qos_policy = qos_policy.lossless\n  }"})
		return
	}
	for _, b := range blocks[1:] {
		r.d.errorf(b.DefRange, "Duplicate fabric block", "A fabric block was already declared at %s; a directory describes exactly one fabric.", convRange(blocks[0].DefRange))
	}
	b := blocks[0]
	c := r.content(b.Body, fabricSchema, ctx)
	r.f.Name, r.f.Range = b.Labels[0], convRange(b.DefRange)
	if !r.checkLabel(b, "fabric") {
		r.f.Name = ""
	}
	r.f.Description = r.d.text(c.Attributes, "description", ctx, TextRule{}).V
	if r.wrongLayer(c.Attributes, "fabric", fabricLayerRoCE, nil) {
		c = withoutAttrs(c, fabricLayerRoCE)
	}
	r.f.PFCOnly = r.d.boolean(c.Attributes, "pfc_only", ctx)
	r.f.LossyRoCE = r.d.boolean(c.Attributes, "lossy_roce", ctx)
	if n, _, ok := r.refAttr(c.Attributes, "qos_policy", ctx, "qos_policy", false); ok {
		r.f.FabricPolicy = r.policies[n]
	}
}

func fileName(f *hcl.File) string {
	rng := f.Body.MissingItemRange()
	return rng.Filename
}

var roleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "qos_policy", Required: true}}}

func (r *resolver) decodeRoles(blocks hcl.Blocks, ctx *hcl.EvalContext) {
	r.f.RolePolicies = map[Kind]*QoSPolicy{}
	kinds := kindNames()
	for _, b := range blocks {
		if !r.unique("role", b) {
			continue
		}
		k := b.Labels[0]
		if !contains(kinds, k) {
			r.d.errorf(b.LabelRanges[0], "Unknown role", "%q is not a device kind; roles are %s.%s", k, quoteList(kinds), suggest(k, kinds))
			continue
		}
		c := r.content(b.Body, roleSchema, ctx)
		if n, _, ok := r.refAttr(c.Attributes, "qos_policy", ctx, "qos_policy", false); ok {
			r.f.RolePolicies[Kind(k)] = r.policies[n]
		}
	}
}

func kindNames() []string {
	var out []string
	for _, k := range Kinds() {
		out = append(out, string(k))
	}
	return out
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

var subnetSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "prefix", Required: true}, {Name: "gateway"}, {Name: "require_roce_acl"}, {Name: "description"},
}}

func (r *resolver) decodeSubnets(blocks hcl.Blocks, ctx *hcl.EvalContext) {
	for _, b := range blocks {
		if !r.unique("subnet", b) {
			continue
		}
		c := r.content(b.Body, subnetSchema, ctx)
		s := &Subnet{Name: b.Labels[0], Range: convRange(b.DefRange)}
		r.d.text(c.Attributes, "description", ctx, TextRule{})
		s.Prefix = r.d.prefix(c.Attributes, "prefix", ctx, false)
		s.RequireRoCEACL = r.d.boolean(c.Attributes, "require_roce_acl", ctx)
		if g := r.d.str(c.Attributes, "gateway", ctx); g.Set {
			r.subnetGateways[s] = gatewayRef{g.V, c.Attributes["gateway"].Expr.Range()}
		}
		r.f.Subnets = append(r.f.Subnets, s)
	}
}

// itoa is strconv.Itoa, short for map keys.
func itoa(i int) string { return strconv.Itoa(i) }
