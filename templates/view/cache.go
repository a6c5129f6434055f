package view

import (
	"fmt"
	"sync"

	"github.com/fabricgen/fabricgen/schema"
)

// ViewCache memoises view parts that depend only on a PortQoS, which ports
// with identical attachments share (a fabric of 65,536 NICs has a handful).
// Entries are immutable once stored.
type ViewCache struct {
	qos sync.Map // *schema.PortQoS → QoSView (devices whose ports all share it)
	// fabrics holds the result of schema.CheckRenderableFabric per fabric.
	fabrics sync.Map // *schema.Fabric → error (nil: names fine)
}

// CheckNames refuses to render names that schema.Load would have refused
// (defence in depth: Load checks them, but a Fabric may be built in Go).
func (c *ViewCache) CheckNames(f *schema.Fabric, d *schema.Device) error {
	var ferr error
	if v, ok := c.fabrics.Load(f); ok {
		ferr, _ = v.(error)
	} else {
		ferr = schema.CheckRenderableFabric(f)
		c.fabrics.Store(f, ferr)
	}
	if ferr == nil {
		ferr = schema.CheckRenderable(f, d)
	}
	if ferr != nil {
		return fmt.Errorf("device %s: cannot render: %w (names and descriptions must follow the rules of docs/language.md)", OneLine(d.Name), ferr)
	}
	return nil
}

// cachedQoSView returns qosView(d), shared between devices whose ports all
// use one PortQoS (the QoSView is then a function of that PortQoS alone).
// The result is read-only.
func cachedQoSView(c *ViewCache, d *schema.Device) (QoSView, error) {
	var shared *schema.PortQoS
	for _, p := range d.Ports {
		if p.QoS == nil {
			continue
		}
		if shared != nil && p.QoS != shared {
			return qosView(d)
		}
		shared = p.QoS
	}
	if c == nil || shared == nil {
		return qosView(d)
	}
	if v, ok := c.qos.Load(shared); ok {
		if qv, ok := v.(QoSView); ok {
			return qv, nil
		}
	}
	v, err := qosView(d)
	if err != nil {
		return v, err
	}
	c.qos.Store(shared, v)
	return v, nil
}
