package check

import (
	"github.com/fabricgen/fabricgen/schema"
)

// topology is what the rules need of the intent, computed once.
type topology struct {
	roce, cnp *schema.TrafficClass
	// links are the intent's links with both ends on devices.
	links []*schema.Link
	// neighbours lists, per device, the links touching it.
	neighbours map[string][]*schema.Link
	// dirty caches CHK010's pattern per "device\x00port".
	dirty map[string]bool
}

func newTopology(f *schema.Fabric) *topology {
	t := &topology{roce: f.ClassByRole(schema.RoleRoCE), cnp: f.ClassByRole(schema.RoleCNP), neighbours: map[string][]*schema.Link{}, dirty: map[string]bool{}}
	for _, l := range f.Links {
		if l.A == nil || l.B == nil || l.A.Device == nil || l.B.Device == nil {
			continue
		}
		t.links = append(t.links, l)
		t.neighbours[l.A.Device.Name] = append(t.neighbours[l.A.Device.Name], l)
		t.neighbours[l.B.Device.Name] = append(t.neighbours[l.B.Device.Name], l)
	}
	return t
}

// classDSCP is the class's first code point (-1 without one).
func classDSCP(c *schema.TrafficClass) int {
	if c == nil || len(c.DSCP) == 0 {
		return -1
	}
	return c.DSCP[0]
}

// prioAt is the priority the intent gives a class's code point on a port
// (-1 when unknown).
func prioAt(p *schema.Port, c *schema.TrafficClass) int {
	d := classDSCP(c)
	if p == nil || p.QoS == nil || d < 0 {
		if c != nil {
			return c.Priority.V
		}
		return -1
	}
	return p.QoS.DSCP[d].V
}

// queueAt is the egress queue the intent gives a class on a port.
func queueAt(p *schema.Port, c *schema.TrafficClass) int {
	pr := prioAt(p, c)
	if pr < 0 || pr > 7 || p == nil || p.QoS == nil {
		return -1
	}
	return p.QoS.Queue[pr].V
}

// lossless is the port's lossless priorities per intent.
func lossless(p *schema.Port) schema.PrioSet {
	if p == nil || p.QoS == nil {
		return 0
	}
	return p.QoS.Lossless
}

// linkName is "leaf1:Ethernet1 ↔ nic01:eth0".
func linkName(l *schema.Link) string { return l.A.ID() + " ↔ " + l.B.ID() }

// linkRange is the link block's range, else the port's.
func linkRange(l *schema.Link, p *schema.Port) *schema.Range {
	if l != nil && !l.Range.IsZero() {
		return l.Range.Ptr()
	}
	if p != nil {
		return p.Range.Ptr()
	}
	return nil
}
