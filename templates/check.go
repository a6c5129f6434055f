package templates

import (
	"strings"

	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// Checker finds the intent values a device's platform cannot express. It
// runs exactly the code Render runs before it executes a template (the
// platform's view builder), so lint and render never disagree: whatever
// render would refuse, Check reports, at the same line with the same words.
// A Checker is safe for concurrent use.
type Checker struct {
	r *Renderer
}

// NewChecker returns a Checker for the embedded platforms. It parses no
// templates and prints no stanza: the limits live in the view builders,
// which it runs to the end for every port.
func NewChecker() *Checker {
	check := &view.StanzaSet{CheckOnly: true}
	stanzas := map[schema.Platform]*view.StanzaSet{}
	for _, p := range renderedNames() {
		stanzas[p] = check
	}
	return &Checker{r: &Renderer{specs: registry(), cache: &view.ViewCache{}, stanzas: stanzas}}
}

// Check returns every value of d its platform cannot express, in the
// order render meets them (none when render would succeed as far as the
// intent is concerned): render's builders go on past a refusal, so one
// check names them all. Errors other than refusals (an unknown platform,
// a name the loader would refuse) are not platform limits and yield none:
// validation reports them.
func (c *Checker) Check(f *schema.Fabric, d *schema.Device) []*view.UnsupportedError {
	_, err := c.r.View(f, d)
	return view.AllUnsupported(err)
}

// Signatures assigns keys that are equal for devices Check answers alike,
// up to the device's name: same platform and RDMA settings, and per port
// the same name, description, speed, FEC, link speed and cable, QoS and
// ACLs. Lint checks one device per signature. Not safe for concurrent use.
type Signatures struct {
	ids map[any]uint32
	// size is the length of the last signature: the next one's builder
	// starts with that much room (neighbouring devices are alike), not
	// growing and copying through every size below it.
	size int
}

// NewSignatures returns an empty signature table.
func NewSignatures() *Signatures { return &Signatures{ids: map[any]uint32{}} }

func (s *Signatures) id(v any) uint32 {
	if i, ok := s.ids[v]; ok {
		return i
	}
	i := uint32(len(s.ids) + 1)
	s.ids[v] = i
	return i
}

// Of returns d's signature.
func (s *Signatures) Of(d *schema.Device) string {
	var b strings.Builder
	b.Grow(s.size)
	defer func() { s.size = b.Len() }()
	b.WriteString(string(d.Platform.V))
	b.WriteByte(0)
	// What selects a syntax variant, and the tier the default cable
	// lengths of SONiC's lossless ports depend on.
	for _, v := range []string{string(d.Kind.V), d.ASIC.V, d.OSVersion.V.Raw, d.OSVersion.Src.String(), string(d.Family), d.Driver.V} {
		b.WriteString(v)
		b.WriteByte(0)
	}
	writeInt(&b, int64(s.id(d.RDMA)))
	for _, p := range d.Ports {
		b.WriteByte(1)
		b.WriteString(p.Name)
		b.WriteByte(0)
		b.WriteString(p.Description)
		b.WriteByte(0)
		b.WriteString(p.FEC.V)
		b.WriteByte(0)
		writeInt(&b, p.Speed.V)
		writeInt(&b, int64(s.id(p.QoS)))
		if l := p.Link; l != nil {
			writeInt(&b, l.Speed.V)
			writeInt(&b, int64(l.CableLength.V*1000))
		}
		if p.Peer != nil {
			b.WriteString(string(p.Peer.Device.Kind.V))
		}
		b.WriteByte(0)
		if p.Routed.V {
			b.WriteByte('r')
		}
		for _, a := range p.ACLIn {
			writeInt(&b, int64(s.id(a)))
		}
		b.WriteByte(2)
		for _, a := range p.ACLOut {
			writeInt(&b, int64(s.id(a)))
		}
		if p.IP.Set && p.IP.V.Addr().Is6() {
			b.WriteByte('6')
		} else if p.IP.Set {
			b.WriteByte('4')
		}
	}
	return b.String()
}

func writeInt(b *strings.Builder, v int64) {
	var buf [8]byte
	for i := range buf {
		buf[i] = byte(v >> (8 * i))
	}
	b.Write(buf[:])
}
