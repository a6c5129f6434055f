// Package ibsim runs the real OpenSM against an emulated InfiniBand fabric:
// it writes an ibsim topology (ibnetdiscover format) from a fabric's links
// and GUIDs, starts ibsim on it, runs opensm and the infiniband-diags
// queries under ibsim-run, and parses what they print.
//
// Sources: linux-rdma/ibsim ibsim/sim_net.c (the net file: "Switch N
// \"id\"", "Ca N \"id\"", "[port] \"remote\"[port]", switchguid= and
// caguid= set the next node's GUID; an HCA's port i has GUID node GUID + i;
// the first node in the file, or SIM_HOST, is where clients attach) and
// ibsim/ibsim.c (IBSIM_SOCKNAME names the abstract sockets).
package ibsim

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// Node is one emulated node: a switch, or one HCA port of a device (each
// HCA port is its own one-port CA, so any port GUID can be given).
type Node struct {
	// ID is the node id in the net file ("S-leaf1", "H-gpu01-ib0").
	ID string
	// Switch is true for a switch.
	Switch bool
	// GUID is a switch's node GUID or an HCA's port GUID.
	GUID uint64
	// Device and Port name the intent's device and (for an HCA) port.
	Device, Port string
	// Ports is the number of ports.
	Ports int
	// Links maps a local port number to the remote end.
	Links map[int]End
	// DR is the directed route from the SM's port ("0", "0,1,3").
	DR string
}

// End is one end of a link: a node id and its port number.
type End struct {
	Node string
	Port int
}

// Topology is the emulated fabric: nodes in file order, the SM's node
// first.
type Topology struct {
	Nodes []*Node
	byID  map[string]*Node
}

// Node returns the node with id, or nil.
func (t *Topology) Node(id string) *Node { return t.byID[id] }

// NodeOf returns the node of device and port (port "" for a switch), or nil.
func (t *Topology) NodeOf(device, port string) *Node {
	for _, n := range t.Nodes {
		if n.Device == device && (n.Switch || n.Port == port) {
			return n
		}
	}
	return nil
}

// SM is the node clients attach to: the first node.
func (t *Topology) SM() *Node {
	if len(t.Nodes) == 0 {
		return nil
	}
	return t.Nodes[0]
}

func isSwitch(k schema.Kind) bool {
	switch k {
	case schema.KindLeaf, schema.KindSpine, schema.KindSuperspine, schema.KindCore:
		return true
	}
	return false
}

// FromFabric builds the topology of an InfiniBand fabric: one switch per
// leaf/spine device (node GUID from its guid, ports named by number), one
// CA per HCA port with a guid (NICs and subnet managers), and the links
// between them. The first subnet manager's first HCA port is the SM node.
func FromFabric(f *schema.Fabric) (*Topology, error) {
	t := &Topology{byID: map[string]*Node{}}
	devs := append([]*schema.Device(nil), f.Devices...)
	sort.SliceStable(devs, func(i, j int) bool {
		si, sj := devs[i].Kind.V == schema.KindSubnetManager, devs[j].Kind.V == schema.KindSubnetManager
		if si != sj {
			return si
		}
		return devs[i].Name < devs[j].Name
	})
	add := func(n *Node) {
		t.Nodes = append(t.Nodes, n)
		t.byID[n.ID] = n
	}
	for _, d := range devs {
		if isSwitch(d.Kind.V) {
			if !d.GUID.Set {
				return nil, fmt.Errorf("switch %s has no guid: the emulated fabric needs every switch's node GUID", d.Name)
			}
			n := &Node{ID: "S-" + d.Name, Switch: true, GUID: d.GUID.V, Device: d.Name, Ports: 1, Links: map[int]End{}}
			for _, p := range d.Ports {
				num, err := strconv.Atoi(p.Name)
				if err != nil || num < 1 || num > 254 {
					return nil, fmt.Errorf("switch %s port %q: InfiniBand switch ports are named by number 1-254", d.Name, p.Name)
				}
				n.Ports = max(n.Ports, num)
			}
			add(n)
			continue
		}
		for _, p := range d.Ports {
			if !p.GUID.Set {
				continue
			}
			if p.GUID.V < 2 {
				return nil, fmt.Errorf("device %s port %s: guid %#x is too small for ibsim (node GUID = port GUID - 1)", d.Name, p.Name, p.GUID.V)
			}
			add(&Node{ID: "H-" + d.Name + "-" + p.Name, GUID: p.GUID.V, Device: d.Name, Port: p.Name, Ports: 1, Links: map[int]End{}})
		}
	}
	end := func(p *schema.Port) (End, bool) {
		if p == nil || p.Device == nil {
			return End{}, false
		}
		if isSwitch(p.Device.Kind.V) {
			num, _ := strconv.Atoi(p.Name)
			return End{Node: "S-" + p.Device.Name, Port: num}, true
		}
		if _, ok := t.byID["H-"+p.Device.Name+"-"+p.Name]; ok {
			return End{Node: "H-" + p.Device.Name + "-" + p.Name, Port: 1}, true
		}
		return End{}, false
	}
	for _, l := range f.Links {
		a, okA := end(l.A)
		b, okB := end(l.B)
		if !okA || !okB {
			continue
		}
		t.byID[a.Node].Links[a.Port] = b
		t.byID[b.Node].Links[b.Port] = a
	}
	if len(t.Nodes) == 0 || t.Nodes[0].Switch || f.Device(t.Nodes[0].Device).Kind.V != schema.KindSubnetManager {
		return nil, fmt.Errorf("no subnet manager HCA port with a guid: the emulated fabric needs one to attach OpenSM to")
	}
	t.routes()
	return t, nil
}

// routes sets every reachable node's directed route, breadth first from
// the SM node.
func (t *Topology) routes() {
	sm := t.Nodes[0]
	sm.DR = "0"
	queue := []*Node{sm}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		ports := make([]int, 0, len(n.Links))
		for p := range n.Links {
			ports = append(ports, p)
		}
		sort.Ints(ports)
		for _, p := range ports {
			r := t.byID[n.Links[p].Node]
			if r.DR != "" {
				continue
			}
			r.DR = n.DR + "," + strconv.Itoa(p)
			queue = append(queue, r)
		}
	}
}

// Net is the topology in ibsim's net-file format.
func (t *Topology) Net() []byte {
	var b strings.Builder
	b.WriteString("# ibsim topology generated by fabricgen\n\n")
	for _, n := range t.Nodes {
		if n.Switch {
			fmt.Fprintf(&b, "switchguid=%#016x\nSwitch %d %q\n", n.GUID, n.Ports, n.ID)
		} else {
			fmt.Fprintf(&b, "caguid=%#016x\nCa %d %q\n", n.GUID-1, n.Ports, n.ID)
		}
		ports := make([]int, 0, len(n.Links))
		for p := range n.Links {
			ports = append(ports, p)
		}
		sort.Ints(ports)
		for _, p := range ports {
			e := n.Links[p]
			fmt.Fprintf(&b, "[%d] %q[%d]\n", p, e.Node, e.Port)
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}
