package qosread

import (
	"strconv"
	"strings"
)

// readJunos reads `show configuration | display set` of Junos (QFX
// class of service): forwarding classes (queue-num, pfc-priority), DSCP
// classifiers (6-bit code points), congestion-notification profiles (PFC),
// schedulers with explicit-congestion-notification through scheduler
// maps, and the per-interface bindings.
func readJunos(text string) (*Device, error) {
	d := newDevice()
	fcQueue := map[string]int{}
	fcPrio := map[string]int{}
	classifiers := map[string]map[int]string{}
	cnpPFC := map[string][8]bool{}
	schedECN := map[string]bool{}
	smaps := map[string]map[string]string{}
	type binding struct{ classifier, cnp, smap string }
	ifs := map[string]*binding{}
	var order []string
	n := 0
	for _, raw := range strings.Split(text, "\n") {
		if n++; n > maxLines {
			break
		}
		f := strings.Fields(raw)
		if len(f) < 3 || f[0] != "set" || f[1] != "class-of-service" {
			continue
		}
		f = f[2:]
		switch {
		case len(f) >= 5 && f[0] == "forwarding-classes" && f[1] == "class" && f[3] == "queue-num":
			if q, ok := atoi(f[4]); ok && prio(q) {
				fcQueue[f[2]] = q
			}
		case len(f) >= 5 && f[0] == "forwarding-classes" && f[1] == "class" && f[3] == "pfc-priority":
			if p, ok := atoi(f[4]); ok && prio(p) {
				fcPrio[f[2]] = p
			}
		case len(f) >= 9 && f[0] == "classifiers" && f[1] == "dscp" && f[3] == "forwarding-class" && f[7] == "code-points":
			m := classifiers[f[2]]
			if m == nil {
				m = map[int]string{}
				classifiers[f[2]] = m
			}
			for _, cp := range f[8:] {
				if v, err := strconv.ParseUint(strings.Trim(cp, "[]"), 2, 8); err == nil && len(cp) == 6 {
					m[int(v)] = f[4]
				}
			}
		case len(f) >= 7 && f[0] == "congestion-notification-profile" && f[2] == "output" && f[3] == "ieee-802.1" && f[4] == "code-point":
			if v, err := strconv.ParseUint(f[5], 2, 8); err == nil && v < 8 {
				pfc := cnpPFC[f[1]]
				pfc[v] = true
				cnpPFC[f[1]] = pfc
			}
		case len(f) >= 3 && f[0] == "schedulers" && f[2] == "explicit-congestion-notification":
			schedECN[f[1]] = true
		case len(f) >= 6 && f[0] == "scheduler-maps" && f[2] == "forwarding-class" && f[4] == "scheduler":
			m := smaps[f[1]]
			if m == nil {
				m = map[string]string{}
				smaps[f[1]] = m
			}
			m[f[3]] = f[5]
		case len(f) >= 4 && f[0] == "interfaces":
			b := ifs[f[1]]
			if b == nil {
				b = &binding{}
				ifs[f[1]] = b
				order = append(order, f[1])
			}
			switch {
			case f[2] == "scheduler-map":
				b.smap = f[3]
			case f[2] == "congestion-notification-profile":
				b.cnp = f[3]
			case len(f) >= 6 && f[2] == "unit" && f[4] == "classifiers" && f[5] == "dscp" && len(f) >= 7:
				b.classifier = f[6]
			}
		}
	}
	prioOf := func(fc string) int {
		if p, ok := fcPrio[fc]; ok {
			return p
		}
		if q, ok := fcQueue[fc]; ok {
			return q
		}
		return 0
	}
	for fc, q := range fcQueue {
		d.Default.Queue[prioOf(fc)] = q
	}
	for _, name := range order {
		b := ifs[name]
		p := d.port(name)
		if m := classifiers[b.classifier]; m != nil {
			var dm [64]int
			for cp, fc := range m {
				dm[cp] = prioOf(fc)
			}
			p.DSCP = dm
		}
		p.PFC = cnpPFC[b.cnp]
		p.Watchdog = b.cnp != "" && p.Lossless() != nil
		for fc, s := range smaps[b.smap] {
			if q, ok := fcQueue[fc]; ok && schedECN[s] {
				p.ECN[q] = true
			}
		}
	}
	return d, nil
}
