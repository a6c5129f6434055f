package schema

import (
	"github.com/hashicorp/hcl/v2"
)

var meshSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "lower", Required: true}, {Name: "lower_ports", Required: true},
	{Name: "upper", Required: true}, {Name: "upper_ports", Required: true},
	{Name: "speed"}, {Name: "cable_length"}, {Name: "media"}, {Name: "description"},
}}

// decodeMeshes expands mesh blocks: every lower device joined to every
// upper device, lower[i]:lower_ports[j] ↔ upper[j]:upper_ports[i] — the
// leaf-to-spine wiring of a Clos in one block, with no per-link expression.
func (r *resolver) decodeMeshes(blocks hcl.Blocks, ctx *hcl.EvalContext) {
	for _, b := range blocks {
		if !r.checkLabel(b, "mesh") {
			continue
		}
		c := r.content(b.Body, meshSchema, ctx)
		lists := map[string][]string{}
		ok := true
		for _, name := range []string{"lower", "lower_ports", "upper", "upper_ports"} {
			l := r.stringList(c.Attributes[name], ctx)
			if l == nil {
				ok = false
			}
			lists[name] = l
		}
		speed := unitValue(r.d, c.Attributes, "speed", ctx, ParseSpeed)
		cable := unitValue(r.d, c.Attributes, "cable_length", ctx, ParseLength)
		media := r.d.enum(c.Attributes, "media", ctx, enumMedia...)
		r.d.text(c.Attributes, "description", ctx, TextRule{})
		if !ok {
			continue
		}
		lower, lowerPorts, upper, upperPorts := lists["lower"], lists["lower_ports"], lists["upper"], lists["upper_ports"]
		if len(lowerPorts) != len(upper) {
			r.d.errorf(c.Attributes["lower_ports"].Expr.Range(), "Mesh sizes do not match", "lower_ports has %d ports but upper has %d devices: each lower device needs one port per upper device.", len(lowerPorts), len(upper))
			continue
		}
		if len(upperPorts) != len(lower) {
			r.d.errorf(c.Attributes["upper_ports"].Expr.Range(), "Mesh sizes do not match", "upper_ports has %d ports but lower has %d devices: each upper device needs one port per lower device.", len(upperPorts), len(lower))
			continue
		}
		if n := len(lower) * len(upper); n > MaxElements || !r.d.budget.spendObjects(n) {
			r.d.errorf(b.DefRange, "Too many links", "This mesh joins %d lower to %d upper devices: %d links. A mesh makes at most %d links, and a fabric has at most %d devices, ports and links together.", len(lower), len(upper), n, MaxElements, MaxObjects)
			continue
		}
		aRng, bRng := c.Attributes["lower_ports"].Expr.Range(), c.Attributes["upper_ports"].Expr.Range()
		rng, aR, bR := convRange(b.DefRange), convRange(aRng), convRange(bRng)
		// One row of links per lower device, built on all cores, each
		// row's links and raw links allocated together.
		rows := make([][]*rawLink, len(lower))
		parallel(len(lower), func(i int) {
			lo := lower[i]
			links := make([]Link, len(upper))
			raws := make([]rawLink, len(upper))
			row := make([]*rawLink, len(upper))
			for j, up := range upper {
				a := lo + ":" + lowerPorts[j]
				links[j] = Link{Name: b.Labels[0] + "[" + a + "]", Range: rng, ARange: aR, BRange: bR,
					Speed: speed, CableLength: cable, Media: media}
				raws[j] = rawLink{link: &links[j], a: a, b: up + ":" + upperPorts[i], aRng: aRng, bRng: bRng}
				row[j] = &raws[j]
			}
			rows[i] = row
		})
		for _, row := range rows {
			r.links = append(r.links, row...)
		}
	}
}

// stringList reads a non-empty list of non-empty strings.
func (r *resolver) stringList(attr *hcl.Attribute, ctx *hcl.EvalContext) []string {
	return r.portNames(attr, ctx)
}
