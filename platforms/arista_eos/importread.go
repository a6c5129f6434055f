package aristaeos

import (
	"context"
	"fmt"
	"iter"
	"math"
	"net/netip"
	"regexp"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/qosread"
)

// The reverse of view.go: an EOS configuration tree (importConfig) read
// into the vendor-neutral importer.Device, in the vocabulary of the EOS
// view (qos map lines, the watchdog's default timers, access lists,
// class-map/policy-map re-marking, interface stanzas with tx-queues).

// eosImport is the state of one import.
type eosImport struct {
	file string
	dev  *importer.Device
	// reported indexes Unmapped by line: a line is listed once (a qos
	// profile's line is read once per port that applies it), with each
	// distinct reason.
	reported map[int]int
	// profiles are the "qos profile" stanzas by name; used those a port applies.
	profiles map[string]*config.Node
	used     map[string]bool
	// Switch-wide maps, and the lines that set them.
	dscp, pcp, queue map[int]int
	mapSrc           []importer.Span
	firstDSCP        *config.Node
	wd               *importer.Watchdog
	wdSrc            []importer.Span
	wdLines          []*config.Node
	// Access lists by name and family, in the configuration's order.
	acls     map[string]*eosACL
	aclOrder []string
	classes  map[string]eosClass
	policies map[string]*eosPolicy
	ports    map[string]*eosPort
	order    []string
}

// eosACL is the ip and ipv6 access lists of one name.
type eosACL struct {
	name   string
	v4, v6 []*importer.ACLRule
	has4   bool
	has6   bool
	src    importer.Span
	// helper is set when a class-map of a fabricgen-shaped policy map
	// matches it (it is one rule of its parent list, see resolvePolicies).
	helper bool
}

// eosClass is a class-map matching one access list.
type eosClass struct {
	acl  string
	node *config.Node
}

// eosPolicy is a policy-map's classes in order.
type eosPolicy struct {
	name    string
	node    *config.Node
	classes []eosPolicyClass
}

// eosPolicyClass is one class of a policy map: what it sets (-1: nothing).
type eosPolicyClass struct {
	name           string
	setDSCP, setTC int
	node, dscpLn   *config.Node
	tcLn           *config.Node
	other          []*config.Node
}

// eosPort is one interface as the stanzas configure it.
type eosPort struct {
	p        *importer.Port
	qos      bool // any QoS line
	trust    string
	node     *config.Node // the first "interface" line
	trustLn  *config.Node
	wdLn     *config.Node
	pfcOn    bool
	pfcSet   bool // an explicit on or off
	pfc      []int
	wdOn     bool
	fcSend   *bool
	fcRecv   *bool
	queues   map[int]*importer.Queue
	policy   string
	policyLn *config.Node
	profile  string
	profLn   *config.Node
	profSrc  []importer.Span
	markSrc  []importer.Span // the re-marking policy read into set_dscp
	aclIn4   string
	aclIn6   string
	aclOut4  string
	aclOut6  string
	aclLn    map[string]*config.Node // "in4", "in6", "out4", "out6"
	fcLn     []*config.Node
}

// unmapped records a QoS-relevant line no intent expresses.
func (im *eosImport) unmapped(n *config.Node, why string) {
	if n == nil {
		return
	}
	if i, ok := im.reported[n.Num]; ok {
		if l := &im.dev.Unmapped[i]; !strings.Contains(l.Why, why) {
			l.Why += "; " + why
		}
		return
	}
	if im.reported == nil {
		im.reported = map[int]int{}
	}
	im.reported[n.Num] = len(im.dev.Unmapped)
	im.dev.Unmapped = append(im.dev.Unmapped, importer.Line{File: im.file, Line: n.Num, Text: n.Line, Why: why})
}

// unmappedAll records a stanza and every line under it.
func (im *eosImport) unmappedAll(n *config.Node, why string) {
	im.unmapped(n, why)
	for _, k := range n.Children {
		im.unmapped(k, why)
		for _, kk := range k.Children {
			im.unmapped(kk, why)
		}
	}
}

// span is the lines of n and everything under it (three levels: EOS
// nests no deeper where the importer reads).
func (im *eosImport) span(n *config.Node) importer.Span {
	last := n.Num
	for _, k := range n.Children {
		last = max(last, k.Num)
		for _, kk := range k.Children {
			last = max(last, kk.Num)
		}
	}
	return importer.Span{File: im.file, From: n.Num, To: last}
}

func (im *eosImport) line(n *config.Node) importer.Span {
	return importer.Span{File: im.file, From: n.Num, To: n.Num}
}

// importTree reads the parsed configuration.
func importTree(ctx context.Context, file string, nodes iter.Seq[*config.Node], header []headerLine) (*importer.Device, error) {
	im := &eosImport{
		file: file,
		dev:  &importer.Device{Platform: string(name), Src: importer.Span{File: file}},
		acls: map[string]*eosACL{}, classes: map[string]eosClass{}, policies: map[string]*eosPolicy{},
		ports: map[string]*eosPort{}, profiles: map[string]*config.Node{}, used: map[string]bool{},
	}
	im.readHeader(header)
	i := 0
	for n := range nodes {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("%s: %w", file, err)
			}
		}
		i++
		im.top(n)
	}
	im.applyProfiles()
	im.resolvePolicies()
	im.finish()
	return im.dev, nil
}

// readHeader takes the device's name and release from fabricgen's header
// ("! fabricgen: fabric F, device D (arista_eos)", "! release 4.21.3F
// (os_version)"; fabricgen's default release is not the device's) or the
// release from the device's own ("! device: leaf1 (DCS-7050CX3-32S,
// EOS-4.27.0F)"). A hostname line read later replaces the name.
func (im *eosImport) readHeader(header []headerLine) {
	for _, h := range header {
		t := strings.TrimSpace(strings.TrimPrefix(h.text, "!"))
		if rest, ok := strings.CutPrefix(t, "release "); ok {
			if rel, note, ok := strings.Cut(rest, " "); ok && strings.HasPrefix(note, "(os_version)") {
				im.dev.OSVersion = rel
			}
			continue
		}
		if rest, ok := strings.CutPrefix(t, "fabricgen: fabric "); ok && im.dev.Name == "" {
			// fabricgen's own header names the fabric and the device:
			// "fabricgen: fabric F, device D (arista_eos)". A hostname
			// line, if any, wins.
			if i := strings.LastIndex(rest, ", device "); i >= 0 {
				im.dev.Fabric = rest[:i]
				dev := rest[i+len(", device "):]
				if j := strings.LastIndex(dev, " ("); j > 0 {
					im.dev.Name = dev[:j]
				}
			}
			continue
		}
		if rest, ok := strings.CutPrefix(t, "device: "); ok {
			if _, paren, ok := strings.Cut(rest, "("); ok {
				for _, f := range strings.Split(strings.TrimSuffix(paren, ")"), ",") {
					if v, ok := strings.CutPrefix(strings.TrimSpace(f), "EOS-"); ok && v != "" {
						im.dev.OSVersion = v
					}
				}
			}
		}
	}
}

// eosIfName is a front-panel Ethernet port (the ports fabricgen renders).
var eosIfName = regexp.MustCompile(`^Ethernet\d+(/\d+){0,2}$`)

// top reads one top-level line.
func (im *eosImport) top(n *config.Node) {
	h := qosread.Head(n)
	switch {
	case n.Block:
		return
	case strings.HasPrefix(h, "hostname "):
		im.dev.Name = strings.TrimSpace(strings.TrimPrefix(n.Line, "hostname"))
	case strings.HasPrefix(h, "qos map "):
		im.qosMap(n, strings.TrimPrefix(h, "qos map "))
	case strings.HasPrefix(h, "qos rewrite "):
		im.unmappedAll(n, "an egress rewrite map: the intent keeps the DSCP/CoS a packet arrives with (re-marking is an ACL's set_dscp)")
	case strings.HasPrefix(h, "qos profile "):
		im.profiles[strings.TrimSpace(strings.TrimPrefix(h, "qos profile "))] = n
	case strings.HasPrefix(h, "qos "), h == "qos":
		im.unmappedAll(n, "a switch-wide QoS setting the intent has no attribute for")
	case strings.HasPrefix(h, "priority-flow-control "):
		im.watchdog(n, strings.TrimPrefix(h, "priority-flow-control "))
	case strings.HasPrefix(h, "hardware tcam"):
		im.unmappedAll(n, "a TCAM profile: it decides which QoS and ACL features the hardware has room for; fabricgen does not render it")
	case strings.HasPrefix(h, "platform ") && (strings.Contains(h, " qos") || strings.Contains(h, "buffer") || strings.Contains(h, " mmu")):
		im.unmappedAll(n, "a platform buffer/queue knob: the intent's buffer block is not rendered on EOS")
	case strings.Contains(h, "buffer") && !strings.HasPrefix(h, "logging "):
		im.unmappedAll(n, "a buffer knob: the intent's buffer block is not rendered on EOS")
	case strings.HasPrefix(h, "dcbx "):
		im.unmappedAll(n, "DCBX advertisement: the intent has no DCBX attribute")
	case strings.HasPrefix(h, "ip access-list standard "):
		im.accessList(n, strings.TrimPrefix(h, "ip access-list standard "), false, true)
	case strings.HasPrefix(h, "ip access-list "):
		im.accessList(n, strings.TrimPrefix(h, "ip access-list "), false, false)
	case strings.HasPrefix(h, "ipv6 access-list standard "):
		im.accessList(n, strings.TrimPrefix(h, "ipv6 access-list standard "), true, true)
	case strings.HasPrefix(h, "ipv6 access-list "):
		im.accessList(n, strings.TrimPrefix(h, "ipv6 access-list "), true, false)
	case strings.HasPrefix(h, "class-map type qos "):
		im.classMap(n, strings.Fields(h))
	case strings.HasPrefix(h, "policy-map type quality-of-service "), strings.HasPrefix(h, "policy-map type qos "):
		f := strings.Fields(h)
		im.policyMap(n, f[len(f)-1])
	case strings.HasPrefix(h, "policy-map type copp "), strings.HasPrefix(h, "policy-map copp"):
		im.unmappedAll(n, "a control-plane policing policy: the intent does not model traffic to the switch's CPU")
	case strings.HasPrefix(h, "interface "):
		im.iface(n, strings.TrimSpace(strings.TrimPrefix(h, "interface ")))
	}
}

// qosMap reads "qos map dscp|cos L to traffic-class T" and "qos map
// traffic-class L to tx-queue Q"; other maps are reported.
func (im *eosImport) qosMap(n *config.Node, rest string) {
	kind, _, _ := strings.Cut(rest, " ")
	list, to, ok := strings.Cut(strings.TrimPrefix(rest, kind+" "), " to ")
	target, val, ok2 := strings.Cut(to, " ")
	val, extra, _ := strings.Cut(strings.TrimSpace(val), " ")
	v, ok3 := qosread.Atoi(val)
	vals, okVals := eosInts(list)
	if !ok || !ok2 || !ok3 || !okVals {
		im.unmapped(n, "a qos map line fabricgen cannot read")
		return
	}
	switch {
	case extra != "" && (kind == "dscp" || kind == "cos") && target == "traffic-class":
		im.unmapped(n, "a qos map with "+extra+": the intent has no drop precedence (the traffic class was kept)")
		fallthrough
	case kind == "dscp" && target == "traffic-class" && qosread.Prio(v):
		if kind == "cos" {
			im.cosMap(vals, v)
			break
		}
		if im.dscp == nil {
			im.dscp, im.firstDSCP = map[int]int{}, n
		}
		for _, c := range vals {
			if !qosread.DSCPOK(c) {
				im.unmapped(n, fmt.Sprintf("DSCP %d is out of range (0-63)", c))
				return
			}
		}
		for _, c := range vals {
			im.dscp[c] = v
		}
	case kind == "cos" && target == "traffic-class" && qosread.Prio(v):
		im.cosMap(vals, v)
	case kind == "traffic-class" && target == "tx-queue" && qosread.Prio(v):
		if im.queue == nil {
			im.queue = map[int]int{}
		}
		for _, c := range vals {
			if qosread.Prio(c) {
				im.queue[c] = v
			}
		}
	case kind == "exp":
		im.unmapped(n, "an MPLS EXP map: the intent classifies IP traffic by DSCP or PCP only")
		return
	default:
		im.unmapped(n, "a qos map ("+kind+" to "+target+") the intent has no attribute for")
		return
	}
	im.mapSrc = append(im.mapSrc, im.line(n))
}

// cosMap maps CoS values to traffic class tc.
func (im *eosImport) cosMap(vals []int, tc int) {
	if im.pcp == nil {
		im.pcp = map[int]int{}
	}
	for _, c := range vals {
		if qosread.Prio(c) {
			im.pcp[c] = tc
		}
	}
}

// eosInts parses "0 1 2 8-15" (EOS lists code points separated by spaces,
// ranges with "-" and commas in input forms).
func eosInts(s string) ([]int, bool) {
	var out []int
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' }) {
		lo, hi, isRange := strings.Cut(f, "-")
		a, ok := qosread.Atoi(lo)
		if !ok {
			return nil, false
		}
		b := a
		if isRange {
			if b, ok = qosread.Atoi(hi); !ok || b < a || b-a > 63 {
				return nil, false
			}
		}
		for i := a; i <= b; i++ {
			out = append(out, i)
		}
	}
	return out, len(out) > 0
}

// watchdog reads the switch-wide "priority-flow-control pause watchdog"
// lines.
func (im *eosImport) watchdog(n *config.Node, rest string) {
	w, ok := strings.CutPrefix(rest, "pause watchdog ")
	if !ok {
		im.unmappedAll(n, "a switch-wide PFC setting the intent has no attribute for")
		return
	}
	if im.wd == nil {
		im.wd = &importer.Watchdog{}
	}
	f := strings.Fields(strings.TrimPrefix(w, "default "))
	ms := func(s string) (int64, bool) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || v < 0 || v > 3600 || math.IsNaN(v) {
			return 0, false
		}
		return int64(math.Round(v * 1000)), true
	}
	switch {
	case len(f) == 2 && f[0] == "timeout":
		if v, ok := ms(f[1]); ok && v%10 == 0 {
			im.wd.DetectionMS = v
			break
		}
		im.unmapped(n, "a watchdog timeout fabricgen cannot read or render (seconds, in steps of 10 ms)")
		return
	case len(f) == 2 && f[0] == "recovery-time":
		if v, ok := ms(f[1]); ok && v%10 == 0 {
			im.wd.RestorationMS = v
			break
		}
		im.unmapped(n, "a watchdog recovery-time fabricgen cannot read or render (seconds, in steps of 10 ms)")
		return
	case len(f) == 2 && f[0] == "polling-interval":
		if v, ok := ms(f[1]); ok {
			im.wd.PollMS = v
			break
		}
		im.unmapped(n, "a watchdog polling-interval fabricgen cannot read (seconds)")
		return
	case len(f) == 2 && f[0] == "action" && f[1] == "drop":
		im.wd.Action = "drop"
	case len(f) == 2 && f[0] == "action":
		im.unmapped(n, "watchdog action "+f[1]+": fabricgen renders EOS's drop action only (the intent's forward and alert have no EOS form); the intent's default applies")
		return
	default:
		im.unmapped(n, "a PFC watchdog setting the intent has no attribute for")
		return
	}
	im.wdSrc = append(im.wdSrc, im.line(n))
	im.wdLines = append(im.wdLines, n)
}

// classMap reads "class-map type qos match-any NAME" matching one access list.
func (im *eosImport) classMap(n *config.Node, f []string) {
	name := f[len(f)-1]
	var acl string
	for _, k := range n.Children {
		h := qosread.Head(k)
		if a, ok := qosread.Cut(h, "match ip access-group"); ok && acl == "" {
			acl = a
			continue
		}
		if a, ok := qosread.Cut(h, "match ipv6 access-group"); ok && acl == "" {
			acl = a
			continue
		}
		im.unmapped(k, "a class-map match the intent cannot express (fabricgen classifies by DSCP maps and ACL rules, one access list per class)")
	}
	im.classes[name] = eosClass{acl: acl, node: n}
}

// policyMap reads "policy-map type quality-of-service NAME".
func (im *eosImport) policyMap(n *config.Node, name string) {
	pm := &eosPolicy{name: name, node: n}
	for _, k := range n.Children {
		cn, ok := qosread.Cut(qosread.Head(k), "class")
		if !ok {
			im.unmapped(k, "a policy-map line the intent cannot express")
			continue
		}
		pc := eosPolicyClass{name: strings.TrimPrefix(cn, "type qos "), setDSCP: -1, setTC: -1, node: k}
		for _, kk := range k.Children {
			h := qosread.Head(kk)
			if v, ok := qosread.Cut(h, "set dscp"); ok {
				if d, ok := eosDSCP(v); ok {
					pc.setDSCP, pc.dscpLn = d, kk
					continue
				}
			}
			if v, ok := qosread.Cut(h, "set traffic-class"); ok {
				if d, ok := qosread.Atoi(v); ok && qosread.Prio(d) {
					pc.setTC, pc.tcLn = d, kk
					continue
				}
			}
			pc.other = append(pc.other, kk)
		}
		pm.classes = append(pm.classes, pc)
	}
	im.policies[name] = pm
}

// eosDSCPNames are the DSCP names EOS accepts for a code point.
var eosDSCPNames = map[string]int{
	"default": 0, "ef": 46,
	"af11": 10, "af12": 12, "af13": 14, "af21": 18, "af22": 20, "af23": 22,
	"af31": 26, "af32": 28, "af33": 30, "af41": 34, "af42": 36, "af43": 38,
	"cs0": 0, "cs1": 8, "cs2": 16, "cs3": 24, "cs4": 32, "cs5": 40, "cs6": 48, "cs7": 56,
}

// eosDSCP reads a code point, by number or name.
func eosDSCP(s string) (int, bool) {
	if v, ok := eosDSCPNames[s]; ok {
		return v, true
	}
	v, ok := qosread.Atoi(s)
	return v, ok && qosread.DSCPOK(v)
}

// iface reads one interface stanza (a second stanza of the same port is
// applied on top, as EOS applies configuration in order).
func (im *eosImport) iface(n *config.Node, ifName string) {
	if !eosIfName.MatchString(ifName) {
		for _, k := range n.Children {
			if eosQoSLine(qosread.Head(k)) {
				im.unmapped(k, "QoS on "+ifName+": fabricgen renders Ethernet ports only")
			}
		}
		return
	}
	ep, seen := im.ports[ifName]
	if seen {
		im.dev.Twice = append(im.dev.Twice, importer.Line{File: im.file, Line: n.Num, Text: n.Line,
			Why: "the interface is configured twice; EOS applies both stanzas in order, so the later lines win"})
		sp := im.span(n)
		ep.p.Src.To = max(ep.p.Src.To, sp.To)
	} else {
		ep = &eosPort{p: &importer.Port{Name: ifName, Src: im.span(n)}, node: n, queues: map[int]*importer.Queue{}}
		im.ports[ifName] = ep
		im.order = append(im.order, ifName)
	}
	for _, k := range n.Children {
		im.ifLine(ep, k)
	}
}

// applyProfiles reads the qos profile each port applies (service-profile)
// as the port's own QoS lines, after them: a profile's settings override
// the interface's (the push dialect takes service-profile over for that
// reason). The render writes them on the interface, so they are mapped;
// a profile no port applies is reported.
func (im *eosImport) applyProfiles() {
	for _, pn := range im.order {
		ep := im.ports[pn]
		if ep.profile == "" {
			continue
		}
		prof := im.profiles[ep.profile]
		if prof == nil {
			im.unmapped(ep.profLn, "the qos profile is not in the configuration")
			continue
		}
		im.used[ep.profile] = true
		ep.profSrc = append(ep.profSrc, im.span(prof))
		for _, k := range prof.Children {
			im.ifQoSLine(ep, k, qosread.Head(k))
		}
	}
	for name, n := range im.profiles {
		if !im.used[name] {
			im.unmappedAll(n, "a qos profile no Ethernet interface applies (service-profile)")
		}
	}
}

// eosDefaultLine reports an interface line that spells out EOS's default
// (show running-config all), configuring nothing.
func eosDefaultLine(h string) bool {
	switch h {
	case "qos cos 0", "qos dscp 0", "service-policy type pdp input default-pdp-policy":
		return true
	}
	return strings.HasPrefix(h, "no shape rate") || strings.HasPrefix(h, "no service-") || strings.HasPrefix(h, "no dcbx") ||
		strings.HasPrefix(h, "no flowcontrol") || strings.HasPrefix(h, "no qos cos") || strings.HasPrefix(h, "no qos dscp")
}

// eosQoSLine reports an interface line that is about QoS.
func eosQoSLine(h string) bool {
	if strings.HasPrefix(h, "service-policy type pbr ") || eosDefaultLine(h) {
		return false // policy-based routing, or a default spelled out
	}
	for _, p := range []string{"qos ", "no qos ", "priority-flow-control", "tx-queue", "uc-tx-queue", "mc-tx-queue", "service-policy", "service-profile", "shape ", "dcbx", "flowcontrol"} {
		if strings.HasPrefix(h, p) {
			return true
		}
	}
	return false
}

// ifLine reads one line of an interface stanza.
func (im *eosImport) ifLine(ep *eosPort, k *config.Node) {
	p := ep.p
	h := qosread.Head(k)
	switch {
	case strings.HasPrefix(h, "description "):
		p.Description = strings.TrimLeft(strings.TrimPrefix(strings.TrimLeft(k.Line, " \t"), "description"), " \t")
	case h == "no description":
		p.Description = ""
	case strings.HasPrefix(h, "mtu "):
		if v, ok := qosread.Atoi(strings.TrimPrefix(h, "mtu ")); ok && v >= viewEOSMinMTU && v <= viewEOSMaxMTU {
			p.MTU = v
			break
		}
		im.unmapped(k, fmt.Sprintf("an MTU fabricgen cannot read or render (EOS takes %d-%d)", viewEOSMinMTU, viewEOSMaxMTU))
	case strings.HasPrefix(h, "speed "):
		bps, ok := eosSpeed(strings.TrimPrefix(h, "speed "))
		_, fixed := viewEOSSpeeds[bps]
		switch {
		case ok && fixed:
			p.Speed = bps
		case ok:
			im.unmapped(k, "a speed fabricgen renders no fixed EOS keyword for (the port is left to negotiate)")
		case !strings.HasPrefix(h, "speed auto"):
			im.unmapped(k, "a speed fabricgen cannot read")
		}
	case strings.HasPrefix(h, "error-correction encoding "):
		switch strings.TrimPrefix(h, "error-correction encoding ") {
		case "reed-solomon":
			p.FEC = "rs"
		case "fire-code":
			p.FEC = "fc"
		default:
			im.unmapped(k, "a FEC encoding the intent has no value for")
		}
	case h == "no error-correction encoding":
		p.FEC = "none"
	case h == "no switchport":
		p.Routed = true
	case h == "switchport":
		p.Routed = false
	case strings.HasPrefix(h, "ip address "):
		f := strings.Fields(strings.TrimPrefix(h, "ip address "))
		if len(f) == 1 {
			if _, err := netip.ParsePrefix(f[0]); err == nil {
				p.IP = f[0]
			}
		}
	case strings.HasPrefix(h, "ipv6 address "):
		f := strings.Fields(strings.TrimPrefix(h, "ipv6 address "))
		if len(f) == 1 && p.IP == "" {
			if _, err := netip.ParsePrefix(f[0]); err == nil {
				p.IP = f[0]
			}
		}
	case strings.HasPrefix(h, "ip access-group "), strings.HasPrefix(h, "ipv6 access-group "):
		f := strings.Fields(h)
		if len(f) != 4 || (f[3] != "in" && f[3] != "out") {
			im.unmapped(k, "an access-group binding fabricgen cannot read")
			return
		}
		v6 := f[0] == "ipv6"
		key := f[3] + "4"
		switch {
		case f[3] == "in" && !v6:
			ep.aclIn4 = f[2]
		case f[3] == "in":
			ep.aclIn6, key = f[2], "in6"
		case !v6:
			ep.aclOut4 = f[2]
		default:
			ep.aclOut6, key = f[2], "out6"
		}
		if ep.aclLn == nil {
			ep.aclLn = map[string]*config.Node{}
		}
		ep.aclLn[key] = k
		p.Src.To = max(p.Src.To, k.Num)
	default:
		im.ifQoSLine(ep, k, h)
	}
}

// ifQoSLine reads one QoS line of an interface stanza (h is its head).
func (im *eosImport) ifQoSLine(ep *eosPort, k *config.Node, h string) {
	switch {
	case strings.HasPrefix(h, "service-policy type qos input "), strings.HasPrefix(h, "service-policy input "):
		f := strings.Fields(h)
		ep.policy, ep.policyLn = f[len(f)-1], k
	case h == "qos trust dscp":
		ep.trust, ep.trustLn, ep.qos = "dscp", k, true
	case h == "qos trust cos":
		ep.trust, ep.trustLn, ep.qos = "pcp", k, true
	case h == "no qos trust":
		ep.trust, ep.trustLn, ep.qos = "none", k, true
	case h == "priority-flow-control on", h == "priority-flow-control mode on":
		ep.pfcOn, ep.pfcSet, ep.qos = true, true, true
	case h == "no priority-flow-control", h == "priority-flow-control off", h == "priority-flow-control mode off", h == "no priority-flow-control mode":
		ep.pfcOn, ep.pfcSet, ep.qos = false, true, true
	case strings.HasPrefix(h, "priority-flow-control priority "):
		f := strings.Fields(h)
		v, ok := qosread.Atoi(f[2])
		switch {
		case len(f) == 4 && ok && qosread.Prio(v) && f[3] == "no-drop":
			ep.pfc = appendPrio(ep.pfc, v)
			ep.qos = true
		case len(f) == 4 && ok && qosread.Prio(v) && f[3] == "drop":
			ep.pfc = removePrio(ep.pfc, v)
		default:
			im.unmapped(k, "a PFC priority line fabricgen cannot read")
		}
	case h == "priority-flow-control pause watchdog":
		ep.wdOn, ep.wdLn, ep.qos = true, k, true
	case h == "no priority-flow-control pause watchdog":
		ep.wdOn = false
	case strings.HasPrefix(h, "flowcontrol send "), strings.HasPrefix(h, "flowcontrol receive "):
		f := strings.Fields(h)
		if len(f) != 3 || (f[2] != "on" && f[2] != "off") {
			im.unmapped(k, "a flowcontrol line fabricgen cannot read")
			return
		}
		on := f[2] == "on"
		ep.fcLn = append(ep.fcLn, k)
		if f[1] == "send" {
			ep.fcSend = &on
		} else {
			ep.fcRecv = &on
		}
		ep.qos = true
	case strings.HasPrefix(h, "tx-queue "), strings.HasPrefix(h, "uc-tx-queue "):
		_, num, _ := strings.Cut(h, " ")
		q, ok := qosread.Atoi(num)
		if !ok || !qosread.Prio(q) {
			im.unmappedAll(k, "a tx-queue fabricgen cannot read (queues are 0-7)")
			return
		}
		ep.qos = true
		im.txQueue(ep, q, k)
	case eosDefaultLine(h):
		// A default spelled out (show running-config all): nothing set.
	case strings.HasPrefix(h, "shape rate"):
		im.unmapped(k, "a port shaper: the intent shapes queues (queue shaper), not a whole port")
	case strings.HasPrefix(h, "service-profile "):
		ep.profile, ep.profLn, ep.qos = strings.TrimSpace(strings.TrimPrefix(h, "service-profile ")), k, true
	case eosQoSLine(h):
		im.unmappedAll(k, "an interface QoS setting the intent has no attribute for")
	}
}

func appendPrio(ps []int, v int) []int {
	for _, p := range ps {
		if p == v {
			return ps
		}
	}
	return append(ps, v)
}

func removePrio(ps []int, v int) []int {
	out := ps[:0:0]
	for _, p := range ps {
		if p != v {
			out = append(out, p)
		}
	}
	return out
}

// eosSpeed reads a "speed" argument: the fixed keywords (100g, 400g-8,
// 1.6t-8, 100full, forced 40gfull) in bit/s.
func eosSpeed(s string) (int64, bool) {
	s = strings.TrimPrefix(s, "forced ")
	if strings.HasPrefix(s, "auto") {
		return 0, false
	}
	if i := strings.IndexByte(s, '-'); i > 0 {
		if _, ok := qosread.Atoi(s[i+1:]); !ok {
			return 0, false
		}
		s = s[:i]
	}
	mult := float64(0)
	switch {
	case strings.HasSuffix(s, "gfull"):
		s, mult = strings.TrimSuffix(s, "gfull"), 1e9
	case strings.HasSuffix(s, "full"):
		s, mult = strings.TrimSuffix(s, "full"), 1e6
	case strings.HasSuffix(s, "g"):
		s, mult = strings.TrimSuffix(s, "g"), 1e9
	case strings.HasSuffix(s, "t"):
		s, mult = strings.TrimSuffix(s, "t"), 1e12
	default:
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v <= 0 || v > 100 && mult == 1e12 || v > 10000 {
		return 0, false
	}
	return int64(math.Round(v * mult)), true
}

// txQueue reads a "tx-queue N" sub-stanza into the port's queue N.
func (im *eosImport) txQueue(ep *eosPort, id int, n *config.Node) {
	q := ep.queues[id]
	if q == nil {
		q = &importer.Queue{}
		ep.queues[id] = q
	}
	if strings.HasPrefix(qosread.Head(n), "uc-") {
		im.unmapped(n, "a unicast tx-queue: read as the port's tx-queue "+strconv.Itoa(id)+", which fabricgen renders")
	}
	for _, k := range n.Children {
		h := qosread.Head(k)
		switch {
		case h == "priority strict":
			q.Sched = "strict"
		case h == "no priority":
			q.Sched = "dwrr"
		case strings.HasPrefix(h, "bandwidth percent "):
			if v, ok := qosread.Atoi(strings.TrimPrefix(h, "bandwidth percent ")); ok && v <= 100 {
				q.Weight = &v
				if q.Sched == "" {
					q.Sched = "dwrr"
				}
				continue
			}
			im.unmapped(k, "a bandwidth percent fabricgen cannot read")
		case strings.HasPrefix(h, "shape rate "):
			f := strings.Fields(strings.TrimPrefix(h, "shape rate "))
			v, err := strconv.ParseInt(f[0], 10, 64)
			if err == nil && v > 0 && v < 1<<40 && (len(f) == 1 || len(f) == 2 && f[1] == "kbps") {
				q.ShaperBps = v * 1000
				continue
			}
			im.unmapped(k, "a queue shaper not in kbps: the intent shapes in bit/s")
		case strings.HasPrefix(h, "random-detect ecn minimum-threshold "), strings.HasPrefix(h, "random-detect drop minimum-threshold "):
			e, why := eosRandomDetect(strings.Fields(h))
			if e != nil && (e.MinBytes > viewEOSMaxThreshold || e.MaxBytes > viewEOSMaxThreshold || e.Probability < 1) {
				e, why = nil, fmt.Sprintf("a random-detect curve fabricgen cannot render (thresholds 1-%d bytes, probability 1-100)", viewEOSMaxThreshold)
			}
			if e == nil {
				im.unmapped(k, why)
				continue
			}
			q.ECN = e
			if why != "" {
				im.unmapped(k, why)
			}
		case strings.HasPrefix(h, "no "):
			// "no shape rate", "no random-detect ecn" (show running-config
			// all): the setting is absent.
		default:
			im.unmapped(k, "a tx-queue setting the intent has no attribute for")
		}
	}
}

// eosRandomDetect reads "random-detect ecn minimum-threshold A U
// maximum-threshold B U [max-mark-probability P]" (or "random-detect drop
// ... drop-probability P"). A second result is why part of the line was
// not kept (nil ECN: none of it).
func eosRandomDetect(f []string) (*importer.ECN, string) {
	e := &importer.ECN{Mark: f[1] == "ecn", Probability: 100}
	var whys []string
	for i := 2; i < len(f); i++ {
		switch f[i] {
		case "minimum-threshold", "maximum-threshold":
			if i+2 >= len(f) {
				return nil, "a random-detect line fabricgen cannot read"
			}
			v, err := strconv.ParseInt(f[i+1], 10, 64)
			if err != nil || v < 0 || v > 1<<40 {
				return nil, "a random-detect threshold fabricgen cannot read"
			}
			switch f[i+2] {
			case "bytes":
			case "kbytes", "mbytes":
				// No Arista source says whether a kbyte is 1,000 or 1,024
				// bytes (the renderer writes bytes for that reason).
				v *= 1024
				if f[i+2] == "mbytes" {
					v *= 1024
				}
				if len(whys) == 0 || !strings.Contains(whys[0], "1,024") {
					whys = append(whys, "random-detect thresholds in "+f[i+2]+" were read at 1,024 bytes per kbyte; no Arista source fixes the unit, so check the ecn_profile's thresholds")
				}
			default:
				return nil, "random-detect thresholds in " + f[i+2] + ": the intent's thresholds are bytes or fill levels"
			}
			if f[i] == "minimum-threshold" {
				e.MinBytes = v
			} else {
				e.MaxBytes = v
			}
			i += 2
		case "max-mark-probability", "drop-probability":
			if i+1 >= len(f) {
				return nil, "a random-detect line fabricgen cannot read"
			}
			v, ok := qosread.Atoi(f[i+1])
			if !ok || v > 100 {
				return nil, "a random-detect probability fabricgen cannot read"
			}
			e.Probability = v
			i++
		default:
			whys = append(whys, "random-detect option "+f[i]+" has no intent attribute (the curve's thresholds and probability were kept)")
			// Skip the option's value.
			if i+1 < len(f) {
				if _, err := strconv.ParseFloat(f[i+1], 64); err == nil {
					i++
				}
			}
		}
	}
	if e.MinBytes == 0 || e.MaxBytes == 0 {
		return nil, "a random-detect line without both thresholds"
	}
	return e, strings.Join(whys, "; ")
}
