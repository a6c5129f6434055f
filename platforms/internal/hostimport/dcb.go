package hostimport

import (
	"slices"
	"strconv"
	"strings"
)

// dcb reads iproute2 dcb OBJECT COMMAND dev IF SETTINGS (dcb(8),
// dcb-app(8), dcb-pfc(8), dcb-ets(8), dcb-maxrate(8), dcb-apptrust(8)).
func (r *reader) dcb(c *command, text string, args []word) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].text, "-") {
		switch args[i].text {
		case "-b", "--batch":
			r.unmapped(c.line, text, "a dcb batch file: import reads the script, not the files it names; put the dcb commands in the script")
			return
		}
		i++
	}
	if len(args)-i < 4 {
		return
	}
	obj, verb := args[i].text, args[i+1].text
	if verb == "show" || verb == "help" {
		return
	}
	if args[i+2].text != "dev" {
		return
	}
	ws, ok := literal(args[i+3:])
	if !ok {
		r.unmapped(c.line, text, "dcb "+obj+" "+verb+": "+whyVar)
		return
	}
	r.dcbSettings(c.line, text, obj, verb, ws[0], ws[1:], false)
}

// dcbKeys are the dcb keys that start a setting (iproute2 dcb/*.c).
var dcbKeys = map[string]bool{"prio-pfc": true, "delay": true, "macsec-bypass": true, "pfc-cap": true,
	"prio-tc": true, "tc-tsa": true, "tc-bw": true, "pg-bw": true, "willing": true, "ets-cap": true, "cbs": true,
	"reco-prio-tc": true, "reco-tc-tsa": true, "reco-tc-bw": true,
	"dscp-prio": true, "default-prio": true, "ethtype-prio": true, "stream-port-prio": true, "dgram-port-prio": true,
	"port-prio": true, "pcp-prio": true, "tc-maxrate": true, "order": true,
	"prio-buffer": true, "buffer-size": true, "total-size": true}

// dcbGroups splits "key v v key v" into key → values, in order.
func dcbGroups(ws []string) (keys []string, vals map[string][]string) {
	vals = map[string][]string{}
	key := ""
	for _, w := range ws {
		if dcbKeys[w] {
			key = w
			if _, ok := vals[key]; !ok {
				keys = append(keys, key)
			}
			vals[key] = vals[key][:0:0]
			continue
		}
		if key != "" {
			vals[key] = append(vals[key], w)
		}
	}
	return keys, vals
}

// dcbMap reads K:V pairs (all:V expanding to 0-7) with K parsed by key.
func dcbMap(vs []string, key func(string) (int, bool), n int) (map[int]string, bool) {
	out := make(map[int]string, max(len(vs), n))
	for _, v := range vs {
		k, val, ok := strings.Cut(v, ":")
		if !ok {
			return nil, false
		}
		if k == "all" {
			for i := 0; i < n; i++ {
				out[i] = val
			}
			continue
		}
		i, ok := key(k)
		if !ok {
			return nil, false
		}
		out[i] = val
	}
	return out, true
}

func prioKey(s string) (int, bool) { return atoiRange(s, 0, 7) }

// dscpNames are the rt_dsfield names dcb app prints and takes without -N.
var dscpNames = map[string]int{"CS0": 0, "CS1": 8, "CS2": 16, "CS3": 24, "CS4": 32, "CS5": 40, "CS6": 48, "CS7": 56,
	"AF11": 10, "AF12": 12, "AF13": 14, "AF21": 18, "AF22": 20, "AF23": 22, "AF31": 26, "AF32": 28, "AF33": 30,
	"AF41": 34, "AF42": 36, "AF43": 38, "EF": 46, "VA": 44, "LE": 1}

func dscpKey(s string) (int, bool) {
	if v, ok := dscpNames[strings.ToUpper(s)]; ok {
		return v, true
	}
	return atoiRange(s, 0, 63)
}

// dcbCmd is one dcb command (or one dcb show output, with state) being
// applied to its port.
type dcbCmd struct {
	r         *reader
	p         *portAcc
	line      int
	text      string
	obj, verb string
	state     bool
}

func (c *dcbCmd) bad(k string) {
	c.r.unmapped(c.line, c.text, "dcb "+c.obj+" "+k+": values fabricgen cannot read")
}

// unread reports a setting no intent expresses (a command's only: a show
// output prints every setting, set or not).
func (c *dcbCmd) unread(vs []string, why string) {
	if !c.state && len(vs) > 0 {
		c.r.unmapped(c.line, c.text, why)
	}
}

// dcbSettings applies the settings of one dcb command (or, with state, of
// one dcb show output) to port dev.
func (r *reader) dcbSettings(line int, text, obj, verb, dev string, ws []string, state bool) {
	keys, vals := dcbGroups(ws)
	c := &dcbCmd{r: r, p: r.port(dev, line), line: line, text: text, obj: obj, verb: verb, state: state}
	for _, k := range keys {
		vs := vals[k]
		switch obj {
		case "app":
			c.app(k, vs)
		case "pfc":
			c.pfc(k, vs)
		case "ets":
			c.ets(k, vs)
		case "maxrate":
			if k != "tc-maxrate" {
				c.unread(vs, "dcb maxrate "+k+": a setting fabricgen does not render")
				continue
			}
			c.maxrate(vs)
		case "apptrust":
			if k == "order" {
				r.apptrust(c.p, line, text, vs)
			}
		case "buffer":
			c.unread(vs, "dcb buffer "+k+": a NIC buffer setting; fabricgen renders no NIC buffers (PFC headroom is switch-side)")
		default:
			c.unread(vs, "dcb "+obj+" "+k+": a setting fabricgen does not render")
		}
	}
	if !state && len(keys) == 0 && (obj == "dcbx" || obj == "buffer") {
		r.unmapped(line, text, "dcb "+obj+": a setting fabricgen does not render")
	}
}

// app reads one dcb app key.
func (c *dcbCmd) app(k string, vs []string) {
	r, p := c.r, c.p
	switch k {
	case "dscp-prio":
		c.dscpPrio(vs)
	case "default-prio":
		if len(vs) == 0 {
			return
		}
		if c.verb == "del" || c.verb == "flush" {
			p.defPrio = nil
			return
		}
		pr, ok := atoiRange(vs[len(vs)-1], 0, 7)
		if !ok {
			c.bad(k)
			return
		}
		r.set(p, "default-prio", c.line, c.text, true)
		p.defPrio = &pr
	case "pcp-prio":
		if len(vs) > 0 {
			r.unmapped(c.line, c.text, "a PCP→priority app table: fabricgen's host render classifies PCP as the priority itself (mlnx_qos --trust pcp), and linux_dcb classifies by DSCP only")
		}
	default:
		if len(vs) > 0 {
			r.unmapped(c.line, c.text, "dcb app "+k+": a classification by EtherType or L4 port fabricgen does not render on hosts")
		}
	}
}

// dscpPrio reads dcb app dscp-prio entries (add, replace, del, flush).
func (c *dcbCmd) dscpPrio(vs []string) {
	r, p := c.r, c.p
	if c.verb == "flush" {
		r.set(p, "dscp-prio flush", c.line, c.text, true)
		p.dscp = nil
		return
	}
	// The entries by DSCP (a later one for the same DSCP wins, as in
	// dcbMap; "all" names no DSCP): a fixed table, not a map, as a host
	// script writes 64 of them a port.
	var vals [64]string
	var has [64]bool
	for _, v := range vs {
		k, val, ok := strings.Cut(v, ":")
		if !ok {
			c.bad("dscp-prio")
			return
		}
		if k == "all" {
			continue
		}
		d, ok := dscpKey(k)
		if !ok {
			c.bad("dscp-prio")
			return
		}
		vals[d], has[d] = val, true
	}
	for d := range 64 {
		if !has[d] {
			continue
		}
		pr, ok := atoiRange(vals[d], 0, 7)
		if !ok {
			c.bad("dscp-prio")
			return
		}
		switch {
		case c.verb == "del":
			p.qos(c.line)
			if cur, ok := p.dscp[d]; ok && cur == pr {
				delete(p.dscp, d)
			}
			continue
		case c.state:
			p.qos(c.line)
		default:
			r.setDSCP(p, d, c.line, c.text)
		}
		if p.dscp == nil {
			p.dscp, p.dscpLine = make(map[int]int, 64), c.line
		}
		p.dscp[d] = pr
	}
}

// pfc reads one dcb pfc key.
func (c *dcbCmd) pfc(k string, vs []string) {
	r, p := c.r, c.p
	if k != "prio-pfc" {
		if k == "delay" || k == "macsec-bypass" {
			c.unread(vs, "dcb pfc "+k+": a PFC detail fabricgen does not render")
		}
		return
	}
	m, ok := dcbMap(vs, prioKey, 8)
	if !ok {
		c.bad(k)
		return
	}
	r.set(p, "pfc", c.line, c.text, true)
	set := map[int]bool{}
	if p.pfcSet {
		for _, x := range p.pfc {
			set[x] = true
		}
	}
	for i, v := range m {
		switch v {
		case "on":
			set[i] = true
		case "off":
			delete(set, i)
		default:
			c.bad(k)
		}
	}
	p.pfc, p.pfcSet = sortedSet(set), true
}

// ets reads one dcb ets key.
func (c *dcbCmd) ets(k string, vs []string) {
	r, p := c.r, c.p
	m, ok := dcbMap(vs, prioKey, 8)
	switch k {
	case "prio-tc", "tc-tsa", "tc-bw":
		if !ok {
			c.bad(k)
			return
		}
	default:
		c.unread(vs, "dcb ets "+k+": a DCBX detail fabricgen does not render (it sets the operational ETS)")
		return
	}
	switch k {
	case "prio-tc":
		r.set(p, "prio_tc", c.line, c.text, true)
		if p.prioTC == nil {
			p.prioTC = []int{0, 1, 2, 3, 4, 5, 6, 7}
		}
		for i, v := range m {
			tc, ok := atoiRange(v, 0, 7)
			if !ok {
				c.bad(k)
				return
			}
			p.prioTC[i] = tc
		}
	case "tc-tsa":
		r.set(p, "tsa", c.line, c.text, true)
		for i, v := range m {
			if v != "ets" && v != "strict" {
				r.unmapped(c.line, c.text, "dcb ets tc-tsa "+strconv.Itoa(i)+":"+v+": fabricgen schedules a traffic class as strict or ETS only")
				continue
			}
			p.tsa[i] = v
		}
	case "tc-bw":
		r.set(p, "tcbw", c.line, c.text, true)
		for i, v := range m {
			bw, ok := atoiRange(v, 0, 100)
			if !ok {
				c.bad(k)
				return
			}
			p.bw[i] = bw
		}
		p.bwSet = true
	}
}

// maxrate reads dcb maxrate tc-maxrate.
func (c *dcbCmd) maxrate(vs []string) {
	m, ok := dcbMap(vs, prioKey, 8)
	if !ok {
		c.bad("tc-maxrate")
		return
	}
	c.r.set(c.p, "ratelimit", c.line, c.text, true)
	for i, v := range m {
		bps, ok := parseRate(v)
		if !ok {
			c.bad("tc-maxrate")
			return
		}
		c.p.shaper[i] = bps
	}
}

// apptrust reads dcb apptrust set dev IF order SEL... (iproute2 6.2).
func (r *reader) apptrust(p *portAcc, line int, text string, order []string) {
	dscp, pcp := false, false
	for _, s := range order {
		switch s {
		case "dscp":
			dscp = true
		case "pcp":
			pcp = true
		default:
			r.unmapped(line, text, "dcb apptrust "+s+": fabricgen's trust is by DSCP, PCP or both")
			return
		}
	}
	trust := "none"
	switch {
	case dscp && pcp:
		trust = "both"
	case dscp:
		trust = "dscp"
	case pcp:
		trust = "pcp"
	}
	switch {
	case trust == "dscp":
	case r.fl.MLNX && trust == "pcp":
	default:
		fix := "linux_dcb classifies by DSCP only (its render refuses other trust)"
		if r.fl.MLNX {
			fix = "mlnx_qos trusts DSCP or PCP, one of them"
		}
		r.unmapped(line, text, "apptrust "+trust+": "+fix)
		return
	}
	r.set(p, "trust", line, text, true)
	p.trust = trust
}

// parseRate reads a tc(8) rate: a number and a unit (bit, kbit, mbit,
// gbit, tbit, their IEC forms, or bps, kbps... in bytes); a bare number is
// bits per second. "unlimited" and 0 are no cap.
func parseRate(s string) (int64, bool) {
	l := strings.ToLower(s)
	if l == "unlimited" {
		return 0, true
	}
	i := 0
	for i < len(l) && (l[i] >= '0' && l[i] <= '9' || l[i] == '.') {
		i++
	}
	if i == 0 {
		return 0, false
	}
	n, err := strconv.ParseFloat(l[:i], 64)
	if err != nil || n < 0 {
		return 0, false
	}
	mult := map[string]float64{"": 1, "bit": 1, "kbit": 1e3, "mbit": 1e6, "gbit": 1e9, "tbit": 1e12,
		"kibit": 1 << 10, "mibit": 1 << 20, "gibit": 1 << 30, "tibit": 1 << 40,
		"bps": 8, "kbps": 8e3, "mbps": 8e6, "gbps": 8e9, "tbps": 8e12}
	m, ok := mult[l[i:]]
	if !ok || n*m > 1e15 {
		return 0, false
	}
	return int64(n * m), true
}

func sortedSet(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortInts(out)
	return out
}

func sortInts(a []int) { slices.Sort(a) }
