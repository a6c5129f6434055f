package cisconxos

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/qosread"
)

// importConfig reads NX-OS `show running-config` text into an
// importer.Device: hostname (or switchname), the release (the "version"
// line, or a fabricgen render's "release … (os_version)" header), the
// switch-wide QoS (system qos network-qos and queuing policies, the
// type qos input policy most ports carry, the PFC watchdog) and each
// Ethernet port (description, speed, fec, mtu, L3 address, PFC mode,
// watchdog, bound ACLs, and its effective QoS where it differs). NX-OS
// classifies into qos-groups: a qos-group is the intent's queue, and its
// priority is the CoS its network-qos class pauses (else the qos-group's
// own number), as viewBuildNXOS renders them. QoS lines no intent
// expresses are listed in Device.Unmapped with their line.
func importConfig(ctx context.Context, file string, data []byte) (*importer.Device, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("import %s: %w", file, err)
	}
	if err := importCheckText(file, data); err != nil {
		return nil, err
	}
	text := string(data)
	in := &nxImport{
		file: file, acls: map[string]*nxACL{}, classMaps: map[string]*nxClassMap{},
		qos: map[string]*nxPolicy{}, nq: map[string]*nxNQPolicy{}, queuing: map[string]*nxQueuingPolicy{},
		customQ: map[string]int{}, customNodes: map[string][]*config.Node{}, customUsed: map[string]bool{}, ports: map[string]*nxPort{}, unmappedAt: map[int]bool{},
		dev: &importer.Device{Platform: string(name), Src: importer.Span{File: file}},
	}
	in.header(text)
	tree := config.Parse(text, textForm())
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("import %s: %w", file, err)
	}
	for _, n := range tree.Nodes {
		// A network-qos or queuing class-map may follow the policy
		// naming it.
		if f := strings.Fields(n.Line); len(f) >= 4 && f[0] == "class-map" && f[1] == "type" && (f[2] == "network-qos" || f[2] == "queuing") {
			in.systemClassMap(n, f[len(f)-1])
		}
	}
	for i, n := range tree.Nodes {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("import %s: %w", file, err)
			}
		}
		in.top(n)
		if in.err != nil {
			return nil, in.err
		}
	}
	in.resolve()
	if in.dev.Name == "" {
		in.dev.Name = in.headerName
	}
	return in.dev, nil
}

// importCheckText refuses what is no running-config text: a NUL byte or
// invalid UTF-8 (binary data), a line over importer.MaxLineBytes, or JSON
// (NX-OS import reads the text form only).
func importCheckText(file string, data []byte) error {
	if len(data) > importer.MaxFileBytes {
		return importer.Errorf(file, 0, "the file is %d bytes, over the %d-byte limit of one configuration", len(data), importer.MaxFileBytes)
	}
	if t := bytes.TrimLeft(data, " \t\r\n\ufeff"); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		return importer.Errorf(file, 1+bytes.Count(data[:len(data)-len(t)], []byte("\n")),
			"this looks like JSON; NX-OS import reads `show running-config` text (save the output of \"show running-config\", not \"| json\")")
	}
	line := 1
	for len(data) > 0 {
		end := bytes.IndexByte(data, '\n')
		l := data
		if end >= 0 {
			l = data[:end]
		}
		if len(l) > importer.MaxLineBytes {
			return importer.Errorf(file, line, "the line is %d bytes, over the %d-byte limit of a running-config line", len(l), importer.MaxLineBytes)
		}
		if i := bytes.IndexByte(l, 0); i >= 0 {
			return importer.Errorf(file, line, "a NUL byte at column %d: this is binary data, not `show running-config` text", i+1)
		}
		if !utf8.Valid(l) {
			return importer.Errorf(file, line, "invalid UTF-8: this is binary data or another encoding, not `show running-config` text")
		}
		if end < 0 {
			break
		}
		data = data[end+1:]
		line++
	}
	return nil
}

// nxImport is one file being imported: what its stanzas define, by name,
// until resolve puts the device together.
type nxImport struct {
	file      string
	dev       *importer.Device
	acls      map[string]*nxACL
	classMaps map[string]*nxClassMap
	qos       map[string]*nxPolicy
	nq        map[string]*nxNQPolicy
	queuing   map[string]*nxQueuingPolicy
	// customQ maps a class-map type network-qos or queuing to the
	// qos-group it matches; customNodes are its stanzas.
	customQ     map[string]int
	customNodes map[string][]*config.Node
	customUsed  map[string]bool
	// sysNodes are the system qos stanzas and the global PFC watchdog
	// lines.
	sysNodes []*config.Node
	// sysNQ, sysQueuing and sysIn are the system qos service policies.
	sysNQ, sysQueuing, sysIn nxRef
	// watchdog is the global "priority-flow-control watch-dog-interval on".
	watchdog   int
	restoreMS  int64
	wdComment  importer.Watchdog
	ports      map[string]*nxPort
	order      []*nxPort
	unmappedAt map[int]bool
	// headerName is the device a fabricgen render's header names (the
	// name when the configuration has no hostname).
	headerName string
	// stanzas counts the port stanzas read; err stops the import.
	stanzas int
	err     *importer.Error
}

// nxRef is a policy named at a line.
type nxRef struct {
	name string
	line int
}

// nxACL is an ip and/or ipv6 access-list of one name.
type nxACL struct {
	acl  *importer.ACL
	bad  []importer.Line
	used bool
}

// nxClassMap is a class-map type qos.
type nxClassMap struct {
	nxObject
	name      string
	dscp, cos []int
	acl       []string
	bad       []importer.Line
}

// nxObject is a class-map or policy-map: its stanzas (one given twice is
// one object) and whether the switch uses it.
type nxObject struct {
	nodes []*config.Node
	used  bool
}

// spans are the lines of the object's stanzas.
func (o *nxObject) spans(in *nxImport) []importer.Span {
	out := make([]importer.Span, 0, len(o.nodes))
	for _, n := range o.nodes {
		out = append(out, in.span(n))
	}
	return out
}

// nxPolicy is a policy-map type qos.
type nxPolicy struct {
	nxObject
	name    string
	classes []*nxPolicyClass
	bad     []importer.Line
}

// nxPolicyClass is one class of a type qos policy: its set actions (-1: none).
type nxPolicyClass struct {
	name             string
	line             int
	setQG, setDSCP   int
	setQGL, setDSCPL int
}

// nxNQPolicy is a policy-map type network-qos: per qos-group, MTU and paused CoS.
type nxNQPolicy struct {
	nxObject
	// custom are the class-maps type network-qos its classes name.
	custom []string
	mtu    map[int]nxInt
	pause  map[int][]int
	bad    []importer.Line
}

// nxInt is a number read at a line.
type nxInt struct{ v, line int }

// nxQueuingPolicy is a policy-map type queuing.
type nxQueuingPolicy struct {
	nxObject
	// custom are the class-maps type queuing its classes name.
	custom []string
	queues map[int]*importer.Queue
	bad    []importer.Line
}

// nxPort is one Ethernet interface as read.
type nxPort struct {
	port               *importer.Port
	policy             nxRef
	pfcMode            string
	watchdog           bool
	watchdogLine       int
	rxPause, txPause   bool
	rxPauseL, txPauseL int
	aclIn4, aclOut4    string
	aclIn6, aclOut6    string
	aclLines           map[string]int
	first              int
	unmapped           []importer.Line
}

var (
	importFabricRe   = regexp.MustCompile(`^fabricgen: fabric (\S+), device (\S+) \(`)
	importReleaseRe  = regexp.MustCompile(`^release (\S+) \((os_version|fabricgen's default)`)
	importWatchdogRe = regexp.MustCompile(`^pfc_watchdog (\S+): `)
	importTimerRe    = regexp.MustCompile(`\b(detection|restoration|poll_interval) (\d{1,9}) ms\b`)
)

// header reads the leading "!" comments of a fabricgen render (its
// fabric and device; the release it was rendered for when os_version set it; the pfc_watchdog
// profile's name and timers the switch keeps at its defaults) and a
// device's own "version" line.
func (in *nxImport) header(text string) {
	for n, line := range strings.SplitN(text, "\n", 64) {
		if n == 63 {
			break
		}
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "version "):
			if f := strings.Fields(t); len(f) > 1 && releaseRe.MatchString(f[1]) && in.dev.OSVersion == "" {
				in.dev.OSVersion = f[1]
			}
		case strings.HasPrefix(t, "! "):
			c := strings.TrimPrefix(t, "! ")
			if m := importFabricRe.FindStringSubmatch(c); m != nil {
				in.dev.Fabric, in.headerName = m[1], m[2]
			}
			if m := importReleaseRe.FindStringSubmatch(c); m != nil && m[2] == "os_version" {
				in.dev.OSVersion = m[1]
			}
			if m := importWatchdogRe.FindStringSubmatch(c); m != nil {
				in.wdComment.Name = m[1]
				for _, t := range importTimerRe.FindAllStringSubmatch(c, -1) {
					v, _ := strconv.ParseInt(t[2], 10, 64)
					switch t[1] {
					case "detection":
						in.wdComment.DetectionMS = v
					case "restoration":
						in.wdComment.RestorationMS = v
					case "poll_interval":
						in.wdComment.PollMS = v
					}
				}
			}
		}
	}
}

// unmapped lists one line no intent expresses (once per line).
func (in *nxImport) unmapped(n *config.Node, why string) {
	in.unmappedLine(importer.Line{File: in.file, Line: n.Num, Text: n.Line, Why: why})
}

// unmappedTree lists n and every line nested under it (iteratively: a
// configuration may nest without bound).
func (in *nxImport) unmappedTree(n *config.Node, why string) {
	stack := []*config.Node{n}
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		in.unmapped(k, why)
		for i := len(k.Children) - 1; i >= 0; i-- {
			stack = append(stack, k.Children[i])
		}
	}
}

func (in *nxImport) unmappedLine(l importer.Line) {
	if in.unmappedAt[l.Line] {
		return
	}
	in.unmappedAt[l.Line] = true
	in.dev.Unmapped = append(in.dev.Unmapped, l)
}

func (in *nxImport) line(n *config.Node, why string) importer.Line {
	return importer.Line{File: in.file, Line: n.Num, Text: n.Line, Why: why}
}

// span is the lines of n and everything nested under it.
func (in *nxImport) span(n *config.Node) importer.Span {
	last := n.Num
	for k := n; len(k.Children) > 0; {
		k = k.Children[len(k.Children)-1]
		last = k.Num
	}
	return importer.Span{File: in.file, From: n.Num, To: last}
}

// top reads one top-level stanza.
func (in *nxImport) top(n *config.Node) {
	head := qosread.Head(n)
	f := strings.Fields(head)
	if len(f) == 0 || n.Block {
		return
	}
	switch {
	case f[0] == "hostname" || f[0] == "switchname":
		if len(f) == 2 {
			in.dev.Name = f[1]
		}
	case len(f) == 3 && (f[0] == "ip" || f[0] == "ipv6") && f[1] == "access-list":
		in.accessList(n, f[0] == "ipv6", f[2])
	case strings.HasPrefix(head, "class-map type qos "),
		// An untyped class-map or policy-map is of type qos: Batfish's
		// NX-OS grammar test nxos_policy_map (corpus
		// batfish-nxos_policy_map.cfg) defines "class-map match-any
		// cm_qos2" and uses it as "class type qos cm_qos2".
		len(f) >= 2 && len(f) <= 3 && f[0] == "class-map" && f[1] != "type":
		in.classMap(n, f)
	case len(f) == 2 && f[0] == "policy-map":
		in.policy(n, f[1])
	case len(f) >= 4 && f[0] == "class-map" && f[1] == "type" && (f[2] == "network-qos" || f[2] == "queuing"):
		// Read before the stanzas (importConfig).
	case len(f) == 4 && f[0] == "policy-map" && f[1] == "type" && (f[2] == "qos" || f[2] == "network-qos" || f[2] == "queuing"):
		in.policyMap(n, f[2], f[3])
	case head == "system qos":
		in.systemQoS(n)
	case len(f) >= 2 && f[0] == "interface":
		in.iface(n, f[1:])
	default:
		in.global(n, head, f)
	}
}

// systemClassMap reads a class-map type network-qos or queuing: the
// qos-group it matches.
func (in *nxImport) systemClassMap(n *config.Node, nm string) {
	in.customNodes[nm] = append(in.customNodes[nm], n)
	for _, k := range n.Children {
		if v, ok := qosread.Cut(qosread.Head(k), "match qos-group"); ok {
			if g, ok := qosread.Atoi(v); ok && qosread.Prio(g) {
				in.customQ[nm] = g
			}
		}
	}
}

// policyMap reads a policy-map of type kind.
func (in *nxImport) policyMap(n *config.Node, kind, nm string) {
	switch kind {
	case "qos":
		in.policy(n, nm)
	case "network-qos":
		in.networkQoS(n, nm)
	default:
		in.queuingPolicy(n, nm)
	}
}

// global reads a top-level line that is no stanza: the PFC watchdog's,
// and the QoS knobs no intent expresses.
func (in *nxImport) global(n *config.Node, head string, f []string) {
	switch {
	case head == "priority-flow-control watch-dog-interval on":
		in.watchdog = n.Num
		in.sysNodes = append(in.sysNodes, n)
	case strings.HasPrefix(head, "priority-flow-control fixed-restore multiplier "):
		if m, ok := qosread.Atoi(f[len(f)-1]); ok && m > 0 && len(f) == 4 {
			in.restoreMS = int64(m) * viewNXOSWatchdogIntervalMS
			in.sysNodes = append(in.sysNodes, n)
		} else {
			in.unmapped(n, "a fixed-restore multiplier that is no positive number")
		}
	case f[0] == "priority-flow-control":
		in.unmapped(n, "a PFC watchdog setting fabricgen does not render (it sets only watch-dog-interval on and the fixed-restore multiplier; detection and poll timers stay at the switch's defaults)")
	case len(f) >= 3 && f[0] == "hardware" && f[1] == "access-list" && f[2] == "tcam":
		in.unmapped(n, "a TCAM carving: no intent attribute (fabricgen leaves the switch's TCAM regions as they are)")
	case len(f) >= 2 && f[0] == "hardware" && f[1] == "qos":
		in.unmapped(n, "a buffer or QoS hardware knob: fabricgen renders no buffer commands for cisco_nxos")
	case f[0] == "table-map" || (f[0] == "class-map" && len(f) > 2 && f[2] != "qos") || f[0] == "policy-map" || f[0] == "qos" || f[0] == "wred-queue":
		in.unmappedTree(n, "a QoS object of a kind no intent expresses")
	}
}

// accessList reads "ip|ipv6 access-list NAME" and its entries.
func (in *nxImport) accessList(n *config.Node, v6 bool, nm string) {
	a := in.acls[nm]
	if a == nil {
		a = &nxACL{acl: &importer.ACL{Name: nm, Src: in.span(n)}}
		in.acls[nm] = a
	} else {
		a.acl.Src.To = max(a.acl.Src.To, in.span(n).To)
	}
	for _, k := range n.Children {
		h := qosread.Head(k)
		f := strings.Fields(h)
		if len(f) == 0 || f[0] == "remark" || h == "statistics per-entry" || (len(f) > 1 && f[1] == "remark") {
			continue
		}
		r, why := importACLRule(f, v6)
		if why != "" {
			a.bad = append(a.bad, in.line(k, why))
			continue
		}
		r.Src = importer.Span{File: in.file, From: k.Num, To: k.Num}
		a.acl.Rules = append(a.acl.Rules, r)
	}
}

// importDSCPNames are the DSCP keywords NX-OS accepts for a code point.
var importDSCPNames = map[string]int{
	"default": 0, "ef": 46,
	"af11": 10, "af12": 12, "af13": 14, "af21": 18, "af22": 20, "af23": 22,
	"af31": 26, "af32": 28, "af33": 30, "af41": 34, "af42": 36, "af43": 38,
	"cs0": 0, "cs1": 8, "cs2": 16, "cs3": 24, "cs4": 32, "cs5": 40, "cs6": 48, "cs7": 56,
}

// importDSCP is one DSCP value or keyword.
func importDSCP(s string) (int, bool) {
	if v, ok := importDSCPNames[s]; ok {
		return v, true
	}
	v, ok := qosread.Atoi(s)
	return v, ok && qosread.DSCPOK(v)
}

// importACLRule reads "SEQ ACTION PROTO SRC [PORT] DST [PORT] [dscp N]"
// into a rule, or says why the intent cannot hold it.
func importACLRule(f []string, v6 bool) (*importer.ACLRule, string) {
	r := &importer.ACLRule{Family: "any"}
	seq, ok := qosread.Atoi(f[0])
	if !ok || len(f) < 5 {
		return nil, "an access-list entry that is not \"SEQ permit|deny PROTOCOL SOURCE DESTINATION\""
	}
	r.Seq = seq
	if f[1] != "permit" && f[1] != "deny" {
		return nil, "an access-list entry that is neither permit nor deny"
	}
	r.Action = f[1]
	switch p := f[2]; p {
	case "ip", "ipv6":
		r.Protocol = "ip"
	case "tcp", "udp", "icmp":
		r.Protocol = p
	default:
		if n, ok := qosread.Atoi(p); ok && n < 256 {
			r.Protocol = p
		} else {
			return nil, "an access-list entry for protocol " + p + ": acl rules take ip, tcp, udp, icmp or a protocol number"
		}
	}
	i := 3
	side := func(prefix *string, ports *[][2]int) string {
		if i >= len(f) {
			return "an access-list entry without a source and destination"
		}
		switch w := f[i]; {
		case w == "any":
			i++
		case w == "host" && i+1 < len(f):
			bits := "/32"
			if strings.Contains(f[i+1], ":") {
				bits = "/128"
			}
			*prefix = f[i+1] + bits
			i += 2
		case strings.Contains(w, "/"):
			*prefix = w
			i++
		default:
			return "an access-list entry matching " + w + " (an address group or wildcard mask): acl rules take a CIDR prefix or any"
		}
		if *prefix != "" {
			r.Family = "ipv4"
			if strings.Contains(*prefix, ":") {
				r.Family = "ipv6"
			}
		}
		if i < len(f) {
			switch f[i] {
			case "eq":
				if i+1 < len(f) {
					p, ok := qosread.Atoi(f[i+1])
					if !ok || p > 65535 {
						return "an access-list entry with port " + f[i+1] + ": acl rules take port numbers"
					}
					*ports = append(*ports, [2]int{p, p})
					i += 2
				}
			case "range":
				if i+2 < len(f) {
					a, okA := qosread.Atoi(f[i+1])
					b, okB := qosread.Atoi(f[i+2])
					if !okA || !okB || a > b || b > 65535 {
						return "an access-list entry with port range " + f[i+1] + " " + f[i+2] + ": acl rules take port numbers"
					}
					*ports = append(*ports, [2]int{a, b})
					i += 3
				}
			case "gt", "lt", "neq":
				return "an access-list entry matching ports " + f[i] + ": acl rules take a port or a range"
			}
		}
		return ""
	}
	if why := side(&r.SrcPrefix, &r.SrcPorts); why != "" {
		return nil, why
	}
	if why := side(&r.DstPrefix, &r.DstPorts); why != "" {
		return nil, why
	}
	for i < len(f) {
		switch {
		case f[i] == "dscp" && i+1 < len(f):
			d, ok := importDSCP(f[i+1])
			if !ok {
				return nil, "an access-list entry matching dscp " + f[i+1]
			}
			r.DSCP = append(r.DSCP, d)
			i += 2
		default:
			return nil, "an access-list entry matching " + f[i] + ": acl rules match protocol, prefixes, ports and DSCP only"
		}
	}
	if v6 {
		r.Family = "ipv6"
	}
	return r, ""
}

// classMap reads "class-map type qos [match-any|match-all] NAME".
func (in *nxImport) classMap(n *config.Node, f []string) {
	c := in.classMaps[f[len(f)-1]]
	if c == nil {
		c = &nxClassMap{name: f[len(f)-1]}
		in.classMaps[c.name] = c
	}
	c.nodes = append(c.nodes, n)
	for _, k := range n.Children {
		h := qosread.Head(k)
		if importDescription(k) {
			continue
		}
		switch {
		case strings.HasPrefix(h, "match dscp "):
			vs, ok := importCodes(strings.TrimPrefix(h, "match dscp "), importDSCP)
			if !ok {
				c.bad = append(c.bad, in.line(k, "a DSCP match fabricgen cannot read"))
				continue
			}
			c.dscp = append(c.dscp, vs...)
		case strings.HasPrefix(h, "match cos "):
			vs, ok := importCodes(strings.TrimPrefix(h, "match cos "), func(s string) (int, bool) {
				v, ok := qosread.Atoi(s)
				return v, ok && qosread.Prio(v)
			})
			if !ok {
				c.bad = append(c.bad, in.line(k, "a CoS match fabricgen cannot read"))
				continue
			}
			c.cos = append(c.cos, vs...)
		case strings.HasPrefix(h, "match access-group name "):
			c.acl = append(c.acl, strings.TrimPrefix(h, "match access-group name "))
		case strings.HasPrefix(h, "match "), strings.HasPrefix(h, "no match "):
			c.bad = append(c.bad, in.line(k, "a class matching "+strings.TrimPrefix(h, "no ")+": the intent classifies by DSCP, PCP (CoS) or ACL only"))
		}
	}
	kinds := 0
	for _, has := range []bool{len(c.dscp) > 0, len(c.cos) > 0, len(c.acl) > 0} {
		if has {
			kinds++
		}
	}
	if kinds > 1 && slices.Contains(f, "match-all") {
		c.bad = append(c.bad, in.line(n, "a match-all class of DSCP, CoS or an ACL together (packets matching all of them): the intent classifies by one field per class; read as matching each"))
	}
}

// importDescription reports whether k is a "description" line (a
// policy's or class's comment, no QoS).
func importDescription(k *config.Node) bool {
	return strings.HasPrefix(qosread.Head(k), "description ")
}

// importCodes reads "0-25,27-47,49" or "af31 cs3" with one value reader.
func importCodes(s string, one func(string) (int, bool)) ([]int, bool) {
	var out []int
	for _, t := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		lo, hi, rng := strings.Cut(t, "-")
		a, ok := one(lo)
		if !ok {
			return nil, false
		}
		b := a
		if rng {
			if b, ok = one(hi); !ok || b < a {
				return nil, false
			}
		}
		for v := a; v <= b; v++ {
			out = append(out, v)
		}
	}
	return out, len(out) > 0
}

// policy reads "policy-map type qos NAME".
func (in *nxImport) policy(n *config.Node, nm string) {
	// A policy given twice is one policy: NX-OS adds to it.
	p := in.qos[nm]
	if p == nil {
		p = &nxPolicy{name: nm}
		in.qos[nm] = p
	}
	p.nodes = append(p.nodes, n)
	for _, k := range n.Children {
		cn, ok := qosread.Cut(qosread.Head(k), "class")
		if !ok {
			if !importDescription(k) {
				p.bad = append(p.bad, in.line(k, "a type qos policy line fabricgen does not render"))
			}
			continue
		}
		c := &nxPolicyClass{name: strings.TrimPrefix(cn, "type qos "), line: k.Num, setQG: -1, setDSCP: -1}
		if i := strings.Index(c.name, " insert-before "); i >= 0 {
			c.name = c.name[:i]
		}
		for _, kk := range k.Children {
			h := qosread.Head(kk)
			if v, ok := qosread.Cut(h, "set qos-group"); ok {
				if g, ok := qosread.Atoi(v); ok && qosread.Prio(g) {
					c.setQG, c.setQGL = g, kk.Num
					continue
				}
			}
			if v, ok := qosread.Cut(h, "set dscp"); ok {
				if d, ok := importDSCP(v); ok {
					c.setDSCP, c.setDSCPL = d, kk.Num
					continue
				}
			}
			why := "a type qos action no intent expresses (fabricgen sets only qos-group, and DSCP in an ACL's re-marking class)"
			switch {
			case strings.HasPrefix(h, "set cos"):
				why = "an ingress CoS re-mark: the intent has no attribute for it"
			case strings.HasPrefix(h, "police"):
				why = "a policer: acl rules police only with a burst size the intent does not model"
			}
			p.bad = append(p.bad, in.line(kk, why))
		}
		p.classes = append(p.classes, c)
	}
}

// queueOf is the qos-group of a network-qos or queuing class name.
func (in *nxImport) queueOf(class string) int {
	if g, ok := in.customQ[class]; ok {
		return g
	}
	return readQueue(class)
}

// networkQoS reads "policy-map type network-qos NAME".
func (in *nxImport) networkQoS(n *config.Node, nm string) {
	p := in.nq[nm]
	if p == nil {
		p = &nxNQPolicy{mtu: map[int]nxInt{}, pause: map[int][]int{}}
		in.nq[nm] = p
	}
	p.nodes = append(p.nodes, n)
	for _, k := range n.Children {
		if importDescription(k) {
			continue
		}
		cn := strings.TrimPrefix(qosread.Head(k), "class type network-qos ")
		if _, ok := in.customNodes[cn]; ok {
			p.custom = append(p.custom, cn)
		}
		q := in.queueOf(cn)
		if q < 0 {
			p.bad = append(p.bad, in.line(k, "a network-qos class that is no system class (c-8q-nqN) and that no class-map type network-qos ties to a qos-group"))
			continue
		}
		for _, kk := range k.Children {
			h := qosread.Head(kk)
			if v, ok := qosread.Cut(h, "mtu"); ok {
				if m, ok := qosread.Atoi(v); ok {
					p.mtu[q] = nxInt{m, kk.Num}
					continue
				}
			}
			if v, ok := qosread.Cut(h, "pause pfc-cos"); ok {
				if cs, ok := importCodes(v, func(s string) (int, bool) {
					c, ok := qosread.Atoi(s)
					return c, ok && qosread.Prio(c)
				}); ok {
					p.pause[q] = append(p.pause[q], cs...)
					continue
				}
			}
			why := "a network-qos setting fabricgen does not render"
			if strings.HasPrefix(h, "pause buffer-size") || strings.HasPrefix(h, "queue-limit") {
				why = "a buffer knob (pause thresholds): fabricgen renders no buffer commands for cisco_nxos"
			}
			p.bad = append(p.bad, in.line(kk, why))
		}
	}
}

// queuingPolicy reads "policy-map type queuing NAME".
func (in *nxImport) queuingPolicy(n *config.Node, nm string) {
	p := in.queuing[nm]
	if p == nil {
		p = &nxQueuingPolicy{queues: map[int]*importer.Queue{}}
		in.queuing[nm] = p
	}
	p.nodes = append(p.nodes, n)
	for _, k := range n.Children {
		if importDescription(k) {
			continue
		}
		cn := strings.TrimPrefix(qosread.Head(k), "class type queuing ")
		if _, ok := in.customNodes[cn]; ok {
			p.custom = append(p.custom, cn)
		}
		q := in.queueOf(cn)
		if q < 0 {
			p.bad = append(p.bad, in.line(k, "a queuing class that is no system class (c-out-8q-qN) and that no class-map type queuing ties to a qos-group"))
			continue
		}
		qu := &importer.Queue{}
		for _, kk := range k.Children {
			h := qosread.Head(kk)
			f := strings.Fields(h)
			switch {
			case h == "priority level 1" || h == "priority":
				qu.Sched = "strict"
			case strings.HasPrefix(h, "bandwidth remaining percent ") || strings.HasPrefix(h, "bandwidth percent "):
				w, ok := qosread.Atoi(f[len(f)-1])
				if !ok || w > 100 {
					p.bad = append(p.bad, in.line(kk, "a bandwidth that is no percentage"))
					continue
				}
				if qu.Sched == "" {
					qu.Sched = "dwrr"
				}
				qu.Weight = &w
			case strings.HasPrefix(h, "shape "):
				bps, why := importShape(f)
				if why != "" {
					p.bad = append(p.bad, in.line(kk, why))
				}
				qu.ShaperBps = bps
			case strings.HasPrefix(h, "random-detect "):
				e, why := importRandomDetect(f)
				if why != "" {
					p.bad = append(p.bad, in.line(kk, why))
				}
				if e != nil {
					qu.ECN = e
				}
			default:
				p.bad = append(p.bad, in.line(kk, "a queuing setting fabricgen does not render (it renders priority, bandwidth remaining percent, shape and random-detect)"))
			}
		}
		p.queues[q] = qu
	}
}

// importRate is a rate unit in bit/s.
var importRate = map[string]int64{"bps": 1, "kbps": 1000, "mbps": 1000_000, "gbps": 1000_000_000}

// importShape reads "shape min A UNIT max B UNIT" into the cap in bit/s.
func importShape(f []string) (int64, string) {
	if len(f) != 7 || f[1] != "min" || f[4] != "max" {
		return 0, "a shaper form fabricgen does not read (it renders \"shape min 0 kbps max N kbps\")"
	}
	mn, okMin := qosread.Atoi(f[2])
	mx, err := strconv.ParseInt(f[5], 10, 64)
	um, okU := importRate[f[6]]
	if !okMin || err != nil || !okU || mx < 0 || mx > 1<<40 {
		return 0, "a shaper rate fabricgen cannot read (percent or an unknown unit)"
	}
	if mn != 0 {
		return mx * um, "a shaper minimum rate: the intent's shaper is a cap only (imported as the max)"
	}
	return mx * um, ""
}

// importBytes is a WRED threshold unit in bytes: Cisco's examples write
// kbytes; fabricgen reads a kbyte as 1,024 bytes (viewNXOSKBytes renders
// bytes/1024).
var importBytes = map[string]int64{"bytes": 1, "kbytes": 1024, "mbytes": 1024 * 1024}

// importRandomDetect reads "random-detect minimum-threshold A UNIT
// maximum-threshold B UNIT drop-probability P weight W [ecn]".
func importRandomDetect(f []string) (*importer.ECN, string) {
	e := &importer.ECN{Probability: -1}
	weight := 0
	for i := 1; i < len(f); i++ {
		switch f[i] {
		case "minimum-threshold", "maximum-threshold":
			if i+2 >= len(f) {
				return nil, "a random-detect threshold without its unit"
			}
			v, err := strconv.ParseInt(f[i+1], 10, 64)
			u, ok := importBytes[f[i+2]]
			if err != nil || !ok || v < 0 || v > 1<<30 {
				return nil, "a random-detect threshold in " + f[i+2] + ": the intent's ecn_profile takes bytes"
			}
			if f[i] == "minimum-threshold" {
				e.MinBytes = v * u
			} else {
				e.MaxBytes = v * u
			}
			i += 2
		case "drop-probability":
			if i+1 < len(f) {
				p, ok := qosread.Atoi(f[i+1])
				if !ok || p > 100 {
					return nil, "a drop probability that is no percentage"
				}
				e.Probability = p
				i++
			}
		case "weight":
			if i+1 < len(f) {
				weight, _ = qosread.Atoi(f[i+1])
				i++
			}
		case "ecn":
			e.Mark = true
		default:
			return nil, "a random-detect form fabricgen does not read (it renders thresholds, drop-probability, weight 0 and ecn)"
		}
	}
	if e.MinBytes == 0 || e.MaxBytes == 0 || e.Probability < 0 {
		return nil, "a random-detect curve without both thresholds and a drop probability"
	}
	if weight != 0 {
		return e, fmt.Sprintf("random-detect weight %d (WRED averaging): no intent attribute; imported as weight 0", weight)
	}
	return e, ""
}

// systemQoS reads "system qos" and its service policies.
func (in *nxImport) systemQoS(n *config.Node) {
	in.sysNodes = append(in.sysNodes, n)
	for _, k := range n.Children {
		h := qosread.Head(k)
		if v, ok := qosread.Cut(h, "service-policy type network-qos"); ok {
			in.sysNQ = nxRef{v, k.Num}
		} else if v, ok := qosread.Cut(h, "service-policy type queuing output"); ok {
			in.sysQueuing = nxRef{v, k.Num}
		} else if v, ok := qosread.Cut(h, "service-policy type qos input"); ok {
			in.sysIn = nxRef{v, k.Num}
		} else {
			in.unmapped(k, "a system qos setting fabricgen does not render (it attaches the network-qos and the output queuing policy)")
		}
	}
}

// iface reads "interface NAME" (Ethernet ports; QoS on other interfaces is
// reported).
func (in *nxImport) iface(n *config.Node, args []string) {
	names, ok := importIfaceNames(args)
	if !ok {
		nm := strings.Join(args, " ")
		for _, k := range n.Children {
			h := qosread.Head(k)
			if strings.HasPrefix(h, "service-policy ") || strings.HasPrefix(h, "priority-flow-control ") {
				in.unmapped(k, "QoS on "+nm+": the intent's ports are Ethernet interfaces (one, or a range of one module)")
			}
		}
		return
	}
	in.stanzas += len(names)
	if in.stanzas > importMaxPortStanzas {
		in.err = importer.Errorf(in.file, n.Num, "more than %d interface stanzas (ranges counted port by port): this is no one switch's configuration", importMaxPortStanzas)
		return
	}
	for _, nm := range names {
		p := in.ports[nm]
		if p == nil {
			p = &nxPort{port: &importer.Port{Name: nm, Src: in.span(n)}, first: n.Num, aclLines: map[string]int{}}
			in.ports[nm] = p
			in.order = append(in.order, p)
		} else {
			in.dev.Twice = append(in.dev.Twice, importer.Line{File: in.file, Line: n.Num, Text: n.Line,
				Why: fmt.Sprintf("interface %s is configured again (first at line %d); NX-OS applies both stanzas in order, so the later lines win", nm, p.first)})
			p.port.Src.To = max(p.port.Src.To, in.span(n).To)
		}
		for _, k := range n.Children {
			if !in.ifaceLine(p, k) {
				in.ifaceQoS(p, k)
			}
		}
	}
}

// importMaxPortStanzas bounds the interface stanzas of one file, a range
// counting once per port (a switch has a few hundred ports; a file of
// repeated ranges must not grow the import without bound).
const importMaxPortStanzas = 1 << 16

// importMaxRange bounds the ports of one range.
const importMaxRange = 512

// importIfaceNames is the Ethernet ports an "interface" line names, as
// NX-OS prints them ("Ethernet1/1", "Ethernet1/49/1"): also as typed at
// the CLI, with a blank, in any case, as a range of one module
// ("Ethernet 1/1-1/16", "ethernet1/1-16") or a list of those. false: no
// Ethernet port (a VLAN, port-channel, loopback or mgmt interface).
func importIfaceNames(args []string) ([]string, bool) {
	var out []string
	for _, item := range strings.Split(strings.Join(args, ""), ",") {
		if len(item) < len("ethernet") || !strings.EqualFold(item[:len("ethernet")], "ethernet") {
			return nil, false
		}
		rest := item[len("ethernet"):]
		lo, hi, isRange := strings.Cut(rest, "-")
		parts := strings.Split(lo, "/")
		for _, x := range parts {
			if _, ok := qosread.Atoi(x); !ok {
				return nil, false
			}
		}
		if len(parts) < 2 || len(parts) > 3 {
			return nil, false
		}
		if !isRange {
			out = append(out, "Ethernet"+lo)
			continue
		}
		if i := strings.LastIndexByte(hi, '/'); i >= 0 {
			if hi[:i] != strings.Join(parts[:len(parts)-1], "/") {
				return nil, false // a range across modules
			}
			hi = hi[i+1:]
		}
		from, _ := qosread.Atoi(parts[len(parts)-1])
		to, ok := qosread.Atoi(hi)
		if !ok || to < from || to-from >= importMaxRange {
			return nil, false
		}
		prefix := "Ethernet" + strings.Join(parts[:len(parts)-1], "/") + "/"
		for n := from; n <= to; n++ {
			out = append(out, prefix+strconv.Itoa(n))
		}
	}
	return out, len(out) > 0
}

// ifaceLine reads an interface's description, L1 and L3 lines; it
// returns false for any other line.
func (in *nxImport) ifaceLine(p *nxPort, k *config.Node) bool {
	pt := p.port
	h := qosread.Head(k)
	f := strings.Fields(h)
	switch {
	case strings.HasPrefix(h, "description "):
		// The device's string, as it is (only the keyword and one
		// blank before it are the CLI's).
		pt.Description = strings.TrimPrefix(strings.TrimLeft(k.Line, " \t"), "description ")
	case h == "no switchport":
		pt.Routed = true
	case h == "switchport":
		pt.Routed = false
	case len(f) == 2 && f[0] == "speed":
		if s, ok := qosread.Atoi(f[1]); ok {
			pt.Speed = int64(s) * 1_000_000
		}
	case len(f) == 2 && f[0] == "fec":
		fec, ok := importFEC[f[1]]
		if !ok {
			in.unmapped(k, "a FEC mode the intent's fec (rs, fc, none) does not name")
		}
		pt.FEC = fec
	case len(f) == 2 && f[0] == "mtu":
		if m, ok := qosread.Atoi(f[1]); ok {
			pt.MTU = m
		}
	case len(f) == 3 && f[0] == "ip" && f[1] == "address",
		len(f) == 3 && f[0] == "ipv6" && f[1] == "address" && strings.Contains(f[2], "/"):
		if pt.IP != "" && pt.IP != f[2] {
			p.unmapped = append(p.unmapped, in.line(k, "a second address: the intent's port has one ip ("+pt.IP+" kept)"))
			break
		}
		pt.IP, pt.Routed = f[2], true
	case len(f) == 4 && f[0] == "ip" && f[1] == "address" && f[3] == "secondary":
		p.unmapped = append(p.unmapped, in.line(k, "a secondary address: the intent's port has one ip"))
	case h == "ipv6 address use-link-local-only":
		pt.Routed = true
	default:
		return false
	}
	return true
}

// importFEC is the intent's fec of each N9K "fec" argument (the "fec ?"
// help quoted in Cisco bug CSCvy03375: auto, fc-fec, off, rs-fec; auto is
// the port's default, no intent value). Other keywords are reported.
var importFEC = map[string]string{"rs-fec": "rs", "fc-fec": "fc", "off": "none", "auto": ""}

// ifaceQoS reads an interface's QoS and ACL lines.
func (in *nxImport) ifaceQoS(p *nxPort, k *config.Node) {
	h := qosread.Head(k)
	f := strings.Fields(h)
	switch {
	case len(f) == 3 && f[0] == "flowcontrol" && (f[1] == "receive" || f[1] == "send"):
		on := f[2] == "on"
		if f[1] == "receive" {
			p.rxPause, p.rxPauseL = on, k.Num
		} else {
			p.txPause, p.txPauseL = on, k.Num
		}
	case len(f) >= 3 && f[0] == "priority-flow-control" && f[1] == "mode":
		p.pfcMode = f[2]
		if len(f) > 3 {
			p.unmapped = append(p.unmapped, in.line(k, "\""+strings.Join(f[3:], " ")+"\" (what DCBX advertises): no intent attribute; the PFC mode is read"))
		}
	case h == "priority-flow-control watch-dog-interval on":
		p.watchdog, p.watchdogLine = true, k.Num
	case h == "priority-flow-control watch-dog-interval off":
		p.watchdog = false
	case strings.HasPrefix(h, "service-policy type qos input "):
		p.policy = nxRef{strings.TrimPrefix(h, "service-policy type qos input "), k.Num}
	case len(f) == 4 && f[0] == "ip" && f[1] == "access-group":
		in.bindACL(p, k, f[2], f[3], false)
	case len(f) == 4 && f[0] == "ipv6" && f[1] == "traffic-filter":
		in.bindACL(p, k, f[2], f[3], true)
	case strings.HasPrefix(h, "service-policy type queuing "):
		p.unmapped = append(p.unmapped, in.line(k, "a queuing policy on a port: fabricgen attaches the queuing policy switch-wide (system qos) only"))
	case strings.HasPrefix(h, "service-policy "), strings.HasPrefix(h, "priority-flow-control "), strings.HasPrefix(h, "ip port access-group "),
		strings.HasPrefix(h, "qos "), strings.HasPrefix(h, "mpls "):
		p.unmapped = append(p.unmapped, in.line(k, "a port QoS setting no intent expresses"))
	}
}

// bindACL reads "ip access-group NAME in|out" or "ipv6 traffic-filter NAME in|out".
func (in *nxImport) bindACL(p *nxPort, k *config.Node, acl, dir string, v6 bool) {
	switch {
	case dir == "in" && v6:
		p.aclIn6 = acl
	case dir == "in":
		p.aclIn4 = acl
	case dir == "out" && v6:
		p.aclOut6 = acl
	case dir == "out":
		p.aclOut4 = acl
	default:
		p.unmapped = append(p.unmapped, in.line(k, "an ACL binding in no direction fabricgen renders"))
		return
	}
	p.aclLines[dir+" "+acl] = k.Num
}

// nxClassified is what an input policy does on a port: its trust, maps
// and the classes it names per priority.
type nxClassified struct {
	trust       string
	dscp, pcp   map[int]int
	queue       map[int]int
	defaultPrio *int
	names       map[int]string
	src         []importer.Span
	// coerced: no port keeps this classification (the switch's majority
	// replaced it).
	coerced bool
}

// prioOf is the priority of qos-group g: the CoS its network-qos class
// pauses (viewNXOSNetworkQoS puts a lossless priority in the class of its
// queue), else g itself.
func prioOf(pause map[int][]int, g int) int {
	if ps := pause[g]; len(ps) > 0 {
		if slices.Contains(ps, g) {
			return g
		}
		return slices.Min(ps)
	}
	return g
}

// classify reads the classification of policy pol on a port whose
// inbound ACLs are aclIn: the ACL re-marking classes fabricgen renders
// for aclIn ("<acl>-<seq>", one-entry access lists) give their set dscp
// back to the ACL's rules; the DSCP and CoS classes are the port's maps.
func (in *nxImport) classify(pol *nxPolicy, aclIn []string, pause map[int][]int) *nxClassified {
	c := &nxClassified{trust: "none", names: map[int]string{}}
	if pol == nil {
		return c
	}
	pol.used = true
	c.src = append(c.src, pol.spans(in)...)
	for _, l := range pol.bad {
		in.unmappedLine(l)
	}
	var dscpSeen, cosSeen bool
	for _, pc := range pol.classes {
		if pc.name == "class-default" {
			if pc.setQG >= 0 {
				pr := prioOf(pause, pc.setQG)
				c.defaultPrio = &pr
				c.setQueue(pr, pc.setQG)
			}
			continue
		}
		cm := in.classMaps[pc.name]
		if cm == nil {
			in.unmappedLine(importer.Line{File: in.file, Line: pc.line, Text: "class " + pc.name, Why: "a class whose class-map type qos the configuration does not define"})
			continue
		}
		cm.used = true
		c.src = append(c.src, cm.spans(in)...)
		for _, l := range cm.bad {
			in.unmappedLine(l)
		}
		if len(cm.acl) > 0 {
			in.mark(pc, cm, aclIn)
			continue
		}
		if pc.setQG < 0 {
			in.unmappedLine(importer.Line{File: in.file, Line: pc.line, Text: "class " + pc.name, Why: "a class that sets no qos-group"})
			continue
		}
		if pc.setDSCP >= 0 {
			in.unmappedLine(importer.Line{File: in.file, Line: pc.setDSCPL, Text: fmt.Sprintf("set dscp %d", pc.setDSCP),
				Why: "a DSCP re-mark of a DSCP or CoS class: the intent re-marks only in acl rules (set_dscp)"})
		}
		pr := prioOf(pause, pc.setQG)
		if n, ok := importPlaceholder(pc.name); ok {
			pr = n
		}
		c.setQueue(pr, pc.setQG)
		if len(cm.dscp) > 0 {
			dscpSeen = true
			if c.dscp == nil {
				c.dscp = map[int]int{}
			}
			for _, v := range cm.dscp {
				if _, ok := c.dscp[v]; !ok {
					c.dscp[v] = pr
				}
			}
			c.name(pr, pc.name, "FG-DSCP-")
		}
		if len(cm.cos) > 0 {
			cosSeen = true
			if c.pcp == nil {
				c.pcp = map[int]int{}
			}
			for _, v := range cm.cos {
				if _, ok := c.pcp[v]; !ok {
					c.pcp[v] = pr
				}
			}
			c.name(pr, pc.name, "FG-COS-")
		}
	}
	switch {
	case dscpSeen && cosSeen:
		c.trust = "both"
	case cosSeen:
		c.trust = "pcp"
	default:
		c.trust = "dscp"
	}
	// What no class matches lands in class-default: qos-group 0 unless it
	// says otherwise.
	dp := 0
	if c.defaultPrio != nil {
		dp = *c.defaultPrio
	}
	if c.dscp != nil || c.trust == "dscp" || c.trust == "both" {
		if c.dscp == nil {
			c.dscp = map[int]int{}
		}
		for v := range 64 {
			if _, ok := c.dscp[v]; !ok {
				c.dscp[v] = dp
				c.defaultPrio = &dp
			}
		}
	}
	if c.pcp != nil {
		for v := range 8 {
			if _, ok := c.pcp[v]; !ok {
				c.pcp[v] = dp
			}
		}
	}
	return c
}

func (c *nxClassified) setQueue(prio, queue int) {
	if c.queue == nil {
		c.queue = map[int]int{}
	}
	if _, ok := c.queue[prio]; !ok {
		c.queue[prio] = queue
	}
}

// importPlaceholder is the priority of a class fabricgen's render names
// after a priority no traffic_class names: "FG-DSCP-prioN" or
// "FG-COS-prioN" (view.ClassNames).
func importPlaceholder(class string) (int, bool) {
	for _, prefix := range []string{"FG-DSCP-prio", "FG-COS-prio"} {
		if v, ok := strings.CutPrefix(class, prefix); ok {
			n, ok := qosread.Atoi(v)
			return n, ok && qosread.Prio(n)
		}
	}
	return 0, false
}

// name records the configuration's name of priority p: a class-map's,
// without fabricgen's prefix, unless it is fabricgen's placeholder
// ("prioN").
func (c *nxClassified) name(p int, class, prefix string) {
	if _, ok := c.names[p]; ok {
		return
	}
	n := strings.TrimPrefix(class, prefix)
	if n == "prio"+strconv.Itoa(p) {
		return
	}
	c.names[p] = n
}

// mark reads one ACL class of an input policy: a class fabricgen renders
// for rule SEQ of the port's inbound ACL (class-map and one-entry access
// list "<acl>-<seq>") gives its set dscp back to that rule.
func (in *nxImport) mark(pc *nxPolicyClass, cm *nxClassMap, aclIn []string) {
	why := "a class matching access list " + strings.Join(cm.acl, ", ") + ": the intent classifies by ACL only through re-marking rules (set_dscp) of the ACL bound with acl_in"
	if len(cm.acl) != 1 {
		in.unmappedLine(importer.Line{File: in.file, Line: pc.line, Text: "class " + pc.name, Why: why})
		return
	}
	sub := in.acls[cm.acl[0]]
	for _, a := range aclIn {
		prefix := a + "-"
		seq, ok := qosread.Atoi(strings.TrimPrefix(cm.acl[0], prefix))
		if !strings.HasPrefix(cm.acl[0], prefix) || !ok || sub == nil || len(sub.acl.Rules) != 1 || sub.acl.Rules[0].Seq != seq {
			continue
		}
		parent := in.acls[a]
		if parent == nil {
			continue
		}
		for _, r := range parent.acl.Rules {
			if r.Seq != seq {
				continue
			}
			if pc.setDSCP >= 0 {
				if r.SetDSCP != nil && *r.SetDSCP != pc.setDSCP {
					in.unmappedLine(importer.Line{File: in.file, Line: pc.setDSCPL, Text: fmt.Sprintf("set dscp %d", pc.setDSCP),
						Why: fmt.Sprintf("acl %s rule %d re-marks to another DSCP (%d) on another port: the intent's rule has one set_dscp", a, seq, *r.SetDSCP)})
					return
				}
				v := pc.setDSCP
				r.SetDSCP = &v
			}
			return
		}
	}
	in.unmappedLine(importer.Line{File: in.file, Line: pc.line, Text: "class " + pc.name, Why: why})
}

// nxSystem is the switch-wide QoS: system qos's network-qos (paused CoS
// per qos-group) and queuing policies, and the PFC watchdog.
type nxSystem struct {
	// src are the lines read for it.
	src    []importer.Span
	pause  map[int][]int
	pfc    []int
	queues map[int]*importer.Queue
	wd     *importer.Watchdog
	// wide: the configuration has switch-wide QoS.
	wide bool
}

// system reads the policies system qos attaches.
func (in *nxImport) system() nxSystem {
	s := nxSystem{queues: map[int]*importer.Queue{}}
	for _, n := range in.sysNodes {
		s.src = append(s.src, in.span(n))
	}
	var custom []string
	if nq := in.nq[in.sysNQ.name]; nq != nil {
		nq.used = true
		s.src = append(s.src, nq.spans(in)...)
		custom = append(custom, nq.custom...)
		s.pause = nq.pause
		for _, l := range nq.bad {
			in.unmappedLine(l)
		}
	} else if in.sysNQ.name != "" {
		in.unmappedLine(importer.Line{File: in.file, Line: in.sysNQ.line, Text: "service-policy type network-qos " + in.sysNQ.name, Why: "a network-qos policy the configuration does not define"})
	}
	for _, ps := range s.pause {
		s.pfc = append(s.pfc, ps...)
	}
	slices.Sort(s.pfc)
	s.pfc = slices.Compact(s.pfc)
	if qp := in.queuing[in.sysQueuing.name]; qp != nil {
		qp.used = true
		s.src = append(s.src, qp.spans(in)...)
		custom = append(custom, qp.custom...)
		for _, l := range qp.bad {
			in.unmappedLine(l)
		}
		s.queues = qp.queues
	} else if in.sysQueuing.name != "" {
		in.unmappedLine(importer.Line{File: in.file, Line: in.sysQueuing.line, Text: "service-policy type queuing output " + in.sysQueuing.name, Why: "a queuing policy the configuration does not define"})
	}
	if in.watchdog > 0 {
		w := in.wdComment
		w.Action = "drop"
		if in.restoreMS > 0 {
			w.RestorationMS = in.restoreMS
		}
		s.wd = &w
		if len(s.pfc) == 0 {
			in.unmappedLine(importer.Line{File: in.file, Line: in.watchdog, Text: "priority-flow-control watch-dog-interval on", Why: "a PFC watchdog on a switch without lossless priorities"})
		}
	}
	for _, c := range custom {
		for _, n := range in.customNodes[c] {
			s.src = append(s.src, in.span(n))
		}
		in.customUsed[c] = true
	}
	s.wide = in.sysNQ.name != "" || in.sysQueuing.name != "" || s.wd != nil
	return s
}

// resolve puts the device together: the switch-wide policies, each
// port's effective QoS, the most common one as Default.
func (in *nxImport) resolve() {
	d := in.dev
	sys := in.system()
	cache := map[string]*nxClassified{}
	cls := make([]*nxClassified, len(in.order))
	qs := make([]*importer.QoS, len(in.order))
	usedQ := map[int]bool{}
	for g := range sys.pause {
		usedQ[g] = true
	}
	for _, p := range in.order {
		if p.rxPause != p.txPause {
			l, text := p.txPauseL, "flowcontrol send on"
			if p.rxPause {
				l, text = p.rxPauseL, "flowcontrol receive on"
			}
			in.unmappedLine(importer.Line{File: in.file, Line: l, Text: text,
				Why: "802.3x pause in one direction only: the intent's link_pause turns both on or off"})
		}
		sys.wide = sys.wide || p.rxPause && p.txPause
	}
	for i, p := range in.order {
		for _, l := range p.unmapped {
			in.unmappedLine(l)
		}
		in.portACLs(p)
		pt := p.port
		ref := p.policy
		if ref.name == "" {
			ref = in.sysIn
		}
		pol := in.qos[ref.name]
		if pol == nil && ref.name != "" {
			in.unmappedLine(importer.Line{File: in.file, Line: ref.line, Text: "service-policy type qos input " + ref.name, Why: "a type qos policy the configuration does not define"})
		}
		key := ref.name + "\x00" + strings.Join(pt.ACLIn, "\x00")
		c := cache[key]
		if c == nil {
			c = in.classify(pol, pt.ACLIn, sys.pause)
			cache[key] = c
		}
		cls[i] = c
		if pol == nil && !sys.wide {
			continue
		}
		for _, g := range c.queue {
			usedQ[g] = true
		}
		qs[i] = in.portQoS(p, c, sys)
	}
	// Queues no priority uses, at fabricgen's "bandwidth remaining percent
	// 0" and nothing else, are left to the platform's default.
	for id, qu := range sys.queues {
		if !usedQ[id] && qu.Sched == "dwrr" && qu.Weight != nil && *qu.Weight == 0 && qu.ECN == nil && qu.ShaperBps == 0 {
			delete(sys.queues, id)
		}
	}
	in.defaults(qs, cls, sys)
	for _, nm := range importSortedACLs(in.acls) {
		a := in.acls[nm]
		if !a.used {
			continue
		}
		for _, l := range a.bad {
			in.unmappedLine(l)
		}
		d.ACLs = append(d.ACLs, a.acl)
	}
	in.unused()
	slices.SortStableFunc(d.Unmapped, func(a, b importer.Line) int { return a.Line - b.Line })
}

// unused reports the class-maps and policy-maps nothing attaches, line by
// line: they have no effect on traffic, and the intent does not keep them.
func (in *nxImport) unused() {
	var nodes []*config.Node
	for _, m := range []map[string]*nxObject{objects(in.classMaps), objects(in.qos), objects(in.nq), objects(in.queuing)} {
		for _, o := range m {
			if !o.used {
				nodes = append(nodes, o.nodes...)
			}
		}
	}
	for nm, ns := range in.customNodes {
		if !in.customUsed[nm] {
			nodes = append(nodes, ns...)
		}
	}
	slices.SortFunc(nodes, func(a, b *config.Node) int { return a.Num - b.Num })
	for _, n := range nodes {
		in.unmappedTree(n, "defined but attached nowhere (no port, no system qos uses it): no effect on traffic, and no intent keeps it")
	}
}

// objects is the nxObject of each value of m.
func objects[T interface{ object() *nxObject }](m map[string]T) map[string]*nxObject {
	out := make(map[string]*nxObject, len(m))
	for k, v := range m {
		out[k] = v.object()
	}
	return out
}

func (o *nxObject) object() *nxObject { return o }

// portACLs binds the port's access lists (those the configuration defines).
func (in *nxImport) portACLs(p *nxPort) {
	pt := p.port
	for _, b := range []struct {
		name, dir string
		out       *[]string
	}{{p.aclIn4, "in", &pt.ACLIn}, {p.aclIn6, "in", &pt.ACLIn}, {p.aclOut4, "out", &pt.ACLOut}, {p.aclOut6, "out", &pt.ACLOut}} {
		if b.name == "" || slices.Contains(*b.out, b.name) {
			continue
		}
		if in.acls[b.name] == nil {
			in.unmappedLine(importer.Line{File: in.file, Line: p.aclLines[b.dir+" "+b.name], Text: b.name, Why: "binds an access list the configuration does not define"})
			continue
		}
		in.acls[b.name].used = true
		*b.out = append(*b.out, b.name)
	}
}

// portQoS is port p's effective QoS: its classification c and the
// switch-wide sys, with its own PFC mode, watchdog and pause.
func (in *nxImport) portQoS(p *nxPort, c *nxClassified, sys nxSystem) *importer.QoS {
	q := &importer.QoS{Trust: c.trust, DSCP: c.dscp, PCP: c.pcp, DefaultPriority: c.defaultPrio, Src: c.src}
	q.Queue = map[int]int{}
	for pr, g := range c.queue {
		q.Queue[pr] = g
	}
	for g := range 8 {
		for _, pr := range sys.pause[g] {
			if _, ok := q.Queue[pr]; !ok {
				q.Queue[pr] = g
			}
		}
	}
	if len(q.Queue) == 0 {
		q.Queue = nil
	}
	q.PFCSet = in.sysNQ.name != "" || p.pfcMode == "off"
	if p.pfcMode != "off" {
		q.PFC = sys.pfc
	}
	q.Queues = sys.queues
	switch {
	case sys.wd != nil && len(q.PFC) > 0 && p.watchdog:
		q.Watchdog = sys.wd
	case sys.wd != nil:
		q.WatchdogOff = true
	case p.watchdog:
		in.unmappedLine(importer.Line{File: in.file, Line: p.watchdogLine, Text: "priority-flow-control watch-dog-interval on",
			Why: "a port's PFC watchdog without the global one: the intent's pfc_watchdog enables both"})
	}
	lp := p.rxPause && p.txPause
	q.LinkPause = &lp
	q.Src = append(slices.Clip(q.Src), sys.src...)
	return q
}

// importSortedACLs is the ACL names in the order their stanzas start.
func importSortedACLs(m map[string]*nxACL) []string {
	out := make([]string, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	slices.SortFunc(out, func(a, b string) int { return m[a].acl.Src.From - m[b].acl.Src.From })
	return out
}

// defaults picks the QoS most ports share as Default (the first port's
// on a tie) and gives the others theirs. NX-OS holds classification and
// the PFC watchdog switch-wide (viewBuildNXOS refuses ports that differ),
// so a port that differs there takes the majority's, and its lines are
// reported. The policy MTU is the one every port sets, if they all set
// the same.
func (in *nxImport) defaults(qs []*importer.QoS, cls []*nxClassified, sys nxSystem) {
	d := in.dev
	mtu := -1
	for _, p := range in.order {
		d.Ports = append(d.Ports, p.port)
		switch m := p.port.MTU; {
		case mtu == -1:
			mtu = m
		case m != mtu:
			mtu = 0
		}
	}
	mtu = max(mtu, 0)
	in.uniformWatchdog(qs)
	in.uniformClasses(qs, cls)
	best := importMajority(qs, mtu)
	if best >= 0 {
		d.Default = qs[best]
		key := importKey(d.Default)
		for i, q := range qs {
			if q != nil && importKey(q) != key {
				in.order[i].port.QoS = q
			}
		}
	} else if sys.wide {
		c := in.classify(in.qos[in.sysIn.name], nil, sys.pause)
		cls = append(cls, c)
		d.Default = &importer.QoS{Trust: c.trust, DSCP: c.dscp, PCP: c.pcp, DefaultPriority: c.defaultPrio, Queue: c.queue,
			PFC: sys.pfc, PFCSet: in.sysNQ.name != "", Queues: sys.queues, Watchdog: sys.wd, MTU: mtu,
			Src: append(slices.Clip(c.src), sys.src...)}
	}
	if best >= 0 {
		// The Default's classes name the priorities first.
		cls = append([]*nxClassified{cls[best]}, cls...)
	}
	for _, c := range cls {
		for p := range 8 {
			n, ok := c.names[p]
			if !ok || c.coerced {
				continue
			}
			if d.ClassNames == nil {
				d.ClassNames = map[int]string{}
			}
			if _, ok := d.ClassNames[p]; !ok {
				d.ClassNames[p] = n
			}
		}
	}
	if d.Default != nil {
		in.checkNQMTU()
	}
}

// checkNQMTU reports a network-qos MTU other than the one the render
// derives: the ports' largest MTU, 9216 when no port sets one.
func (in *nxImport) checkNQMTU() {
	nq := in.nq[in.sysNQ.name]
	if nq == nil {
		return
	}
	want := 0
	for _, p := range in.order {
		want = max(want, p.port.MTU)
	}
	if want == 0 {
		want = 9216
	}
	for _, m := range nq.mtu {
		if m.v != want && m.v > 0 {
			in.unmappedLine(importer.Line{File: in.file, Line: m.line, Text: fmt.Sprintf("mtu %d", m.v),
				Why: fmt.Sprintf("a network-qos MTU other than %d: fabricgen gives the classes the ports' largest MTU (9216 when no port sets one)", want)})
		}
	}
}

// importKey is q's facts without its spans, for comparing ports: every
// field of importer.QoS the import sets, in a fixed order.
func importKey(q *importer.QoS) string {
	var b strings.Builder
	b.Grow(512)
	intMap := func(m map[int]int, n int) {
		b.WriteByte('|')
		if m == nil {
			b.WriteByte('-')
			return
		}
		for i := range n {
			if v, ok := m[i]; ok {
				b.WriteString(strconv.Itoa(v))
			}
			b.WriteByte(',')
		}
	}
	optInt := func(p *int) {
		b.WriteByte('|')
		if p != nil {
			b.WriteString(strconv.Itoa(*p))
		}
	}
	b.WriteString(q.Trust)
	optInt(q.DefaultPriority)
	intMap(q.DSCP, 64)
	intMap(q.PCP, 8)
	intMap(q.Queue, 8)
	fmt.Fprintf(&b, "|%v %v|%v|%d|", q.PFC, q.PFCSet, q.WatchdogOff, q.MTU)
	if q.LinkPause != nil {
		fmt.Fprint(&b, *q.LinkPause)
	}
	if w := q.Watchdog; w != nil {
		fmt.Fprintf(&b, "|wd %q %d %d %d %s", w.Name, w.DetectionMS, w.RestorationMS, w.PollMS, w.Action)
	}
	for id := range 8 {
		qu := q.Queues[id]
		if qu == nil {
			continue
		}
		fmt.Fprintf(&b, "|q%d %s %d %v", id, qu.Sched, qu.ShaperBps, qu.ECNOff)
		optInt(qu.Weight)
		if e := qu.ECN; e != nil {
			fmt.Fprintf(&b, " ecn %d %d %d %v", e.MinBytes, e.MaxBytes, e.Probability, e.Mark)
		}
	}
	return b.String()
}

// importMajority sets every port's policy MTU and returns the index of
// the QoS most ports share (-1: none).
func importMajority(qs []*importer.QoS, mtu int) int {
	count := map[string]int{}
	best, bestKey := -1, ""
	for i, q := range qs {
		if q == nil {
			continue
		}
		q.MTU = mtu
		k := importKey(q)
		count[k]++
		if best < 0 || count[k] > count[bestKey] {
			best, bestKey = i, k
		}
	}
	return best
}

// uniformWatchdog gives every lossless port the watchdog most lossless
// ports have (on where tied): the intent has one per switch on NX-OS.
func (in *nxImport) uniformWatchdog(qs []*importer.QoS) {
	var on, off int
	var wd *importer.Watchdog
	for _, q := range qs {
		if q == nil || len(q.PFC) == 0 {
			continue
		}
		if q.Watchdog != nil {
			on, wd = on+1, q.Watchdog
		} else {
			off++
		}
	}
	if on == 0 || off == 0 {
		return
	}
	for i, q := range qs {
		if q == nil || len(q.PFC) == 0 || (q.Watchdog != nil) == (on >= off) {
			continue
		}
		p := in.order[i]
		line, why := p.port.Src.From, "a lossless port without \"priority-flow-control watch-dog-interval on\" while most lossless ports have it: the intent gives NX-OS one PFC watchdog for all lossless ports; imported with it"
		if on < off {
			line, why = p.watchdogLine, "a lossless port with the PFC watchdog while most lossless ports have none: the intent gives NX-OS one PFC watchdog for all lossless ports; imported without"
			q.Watchdog, q.WatchdogOff = nil, true
		} else {
			q.Watchdog, q.WatchdogOff = wd, false
		}
		in.unmappedLine(importer.Line{File: in.file, Line: line, Text: importLineText(p, line), Why: why})
	}
}

// uniformClasses gives every port the classification most ports with
// an input policy have (the first port's on a tie): NX-OS intent
// classifies one way per switch, and the policy the configuration
// attaches is kept over ports that have none. A port whose classification
// differs is reported at its service-policy line (or its interface line
// when it has none).
func (in *nxImport) uniformClasses(qs []*importer.QoS, cls []*nxClassified) {
	count := map[string]int{}
	ref, refKey := -1, ""
	for i, q := range qs {
		if q == nil || q.Trust == "none" {
			continue
		}
		k := importClassKey(q)
		count[k]++
		if ref < 0 || count[k] > count[refKey] {
			ref, refKey = i, k
		}
	}
	if ref < 0 {
		return
	}
	def := qs[ref]
	for i, q := range qs {
		if q == nil || importClassKey(q) == refKey {
			continue
		}
		p := in.order[i]
		line := p.policy.line
		if line == 0 {
			line = p.port.Src.From
		}
		in.unmappedLine(importer.Line{File: in.file, Line: line, Text: importLineText(p, line),
			Why: fmt.Sprintf("classification (trust %s) unlike the switch's (trust %s, as most ports with an input policy): NX-OS intent classifies one way per switch; imported with the switch's", q.Trust, def.Trust)})
		q.Trust, q.DSCP, q.PCP, q.DefaultPriority, q.Queue = def.Trust, def.DSCP, def.PCP, def.DefaultPriority, def.Queue
		q.Src = def.Src // the stanzas that now decide it
		if cls[i] != cls[ref] {
			cls[i].coerced = true
		}
	}
}

// importClassKey is q's classification: trust, maps and queue map.
func importClassKey(q *importer.QoS) string {
	return importKey(&importer.QoS{Trust: q.Trust, DSCP: q.DSCP, PCP: q.PCP, DefaultPriority: q.DefaultPriority, Queue: q.Queue})
}

// importLineText is the text of line of port p's stanza, as read.
func importLineText(p *nxPort, line int) string {
	if line == p.port.Src.From {
		return "interface " + p.port.Name
	}
	if line == p.policy.line {
		return "service-policy type qos input " + p.policy.name
	}
	return "priority-flow-control watch-dog-interval on"
}
