package schema

import (
	"fmt"
	"strconv"

	"github.com/hashicorp/hcl/v2"
)

var policySchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "trust"}, {Name: "classes"}, {Name: "dscp_map"}, {Name: "default_priority"},
		{Name: "queue_map"}, {Name: "pcp_map"}, {Name: "pfc_priorities"}, {Name: "pfc_watchdog"},
		{Name: "mtu"}, {Name: "link_pause"}, {Name: "description"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "queue", LabelNames: []string{"number"}}, {Type: "buffer"}},
}

var queueSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "ecn"}, {Name: "scheduler"}, {Name: "weight"}, {Name: "shaper"},
}}

var bufferSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "headroom"}, {Name: "xoff"}, {Name: "xon"}, {Name: "ingress_lossless_pool"},
	{Name: "egress_lossy_pool"}, {Name: "dynamic_threshold"},
}}

// MTU bounds accepted anywhere an MTU is written.
const (
	MinMTU = 68
	MaxMTU = 9216
)

func (r *resolver) decodePolicies(blocks hcl.Blocks, ctx *hcl.EvalContext) {
	for _, b := range blocks {
		if !r.unique("qos_policy", b) {
			continue
		}
		c := r.content(b.Body, policySchema, ctx)
		d := r.d
		p := &QoSPolicy{Name: b.Labels[0], Range: convRange(b.DefRange), Queues: map[int]*QueueSpec{}}
		d.text(c.Attributes, "description", ctx, TextRule{})
		if r.f.InfiniBand() {
			c = r.policyOnIB(p, c)
		}
		t := d.enum(c.Attributes, "trust", ctx, enumTrust...)
		p.Trust = Value[Trust]{V: Trust(t.V), Set: t.Set, Src: t.Src}
		if names, rng, ok := r.refList(c.Attributes, "classes", ctx, "traffic_class"); ok || names != nil {
			p.ClassesRange = convRange(rng)
			owner := map[int]string{}
			for _, n := range names {
				tc := r.classes[n]
				if tc == nil {
					continue
				}
				for _, ds := range tc.DSCP {
					if prev, dup := owner[ds]; dup && prev != n {
						d.errorf(c.Attributes["classes"].Expr.Range(), "DSCP in two classes", "DSCP %d belongs to both traffic_class %q and %q in qos_policy %q; a code point can select one class only.", ds, prev, n, p.Name)
					}
					owner[ds] = n
				}
				p.Classes = append(p.Classes, tc)
			}
		}
		p.DSCPMap = d.intMap(c.Attributes, "dscp_map", ctx, 0, 63, 0, 7)
		p.DefaultPriority = d.integer(c.Attributes, "default_priority", ctx, 0, 7)
		p.QueueMap = d.intMap(c.Attributes, "queue_map", ctx, 0, 7, 0, 7)
		p.PCPMap = d.intMap(c.Attributes, "pcp_map", ctx, 0, 7, 0, 7)
		if l := d.intList(c.Attributes, "pfc_priorities", ctx, 0, 7); l.Set {
			p.PFC = Value[PrioSet]{V: PrioSetOf(l.V...), Set: true, Src: l.Src}
		}
		if n, rng, ok := r.refAttr(c.Attributes, "pfc_watchdog", ctx, "pfc_watchdog", true); ok {
			if n == "off" {
				p.WatchdogOff = Value[bool]{V: true, Set: true, Src: convRange(rng)}
				p.Watchdog = Value[*Watchdog]{Set: true, Src: convRange(rng)}
			} else {
				p.Watchdog = Value[*Watchdog]{V: r.wd[n], Set: true, Src: convRange(rng)}
			}
		}
		p.MTU = r.checkIBMTU(d.integer(c.Attributes, "mtu", ctx, MinMTU, MaxMTU), c.Attributes)
		p.LinkPause = d.boolean(c.Attributes, "link_pause", ctx)
		var bufSeen *hcl.Block
		for _, blk := range c.Blocks {
			switch blk.Type {
			case "queue":
				r.decodeQueue(p, blk, ctx)
			case "buffer":
				if bufSeen != nil {
					d.errorf(blk.DefRange, "Duplicate buffer block", "qos_policy %q already has a buffer block at %s.", p.Name, convRange(bufSeen.DefRange))
					continue
				}
				bufSeen = blk
				bc := r.content(blk.Body, bufferSchema, ctx)
				p.Buffer = BufferSpec{
					Headroom:            unitValue(d, bc.Attributes, "headroom", ctx, ParseSize),
					XOFF:                unitValue(d, bc.Attributes, "xoff", ctx, ParseSize),
					XON:                 unitValue(d, bc.Attributes, "xon", ctx, ParseSize),
					IngressLosslessPool: unitValue(d, bc.Attributes, "ingress_lossless_pool", ctx, ParseSize),
					EgressLossyPool:     unitValue(d, bc.Attributes, "egress_lossy_pool", ctx, ParseSize),
					DynamicThreshold:    d.integer(bc.Attributes, "dynamic_threshold", ctx, -7, 7),
				}
			}
		}
		r.policies[p.Name] = p
		r.f.Policies = append(r.f.Policies, p)
	}
}

func (r *resolver) decodeQueue(p *QoSPolicy, blk *hcl.Block, ctx *hcl.EvalContext) {
	d := r.d
	q, err := strconv.Atoi(blk.Labels[0])
	if err != nil || q < 0 || q > 7 {
		d.errorf(blk.LabelRanges[0], "Invalid queue number", "queue %q: queues are numbered 0 to 7.", blk.Labels[0])
		return
	}
	if prev, dup := p.Queues[q]; dup {
		d.errorf(blk.DefRange, "Duplicate queue block", "qos_policy %q already configures queue %d at %s.", p.Name, q, prev.Range)
		return
	}
	c := r.content(blk.Body, queueSchema, ctx)
	qs := &QueueSpec{Queue: q, Range: convRange(blk.DefRange)}
	if n, rng, ok := r.refAttr(c.Attributes, "ecn", ctx, "ecn_profile", true); ok {
		if n == "off" {
			qs.ECNOff = Value[bool]{V: true, Set: true, Src: convRange(rng)}
			qs.ECN = Value[*ECNProfile]{Set: true, Src: convRange(rng)}
		} else {
			qs.ECN = Value[*ECNProfile]{V: r.ecn[n], Set: true, Src: convRange(rng)}
		}
	}
	s := d.enum(c.Attributes, "scheduler", ctx, enumScheduler...)
	qs.Sched = Value[SchedMode]{V: SchedMode(s.V), Set: s.Set, Src: s.Src}
	qs.Weight = d.integer(c.Attributes, "weight", ctx, 0, 100)
	qs.Shaper = unitValue(d, c.Attributes, "shaper", ctx, ParseSpeed)
	p.Queues[q] = qs
}

// policyLayerRoCE are the qos_policy attributes an InfiniBand fabric has
// no use for: there a policy lists classes and an mtu only.
var policyLayerRoCE = []layerHint{
	{"trust", "an InfiniBand switch does not classify packets: the SL in each packet selects the VL (traffic_class sl and vl)"},
	{"dscp_map", "the SL identifies a class on InfiniBand (traffic_class sl)"},
	{"default_priority", "mark the class for unmatched traffic with role = \"default\""},
	{"queue_map", "a class's virtual lane is traffic_class vl"},
	{"pcp_map", "the SL identifies a class on InfiniBand (traffic_class sl)"},
	{"pfc_priorities", "every InfiniBand data VL is lossless by credit-based flow control"},
	{"pfc_watchdog", "InfiniBand has no PFC to watch"},
	{"link_pause", "InfiniBand has no pause frames: its flow control is credit-based"},
}

// policyOnIB reports the RoCE-only attributes and blocks of a policy on
// an InfiniBand fabric and returns c without them.
func (r *resolver) policyOnIB(p *QoSPolicy, c *hcl.BodyContent) *hcl.BodyContent {
	r.wrongLayer(c.Attributes, fmt.Sprintf("qos_policy %q:", p.Name), policyLayerRoCE, nil)
	c = withoutAttrs(c, policyLayerRoCE)
	blocks := c.Blocks[:0:0]
	for _, blk := range c.Blocks {
		switch blk.Type {
		case "queue":
			r.reportLayer(blk.DefRange, fmt.Sprintf("qos_policy %q: queue block", p.Name), "set a class's share with traffic_class weight and its lane with vl")
		case "buffer":
			r.reportLayer(blk.DefRange, fmt.Sprintf("qos_policy %q: buffer block", p.Name), "InfiniBand buffers are credits the hardware manages; there is no PFC headroom to size")
		default:
			blocks = append(blocks, blk)
		}
	}
	c.Blocks = blocks
	return c
}
