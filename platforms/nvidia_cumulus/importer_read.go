package nvidiacumulus

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/importer"
)

// The commands' meaning, per the NVIDIA Cumulus Linux user guide
// ("Quality of Service": mapping, egress-queue-mapping, traffic-pool, pfc,
// pfc-watchdog, congestion-control, egress-scheduler, Port Groups;
// "Access Control List Configuration"; "Interface Configuration and
// Management") and the NVUE command reference. fabricgen renders one
// profile, default-global, which every port uses: a port group (a
// profile bound with "interface X qos <feature> profile P") cannot be
// written back as intent that renders, so its lines are reported.

// importWhy are the reasons the report gives for lines no intent says.
const (
	whyProfile    = "a QoS port group (profile other than default-global): fabricgen renders only the default-global profile, which every port uses"
	whyRemark     = "an egress 802.1p/DSCP remark map: the intent has no egress rewrite"
	whyShaper     = "an egress shaper: fabricgen renders no NVUE egress shaper"
	whyLinkPause  = "802.3x link pause: fabricgen renders no NVUE link-pause profile"
	whyBuffer     = "an advanced buffer setting: the intent has no NVUE buffer region or service pool"
	whyRoCE       = "NVIDIA's RoCE profile (qos roce): its values are not in the configuration; spell them out with nv set qos mapping/pfc/congestion-control, or read nv show qos roce"
	whyPool       = "a traffic pool other than fabricgen's 50/50 default-lossless/default-lossy split with PFC on"
	whyPFCKnob    = "a PFC cable length or port-buffer/xoff/xon threshold without PFC priorities: fabricgen renders them only on a PFC profile"
	whyCableNone  = "a PFC cable length with no switch port in the configuration to carry it"
	whyPFCDir     = "PFC in one direction only: the intent's PFC sends and honours pause frames"
	whyWatchdogNo = "PFC watchdog timers while no port enables the watchdog"
	whyQoSOther   = "a QoS setting fabricgen does not express"
	whyDWRRZero   = "DWRR without a bw-percent from 1 to 100: Cumulus gives the queue no share, which the intent's dwrr (weight 1–100) cannot say"
	whyNotPort    = "QoS or an ACL on an interface that is not a switch port (swpN, swpNsM)"
	whyACL        = "an ACL match or action the intent cannot say; the rule is left out of the imported ACL"
	whyACLNoAct   = "an ACL rule without a permit, deny or set dscp action; the rule is left out"
	whyACLBind    = "an ACL binding fabricgen does not express"
	whyRange      = "an interface name or range import cannot expand"
)

// impPort is one switch port as the commands set it.
type impPort struct {
	name   string
	desc   string
	ip     string
	routed bool
	mtu    int
	speed  int64
	fec    string
	wd     bool
	wdLine int
	in     []string
	out    []string
	from   int
	to     int
	// set records the line of each scalar attribute, for ports
	// configured twice.
	set map[string]impSet
}

// impSet is the last value of one port attribute and its line.
type impSet struct {
	line int
	val  string
}

// impECN is one traffic class's congestion control.
type impECN struct {
	min, max int64
	prob     int
	probSet  bool
	ecn, red *bool
}

// impSched is one traffic class's egress scheduler and its lines.
type impSched struct {
	mode  string
	bw    *int
	lines []nvCmd
}

// impRule is one ACL rule as its lines build it.
type impRule struct {
	seq      int
	rule     importer.ACLRule
	action   bool
	badLines []int
	badTexts []string
	lines    []int
	from, to int
}

// impACL is one ACL.
type impACL struct {
	name  string
	typ   string
	rules map[int]*impRule
	order []int
	from  int
	to    int
}

// impKnob is one numeric PFC profile setting and its line.
type impKnob struct {
	what string
	val  int64
	cmd  nvCmd
}

// impState is the whole file as its commands set it.
type impState struct {
	name string
	dev  *importer.Device
	seen map[string]bool // unmapped (line, why) already reported

	hostname string
	// cableM is the PFC cable length every port gets (0: none).
	cableM float64
	// syntax515 is true when an interface uses "ipv4 …"/"ipv6 …", the
	// words Cumulus Linux 5.15 gave "ip …" ("New and Changed NVUE
	// Commands", 5.15).
	syntax515 bool

	trust     string
	defaultSP *int
	dscp      map[int]int
	pcp       map[int]int
	queue     map[int]int
	pfc       []int
	pfcSet    bool
	ecn       map[int]*impECN
	sched     map[int]*impSched
	pools     map[string]int
	poolLines []nvCmd
	wdPoll    int64
	wdRobust  int64
	wdLines   []nvCmd
	// pfcKnobs are the default-global PFC profile's cable-length,
	// port-buffer, xoff-threshold and xon-threshold.
	pfcKnobs []impKnob
	qosSrc   []int

	ports     map[string]*impPort
	portOrder []string
	acls      map[string]*impACL
	aclOrder  []string
}

// importRead reads the commands into a Device.
func importRead(ctx context.Context, name string, cmds []nvCmd, hdr nvHeader) (*importer.Device, error) {
	cmds, err := importApplyUnsets(ctx, name, cmds)
	if err != nil {
		return nil, err
	}
	st := &impState{
		name: name,
		dev:  &importer.Device{Platform: string(importPlatform), Src: importer.Span{File: name}},
		seen: map[string]bool{},
		ecn:  map[int]*impECN{}, sched: map[int]*impSched{}, pools: map[string]int{},
		ports: map[string]*impPort{}, acls: map[string]*impACL{},
	}
	for i, c := range cmds {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, importer.Errorf(name, c.line, "import stopped: %v", ctx.Err())
		}
		st.command(c)
	}
	return st.device(hdr), nil
}

// importPlatform is the platform's name (the parameters call the file name).
const importPlatform = name

// importApplyUnsets expands interface ranges (one command per port) and
// drops every set an nv unset after it removes (an unset removes the
// subtree its words name, as NVUE does).
func importApplyUnsets(ctx context.Context, name string, cmds []nvCmd) ([]nvCmd, error) {
	out := make([]nvCmd, 0, len(cmds))
	total := 0
	for _, c := range cmds {
		if len(c.words) >= 2 && c.words[0] == "interface" {
			ports, ok := importExpandPorts(c.words[1])
			if !ok {
				out = append(out, nvCmd{line: c.line, unset: c.unset, words: []string{"?range", c.words[1]}, text: c.text})
				continue
			}
			if total += len(ports); total > importMaxPortCmds {
				return nil, importer.Errorf(name, c.line, "the interface commands name more than %d ports in all", importMaxPortCmds)
			}
			if len(ports) == 1 && ports[0] == c.words[1] {
				out = append(out, c)
				continue
			}
			for _, p := range ports {
				w := make([]string, len(c.words))
				copy(w, c.words)
				w[1] = p
				out = append(out, nvCmd{line: c.line, unset: c.unset, words: w, text: c.text})
			}
			continue
		}
		out = append(out, c)
	}
	hasUnset := false
	for _, c := range out {
		hasUnset = hasUnset || c.unset
	}
	if !hasUnset {
		return out, nil
	}
	// Backwards: a set is dropped when an unset after it names a prefix of it.
	trie := &impTrie{}
	keep := make([]bool, len(out))
	for i := len(out) - 1; i >= 0; i-- {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, importer.Errorf(name, out[i].line, "import stopped: %v", ctx.Err())
		}
		c := out[i]
		if c.unset {
			trie.add(c.words)
			continue
		}
		keep[i] = !trie.coversPrefix(c.words)
	}
	kept := out[:0]
	for i, c := range out {
		if keep[i] {
			kept = append(kept, c)
		}
	}
	return kept, nil
}

// impTrie holds the word paths of unset commands.
type impTrie struct {
	end  bool
	next map[string]*impTrie
}

func (t *impTrie) add(words []string) {
	for _, w := range words {
		if t.next == nil {
			t.next = map[string]*impTrie{}
		}
		n := t.next[w]
		if n == nil {
			n = &impTrie{}
			t.next[w] = n
		}
		t = n
	}
	t.end = true
}

// coversPrefix reports whether an unset path is a prefix of words.
func (t *impTrie) coversPrefix(words []string) bool {
	for _, w := range words {
		if t.end {
			return true
		}
		if t = t.next[w]; t == nil {
			return false
		}
	}
	return t.end
}

// unmapped reports c's line once per reason.
func (st *impState) unmapped(c nvCmd, why string) {
	key := strconv.Itoa(c.line) + "\x00" + why
	if st.seen[key] {
		return
	}
	st.seen[key] = true
	st.dev.Unmapped = append(st.dev.Unmapped, importer.Line{File: st.name, Line: c.line, Text: c.text, Why: why})
}

// command reads one command.
func (st *impState) command(c nvCmd) {
	w := c.words
	switch w[0] {
	case "system":
		if len(w) == 3 && w[1] == "hostname" {
			st.hostname = w[2]
		}
	case "qos":
		st.qos(c, w[1:])
	case "acl":
		st.acl(c, w[1:])
	case "interface":
		if len(w) >= 4 && (w[2] == "ipv4" || w[2] == "ipv6") {
			st.syntax515 = true
		}
		if len(w) >= 2 {
			st.iface(c, w[1], w[2:])
		}
	case "?range":
		if len(w) > 2 || importQoSOrACL(c.text) {
			st.unmapped(c, whyRange)
		}
	}
}

// importQoSOrACL reports whether an interface line sets QoS or an ACL.
func importQoSOrACL(text string) bool {
	return strings.Contains(text, " qos ") || strings.Contains(text, " acl ")
}

// qos reads "qos …".
func (st *impState) qos(c nvCmd, w []string) {
	if len(w) == 0 {
		return
	}
	switch w[0] {
	case "mapping", "egress-queue-mapping", "pfc", "congestion-control", "egress-scheduler", "traffic-pool", "pfc-watchdog":
		if len(w) < 2 {
			st.unmapped(c, whyQoSOther)
			return
		}
	}
	if len(w) >= 2 {
		switch w[0] {
		case "mapping", "egress-queue-mapping", "pfc", "congestion-control", "egress-scheduler":
			if w[1] != viewCumulusProfile {
				st.unmapped(c, whyProfile)
				return
			}
		}
	}
	ok := false
	switch w[0] {
	case "mapping":
		ok = st.mapping(w[2:])
	case "egress-queue-mapping":
		if len(w) == 6 && w[2] == "switch-priority" && w[4] == "traffic-class" {
			tc, ok1 := importPrio(w[5])
			sps, ok2 := importPrios(w[3])
			if ok = ok1 && ok2; ok {
				if st.queue == nil {
					st.queue = map[int]int{}
				}
				for _, sp := range sps {
					st.queue[sp] = tc
				}
			}
		}
	case "pfc":
		ok = st.pfcLine(c, w[2:])
		if !ok {
			return // pfcLine reported it
		}
	case "congestion-control":
		ok = st.congestion(w[2:])
	case "egress-scheduler":
		ok = st.scheduler(c, w[2:])
	case "traffic-pool":
		st.poolLines = append(st.poolLines, c)
		if len(w) == 4 && w[2] == "memory-percent" {
			if v, err := strconv.Atoi(w[3]); err == nil {
				st.pools[w[1]] = v
				return
			}
		}
		st.unmapped(c, whyPool)
		return
	case "pfc-watchdog":
		st.wdLines = append(st.wdLines, c)
		if len(w) == 3 {
			v, err := strconv.ParseInt(w[2], 10, 64)
			switch {
			case err != nil || v < 0 || v > 1<<31:
			case w[1] == "polling-interval":
				st.wdPoll, ok = v, true
			case w[1] == "robustness":
				st.wdRobust, ok = v, true
			}
		}
		if ok {
			return
		}
	case "remark":
		st.unmapped(c, whyRemark)
		return
	case "egress-shaper":
		st.unmapped(c, whyShaper)
		return
	case "link-pause":
		st.unmapped(c, whyLinkPause)
		return
	case "advance-buffer-config":
		st.unmapped(c, whyBuffer)
		return
	case "roce":
		st.unmapped(c, whyRoCE)
		return
	}
	if !ok {
		st.unmapped(c, whyQoSOther)
		return
	}
	st.qosSrc = append(st.qosSrc, c.line)
}

// mapping reads "mapping default-global …".
func (st *impState) mapping(w []string) bool {
	switch {
	case len(w) == 2 && w[0] == "trust":
		t, ok := map[string]string{"l3": "dscp", "l2": "pcp", "both": "both", "port": "none"}[w[1]]
		if ok {
			st.trust = t
		}
		return ok
	case len(w) == 2 && w[0] == "port-default-sp":
		p, ok := importPrio(w[1])
		if ok {
			st.defaultSP = &p
		}
		return ok
	case len(w) == 4 && (w[0] == "dscp" || w[0] == "pcp") && w[2] == "switch-priority":
		p, ok := importPrio(w[3])
		max := 63
		if w[0] == "pcp" {
			max = 7
		}
		vals, ok2 := importInts(w[1], max)
		if !ok || !ok2 {
			return false
		}
		m := &st.dscp
		if w[0] == "pcp" {
			m = &st.pcp
		}
		if *m == nil {
			*m = map[int]int{}
		}
		for _, v := range vals {
			(*m)[v] = p
		}
		return true
	}
	return false
}

// pfcLine reads "pfc default-global …"; it reports what it cannot map
// and returns false then.
func (st *impState) pfcLine(c nvCmd, w []string) bool {
	switch {
	case len(w) == 2 && w[0] == "switch-priority":
		ps, ok := importPrios(w[1])
		if !ok {
			break
		}
		st.pfcSet = true
		for _, p := range ps {
			if !slices.Contains(st.pfc, p) {
				st.pfc = append(st.pfc, p)
			}
		}
		slices.Sort(st.pfc)
		return true
	case len(w) == 2 && (w[0] == "tx" || w[0] == "rx"):
		if w[1] == "enable" {
			return true
		}
		st.unmapped(c, whyPFCDir)
		return false
	case len(w) == 2 && (w[0] == "cable-length" || w[0] == "port-buffer" || w[0] == "xoff-threshold" || w[0] == "xon-threshold"):
		// Judged with the whole file: they take effect only with PFC on.
		if v, err := strconv.ParseInt(w[1], 10, 64); err == nil && v > 0 && v < 1<<40 {
			st.pfcKnobs = append(st.pfcKnobs, impKnob{what: w[0], val: v, cmd: c})
			return false
		}
	}
	st.unmapped(c, whyQoSOther)
	return false
}

// congestion reads "congestion-control default-global traffic-class L …".
func (st *impState) congestion(w []string) bool {
	if len(w) != 4 || w[0] != "traffic-class" {
		return false
	}
	tcs, ok := importPrios(w[1])
	if !ok {
		return false
	}
	val := w[3]
	for _, tc := range tcs {
		e := st.ecn[tc]
		if e == nil {
			e = &impECN{}
			st.ecn[tc] = e
		}
		switch w[2] {
		case "min-threshold", "max-threshold":
			v, err := strconv.ParseInt(val, 10, 64)
			if err != nil || v < 0 {
				return false
			}
			if w[2] == "min-threshold" {
				e.min = v
			} else {
				e.max = v
			}
		case "probability":
			v, err := strconv.Atoi(val)
			if err != nil || v < 0 || v > 100 {
				return false
			}
			e.prob, e.probSet = v, true
		case "ecn", "red":
			b, ok := importEnable(val)
			if !ok {
				return false
			}
			if w[2] == "ecn" {
				e.ecn = &b
			} else {
				e.red = &b
			}
		default:
			return false
		}
	}
	return true
}

// scheduler reads "egress-scheduler default-global traffic-class L …".
func (st *impState) scheduler(c nvCmd, w []string) bool {
	if len(w) != 4 || w[0] != "traffic-class" {
		return false
	}
	tcs, ok := importPrios(w[1])
	if !ok {
		return false
	}
	for _, tc := range tcs {
		s := st.sched[tc]
		if s == nil {
			s = &impSched{}
			st.sched[tc] = s
		}
		s.lines = append(s.lines, c)
		switch w[2] {
		case "mode":
			if w[3] != "strict" && w[3] != "dwrr" {
				return false
			}
			s.mode = w[3]
		case "bw-percent":
			v, err := strconv.Atoi(w[3])
			if err != nil || v < 0 || v > 100 {
				return false
			}
			s.bw = &v
		default:
			return false
		}
	}
	return true
}

// iface reads "interface NAME …" for one port.
func (st *impState) iface(c nvCmd, name string, w []string) {
	if !portName(name) {
		if len(w) > 0 && (w[0] == "qos" || w[0] == "acl") {
			st.unmapped(c, whyNotPort)
		}
		return
	}
	p := st.ports[name]
	if p == nil {
		p = &impPort{name: name, from: c.line, to: c.line, set: map[string]impSet{}}
		st.ports[name] = p
		st.portOrder = append(st.portOrder, name)
	}
	p.from, p.to = min(p.from, c.line), max(p.to, c.line)
	if len(w) == 0 {
		return
	}
	switch {
	case len(w) == 2 && w[0] == "description":
		st.twice(c, p, "description", w[1])
		p.desc = w[1]
	case len(w) == 3 && (w[0] == "ip" || w[0] == "ipv4" || w[0] == "ipv6") && w[1] == "address":
		if w[2] == "dhcp" {
			return
		}
		if p.ip == "" {
			p.ip = w[2]
		}
		p.routed = true
	case len(w) == 4 && w[0] == "ip" && w[1] == "ipv6" && w[2] == "enable" && w[3] == "on",
		len(w) == 3 && w[0] == "ipv6" && w[1] == "state" && w[2] == "enabled":
		p.routed = true
	case len(w) == 3 && w[0] == "link":
		st.link(c, p, w[1], w[2])
	case w[0] == "qos":
		st.ifaceQoS(c, p, w[1:])
	case w[0] == "acl":
		if len(w) == 3 && (w[2] == "inbound" || w[2] == "outbound") {
			dir := &p.in
			if w[2] == "outbound" {
				dir = &p.out
			}
			if !slices.Contains(*dir, w[1]) {
				*dir = append(*dir, w[1])
			}
			return
		}
		st.unmapped(c, whyACLBind)
	}
}

// link reads "interface NAME link mtu|speed|fec VALUE".
func (st *impState) link(c nvCmd, p *impPort, attr, val string) {
	switch attr {
	case "mtu":
		if v, err := strconv.Atoi(val); err == nil && v > 0 && v < 1<<20 {
			st.twice(c, p, "link mtu", val)
			p.mtu = v
		}
	case "speed":
		st.twice(c, p, "link speed", val)
		p.speed = importSpeed(val)
	case "fec":
		st.twice(c, p, "link fec", val)
		p.fec = map[string]string{"rs": "rs", "baser": "fc", "off": "none"}[val]
	}
}

// ifaceQoS reads "interface NAME qos …".
func (st *impState) ifaceQoS(c nvCmd, p *impPort, w []string) {
	switch {
	case len(w) == 1 && w[0] == "pfc-watchdog":
		p.wd, p.wdLine = true, c.line
	case len(w) == 3 && w[0] == "pfc-watchdog" && w[1] == "state":
		on, ok := importEnable(w[2])
		if !ok {
			st.unmapped(c, whyQoSOther)
			return
		}
		p.wd, p.wdLine = on, c.line
	case len(w) == 3 && w[1] == "profile":
		if w[2] == viewCumulusProfile {
			return
		}
		switch w[0] {
		case "remark":
			st.unmapped(c, whyRemark)
		case "egress-shaper":
			st.unmapped(c, whyShaper)
		case "link-pause":
			st.unmapped(c, whyLinkPause)
		default:
			st.unmapped(c, whyProfile)
		}
	default:
		st.unmapped(c, whyQoSOther)
	}
}

// twice records a port attribute; a second, different value is reported.
func (st *impState) twice(c nvCmd, p *impPort, attr, val string) {
	if prev, ok := p.set[attr]; ok && prev.val != val {
		st.dev.Twice = append(st.dev.Twice, importer.Line{File: st.name, Line: c.line, Text: c.text,
			Why: fmt.Sprintf("%s %s is also set on line %d; NVUE keeps the later value", p.name, attr, prev.line)})
	}
	p.set[attr] = impSet{line: c.line, val: val}
}

// acl reads "acl NAME …".
func (st *impState) acl(c nvCmd, w []string) {
	if len(w) < 2 {
		return
	}
	a := st.acls[w[0]]
	if a == nil {
		a = &impACL{name: w[0], rules: map[int]*impRule{}, from: c.line}
		st.acls[w[0]] = a
		st.aclOrder = append(st.aclOrder, w[0])
	}
	a.from, a.to = min(a.from, c.line), max(a.to, c.line)
	switch {
	case len(w) == 3 && w[1] == "type":
		a.typ = w[2]
		return
	case len(w) >= 4 && w[1] == "rule":
		seq, err := strconv.Atoi(w[2])
		if err != nil || seq < 0 {
			st.unmapped(c, whyACL)
			return
		}
		r := a.rules[seq]
		if r == nil {
			r = &impRule{seq: seq, from: c.line, to: c.line}
			r.rule.Seq = seq
			a.rules[seq] = r
			a.order = append(a.order, seq)
		}
		r.from, r.to = min(r.from, c.line), max(r.to, c.line)
		r.lines = append(r.lines, c.line)
		if !importRulePart(&r.rule, w[3:]) {
			r.badLines = append(r.badLines, c.line)
			r.badTexts = append(r.badTexts, c.text)
			return
		}
		if w[3] == "action" {
			r.action = true
		}
		return
	}
	st.unmapped(c, whyACL)
}

// importRulePart reads one "match …" or "action …" of a rule.
func importRulePart(r *importer.ACLRule, w []string) bool {
	switch {
	case len(w) == 2 && w[0] == "action" && (w[1] == "permit" || w[1] == "deny"):
		r.Action = w[1]
	case len(w) == 4 && w[0] == "action" && w[1] == "set" && w[2] == "dscp":
		v, ok := importDSCP(w[3])
		if !ok {
			return false
		}
		r.Action, r.SetDSCP = "permit", &v
	case len(w) == 4 && w[0] == "match" && w[1] == "ip" && w[2] == "protocol":
		p, ok := importProto(w[3])
		if !ok {
			return false
		}
		r.Protocol = p
	case len(w) == 4 && w[0] == "match" && w[1] == "ip" && (w[2] == "source-ip" || w[2] == "dest-ip"):
		if w[3] == "ANY" || w[3] == "any" {
			return true
		}
		if !strings.Contains(w[3], "/") {
			return false
		}
		if w[2] == "source-ip" {
			r.SrcPrefix = w[3]
		} else {
			r.DstPrefix = w[3]
		}
	case len(w) >= 4 && w[0] == "match" && w[1] == "ip" && (w[len(w)-2] == "source-port" || w[len(w)-2] == "dest-port"):
		return importRulePort(r, w[2:])
	case len(w) == 4 && w[0] == "match" && w[1] == "ip" && w[2] == "dscp":
		v, ok := importDSCP(w[3])
		if !ok {
			return false
		}
		if !slices.Contains(r.DSCP, v) {
			r.DSCP = append(r.DSCP, v)
		}
	default:
		return false
	}
	return true
}

// importRulePort reads "[udp|tcp] source-port|dest-port N" after match ip
// (the protocol word from Cumulus Linux 5.7 on, none before).
func importRulePort(r *importer.ACLRule, w []string) bool {
	if len(w) == 3 {
		if w[0] != "udp" && w[0] != "tcp" {
			return false
		}
		if r.Protocol == "" {
			r.Protocol = w[0]
		}
	} else if len(w) != 2 {
		return false
	}
	v, err := strconv.Atoi(w[len(w)-1])
	if err != nil || v < 0 || v > 65535 {
		return false
	}
	if w[len(w)-2] == "source-port" {
		r.SrcPorts = append(r.SrcPorts, [2]int{v, v})
	} else {
		r.DstPorts = append(r.DstPorts, [2]int{v, v})
	}
	return true
}

// importDSCPNames are the DSCP names NVUE takes for match ip dscp (RFC
// 2474/2597/3246 class names).
var importDSCPNames = map[string]int{
	"cs0": 0, "cs1": 8, "cs2": 16, "cs3": 24, "cs4": 32, "cs5": 40, "cs6": 48, "cs7": 56,
	"af11": 10, "af12": 12, "af13": 14, "af21": 18, "af22": 20, "af23": 22,
	"af31": 26, "af32": 28, "af33": 30, "af41": 34, "af42": 36, "af43": 38,
	"ef": 46, "be": 0, "default": 0,
}

// importDSCP reads a DSCP value or name.
func importDSCP(s string) (int, bool) {
	if v, ok := importDSCPNames[strings.ToLower(s)]; ok {
		return v, true
	}
	v, err := strconv.Atoi(s)
	return v, err == nil && v >= 0 && v <= 63
}

// importProto reads "match ip protocol": names of the intent, icmpv6
// as icmp (the ACL's type gives the family), others as numbers.
func importProto(s string) (string, bool) {
	switch s {
	case "tcp", "udp", "icmp":
		return s, true
	case "icmpv6":
		return "icmp", true
	case "ospf":
		return "89", true
	case "pim":
		return "103", true
	case "igmp":
		return "2", true
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 || v > 255 {
		return "", false
	}
	return s, true
}

// importEnable reads enable/disable (and on/off, enabled/disabled).
func importEnable(s string) (bool, bool) {
	switch s {
	case "enable", "enabled", "on":
		return true, true
	case "disable", "disabled", "off":
		return false, true
	}
	return false, false
}

// importPrio reads one priority or traffic class (0–7).
func importPrio(s string) (int, bool) {
	v, err := strconv.Atoi(s)
	return v, err == nil && v >= 0 && v <= 7
}

// importPrios reads a list of priorities ("3", "0,1,5,7", "1-7").
func importPrios(s string) ([]int, bool) { return importInts(s, 7) }

// importInts reads a list of values from 0 to max with ranges.
func importInts(s string, max int) ([]int, bool) {
	var out []int
	for _, item := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(item, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 || a > max {
			return nil, false
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a || b > max {
				return nil, false
			}
		}
		for v := a; v <= b; v++ {
			out = append(out, v)
		}
	}
	return out, len(out) > 0
}

// importSpeed reads a "link speed" ("400G", "25G", "100M"; auto: 0).
func importSpeed(s string) int64 {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "T"):
		mult = 1_000_000_000_000
	case strings.HasSuffix(s, "G"):
		mult = 1_000_000_000
	case strings.HasSuffix(s, "M"):
		mult = 1_000_000
	case strings.HasSuffix(s, "K"):
		mult = 1_000
	}
	if mult > 1 {
		s = s[:len(s)-1]
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 || v > 10_000 {
		return 0
	}
	return v * mult
}

// device builds the Device from what the commands set.
func (st *impState) device(hdr nvHeader) *importer.Device {
	d := st.dev
	d.Name = st.hostname
	if d.Name == "" {
		d.Name = hdr.device // fabricgen's render names its device in the header
	}
	d.Model = hdr.model
	d.Fabric = hdr.fabric
	switch {
	case hdr.osSet:
		d.OSVersion = hdr.version
	case hdr.version == "" && st.syntax515:
		// No release said: the lowest that takes the config's words, so
		// the intent renders them as the device has them.
		d.OSVersion = "5.15"
	}
	d.Default = st.defaultQoS(hdr)
	for _, n := range st.portOrder {
		p := st.ports[n]
		d.Ports = append(d.Ports, &importer.Port{
			Name: p.name, Description: p.desc, IP: p.ip, Routed: p.routed, MTU: p.mtu,
			Speed: p.speed, FEC: p.fec, ACLIn: p.in, ACLOut: p.out, CableM: st.cableM,
			Src: importer.Span{File: st.name, From: p.from, To: p.to},
		})
	}
	d.ACLs = st.deviceACLs()
	// The report in file order (the watchdog, pools and ACL rules are
	// judged after the whole file).
	slices.SortStableFunc(d.Unmapped, func(a, b importer.Line) int { return a.Line - b.Line })
	return d
}

// defaultQoS is the default-global profile's effective QoS (nil: the
// configuration sets none).
func (st *impState) defaultQoS(hdr nvHeader) *importer.QoS {
	q := &importer.QoS{}
	has := false
	if st.trust != "" {
		q.Trust, has = st.trust, true
	}
	if st.trust == "none" && st.defaultSP != nil {
		q.DefaultPriority = st.defaultSP
	}
	// A partial map keeps Cumulus's defaults for the values it does not
	// name ("Trust DSCP": DSCP d → switch priority d/8; "Trust 802.1p":
	// PCP p → p; "Egress Queues": switch priority p → queue p).
	// Trusting DSCP or PCP without a map line uses the default map.
	if st.dscp != nil && st.trust == "" || st.trust == "dscp" || st.trust == "both" {
		q.DSCP, has = importFull(st.dscp, 64, func(v int) int { return v >> 3 }), true
	}
	if st.trust == "pcp" || st.trust == "both" {
		q.PCP, has = importFull(st.pcp, 8, func(v int) int { return v }), true
	}
	if st.queue != nil {
		q.Queue, has = importFull(st.queue, 8, func(v int) int { return v }), true
	}
	if st.pfcSet {
		q.PFC, q.PFCSet, has = st.pfc, true, true
	}
	st.pools_(q)
	st.knobs(q)
	for tc := range 8 {
		e, s := st.ecn[tc], st.sched[tc]
		if e == nil && s == nil {
			continue
		}
		qu := &importer.Queue{}
		if s != nil {
			st.schedOf(qu, s)
		}
		if e != nil {
			switch {
			case e.ecn != nil && !*e.ecn && (e.red == nil || !*e.red):
				qu.ECNOff = true
			default:
				qu.ECN = impECNOf(e)
			}
		}
		if qu.Sched == "" && qu.ECN == nil && !qu.ECNOff {
			continue
		}
		if q.Queues == nil {
			q.Queues = map[int]*importer.Queue{}
		}
		q.Queues[tc], has = qu, true
	}
	if st.watchdog(q, hdr) {
		has = true
	}
	if has && q.Queue == nil {
		q.Queue = importFull(nil, 8, func(v int) int { return v })
	}
	if !has {
		return nil
	}
	q.Src = append(q.Src, importSpans(st.name, st.qosSrc)...)
	return q
}

// deviceACLs are the ACLs, their rules in sequence order; a rule with a
// part the intent cannot say is left out and reported.
func (st *impState) deviceACLs() []*importer.ACL {
	var out []*importer.ACL
	for _, n := range st.aclOrder {
		a := st.acls[n]
		acl := &importer.ACL{Name: a.name, Src: importer.Span{File: st.name, From: a.from, To: a.to}}
		fam := "ipv4"
		if a.typ == "ipv6" {
			fam = "ipv6"
		}
		seqs := slices.Clone(a.order)
		slices.Sort(seqs)
		for _, s := range seqs {
			r := a.rules[s]
			switch {
			case len(r.badLines) > 0:
				for i, l := range r.badLines {
					st.unmapped(nvCmd{line: l, text: r.badTexts[i]}, whyACL)
				}
				continue
			case !r.action:
				st.unmapped(nvCmd{line: r.from, text: fmt.Sprintf("nv set acl %s rule %d", importQuoteWords([]string{a.name}), s)}, whyACLNoAct)
				continue
			}
			rule := r.rule
			rule.Family = fam
			if rule.Protocol == "" {
				rule.Protocol = "ip"
			}
			rule.Src = importer.Span{File: st.name, From: r.from, To: r.to}
			acl.Rules = append(acl.Rules, &rule)
		}
		out = append(out, acl)
	}
	return out
}

// schedOf sets a queue's scheduler: strict, or dwrr with its bw-percent.
// A DWRR queue without a bw-percent from 1 to 100 gets no share on
// Cumulus ("Egress Scheduler": no value is DWRR 0, no scheduling), which
// the intent's dwrr cannot say: its lines are reported.
func (st *impState) schedOf(qu *importer.Queue, s *impSched) {
	switch {
	case s.mode == "strict":
		qu.Sched = "strict"
	case s.bw != nil && *s.bw >= 1 && *s.bw <= 100:
		qu.Sched, qu.Weight = "dwrr", s.bw
	default:
		for _, c := range s.lines {
			st.unmapped(c, whyDWRRZero)
		}
	}
}

// impECNOf is a traffic class's curve, with the default-global profile's
// documented values where the configuration gives none ("Congestion
// Control (ECN)": min 150000 bytes, max 1500000 bytes; probability 100).
func impECNOf(e *impECN) *importer.ECN {
	out := &importer.ECN{MinBytes: e.min, MaxBytes: e.max, Probability: e.prob, Mark: e.ecn == nil || *e.ecn}
	if out.MinBytes == 0 {
		out.MinBytes = 150000
	}
	if out.MaxBytes == 0 {
		out.MaxBytes = 1500000
	}
	if !e.probSet {
		out.Probability = 100
	}
	return out
}

// importFull is the complete map of n values: m over the defaults def.
func importFull(m map[int]int, n int, def func(int) int) map[int]int {
	out := make(map[int]int, n)
	for v := range n {
		out[v] = def(v)
	}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// pools_ checks the traffic pools: fabricgen renders default-lossless
// and default-lossy at 50 percent each when PFC is on, and nothing else.
func (st *impState) pools_(q *importer.QoS) {
	if len(st.poolLines) == 0 {
		return
	}
	fifty := len(q.PFC) > 0 && len(st.pools) == 2 &&
		st.pools["default-lossless"] == viewCumulusLosslessPercent && st.pools["default-lossy"] == 100-viewCumulusLosslessPercent
	for _, c := range st.poolLines {
		if fifty {
			st.qosSrc = append(st.qosSrc, c.line)
		} else {
			st.unmapped(c, whyPool)
		}
	}
}

// knobs sets the PFC profile's buffer thresholds (port-buffer is the
// headroom) and its cable length, which every port has (the
// default-global profile covers every port, and fabricgen renders the
// longest port's cable), when PFC is on.
func (st *impState) knobs(q *importer.QoS) {
	for _, k := range st.pfcKnobs {
		if len(q.PFC) == 0 {
			st.unmapped(k.cmd, whyPFCKnob)
			continue
		}
		switch k.what {
		case "cable-length":
			if len(st.portOrder) == 0 {
				st.unmapped(k.cmd, whyCableNone)
				continue
			}
			st.cableM = float64(k.val)
		default:
			if q.Buffer == nil {
				q.Buffer = &importer.Buffer{}
			}
			switch k.what {
			case "port-buffer":
				q.Buffer.Headroom = k.val
			case "xoff-threshold":
				q.Buffer.XOFF = k.val
			case "xon-threshold":
				q.Buffer.XON = k.val
			}
		}
		st.qosSrc = append(st.qosSrc, k.cmd.line)
	}
}

// watchdog sets the switch-wide PFC watchdog when the ports enable it
// (the Cumulus watchdog drops on a stormed queue; detection is
// robustness polls). It reports whether it set anything.
func (st *impState) watchdog(q *importer.QoS, hdr nvHeader) bool {
	var on, off []*impPort
	for _, n := range st.portOrder {
		if p := st.ports[n]; p.wd {
			on = append(on, p)
		} else if len(p.set) > 0 || p.ip != "" || p.routed || len(p.in)+len(p.out) > 0 {
			off = append(off, p)
		}
	}
	if len(on) == 0 {
		for _, c := range st.wdLines {
			st.unmapped(c, whyWatchdogNo)
		}
		return false
	}
	w := &importer.Watchdog{Name: hdr.wdName, PollMS: st.wdPoll, Action: "drop", RestorationMS: hdr.restorationMS}
	if st.wdRobust > 0 {
		poll := st.wdPoll
		if poll == 0 {
			poll = 100 // the Cumulus default polling interval
		}
		w.DetectionMS = st.wdRobust * poll
	}
	q.Watchdog = w
	for _, c := range st.wdLines {
		st.qosSrc = append(st.qosSrc, c.line)
	}
	for _, p := range on {
		st.qosSrc = append(st.qosSrc, p.wdLine)
	}
	for _, p := range off {
		st.unmapped(nvCmd{line: p.from, text: "nv set interface " + importQuoteWords([]string{p.name})},
			"the port has no PFC watchdog while other ports do: fabricgen renders the watchdog on every port")
	}
	return true
}

// importSpans merges lines into spans of consecutive lines.
func importSpans(file string, lines []int) []importer.Span {
	ls := slices.Clone(lines)
	slices.Sort(ls)
	ls = slices.Compact(ls)
	var out []importer.Span
	for _, l := range ls {
		if n := len(out); n > 0 && out[n-1].To+1 >= l {
			out[n-1].To = l
			continue
		}
		out = append(out, importer.Span{File: file, From: l, To: l})
	}
	return out
}
