package juniperjunos

import (
	"sort"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/qosread"
	"github.com/fabricgen/fabricgen/schema"
)

// read reads `show configuration | display set` of Junos (QFX
// class of service): forwarding classes (queue-num, pfc-priority), DSCP
// classifiers (6-bit code points), congestion-notification profiles (PFC),
// schedulers with explicit-congestion-notification through scheduler
// maps, DSCP rewrite rules (a hand edit: fabricgen renders none), and the
// per-interface bindings.
// readBinding is what an interface binds under class-of-service.
type readBinding struct{ classifier, cnp, smap, rewrite string }

// readState collects the class-of-service statements read reads.
type readState struct {
	fcQueue, fcPrio map[string]int
	classifiers     map[string]map[int]string
	cnpPFC          map[string]schema.PrioSet
	schedECN        map[string]bool
	smaps           map[string]map[string]string
	// rewrites are the DSCP rewrite rules: forwarding class to the code
	// point it leaves with.
	rewrites map[string]map[string]int
	ifs      map[string]*readBinding
	order    []string
	// prio is each forwarding class's priority (assignPrios).
	prio map[string]int
}

func read(text string) (*qosread.Device, error) {
	j := &readState{fcQueue: map[string]int{}, fcPrio: map[string]int{}, classifiers: map[string]map[int]string{},
		cnpPFC: map[string]schema.PrioSet{}, schedECN: map[string]bool{}, smaps: map[string]map[string]string{}, rewrites: map[string]map[string]int{}, ifs: map[string]*readBinding{}}
	n := 0
	for _, raw := range strings.Split(text, "\n") {
		if n++; n > qosread.MaxLines {
			break
		}
		f := strings.Fields(raw)
		if len(f) < 3 || f[0] != "set" || f[1] != "class-of-service" {
			continue
		}
		j.statement(f[2:])
	}
	return j.device(), nil
}

// statement reads one "set class-of-service …" statement (without the prefix).
func (j *readState) statement(f []string) {
	switch {
	case len(f) >= 5 && f[0] == "forwarding-classes" && f[1] == "class" && f[3] == "queue-num":
		if q, ok := qosread.Atoi(f[4]); ok && qosread.Prio(q) {
			j.fcQueue[f[2]] = q
		}
	case len(f) >= 5 && f[0] == "forwarding-classes" && f[1] == "class" && f[3] == "pfc-priority":
		if p, ok := qosread.Atoi(f[4]); ok && qosread.Prio(p) {
			j.fcPrio[f[2]] = p
		}
	case len(f) >= 9 && f[0] == "classifiers" && f[1] == "dscp" && f[3] == "forwarding-class" && f[7] == "code-points":
		m := j.classifiers[f[2]]
		if m == nil {
			m = map[int]string{}
			j.classifiers[f[2]] = m
		}
		for _, cp := range f[8:] {
			if v, err := strconv.ParseUint(strings.Trim(cp, "[]"), 2, 8); err == nil && len(cp) == 6 {
				m[int(v)] = f[4]
			}
		}
	case len(f) >= 7 && f[0] == "congestion-notification-profile" && f[2] == "output" && f[3] == "ieee-802.1" && f[4] == "code-point":
		if v, err := strconv.ParseUint(f[5], 2, 8); err == nil && v < 8 {
			j.cnpPFC[f[1]] = j.cnpPFC[f[1]].With(int(v))
		}
	case len(f) >= 3 && f[0] == "schedulers" && f[2] == "explicit-congestion-notification":
		j.schedECN[f[1]] = true
	case len(f) >= 6 && f[0] == "scheduler-maps" && f[2] == "forwarding-class" && f[4] == "scheduler":
		m := j.smaps[f[1]]
		if m == nil {
			m = map[string]string{}
			j.smaps[f[1]] = m
		}
		m[f[3]] = f[5]
	case f[0] == "rewrite-rules":
		j.rewriteRule(f[1:])
	case len(f) >= 4 && f[0] == "interfaces":
		j.binding(f[1:])
	}
}

// rewriteRule reads "rewrite-rules dscp NAME forwarding-class FC
// loss-priority low code-point BITS". One code point per forwarding class:
// fabricgen marks no loss priority, so every packet is low and the low row
// is the one that applies.
func (j *readState) rewriteRule(f []string) {
	if len(f) < 8 || f[0] != "dscp" || f[2] != "forwarding-class" || f[4] != "loss-priority" || f[5] != "low" || f[6] != "code-point" {
		return
	}
	v, err := strconv.ParseUint(f[7], 2, 8)
	if err != nil || len(f[7]) != 6 {
		return
	}
	m := j.rewrites[f[1]]
	if m == nil {
		m = map[string]int{}
		j.rewrites[f[1]] = m
	}
	m[f[3]] = int(v)
}

// binding reads "interfaces IF …".
func (j *readState) binding(f []string) {
	b := j.ifs[f[0]]
	if b == nil {
		b = &readBinding{}
		j.ifs[f[0]] = b
		j.order = append(j.order, f[0])
	}
	switch {
	case f[1] == "scheduler-map":
		b.smap = f[2]
	case f[1] == "congestion-notification-profile":
		b.cnp = f[2]
	case len(f) >= 6 && f[1] == "unit" && f[3] == "classifiers" && f[4] == "dscp":
		b.classifier = f[5]
	case len(f) >= 6 && f[1] == "unit" && f[3] == "rewrite-rules" && f[4] == "dscp":
		b.rewrite = f[5]
	}
}

// prioOf is a forwarding class's priority (assignPrios), else 0.
func (j *readState) prioOf(fc string) int {
	return j.prio[fc]
}

// assignPrios gives each forwarding class a priority: its pfc-priority;
// else N for a class named "prioN" (fabricgen's name for a priority no
// traffic class names); else its queue, when no class above took that
// priority; else the lowest priority still free. Classes are taken in
// name order, so the assignment does not depend on map order.
func (j *readState) assignPrios() {
	j.prio = map[string]int{}
	var taken [8]bool
	take := func(fc string, p int) {
		j.prio[fc] = p
		taken[p] = true
	}
	for fc, p := range j.fcPrio {
		take(fc, p)
	}
	var rest []string
	for fc := range j.fcQueue {
		if _, ok := j.fcPrio[fc]; !ok {
			rest = append(rest, fc)
		}
	}
	sort.Strings(rest)
	var unnamed []string
	for _, fc := range rest {
		if n, ok := strings.CutPrefix(fc, "prio"); ok {
			if p, ok := qosread.Atoi(n); ok && qosread.Prio(p) && !taken[p] {
				take(fc, p)
				continue
			}
		}
		unnamed = append(unnamed, fc)
	}
	var last []string
	for _, fc := range unnamed {
		if q := j.fcQueue[fc]; qosread.Prio(q) && !taken[q] {
			take(fc, q)
			continue
		}
		last = append(last, fc)
	}
	for _, fc := range last {
		for p := 0; p < 8; p++ {
			if !taken[p] {
				take(fc, p)
				break
			}
		}
	}
}

// readQFXDefaultClass reports whether fc is one of QFX's default forwarding
// classes, which fabricgen redeclares (fcoe, no-loss: lossy on a lossy
// queue) without giving them a priority.
func readQFXDefaultClass(fc string) bool {
	switch fc {
	case "best-effort", "fcoe", "no-loss", "network-control", "mcast":
		return true
	}
	return false
}

// classified reports whether a DSCP classifier selects the forwarding class.
func (j *readState) classified(fc string) bool {
	for _, m := range j.classifiers {
		for _, c := range m {
			if c == fc {
				return true
			}
		}
	}
	return false
}

// device builds the device from the statements read. A QFX default class
// without pfc-priority that no classifier selects carries no priority: it
// does not move its queue's priority (fcoe on queue 3 says nothing about
// priority 3).
func (j *readState) device() *qosread.Device {
	d := qosread.NewDevice()
	for fc := range j.fcQueue {
		if _, ok := j.fcPrio[fc]; !ok && readQFXDefaultClass(fc) && !j.classified(fc) {
			delete(j.fcQueue, fc)
		}
	}
	j.assignPrios()
	for fc, q := range j.fcQueue {
		d.Default.Queue[j.prioOf(fc)] = q
	}
	for _, name := range j.order {
		b := j.ifs[name]
		p := d.Named(name)
		if m := j.classifiers[b.classifier]; m != nil {
			var dm [64]int
			for cp, fc := range m {
				dm[cp] = j.prioOf(fc)
			}
			p.DSCP = dm
		}
		p.PFC = j.cnpPFC[b.cnp]
		p.Watchdog = b.cnp != "" && p.PFC != 0
		for fc, cp := range j.rewrites[b.rewrite] {
			if _, ok := j.fcQueue[fc]; ok {
				if p.RewritePrio == nil {
					p.RewritePrio = map[int]int{}
				}
				p.RewritePrio[j.prioOf(fc)] = cp
			}
		}
		for fc, s := range j.smaps[b.smap] {
			if q, ok := j.fcQueue[fc]; ok && j.schedECN[s] {
				p.ECN[q] = true
			}
		}
	}
	return d
}
