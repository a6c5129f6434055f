package osmconf

import (
	"fmt"
	"strings"
)

// maxPolicyString is OpenSM's string buffer for one value
// (OSM_QOS_POLICY_MAX_LINE_LEN, 10 KiB); it would overflow on a longer one.
const maxPolicyString = 10 * 1024

// Policy is qos-policy.conf, parsed with OpenSM's grammar (port-groups, qos-setup, qos-levels,
// qos-ulps, qos-match-rules).
type Policy struct {
	Groups []PortGroup
	Levels []Level
	Rules  []MatchRule
	ULPs   []ULP
	// SetupLines are the lines of qos-setup sections: OpenSM parses them
	// and ignores them (SL2VL and VLArb come from opensm.conf).
	SetupLines []int
}

// PortGroup is one port-group.
type PortGroup struct {
	Name       string
	Line       int
	GUIDs      []uint64
	Partitions []string /* partition: */
	NodeTypes  []string
	// Use is the description; GUIDRanges the port-guid ranges "a-b" (a<b);
	// PortNames the port-name values; PKeys and PKeyRanges the pkey values.
	Use        string
	GUIDRanges [][2]uint64
	PortNames  []string
	PKeys      []uint16
	PKeyRanges [][2]uint16
}

// Level is one qos-level.
type Level struct {
	Name       string
	Line       int
	SL         int
	SLSet      bool
	MTU        int // mtu-limit, 0 when not given
	Rate       int // rate-limit, 0 when not given
	PacketLife int // 0 when not given
	PKeys      []uint16
	// Use is the description; PKeyRanges the pkey ranges; PathBits the
	// path-bits values as written.
	Use        string
	PKeyRanges [][2]uint16
	PathBits   []string
}

// MatchRule is one qos-match-rule. Its PKeys (like Level's and
// PortGroup's) are as written; OpenSM compares their low 15 bits.
type MatchRule struct {
	Line                   int
	Source, Destination    []string
	PKeys                  []uint16
	Level                  string
	ServiceIDs, QoSClasses []string // values or ranges "a-b" as written
	Use                    string
	PKeyRanges             [][2]uint16
}

// ULP is one line of qos-ulps.
type ULP struct {
	Line  int
	Text  string // the line up to the ':' before the SL, e.g. "ipoib, pkey 0x8001"
	Level int    /* the SL after ':' */
	// PKeys are the P_Keys of "ipoib, pkey" and "any, pkey" rules, ranges
	// expanded, as OpenSM uses them: the low 15 bits (0x7fff for a plain
	// "ipoib"). IPoIB tells an IPoIB rule (whose partition OpenSM requires
	// to exist with at least two full members).
	PKeys []uint16
	IPoIB bool
}

// PolicyError is a qos-policy.conf that OpenSM fails to parse (ERR AC05,
// then ERR AC03: the whole policy is dropped).
type PolicyError struct {
	Line, Col int // where OpenSM's lexer stands when it reports the error
	Msg       string
}

// Error reads "line N: MSG (OpenSM: ERR AC05 Syntax error (line N:C) ...)".
func (e *PolicyError) Error() string {
	return fmt.Sprintf("line %d: %s (OpenSM logs \"ERR AC05: Syntax error (line %d:%d)\" and \"ERR AC03\", and drops the whole policy)", e.Line, e.Msg, e.Line, e.Col)
}

// policyParser is a recursive-descent parser of the language OpenSM's
// bison grammar (osm_qos_parser_y.y) accepts, with its semantic checks.
type policyParser struct {
	lx   *policyLexer
	tok  token // the lookahead
	prev token // the last token consumed
	p    *Policy
}

// ParsePolicy parses qos-policy.conf with OpenSM's grammar. Errors are the
// ones OpenSM's parser reports (syntax errors and the checks of its
// grammar actions: duplicate tags, missing name or sl, out-of-range
// mtu-limit, rate-limit, ULP SL, sl2vl-table), as "line N: ...". The
// checks OpenSM makes after parsing are Problems.
func ParsePolicy(text string) (*Policy, error) {
	if len(text) > MaxTextSize {
		return nil, fmt.Errorf("qos-policy.conf: %d bytes exceeds the %d-byte limit", len(text), MaxTextSize)
	}
	if i := strings.IndexByte(text, 0); i >= 0 {
		line := strings.Count(text[:i], "\n") + 1
		return nil, &PolicyError{Line: line, Col: i - strings.LastIndexByte(text[:i], "\n"[0]), Msg: "NUL byte (OpenSM's lexer reads it as text)"}
	}
	ps := &policyParser{lx: &policyLexer{t: newLexTables(), s: text, line: 1, col: 1}, p: &Policy{}}
	ps.advance()
	if err := ps.parse(); err != nil {
		return nil, err
	}
	return ps.p, nil
}

// advance reads the next token.
func (ps *policyParser) advance() { ps.prev, ps.tok = ps.tok, ps.lx.next() }

// errTok is an error at the lookahead token (OpenSM's position after it):
// where bison reports syntax errors, and where a grammar action runs that
// needs the lookahead to know its list or string has ended.
func (ps *policyParser) errTok(format string, args ...any) error {
	return &PolicyError{Line: ps.tok.endLine, Col: ps.tok.eCol, Msg: fmt.Sprintf(format, args...)}
}

// errPrev is an error after the last consumed token: where an action runs
// that bison reduces without reading a lookahead (after a single number).
func (ps *policyParser) errPrev(format string, args ...any) error {
	return &PolicyError{Line: ps.prev.endLine, Col: ps.prev.eCol, Msg: fmt.Sprintf(format, args...)}
}

// syntax is bison's "syntax error" at the current token.
func (ps *policyParser) syntax(want string) error {
	got := ps.tok.text
	if ps.tok.kind == tkEOF {
		got = "end of file"
	}
	return ps.errTok("syntax error at %q (expected %s)", got, want)
}

// expect consumes a token of kind k.
func (ps *policyParser) expect(k tokKind, want string) error {
	if ps.tok.kind != k {
		return ps.syntax(want)
	}
	ps.advance()
	return nil
}

// parse reads the sections, each consumed by its keyword's parser.
func (ps *policyParser) parse() error {
	return ps.block(fields{
		tkULPsStart:       ps.ulps,
		tkPortGroupsStart: ps.list(tkPortGroupStart, ps.portGroup, tkPortGroupsEnd, "port-group or end-port-groups", "port-group"),
		tkSetupStart:      ps.setup,
		tkLevelsStart:     ps.list(tkLevelStart, ps.level, tkLevelsEnd, "qos-level or end-qos-levels", ""),
		tkRulesStart:      ps.list(tkRuleStart, ps.rule, tkRulesEnd, "qos-match-rule or end-qos-match-rules", ""),
	}, tkEOF, "port-groups, qos-setup, qos-levels, qos-match-rules or qos-ulps", nil)
}

// singleString is single_string: one or more TK_TEXT, concatenated, white
// space stripped at both ends.
func (ps *policyParser) singleString() (string, error) {
	if ps.tok.kind != tkText {
		return "", ps.syntax("a value")
	}
	var b strings.Builder
	for ps.tok.kind == tkText {
		b.WriteString(ps.tok.text)
		if b.Len() >= maxPolicyString {
			return "", ps.errTok("value longer than %d bytes (OpenSM's string buffer would overflow)", maxPolicyString-1)
		}
		ps.advance()
	}
	return strings.TrimFunc(b.String(), func(r rune) bool { return r < 0x80 && cIsSpace(byte(r)) }), nil
}

// commaList is the grammar's lists (string_list, list_of_ranges, num_list,
// num_list_with_dotdot, node_type): one element, then more after each ','.
func commaList[T any](ps *policyParser, one func() (T, error)) ([]T, error) {
	var out []T
	for {
		v, err := one()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		if ps.tok.kind != tkComma {
			return out, nil
		}
		ps.advance()
	}
}

// stringList is string_list: single_string (, single_string)*.
func (ps *policyParser) stringList() ([]string, error) { return commaList(ps, ps.singleString) }

// number reads one TK_NUMBER as strtoull(str, NULL, 0).
func (ps *policyParser) number() (uint64, string, error) {
	if ps.tok.kind != tkNumber {
		return 0, "", ps.syntax("a number")
	}
	text := ps.tok.text
	v, _, _ := cStrtoul(text)
	ps.advance()
	return v, text, nil
}

// value is number without the text as written.
func (ps *policyParser) value() (uint64, error) {
	v, _, err := ps.number()
	return v, err
}

// numRange is one element of list_of_ranges: N or N-M (ordered).
type numRange struct {
	lo, hi uint64
	text   string
}

// numRange reads one element of list_of_ranges.
func (ps *policyParser) numRange() (numRange, error) {
	lo, text, err := ps.number()
	if err != nil {
		return numRange{}, err
	}
	if ps.tok.kind != tkDash {
		return numRange{lo: lo, hi: lo, text: text}, nil
	}
	ps.advance()
	hi, t2, err := ps.number()
	if err != nil {
		return numRange{}, err
	}
	if hi < lo {
		lo, hi = hi, lo
	}
	return numRange{lo: lo, hi: hi, text: text + "-" + t2}, nil
}

// ranges is list_of_ranges.
func (ps *policyParser) ranges() ([]numRange, error) { return commaList(ps, ps.numRange) }

// numList is num_list: N (, N)*.
func (ps *policyParser) numList() ([]uint64, error) { return commaList(ps, ps.value) }

// pair reads one N:M of num_list_with_dotdot.
func (ps *policyParser) pair() (struct{}, error) {
	if _, err := ps.value(); err != nil {
		return struct{}{}, err
	}
	if err := ps.expect(tkDotDot, "':'"); err != nil {
		return struct{}{}, err
	}
	_, err := ps.value()
	return struct{}{}, err
}

// pairs is num_list_with_dotdot: N:M (, N:M)*.
func (ps *policyParser) pairs() error {
	_, err := commaList(ps, ps.pair)
	return err
}

// nodeType reads one element of node_type, named as Policy keeps it.
func (ps *policyParser) nodeType() (string, error) {
	var name string
	switch ps.tok.kind {
	case tkNodeCA:
		name = "CA"
	case tkNodeSwitch:
		name = "SWITCH"
	case tkNodeRouter:
		name = "ROUTER"
	case tkNodeAll:
		name = "ALL"
	case tkNodeSelf:
		name = "SELF"
	default:
		return "", ps.syntax("CA, SWITCH, ROUTER, ALL or SELF")
	}
	ps.advance()
	return name, nil
}

// pkeysOf splits ranges into single P_Keys and ranges (16-bit values).
func pkeysOf(rs []numRange) ([]uint16, [][2]uint16) {
	var singles []uint16
	var spans [][2]uint16
	for _, r := range rs {
		if r.lo == r.hi {
			singles = append(singles, uint16(r.lo))
		} else {
			spans = append(spans, [2]uint16{uint16(r.lo), uint16(r.hi)})
		}
	}
	return singles, spans
}

// fields are the "key:" entries a block takes: by keyword token, the parser
// of what follows the keyword (called with the keyword's kind).
type fields map[tokKind]func(k tokKind) error

// block is one "X ... end-X" block after its start token (consumed, so
// ps.prev): entries of fs, each consumed by its keyword's parser, until end;
// done, when not nil, runs with end still the lookahead (where OpenSM's
// grammar actions validate the block). want names what may stand.
func (ps *policyParser) block(fs fields, end tokKind, want string, done func() error) error {
	for {
		k := ps.tok.kind
		if k == end {
			if done != nil {
				if err := done(); err != nil {
					return err
				}
			}
			ps.advance()
			return nil
		}
		parse, ok := fs[k]
		if !ok {
			return ps.syntax(want)
		}
		ps.advance()
		if err := parse(k); err != nil {
			return err
		}
	}
}

// list is a section's parser: blocks, each started by item (consumed) and
// read by parse, then end. need, when not empty, is what to expect when
// there is no block (a section that must have one).
func (ps *policyParser) list(item tokKind, parse func() error, end tokKind, want, need string) func(tokKind) error {
	return func(tokKind) error {
		n := 0
		for ps.tok.kind == item {
			ps.advance()
			if err := parse(); err != nil {
				return err
			}
			n++
		}
		if n == 0 && need != "" {
			return ps.syntax(need)
		}
		return ps.expect(end, want)
	}
}

// once is a single_string tag that may stand once in its block: dup is
// OpenSM's error for a second one.
func (ps *policyParser) once(dst *string, set *bool, dup string) func(tokKind) error {
	return func(tokKind) error {
		s, err := ps.singleString()
		if err != nil {
			return err
		}
		if *set {
			return ps.errTok("%s", dup)
		}
		*dst, *set = s, true
		return nil
	}
}

// numberOnce is a number tag that may stand once in its block: dup is
// OpenSM's error for a second one; store checks and keeps the value.
func (ps *policyParser) numberOnce(set *bool, dup string, store func(v uint64) error) func(tokKind) error {
	return func(tokKind) error {
		v, err := ps.value()
		if err != nil {
			return err
		}
		if *set {
			return ps.errPrev("%s", dup)
		}
		if err := store(v); err != nil {
			return err
		}
		*set = true
		return nil
	}
}

// limited stores v in *dst when lo <= v <= hi, else it is OpenSM's "NAME
// limit is out of range" error.
func (ps *policyParser) limited(dst *int, lo, hi uint64, name string) func(uint64) error {
	return func(v uint64) error {
		if v < lo || v > hi {
			return ps.errPrev("%s limit is out of range, value: %d", name, int32(v))
		}
		*dst = int(v)
		return nil
	}
}

// appendStrings is a string_list tag whose values add to *dst.
func (ps *policyParser) appendStrings(dst *[]string) func(tokKind) error {
	return func(tokKind) error {
		names, err := ps.stringList()
		*dst = append(*dst, names...)
		return err
	}
}

// appendRangeTexts is a list_of_ranges tag whose values add to *dst as written.
func (ps *policyParser) appendRangeTexts(dst *[]string) func(tokKind) error {
	return func(tokKind) error {
		rs, err := ps.ranges()
		for _, r := range rs {
			*dst = append(*dst, r.text)
		}
		return err
	}
}

// appendPKeys is a pkey tag: its single P_Keys add to *singles, its ranges
// to *spans.
func (ps *policyParser) appendPKeys(singles *[]uint16, spans *[][2]uint16) func(tokKind) error {
	return func(tokKind) error {
		rs, err := ps.ranges()
		s, r := pkeysOf(rs)
		*singles, *spans = append(*singles, s...), append(*spans, r...)
		return err
	}
}

// skip is a tag whose values OpenSM reads and this package does not keep.
func skip[T any](read func() (T, error)) func(tokKind) error {
	return func(tokKind) error {
		_, err := read()
		return err
	}
}

func (ps *policyParser) portGroup() error {
	g := PortGroup{Line: ps.prev.line}
	var nameSet, useSet bool
	return ps.block(fields{
		tkName: ps.once(&g.Name, &nameSet, "port-group has multiple 'name' tags"),
		tkUse:  ps.once(&g.Use, &useSet, "port-group has multiple 'use' tags"),
		tkPortGUID: func(tokKind) error {
			rs, err := ps.ranges()
			for _, r := range rs {
				if r.lo == r.hi {
					g.GUIDs = append(g.GUIDs, r.lo)
				} else {
					g.GUIDRanges = append(g.GUIDRanges, [2]uint64{r.lo, r.hi})
				}
			}
			return err
		},
		tkPortName: func(tokKind) error {
			names, err := ps.stringList()
			if err != nil {
				return err
			}
			for _, n := range names {
				slash := strings.LastIndexByte(n, '/')
				if slash < 0 || len(n)-slash < 3 || (n[slash+1] != 'p' && n[slash+1] != 'P') {
					return ps.errTok("'%s' - illegal port name", n)
				}
				if v, _, _ := cStrtoul(n[slash+2:]); v == 0 {
					return ps.errTok("'%s' - illegal port number in port name", n)
				}
			}
			g.PortNames = append(g.PortNames, names...)
			return nil
		},
		tkPKey:      ps.appendPKeys(&g.PKeys, &g.PKeyRanges),
		tkPartition: ps.appendStrings(&g.Partitions),
		tkNodeType: func(tokKind) error {
			types, err := commaList(ps, ps.nodeType)
			g.NodeTypes = append(g.NodeTypes, types...)
			return err
		},
	}, tkPortGroupEnd, "a port-group entry or end-port-group", func() error {
		if !nameSet {
			return ps.errTok("port-group validation failed - no port group name specified")
		}
		ps.p.Groups = append(ps.p.Groups, g)
		return nil
	})
}

func (ps *policyParser) setup(tokKind) error {
	ps.p.SetupLines = append(ps.p.SetupLines, ps.prev.line)
	return ps.block(fields{
		tkVLArbTablesStart: ps.list(tkVLArbScopeStart, ps.vlarbScope, tkVLArbTablesEnd, "vlarb-scope or end-vlarb-tables", ""),
		tkSL2VLTablesStart: ps.list(tkSL2VLScopeStart, ps.sl2vlScope, tkSL2VLTablesEnd, "sl2vl-scope or end-sl2vl-tables", ""),
	}, tkSetupEnd, "vlarb-tables, sl2vl-tables or end-qos-setup", nil)
}

// groupCount is a group-list tag (group, across, across-from, across-to)
// that counts into *n.
func (ps *policyParser) groupCount(n *int) func(tokKind) error {
	return func(tokKind) error {
		_, err := ps.stringList()
		*n++
		return err
	}
}

func (ps *policyParser) vlarbScope() error {
	groups := 0
	arb := func(tokKind) error { return ps.pairs() }
	return ps.block(fields{
		tkGroup: ps.groupCount(&groups), tkAcross: ps.groupCount(&groups),
		tkVLArbHigh: arb, tkVLArbLow: arb,
		tkVLArbHighLimit: skip(ps.value),
	}, tkVLArbScopeEnd, "a vlarb-scope entry or end-vlarb-scope", func() error {
		if groups == 0 {
			return ps.errTok("vlarb-scope validation failed - no port groups specified by 'group' or by 'across'")
		}
		return nil
	})
}

func (ps *policyParser) sl2vlScope() error {
	groups, table := 0, false
	ports := func(k tokKind) error {
		which := "from"
		if k == tkTo {
			which = "to"
		}
		if ps.tok.kind == tkAsterisk {
			ps.advance()
			return nil
		}
		rs, err := ps.ranges()
		if err != nil {
			return err
		}
		for _, r := range rs {
			if r.hi >= 255 {
				return ps.errTok("port number out of range '%s' list", which)
			}
		}
		return nil
	}
	return ps.block(fields{
		tkGroup: ps.groupCount(&groups), tkAcross: ps.groupCount(&groups),
		tkAcrossFrom: ps.groupCount(&groups), tkAcrossTo: ps.groupCount(&groups),
		tkFrom: ports, tkTo: ports,
		tkSL2VLTable: func(tokKind) error {
			vls, err := ps.numList()
			if err != nil {
				return err
			}
			if table {
				return ps.errTok("sl2vl-scope has more than one sl2vl-table")
			}
			if len(vls) != 16 {
				return ps.errTok("wrong number of values in 'sl2vl-table' (should be 16)")
			}
			for _, vl := range vls {
				if vl >= 16 {
					return ps.errTok("wrong VL value in 'sl2vl-table' (should be 0 to 15)")
				}
			}
			table = true
			return nil
		},
	}, tkSL2VLScopeEnd, "an sl2vl-scope entry or end-sl2vl-scope", func() error {
		if !table {
			return ps.errTok("sl2vl-scope validation failed - no sl2vl table specified")
		}
		if groups == 0 {
			return ps.errTok("sl2vl-scope validation failed - no port groups specified by 'group', 'across-to' or 'across-from'")
		}
		return nil
	})
}

func (ps *policyParser) level() error {
	l := Level{Line: ps.prev.line}
	var nameSet, useSet, mtuSet, rateSet, lifeSet bool
	return ps.block(fields{
		tkName: ps.once(&l.Name, &nameSet, "qos-level has multiple 'name' tags"),
		tkUse:  ps.once(&l.Use, &useSet, "qos-level has multiple 'use' tags"),
		tkSL: ps.numberOnce(&l.SLSet, "'qos-level' has multiple 'sl' tags", func(v uint64) error {
			// OpenSM keeps (uint8_t)v and hands out its low 4 bits
			// in PathRecords; SL keeps what was written.
			l.SL = int(min(v, 1<<31-1))
			return nil
		}),
		tkMTULimit:  ps.numberOnce(&mtuSet, "'qos-level' has multiple 'mtu-limit' tags", ps.limited(&l.MTU, 1, 5, "mtu")),
		tkRateLimit: ps.numberOnce(&rateSet, "'qos-level' has multiple 'rate-limit' tags", ps.limited(&l.Rate, 2, 22, "rate")),
		tkPacketLife: ps.numberOnce(&lifeSet, "'qos-level' has multiple 'packet-life' tags", func(v uint64) error {
			l.PacketLife = int(uint8(v))
			return nil
		}),
		tkPathBits: ps.appendRangeTexts(&l.PathBits),
		tkPKey:     ps.appendPKeys(&l.PKeys, &l.PKeyRanges),
	}, tkLevelEnd, "a qos-level entry or end-qos-level", func() error {
		if !l.SLSet {
			return ps.errTok("qos-level validation failed - no 'sl' specified")
		}
		if !nameSet {
			return ps.errTok("qos-level validation failed - no 'name' specified")
		}
		ps.p.Levels = append(ps.p.Levels, l)
		return nil
	})
}

func (ps *policyParser) rule() error {
	r := MatchRule{Line: ps.prev.line}
	var useSet, levelSet bool
	return ps.block(fields{
		tkUse:          ps.once(&r.Use, &useSet, "'qos-match-rule' has multiple 'use' tags"),
		tkQoSLevelName: ps.once(&r.Level, &levelSet, "qos-match-rule has multiple 'qos-level-name' tags"),
		tkSource:       ps.appendStrings(&r.Source),
		tkDestination:  ps.appendStrings(&r.Destination),
		tkQoSClass:     ps.appendRangeTexts(&r.QoSClasses),
		tkServiceID:    ps.appendRangeTexts(&r.ServiceIDs),
		tkPKey:         ps.appendPKeys(&r.PKeys, &r.PKeyRanges),
	}, tkRuleEnd, "a qos-match-rule entry or end-qos-match-rule", func() error {
		if !levelSet {
			return ps.errTok("match-rule validation failed - no 'qos-level-name' specified")
		}
		ps.p.Rules = append(ps.p.Rules, r)
		return nil
	})
}

func (ps *policyParser) ulps(tokKind) error {
	n := 0
	for {
		start := ps.tok
		u := ULP{Line: start.line}
		var textEnd int // where the ULP's text ends (its ':')
		switch k := start.kind; k {
		case tkULPDefault, tkULPSDPDefault, tkULPRDSDefault, tkULPISERDefault, tkULPIPoIBDefault:
			textEnd = start.off + strings.IndexByte(start.text, ':')
			ps.advance()
			u.IPoIB = k == tkULPIPoIBDefault
			if u.IPoIB {
				u.PKeys = []uint16{0x7fff}
			}
		case tkULPAnyServiceID, tkULPAnyPKey, tkULPAnyTargetPortGUID, tkULPAnySourcePortGUID,
			tkULPAnySourceTargetPortGUID, tkULPSDPPort, tkULPRDSPort, tkULPISERPort, tkULPSRPGUID, tkULPIPoIBPKey:
			ps.advance()
			rs, err := ps.ranges()
			if err != nil {
				return err
			}
			if ps.tok.kind != tkDotDot {
				return ps.syntax("':'")
			}
			textEnd = ps.tok.off
			switch k {
			case tkULPSDPPort, tkULPRDSPort, tkULPISERPort:
				for _, r := range rs {
					if r.lo > 0xffff || r.hi > 0xffff {
						return ps.errTok("SDP port number out of range")
					}
				}
			case tkULPIPoIBPKey, tkULPAnyPKey:
				u.IPoIB = k == tkULPIPoIBPKey
				// __pkey_rangelist2rangearr: both ends lose bit 15
				// first, then the range is put in order.
				for _, r := range rs {
					lo, hi := uint16(r.lo&0x7fff), uint16(r.hi&0x7fff)
					if lo > hi {
						lo, hi = hi, lo
					}
					for v := int(lo); v <= int(hi); v++ {
						u.PKeys = append(u.PKeys, uint16(v))
					}
				}
			}
			ps.advance()
		case tkULPsEnd:
			if n == 0 {
				return ps.syntax("a qos-ulps rule")
			}
			ps.advance()
			return nil
		default:
			return ps.syntax("a qos-ulps rule or end-qos-ulps")
		}
		sl, _, err := ps.number()
		if err != nil {
			return err
		}
		if sl > 15 {
			return ps.errPrev("illegal SL value")
		}
		u.Level = int(sl)
		u.Text = strings.TrimRight(ps.lx.s[start.off:textEnd], " \t")
		ps.p.ULPs = append(ps.p.ULPs, u)
		n++
	}
}
