package dataplane

import (
	"strings"
)

// nicState is the QoS of one host netdev, read from the lab host's NIC
// state dump (the emulator's Running).
type nicState struct {
	rdma    string
	trust   string
	pfc     [8]bool
	dscp    map[int]int
	prioTC  [8]int
	tos     int
	np, rp  [8]bool
	cnpDSCP int
	cnpPrio int
	pfcTout int
}

// prioOf is the priority a DSCP maps to under DSCP trust (mlx5: an
// explicit entry, else DSCP >> 3).
func (n *nicState) prioOf(d int) int {
	if n.trust != "dscp" {
		return 0
	}
	if p, ok := n.dscp[d]; ok {
		return p
	}
	return d >> 3
}

// readHost parses the dump: "netdev NAME" then indented "key value" lines.
func readHost(text string) map[string]*nicState {
	out := map[string]*nicState{}
	var cur *nicState
	for _, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if name, ok := strings.CutPrefix(line, "netdev "); ok {
			cur = &nicState{trust: "pcp", dscp: map[int]int{}, cnpDSCP: 48, cnpPrio: 6}
			for i := range cur.np {
				cur.np[i], cur.rp[i] = true, true
			}
			out[strings.TrimSpace(name)] = cur
			continue
		}
		if cur == nil || !strings.HasPrefix(raw, " ") {
			continue
		}
		key, val, _ := strings.Cut(line, " ")
		cur.set(key, val)
	}
	return out
}

// set applies one "key value" line of the dump.
func (st *nicState) set(key, val string) {
	switch key {
	case "rdma-device":
		st.rdma = val
	case "trust":
		st.trust = val
	case "pfc":
		st.pfc = bitsOf(val)
	case "dscp-prio":
		for _, pair := range strings.Fields(val) {
			k, v, ok := strings.Cut(pair, ":")
			d, ok1 := atoi(k)
			p, ok2 := atoi(v)
			if ok && ok1 && ok2 && d < 64 && p < 8 {
				st.dscp[d] = p
			}
		}
	case "prio-tc":
		for i, s := range strings.Split(val, ",") {
			if n, ok := atoi(s); ok && i < 8 && n < 8 {
				st.prioTC[i] = n
			}
		}
	case "default_roce_tos":
		if n, ok := atoi(val); ok && n < 256 {
			st.tos = n
		}
	case "pfc-prevention-tout":
		if n, ok := atoi(val); ok {
			st.pfcTout = n
		}
	case "ecn":
		f := strings.Fields(val)
		switch {
		case len(f) == 3 && f[0] == "roce_np" && f[1] == "enable":
			st.np = bitsOf(f[2])
		case len(f) == 3 && f[0] == "roce_rp" && f[1] == "enable":
			st.rp = bitsOf(f[2])
		case len(f) == 3 && f[0] == "roce_np" && f[1] == "cnp_dscp":
			if n, ok := atoi(f[2]); ok && n < 64 {
				st.cnpDSCP = n
			}
		case len(f) == 3 && f[0] == "roce_np" && f[1] == "cnp_802p_prio":
			if n, ok := atoi(f[2]); ok && n < 8 {
				st.cnpPrio = n
			}
		}
	}
}

// bitsOf reads "0,0,0,1,0,0,0,0".
func bitsOf(s string) [8]bool {
	var b [8]bool
	for i, v := range strings.Split(s, ",") {
		if i < 8 {
			b[i] = strings.TrimSpace(v) == "1"
		}
	}
	return b
}
