package schema

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
)

var linkSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "a", Required: true}, {Name: "b", Required: true}, {Name: "speed"},
	{Name: "cable_length"}, {Name: "media"}, {Name: "description"},
}}

// rawLink is a decoded link instance whose endpoints are still names.
type rawLink struct {
	link       *Link
	a, b       string
	aRng, bRng hcl.Range
}

func (r *resolver) decodeLinks(blocks hcl.Blocks, ctx *hcl.EvalContext) {
	type job struct {
		b    *hcl.Block
		body hcl.Body
		inst instance
	}
	var jobs []job
	for _, b := range blocks {
		if !r.checkLabel(b, "link") {
			continue
		}
		body, insts := r.expand(b, ctx)
		if !r.d.budget.spendObjects(len(insts)) {
			r.d.errorf(b.DefRange, "Too many objects", "The fabric would have more than %d devices, ports and links together; that is the limit of one fabric.", MaxObjects)
			break
		}
		for _, in := range insts {
			jobs = append(jobs, job{b, body, in})
		}
	}
	out := make([]*rawLink, len(jobs))
	parallel(len(jobs), func(i int) {
		j := jobs[i]
		j.inst.materialize()
		c := r.content(j.body, linkSchema, j.inst.ctx)
		name := j.b.Labels[0]
		if j.inst.key != "" {
			name += "[" + j.inst.key + "]"
		}
		l := &Link{Name: name, Range: convRange(j.b.DefRange)}
		a := r.d.str(c.Attributes, "a", j.inst.ctx)
		b := r.d.str(c.Attributes, "b", j.inst.ctx)
		l.Speed = unitValue(r.d, c.Attributes, "speed", j.inst.ctx, ParseSpeed)
		l.CableLength = unitValue(r.d, c.Attributes, "cable_length", j.inst.ctx, ParseLength)
		l.Media = r.d.enum(c.Attributes, "media", j.inst.ctx, enumMedia...)
		r.d.text(c.Attributes, "description", j.inst.ctx, TextRule{})
		if !a.Set || !b.Set {
			return
		}
		l.ARange, l.BRange = a.Src, b.Src
		out[i] = &rawLink{link: l, a: a.V, b: b.V, aRng: c.Attributes["a"].Expr.Range(), bRng: c.Attributes["b"].Expr.Range()}
	})
	blockLinks := make([]*rawLink, 0, len(out))
	for _, rl := range out {
		if rl != nil {
			blockLinks = append(blockLinks, rl)
		}
	}
	// Link blocks come before the peer links devices declared (already in r.links).
	r.links = append(blockLinks, r.links...)
}

// endpoint resolves "device:port".
func (r *resolver) endpoint(s string, rng hcl.Range) *Port {
	dn, pn, ok := strings.Cut(s, ":")
	if !ok || dn == "" || pn == "" {
		r.d.errorf(rng, "Invalid link endpoint", "%q must be written \"DEVICE:PORT\", e.g. \"leaf1:Ethernet1\".", s)
		return nil
	}
	dev := r.devices[dn]
	if dev == nil {
		names := make([]string, 0, len(r.devices))
		for n := range r.devices {
			names = append(names, n)
		}
		r.d.errorf(rng, "Link to unknown device", "No device named %q is declared.%s", dn, suggest(dn, names))
		return nil
	}
	p := dev.ports[pn]
	if p == nil {
		names := make([]string, 0, len(dev.ports))
		for n := range dev.ports {
			names = append(names, n)
		}
		r.d.errorf(rng, "Link to unknown port", "Device %q has no port %q.%s Declare it with a port block.", dn, pn, suggest(pn, names))
		return nil
	}
	return p
}

// wireLinks connects ports both ways and reports ports used twice.
func (r *resolver) wireLinks() {
	// Endpoint lookups only read the device and port maps: resolve them on
	// all cores, then wire in declaration order.
	ends := make([][2]*Port, len(r.links))
	parallel(len(r.links), func(i int) {
		rl := r.links[i]
		ends[i] = [2]*Port{r.endpoint(rl.a, rl.aRng), r.endpoint(rl.b, rl.bRng)}
	})
	for i, rl := range r.links {
		a, b := ends[i][0], ends[i][1]
		if a == nil || b == nil {
			continue
		}
		if a == b {
			r.d.errorf(rl.bRng, "Link to itself", "Link %q joins %s to itself.", rl.link.Name, a.ID())
			continue
		}
		bad := false
		for _, end := range []struct {
			p   *Port
			rng hcl.Range
		}{{a, rl.aRng}, {b, rl.bRng}} {
			if end.p.Link != nil {
				r.d.errorf(end.rng, "Port used by two links", "%s is already connected by link %q at %s; a port carries one link.", end.p.ID(), end.p.Link.Name, end.p.Link.Range)
				bad = true
			}
		}
		if bad {
			continue
		}
		l := rl.link
		l.A, l.B = a, b
		a.Link, b.Link, a.Peer, b.Peer = l, l, b, a
		if !l.Speed.Set {
			switch {
			case a.Speed.Set:
				l.Speed = a.Speed
			case b.Speed.Set:
				l.Speed = b.Speed
			}
		}
		r.f.Links = append(r.f.Links, l)
	}
}
