package importer

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// The factoring: from the effective QoS of every device and port to the
// intent's classes and policies. Every policy is written relative to the
// classes (what the loader derives from them), never relative to another
// policy, so a value set at one level cannot leak into a device that does
// not have it: the resolved QoS of every port is exactly what was read.

// class is one traffic_class the writer emits.
type class struct {
	name     string
	role     string
	dscp     []int
	priority int
	queue    int
	lossless bool
	// queue treatment carried by the class (only when it is the one class
	// on its queue in the reference QoS).
	ecn    *ECN
	sched  string
	weight *int
}

// policy is one qos_policy the writer emits: values set relative to the
// classes (nil or empty: not written).
type policy struct {
	name            string
	trust           string
	defaultPriority *int
	dscpMap         map[int]int
	pcpMap          map[int]int
	queueMap        map[int]int
	pfc             []int
	pfcSet          bool
	queues          map[int]*queueSet
	watchdog        *Watchdog
	watchdogOff     bool
	mtu             int
	linkPause       *bool
	buffer          Buffer
	src             []Span
	// classes is false for a port-level delta policy (the device's
	// policy lists them).
	classes bool
}

// queueSet is one queue block: what it sets.
type queueSet struct {
	sched     string
	weight    *int
	shaperBps int64
	ecn       *ECN
	ecnOff    bool
}

func (q *queueSet) empty() bool {
	return q.sched == "" && q.weight == nil && q.shaperBps == 0 && q.ecn == nil && !q.ecnOff
}

// resolved is what the loader would resolve for a chain of policies over
// the classes: the facts the writer must reproduce.
type resolved struct {
	trust     string
	dscp      [64]int
	pcp       [8]int
	queue     [8]int
	pfc       []int
	queues    [8]Queue
	watchdog  *Watchdog
	mtu       int
	linkPause *bool
	buffer    Buffer
}

// resolve mirrors schema's buildQoS for the fields the writer sets.
func resolve(classes []*class, chain []*policy) resolved {
	var r resolved
	for p := range 8 {
		r.queue[p], r.pcp[p] = p, p
	}
	var named [64]bool
	for _, c := range classes {
		for _, d := range c.dscp {
			r.dscp[d], named[d] = c.priority, true
		}
		r.queue[c.priority] = c.queue
		q := &r.queues[c.queue]
		if c.ecn != nil {
			q.ECN = c.ecn
		}
		if c.sched != "" {
			q.Sched = c.sched
		}
		if c.weight != nil {
			q.Weight = c.weight
		}
	}
	def := 0
	var set [64]bool
	pfcSet := false
	for _, pol := range chain {
		if pol.trust != "" {
			r.trust = pol.trust
		}
		for k, v := range pol.dscpMap {
			r.dscp[k], set[k] = v, true
		}
		for k, v := range pol.queueMap {
			r.queue[k] = v
		}
		for k, v := range pol.pcpMap {
			r.pcp[k] = v
		}
		for qn, qs := range pol.queues {
			q := &r.queues[qn]
			if qs.ecn != nil {
				q.ECN = qs.ecn
			}
			if qs.ecnOff {
				q.ECN = nil
			}
			if qs.sched != "" {
				q.Sched = qs.sched
			}
			if qs.weight != nil {
				q.Weight = qs.weight
				if qs.sched == "" {
					q.Sched = "dwrr"
				}
			}
			if qs.shaperBps != 0 {
				q.ShaperBps = qs.shaperBps
			}
		}
		if pol.defaultPriority != nil {
			def = *pol.defaultPriority
		}
		if pol.watchdog != nil {
			r.watchdog = pol.watchdog
		}
		if pol.watchdogOff {
			r.watchdog = nil
		}
		if pol.mtu != 0 {
			r.mtu = pol.mtu
		}
		if pol.linkPause != nil {
			r.linkPause = pol.linkPause
		}
		if pol.pfcSet {
			r.pfc, pfcSet = pol.pfc, true
		}
		mergeBuffer(&r.buffer, pol.buffer)
	}
	for d := range 64 {
		if !named[d] && !set[d] {
			r.dscp[d] = def
		}
	}
	if !pfcSet {
		for _, c := range classes {
			if c.lossless {
				r.pfc = append(r.pfc, c.priority)
			}
		}
		sort.Ints(r.pfc)
	}
	return r
}

// want is a QoS as the resolved facts it stands for (a nil QoS: the
// platform's defaults, which the intent says by setting nothing).
func want(q *QoS) resolved {
	var r resolved
	for p := range 8 {
		r.queue[p], r.pcp[p] = p, p
	}
	if q == nil {
		return r
	}
	r.trust = q.Trust
	def := 0
	if q.DefaultPriority != nil {
		def = *q.DefaultPriority
	}
	for d := range 64 {
		r.dscp[d] = def
	}
	for d, v := range q.DSCP {
		if d >= 0 && d < 64 {
			r.dscp[d] = v
		}
	}
	for k, v := range q.PCP {
		if k >= 0 && k < 8 {
			r.pcp[k] = v
		}
	}
	for k, v := range q.Queue {
		if k >= 0 && k < 8 {
			r.queue[k] = v
		}
	}
	r.pfc = sortedSet(q.PFC)
	for k, v := range q.Queues {
		if k >= 0 && k < 8 && v != nil {
			r.queues[k] = *v
			if v.ECNOff {
				r.queues[k].ECN = nil
			}
			r.queues[k].ECNOff = false
		}
	}
	if !q.WatchdogOff {
		r.watchdog = q.Watchdog
	}
	r.mtu, r.linkPause = q.MTU, q.LinkPause
	if q.Buffer != nil {
		r.buffer = *q.Buffer
	}
	return r
}

// mergeBuffer sets on dst every knob src sets.
func mergeBuffer(dst *Buffer, src Buffer) {
	for _, f := range []struct{ d, s *int64 }{{&dst.Headroom, &src.Headroom}, {&dst.XOFF, &src.XOFF}, {&dst.XON, &src.XON},
		{&dst.IngressLosslessPool, &src.IngressLosslessPool}, {&dst.EgressLossyPool, &src.EgressLossyPool}} {
		if *f.s != 0 {
			*f.d = *f.s
		}
	}
	if src.DynamicThreshold != nil {
		dst.DynamicThreshold = src.DynamicThreshold
	}
}

func bufferKey(b Buffer) string {
	return fmt.Sprintf("%d/%d/%d/%d/%d/%s", b.Headroom, b.XOFF, b.XON, b.IngressLosslessPool, b.EgressLossyPool, intp(b.DynamicThreshold))
}

func sortedSet(v []int) []int {
	out := slices.Clone(v)
	sort.Ints(out)
	return slices.Compact(out)
}

// key is a canonical text of a QoS's resolved facts, to group equal ones.
func (r resolved) key() string {
	b := make([]byte, 0, 320)
	b = append(b, "t="...)
	b = append(b, r.trust...)
	b = appendInts(append(b, " d="...), r.dscp[:])
	b = appendInts(append(b, " p="...), r.pcp[:])
	b = appendInts(append(b, " q="...), r.queue[:])
	b = appendInts(append(b, " pfc="...), r.pfc)
	b = strconv.AppendInt(append(b, " mtu="...), int64(r.mtu), 10)
	b = append(append(b, " buf="...), bufferKey(r.buffer)...)
	if r.linkPause != nil {
		b = strconv.AppendBool(append(b, " lp="...), *r.linkPause)
	}
	if r.watchdog != nil {
		b = append(append(b, " wd="...), wdKey(r.watchdog)...)
	}
	for i, q := range r.queues {
		b = append(strconv.AppendInt(append(b, " q"...), int64(i), 10), '=')
		b = append(append(append(b, q.Sched...), '/'), intp(q.Weight)...)
		b = strconv.AppendInt(append(b, '/'), q.ShaperBps, 10)
		if q.ECN != nil {
			b = append(append(b, '/'), ecnKey(q.ECN)...)
		}
	}
	return string(b)
}

// appendInts appends v as "[1 2 3]".
func appendInts(b []byte, v []int) []byte {
	b = append(b, '[')
	for i, n := range v {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, ']')
}

func intp(p *int) string {
	if p == nil {
		return "-"
	}
	return strconv.Itoa(*p)
}

func ecnKey(e *ECN) string {
	return fmt.Sprintf("%d-%d-%s-%s-%d-%v", e.MinBytes, e.MaxBytes, intp(e.MinFill), intp(e.MaxFill), e.Probability, e.Mark)
}

func wdKey(w *Watchdog) string {
	return fmt.Sprintf("%d-%d-%d-%s", w.DetectionMS, w.RestorationMS, w.PollMS, w.Action)
}

func sameECN(a, b *ECN) bool {
	if a == nil || b == nil {
		return a == b
	}
	return ecnKey(a) == ecnKey(b)
}

func sameInt(a, b *int) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// deriveClasses makes the classes from the reference QoS (the most common
// device QoS): one per priority that a code point selects, that is
// lossless, or that a configuration names.
func deriveClasses(ref *QoS, names map[int]string) ([]*class, int) {
	w := want(ref)
	def := 0
	if ref != nil && ref.DefaultPriority != nil {
		def = *ref.DefaultPriority
	} else if ref != nil && len(ref.DSCP) > 0 {
		def = modePriority(w.dscp)
	}
	lossless := map[int]bool{}
	for _, p := range w.pfc {
		lossless[p] = true
	}
	onQueue := map[int]int{}
	var out []*class
	for p := range 8 {
		var dscp []int
		if ref != nil && len(ref.DSCP) > 0 {
			for d := range 64 {
				if w.dscp[d] == p && (p != def || d == 0) {
					dscp = append(dscp, d)
				}
			}
		}
		name := names[p]
		catchAll := ref != nil && p == def && len(ref.DSCP) > 0
		if len(dscp) == 0 && !lossless[p] && (name == "" || name == "prio"+strconv.Itoa(p)) && !catchAll {
			continue
		}
		if name == "" {
			name = "prio" + strconv.Itoa(p)
		}
		c := &class{name: name, dscp: dscp, priority: p, queue: w.queue[p], lossless: lossless[p]}
		onQueue[c.queue]++
		out = append(out, c)
	}
	for _, c := range out {
		if onQueue[c.queue] != 1 {
			continue
		}
		q := w.queues[c.queue]
		c.ecn, c.sched, c.weight = q.ECN, q.Sched, q.Weight
	}
	guessRoles(out, def)
	// A class the configuration names nothing is named by its role.
	for _, c := range out {
		if names[c.priority] == "" && c.role != "" {
			c.name = c.role
		}
	}
	return out, def
}

// modePriority is the priority most code points map to (the lowest on a
// tie): the catch-all of a complete map.
func modePriority(dscp [64]int) int {
	var n [8]int
	for _, p := range dscp {
		if p >= 0 && p < 8 {
			n[p]++
		}
	}
	best := 0
	for p := range 8 {
		if n[p] > n[best] {
			best = p
		}
	}
	return best
}

// guessRoles gives classes the roles lint reasons about, from what the
// device does with them: the default priority's class is "default"; a
// lossless class is "roce" when it is the only lossless one; a strict,
// lossy class carrying DSCP 48 (the CNP code point NVIDIA's and the
// vendors' RoCE guides use) or named cnp is "cnp". Anything else keeps
// the language's default role (bulk). The import report says so.
func guessRoles(cs []*class, def int) {
	var lossless []*class
	for _, c := range cs {
		if c.lossless {
			lossless = append(lossless, c)
		}
	}
	for _, c := range cs {
		switch {
		case c.priority == def && !c.lossless:
			c.role = "default"
		case c.lossless && len(lossless) == 1:
			c.role = "roce"
		case !c.lossless && (slices.Contains(c.dscp, 48) || strings.EqualFold(c.name, "cnp")):
			c.role = "cnp"
		}
	}
}

// devicePolicy writes a QoS as a policy over the classes: only what the
// classes do not already give.
func devicePolicy(name string, classes []*class, q *QoS) *policy {
	pol := &policy{name: name, classes: true, queues: map[int]*queueSet{}}
	w := want(q)
	base := resolve(classes, nil)
	pol.trust = q.Trust
	def := 0
	if q.DefaultPriority != nil {
		def = *q.DefaultPriority
	} else if len(q.DSCP) > 0 {
		def = modePriority(w.dscp)
	}
	if len(q.DSCP) > 0 || q.DefaultPriority != nil {
		pol.defaultPriority = &def
	}
	fillDelta(pol, classes, []*policy{}, w, base)
	pol.src = q.Src
	return pol
}

// portPolicy writes a port's QoS as a delta over its device's policy.
func portPolicy(name string, classes []*class, dev *policy, q *QoS) *policy {
	pol := &policy{name: name, queues: map[int]*queueSet{}}
	w := want(q)
	chain := []*policy{dev}
	base := resolve(classes, chain)
	if w.trust != base.trust {
		pol.trust = w.trust
	}
	def := 0
	if q.DefaultPriority != nil {
		def = *q.DefaultPriority
	} else if len(q.DSCP) > 0 {
		def = modePriority(w.dscp)
	}
	devDef := 0
	if dev.defaultPriority != nil {
		devDef = *dev.defaultPriority
	}
	if def != devDef {
		pol.defaultPriority = &def
	}
	fillDelta(pol, classes, chain, w, base)
	pol.src = q.Src
	return pol
}

// fillDelta sets on pol every value in which w differs from what the
// chain (without pol) resolves to.
func fillDelta(pol *policy, classes []*class, chain []*policy, w, base resolved) {
	// DSCP: what the chain plus pol's default priority resolves to.
	cur := resolve(classes, append(slices.Clone(chain), pol))
	for d := range 64 {
		if cur.dscp[d] != w.dscp[d] {
			if pol.dscpMap == nil {
				pol.dscpMap = map[int]int{}
			}
			pol.dscpMap[d] = w.dscp[d]
		}
	}
	for p := range 8 {
		if base.pcp[p] != w.pcp[p] {
			if pol.pcpMap == nil {
				pol.pcpMap = map[int]int{}
			}
			pol.pcpMap[p] = w.pcp[p]
		}
		if base.queue[p] != w.queue[p] {
			if pol.queueMap == nil {
				pol.queueMap = map[int]int{}
			}
			pol.queueMap[p] = w.queue[p]
		}
	}
	if !slices.Equal(base.pfc, w.pfc) || len(chain) == 0 {
		pol.pfc, pol.pfcSet = w.pfc, true
	}
	for qn := range 8 {
		b, x := base.queues[qn], w.queues[qn]
		qs := &queueSet{}
		if b.Sched != x.Sched && x.Sched != "" {
			qs.sched = x.Sched
		}
		if !sameInt(b.Weight, x.Weight) && x.Weight != nil {
			qs.weight = x.Weight
			if x.Sched == "" {
				qs.sched = ""
			}
		}
		if b.ShaperBps != x.ShaperBps && x.ShaperBps != 0 {
			qs.shaperBps = x.ShaperBps
		}
		if !sameECN(b.ECN, x.ECN) {
			if x.ECN == nil {
				qs.ecnOff = true
			} else {
				qs.ecn = x.ECN
			}
		}
		if !qs.empty() {
			pol.queues[qn] = qs
		}
	}
	if w.watchdog != nil && (base.watchdog == nil || wdKey(base.watchdog) != wdKey(w.watchdog)) {
		pol.watchdog = w.watchdog
	}
	if w.watchdog == nil && base.watchdog != nil {
		pol.watchdogOff = true
	}
	if w.mtu != base.mtu && w.mtu != 0 {
		pol.mtu = w.mtu
	}
	if w.linkPause != nil && (base.linkPause == nil || *base.linkPause != *w.linkPause) {
		pol.linkPause = w.linkPause
	}
	for _, f := range []struct{ d, w, b *int64 }{{&pol.buffer.Headroom, &w.buffer.Headroom, &base.buffer.Headroom}, {&pol.buffer.XOFF, &w.buffer.XOFF, &base.buffer.XOFF},
		{&pol.buffer.XON, &w.buffer.XON, &base.buffer.XON}, {&pol.buffer.IngressLosslessPool, &w.buffer.IngressLosslessPool, &base.buffer.IngressLosslessPool},
		{&pol.buffer.EgressLossyPool, &w.buffer.EgressLossyPool, &base.buffer.EgressLossyPool}} {
		if *f.w != 0 && *f.w != *f.b {
			*f.d = *f.w
		}
	}
	if w.buffer.DynamicThreshold != nil && !sameInt(w.buffer.DynamicThreshold, base.buffer.DynamicThreshold) {
		pol.buffer.DynamicThreshold = w.buffer.DynamicThreshold
	}
}

// lost lists, in words, the facts of w a chain over the classes does not
// reproduce (what the language cannot say: a scheduler or MTU a platform
// default hides, a shaper removed…): the writer reports each.
func lost(classes []*class, chain []*policy, w resolved) []string {
	got := resolve(classes, chain)
	var out []string
	if got.trust != w.trust {
		out = append(out, fmt.Sprintf("trust %q (the intent keeps %q)", w.trust, got.trust))
	}
	for qn := range 8 {
		g, x := got.queues[qn], w.queues[qn]
		if x.Sched == "" && g.Sched != "" {
			out = append(out, fmt.Sprintf("queue %d has no scheduler of its own (the intent gives it %s)", qn, g.Sched))
		}
		if x.Weight == nil && g.Weight != nil {
			out = append(out, fmt.Sprintf("queue %d has no weight of its own (the intent gives it %d)", qn, *g.Weight))
		}
		if x.ShaperBps == 0 && g.ShaperBps != 0 {
			out = append(out, fmt.Sprintf("queue %d has no shaper (the intent cannot remove the one it inherits)", qn))
		}
	}
	if bufferKey(w.buffer) != bufferKey(got.buffer) {
		out = append(out, "buffer knobs "+bufferKey(w.buffer)+" (the intent keeps "+bufferKey(got.buffer)+")")
	}
	if w.mtu == 0 && got.mtu != 0 {
		out = append(out, fmt.Sprintf("no MTU of its own (the intent gives it %d)", got.mtu))
	}
	return out
}
