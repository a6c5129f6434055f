package nvidiacumulus

import (
	"strings"

	"github.com/fabricgen/fabricgen/internal/qosread"
)

// readRule is one ACL rule as nv set lines build it.
type readRule struct {
	udp, roce bool
	dscp      []int
	setDSCP   int
}

// readState collects what read reads, line by line.
type readState struct {
	d        *qosread.Device
	acls     map[string]map[int]*readRule
	aclOrder map[string][]int
	inbound  map[string][]string
	ports    []string
}

// read reads `nv config show -o commands` of Cumulus Linux (NVUE
// nv set lines): the default-global mapping (trust, dscp switch-priority,
// port-default-sp), egress-queue-mapping, pfc, congestion-control ecn,
// and ACLs (match ip protocol udp, dest-port 4791, dscp; action set dscp)
// bound inbound to interfaces.
func read(text string) (*qosread.Device, error) {
	c := &readState{d: qosread.NewDevice(), acls: map[string]map[int]*readRule{}, aclOrder: map[string][]int{}, inbound: map[string][]string{}}
	n := 0
	for _, raw := range strings.Split(text, "\n") {
		if n++; n > qosread.MaxLines {
			break
		}
		f := strings.Fields(raw)
		if len(f) < 4 || f[0] != "nv" || f[1] != "set" {
			continue
		}
		for i := range f {
			f[i] = strings.Trim(f[i], "'\"")
		}
		f = f[2:]
		switch f[0] {
		case "qos":
			c.qos(f[1:])
		case "acl":
			c.acl(f[1:])
		case "interface":
			c.iface(f[1:])
		}
	}
	for _, name := range c.ports {
		p := c.d.Named(name)
		for _, acl := range c.inbound[name] {
			seqs := append([]int(nil), c.aclOrder[acl]...)
			readSortInts(seqs)
			for _, s := range seqs {
				r := c.acls[acl][s]
				p.Rules = append(p.Rules, qosread.Rule{RoCE: r.udp && r.roce, DSCP: r.dscp, SetDSCP: r.setDSCP, SetPrio: -1})
			}
		}
	}
	return c.d, nil
}

// qos reads "qos …" (after nv set).
func (c *readState) qos(f []string) {
	d := c.d
	switch {
	case len(f) >= 4 && f[0] == "mapping" && f[2] == "trust":
		if t, ok := map[string]string{"l3": "dscp", "both": "dscp", "l2": "pcp", "port": "none"}[f[3]]; ok {
			d.Default.Trust = t
		}
	case len(f) >= 6 && f[0] == "mapping" && f[2] == "dscp" && f[4] == "switch-priority":
		if p, ok := qosread.Atoi(f[5]); ok && qosread.Prio(p) {
			for _, v := range qosread.Ints(f[3]) {
				if qosread.DSCPOK(v) {
					d.Default.DSCP[v] = p
				}
			}
		}
	case len(f) >= 4 && f[0] == "mapping" && f[2] == "port-default-sp":
		if p, ok := qosread.Atoi(f[3]); ok && qosread.Prio(p) {
			d.Default.DefaultPrio = p
		}
	case len(f) >= 6 && f[0] == "egress-queue-mapping" && f[2] == "switch-priority" && f[4] == "traffic-class":
		sp, ok1 := qosread.Atoi(f[3])
		tc, ok2 := qosread.Atoi(f[5])
		if ok1 && ok2 && qosread.Prio(sp) && qosread.Prio(tc) {
			d.Default.Queue[sp] = tc
		}
	case len(f) >= 4 && f[0] == "pfc" && f[2] == "switch-priority":
		for _, v := range qosread.Ints(f[3]) {
			if qosread.Prio(v) {
				d.Default.PFC = d.Default.PFC.With(v)
			}
		}
	case len(f) >= 6 && f[0] == "congestion-control" && f[2] == "traffic-class" && f[4] == "ecn" && f[5] == "enable":
		if tc, ok := qosread.Atoi(f[3]); ok && qosread.Prio(tc) {
			d.Default.ECN[tc] = true
		}
	case len(f) >= 1 && f[0] == "pfc-watchdog":
		d.Default.Watchdog = true
	}
}

// acl reads "acl NAME rule SEQ …".
func (c *readState) acl(f []string) {
	if len(f) < 4 || f[1] != "rule" {
		return
	}
	seq, ok := qosread.Atoi(f[2])
	if !ok {
		return
	}
	name := f[0]
	if c.acls[name] == nil {
		c.acls[name] = map[int]*readRule{}
	}
	r := c.acls[name][seq]
	if r == nil {
		r = &readRule{setDSCP: -1}
		c.acls[name][seq] = r
		c.aclOrder[name] = append(c.aclOrder[name], seq)
	}
	rest := strings.Join(f[3:], " ")
	switch {
	case rest == "match ip protocol udp":
		r.udp = true
	case strings.HasPrefix(rest, "match ip udp dest-port "):
		for _, v := range qosread.Ints(strings.TrimPrefix(rest, "match ip udp dest-port ")) {
			r.roce = r.roce || v == 4791
		}
	case strings.HasPrefix(rest, "match ip dscp "):
		r.dscp = append(r.dscp, qosread.Ints(strings.TrimPrefix(rest, "match ip dscp "))...)
	case strings.HasPrefix(rest, "action set dscp "):
		if v, ok := qosread.Atoi(strings.TrimPrefix(rest, "action set dscp ")); ok && qosread.DSCPOK(v) {
			r.setDSCP = v
		}
	}
}

// iface reads "interface NAME …".
func (c *readState) iface(f []string) {
	if len(f) < 2 {
		return
	}
	name := f[0]
	if !readContains(c.ports, name) {
		c.ports = append(c.ports, name)
	}
	if len(f) >= 4 && f[1] == "acl" && f[3] == "inbound" {
		c.inbound[name] = append(c.inbound[name], f[2])
	}
	if len(f) >= 3 && f[1] == "qos" && f[2] == "pfc-watchdog" {
		c.d.Default.Watchdog = true
	}
}

func readContains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func readSortInts(xs []int) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}
