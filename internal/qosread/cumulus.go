package qosread

import (
	"strings"
)

// readCumulus reads `nv config show -o commands` of Cumulus Linux (NVUE
// nv set lines): the default-global mapping (trust, dscp switch-priority,
// port-default-sp), egress-queue-mapping, pfc, congestion-control ecn,
// and ACLs (match ip protocol udp, dest-port 4791, dscp; action set dscp)
// bound inbound to interfaces.
func readCumulus(text string) (*Device, error) {
	d := newDevice()
	type aclRule struct {
		udp, roce bool
		dscp      []int
		setDSCP   int
	}
	acls := map[string]map[int]*aclRule{}
	var aclOrder = map[string][]int{}
	inbound := map[string][]string{}
	var ports []string
	n := 0
	for _, raw := range strings.Split(text, "\n") {
		if n++; n > maxLines {
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
		switch {
		case len(f) >= 4 && f[0] == "qos" && f[1] == "mapping" && f[3] == "trust" && len(f) >= 5:
			switch f[4] {
			case "l3", "both":
				d.Default.Trust = "dscp"
			case "l2":
				d.Default.Trust = "pcp"
			case "port":
				d.Default.Trust = "none"
			}
		case len(f) >= 7 && f[0] == "qos" && f[1] == "mapping" && f[3] == "dscp" && f[5] == "switch-priority":
			if p, ok := atoi(f[6]); ok && prio(p) {
				for _, v := range ints(f[4]) {
					if dscpOK(v) {
						d.Default.DSCP[v] = p
					}
				}
			}
		case len(f) >= 5 && f[0] == "qos" && f[1] == "mapping" && f[3] == "port-default-sp":
			if p, ok := atoi(f[4]); ok && prio(p) {
				d.Default.DefaultPrio = p
			}
		case len(f) >= 7 && f[0] == "qos" && f[1] == "egress-queue-mapping" && f[3] == "switch-priority" && f[5] == "traffic-class":
			sp, ok1 := atoi(f[4])
			tc, ok2 := atoi(f[6])
			if ok1 && ok2 && prio(sp) && prio(tc) {
				d.Default.Queue[sp] = tc
			}
		case len(f) >= 5 && f[0] == "qos" && f[1] == "pfc" && f[3] == "switch-priority":
			for _, v := range ints(f[4]) {
				if prio(v) {
					d.Default.PFC[v] = true
				}
			}
		case len(f) >= 7 && f[0] == "qos" && f[1] == "congestion-control" && f[3] == "traffic-class" && f[5] == "ecn" && f[6] == "enable":
			if tc, ok := atoi(f[4]); ok && prio(tc) {
				d.Default.ECN[tc] = true
			}
		case len(f) >= 2 && f[0] == "qos" && f[1] == "pfc-watchdog":
			d.Default.Watchdog = true
		case len(f) >= 5 && f[0] == "acl" && f[2] == "rule":
			seq, ok := atoi(f[3])
			if !ok {
				continue
			}
			if acls[f[1]] == nil {
				acls[f[1]] = map[int]*aclRule{}
			}
			r := acls[f[1]][seq]
			if r == nil {
				r = &aclRule{setDSCP: -1}
				acls[f[1]][seq] = r
				aclOrder[f[1]] = append(aclOrder[f[1]], seq)
			}
			rest := strings.Join(f[4:], " ")
			switch {
			case rest == "match ip protocol udp":
				r.udp = true
			case strings.HasPrefix(rest, "match ip udp dest-port "):
				for _, v := range ints(strings.TrimPrefix(rest, "match ip udp dest-port ")) {
					r.roce = r.roce || v == 4791
				}
			case strings.HasPrefix(rest, "match ip dscp "):
				r.dscp = append(r.dscp, ints(strings.TrimPrefix(rest, "match ip dscp "))...)
			case strings.HasPrefix(rest, "action set dscp "):
				if v, ok := atoi(strings.TrimPrefix(rest, "action set dscp ")); ok && dscpOK(v) {
					r.setDSCP = v
				}
			}
		case len(f) >= 4 && f[0] == "interface":
			name := f[1]
			if !containsString(ports, name) {
				ports = append(ports, name)
			}
			if len(f) >= 5 && f[2] == "acl" && f[4] == "inbound" {
				inbound[name] = append(inbound[name], f[3])
			}
			if len(f) >= 4 && f[2] == "qos" && f[3] == "pfc-watchdog" {
				d.Default.Watchdog = true
			}
		}
	}
	for _, name := range ports {
		p := d.port(name)
		for _, acl := range inbound[name] {
			seqs := append([]int(nil), aclOrder[acl]...)
			sortInts(seqs)
			for _, s := range seqs {
				r := acls[acl][s]
				p.Rules = append(p.Rules, Rule{RoCE: r.udp && r.roce, DSCP: r.dscp, SetDSCP: r.setDSCP, SetPrio: -1})
			}
		}
	}
	return d, nil
}

func containsString(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func sortInts(xs []int) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}
