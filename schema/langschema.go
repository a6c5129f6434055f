package schema

import (
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// The value tables of the enum attributes: the decoders check against
// them, and EnumValues hands them to editors, so that the two never differ.
var (
	enumECNMode        = []string{"ecn", "drop"}
	enumWatchdogAction = []string{string(WatchdogDrop), "forward", "alert"}
	enumScheduler      = []string{string(SchedStrict), string(SchedDWRR)}
	enumACLAction      = []string{string(ActionPermit), string(ActionDeny)}
	enumProtocol       = []string{"ip", "udp", "tcp", "icmp"}
	enumFamily         = []string{"ipv4", "ipv6"}
	enumMedia          = []string{"dac", "aoc", "fiber", "backplane"}
	enumRoCEMode       = []string{"v2", "v1"}
	enumTransport      = []string{string(TransportRoCEv2), string(TransportRoCEv1), string(TransportIWARP)}
	enumFEC            = []string{"none", "rs", "fc"}
	enumLinkLayer      = []string{string(LinkEthernet), string(LinkInfiniBand)}
	enumMembership     = []string{string(MemberFull), string(MemberLimited)}
	enumTrust          = []string{"dscp", "pcp", "both", "none"}
)

// AttrSpec is one attribute a block accepts.
type AttrSpec struct {
	// Name is the attribute's name.
	Name string
	// Required is true when the decoder reports a block without it (on an
	// Ethernet fabric, for the attributes whose requirement depends on
	// the link layer).
	Required bool
}

// BlockSpec is one block type of the intent language, at one place in the
// block tree: the plain-Go form of the decoders' HCL schemas.
type BlockSpec struct {
	// Path is the block types from the root to this one, e.g.
	// ["device", "port"]; a dynamic block is ["device", "dynamic"].
	Path []string
	// Labels are the names of the block's labels ("name", "kind",
	// "number"; "type" for a dynamic block's block type).
	Labels []string
	// Attrs are the attributes the block accepts, in the decoder's order.
	Attrs []AttrSpec
	// AnyAttrs is true for a block that takes attributes of any name
	// (locals).
	AnyAttrs bool
	// Blocks are the nested block types the block accepts, "dynamic"
	// included where the block has nested blocks. A dynamic block's
	// "content" body takes what its labelled block type takes.
	Blocks []string
}

// Type is the block's own type, the last element of Path.
func (b BlockSpec) Type() string {
	if len(b.Path) == 0 {
		return ""
	}
	return b.Path[len(b.Path)-1]
}

// langNode is one block type of the language tree.
type langNode struct {
	typ     string
	labels  []string
	schemas []*hcl.BodySchema
	any     bool
	kids    []langNode
}

// dynamicNode is the dynamic block that generates the nested blocks of a
// block, as hashicorp/hcl's dynblock reads it.
var dynamicNode = langNode{typ: "dynamic", labels: []string{"type"},
	schemas: []*hcl.BodySchema{{
		Attributes: []hcl.AttributeSchema{{Name: "for_each", Required: true}, {Name: "iterator"}, {Name: "labels"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "content"}},
	}}}

// languageTree is the intent language's block tree, from the schemas the
// decoders use (plus metaSchema where a block expands with for_each/count,
// and the dynamic block where it has nested blocks).
func languageTree() []langNode {
	return []langNode{
		{typ: "fabric", schemas: []*hcl.BodySchema{fabricSchema}},
		{typ: "variable", schemas: []*hcl.BodySchema{variableSchema}},
		{typ: "locals", any: true},
		{typ: "role", schemas: []*hcl.BodySchema{roleSchema}},
		{typ: "traffic_class", schemas: []*hcl.BodySchema{classSchema, classSchemaIB}},
		{typ: "ecn_profile", schemas: []*hcl.BodySchema{ecnSchema}},
		{typ: "pfc_watchdog", schemas: []*hcl.BodySchema{watchdogSchema}},
		{typ: "qos_policy", schemas: []*hcl.BodySchema{policySchema}, kids: []langNode{
			{typ: "queue", schemas: []*hcl.BodySchema{queueSchema}},
			{typ: "buffer", schemas: []*hcl.BodySchema{bufferSchema}},
			dynamicNode,
		}},
		{typ: "acl", schemas: []*hcl.BodySchema{aclSchema}, kids: []langNode{
			{typ: "rule", schemas: []*hcl.BodySchema{ruleSchema}},
			dynamicNode,
		}},
		{typ: "subnet", schemas: []*hcl.BodySchema{subnetSchema}},
		{typ: "device", schemas: []*hcl.BodySchema{metaSchema, deviceSchema}, kids: []langNode{
			{typ: "credentials", schemas: []*hcl.BodySchema{credentialsSchema}},
			{typ: "rdma", schemas: []*hcl.BodySchema{rdmaSchema}},
			{typ: "port", schemas: []*hcl.BodySchema{portSchema}},
			{typ: "ports", schemas: []*hcl.BodySchema{portsSchema}},
			{typ: "sm", schemas: []*hcl.BodySchema{smSchema}},
			dynamicNode,
		}},
		{typ: "link", schemas: []*hcl.BodySchema{metaSchema, linkSchema}},
		{typ: "mesh", schemas: []*hcl.BodySchema{meshSchema}},
		{typ: "partition", schemas: []*hcl.BodySchema{partitionSchema}},
	}
}

// Language lists every block type of the intent language, depth first in
// the order the root schema declares them, after the file's top level
// (the first element, with an empty Path and the root block types): its labels, the attributes it
// accepts and its nested block types. It is built from the schemas the
// decoders use, so that it cannot drift from what Load accepts. The slice
// is new on every call.
func Language() []BlockSpec {
	out := []BlockSpec{{Path: []string{}}}
	for _, b := range rootSchema.Blocks {
		out[0].Blocks = append(out[0].Blocks, b.Type)
	}
	var walk func(parent []string, n langNode, hdr []hcl.BlockHeaderSchema)
	walk = func(parent []string, n langNode, hdr []hcl.BlockHeaderSchema) {
		spec := BlockSpec{Path: append(slices.Clone(parent), n.typ), AnyAttrs: n.any, Labels: n.labels}
		for _, h := range hdr {
			if h.Type == n.typ && spec.Labels == nil {
				spec.Labels = slices.Clone(h.LabelNames)
			}
		}
		seen := map[string]int{}
		var nested []hcl.BlockHeaderSchema
		for _, s := range n.schemas {
			for _, a := range s.Attributes {
				if i, ok := seen[a.Name]; ok {
					// classSchema and classSchemaIB: required on either link layer.
					spec.Attrs[i].Required = spec.Attrs[i].Required || a.Required
					continue
				}
				seen[a.Name] = len(spec.Attrs)
				spec.Attrs = append(spec.Attrs, AttrSpec{Name: a.Name, Required: a.Required})
			}
			for _, b := range s.Blocks {
				nested = append(nested, b)
				if !slices.Contains(spec.Blocks, b.Type) {
					spec.Blocks = append(spec.Blocks, b.Type)
				}
			}
		}
		for _, k := range n.kids {
			if !slices.Contains(spec.Blocks, k.typ) {
				spec.Blocks = append(spec.Blocks, k.typ)
			}
		}
		out = append(out, spec)
		for _, k := range n.kids {
			if k.typ == "dynamic" {
				continue
			}
			walk(spec.Path, k, nested)
		}
		for _, k := range n.kids {
			if k.typ == "dynamic" {
				walk(spec.Path, k, nil)
			}
		}
	}
	for _, n := range languageTree() {
		walk(nil, n, rootSchema.Blocks)
	}
	return out
}

// enumTables maps "block/path/attr" to the values the decoder accepts.
func enumTables() map[string][]string {
	return map[string][]string{
		"fabric/link_layer":          enumLinkLayer,
		"traffic_class/role":         classRoles,
		"traffic_class/scheduler":    enumScheduler,
		"ecn_profile/mode":           enumECNMode,
		"pfc_watchdog/action":        enumWatchdogAction,
		"qos_policy/trust":           enumTrust,
		"qos_policy/queue/scheduler": enumScheduler,
		"acl/rule/action":            enumACLAction,
		"acl/rule/protocol":          enumProtocol,
		"acl/rule/family":            enumFamily,
		"device/kind":                kindNames(),
		"device/rdma/transport":      enumTransport,
		"device/rdma/roce_mode":      enumRoCEMode,
		"device/port/fec":            enumFEC,
		"device/port/media":          enumMedia,
		"device/ports/fec":           enumFEC,
		"device/sm/routing_engine":   RoutingEngines,
		"link/media":                 enumMedia,
		"mesh/media":                 enumMedia,
		"partition/membership":       enumMembership,
	}
}

// EnumValues returns the values an enum attribute accepts, from the same
// tables the decoders check against, or nil when attr of the block at
// path block (e.g. ["qos_policy"], "trust") is no enum the language
// knows without a platform catalog: platform, asic, driver and
// buffer_model depend on the catalog (PlatformSpec). role "KIND" labels
// are device kinds (EnumValues([]string{"device"}, "kind")). A
// routing_engine value is a list of these. The slice is a copy.
func EnumValues(block []string, attr string) []string {
	v := enumTables()[strings.Join(append(slices.Clone(block), attr), "/")]
	return slices.Clone(v)
}
