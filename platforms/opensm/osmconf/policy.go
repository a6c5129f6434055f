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

func (ps *policyParser) parse() error {
	for {
		var err error
		switch ps.tok.kind {
		case tkEOF:
			return nil
		case tkULPsStart:
			err = ps.ulps()
		case tkPortGroupsStart:
			err = ps.portGroups()
		case tkSetupStart:
			err = ps.setup()
		case tkLevelsStart:
			err = ps.levels()
		case tkRulesStart:
			err = ps.rules()
		default:
			err = ps.syntax("port-groups, qos-setup, qos-levels, qos-match-rules or qos-ulps")
		}
		if err != nil {
			return err
		}
	}
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

// stringList is string_list: single_string (, single_string)*.
func (ps *policyParser) stringList() ([]string, error) {
	var out []string
	for {
		s, err := ps.singleString()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
		if ps.tok.kind != tkComma {
			return out, nil
		}
		ps.advance()
	}
}

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

// numRange is one element of list_of_ranges: N or N-M (ordered).
type numRange struct {
	lo, hi uint64
	text   string
}

// ranges is list_of_ranges.
func (ps *policyParser) ranges() ([]numRange, error) {
	var out []numRange
	for {
		lo, text, err := ps.number()
		if err != nil {
			return nil, err
		}
		r := numRange{lo: lo, hi: lo, text: text}
		if ps.tok.kind == tkDash {
			ps.advance()
			hi, t2, err := ps.number()
			if err != nil {
				return nil, err
			}
			if hi < lo {
				lo, hi = hi, lo
			}
			r = numRange{lo: lo, hi: hi, text: text + "-" + t2}
		}
		out = append(out, r)
		if ps.tok.kind != tkComma {
			return out, nil
		}
		ps.advance()
	}
}

// numList is num_list: N (, N)*.
func (ps *policyParser) numList() ([]uint64, error) {
	var out []uint64
	for {
		v, _, err := ps.number()
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

// pairs is num_list_with_dotdot: N:M (, N:M)*.
func (ps *policyParser) pairs() error {
	for {
		if _, _, err := ps.number(); err != nil {
			return err
		}
		if err := ps.expect(tkDotDot, "':'"); err != nil {
			return err
		}
		if _, _, err := ps.number(); err != nil {
			return err
		}
		if ps.tok.kind != tkComma {
			return nil
		}
		ps.advance()
	}
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

func (ps *policyParser) portGroups() error {
	ps.advance()
	n := 0
	for ps.tok.kind == tkPortGroupStart {
		if err := ps.portGroup(); err != nil {
			return err
		}
		n++
	}
	if n == 0 {
		return ps.syntax("port-group")
	}
	return ps.expect(tkPortGroupsEnd, "port-group or end-port-groups")
}

func (ps *policyParser) portGroup() error {
	g := PortGroup{Line: ps.tok.line}
	ps.advance()
	nameSet, useSet := false, false
	for {
		switch ps.tok.kind {
		case tkName:
			ps.advance()
			s, err := ps.singleString()
			if err != nil {
				return err
			}
			if nameSet {
				return ps.errTok("port-group has multiple 'name' tags")
			}
			g.Name, nameSet = s, true
		case tkUse:
			ps.advance()
			s, err := ps.singleString()
			if err != nil {
				return err
			}
			if useSet {
				return ps.errTok("port-group has multiple 'use' tags")
			}
			g.Use, useSet = s, true
		case tkPortGUID:
			ps.advance()
			rs, err := ps.ranges()
			if err != nil {
				return err
			}
			for _, r := range rs {
				if r.lo == r.hi {
					g.GUIDs = append(g.GUIDs, r.lo)
				} else {
					g.GUIDRanges = append(g.GUIDRanges, [2]uint64{r.lo, r.hi})
				}
			}
		case tkPortName:
			ps.advance()
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
		case tkPKey:
			ps.advance()
			rs, err := ps.ranges()
			if err != nil {
				return err
			}
			s, r := pkeysOf(rs)
			g.PKeys, g.PKeyRanges = append(g.PKeys, s...), append(g.PKeyRanges, r...)
		case tkPartition:
			ps.advance()
			names, err := ps.stringList()
			if err != nil {
				return err
			}
			g.Partitions = append(g.Partitions, names...)
		case tkNodeType:
			ps.advance()
			for {
				switch ps.tok.kind {
				case tkNodeCA:
					g.NodeTypes = append(g.NodeTypes, "CA")
				case tkNodeSwitch:
					g.NodeTypes = append(g.NodeTypes, "SWITCH")
				case tkNodeRouter:
					g.NodeTypes = append(g.NodeTypes, "ROUTER")
				case tkNodeAll:
					g.NodeTypes = append(g.NodeTypes, "ALL")
				case tkNodeSelf:
					g.NodeTypes = append(g.NodeTypes, "SELF")
				default:
					return ps.syntax("CA, SWITCH, ROUTER, ALL or SELF")
				}
				ps.advance()
				if ps.tok.kind != tkComma {
					break
				}
				ps.advance()
			}
		case tkPortGroupEnd:
			if !nameSet {
				return ps.errTok("port-group validation failed - no port group name specified")
			}
			ps.advance()
			ps.p.Groups = append(ps.p.Groups, g)
			return nil
		default:
			return ps.syntax("a port-group entry or end-port-group")
		}
	}
}

func (ps *policyParser) setup() error {
	ps.p.SetupLines = append(ps.p.SetupLines, ps.tok.line)
	ps.advance()
	for {
		switch ps.tok.kind {
		case tkVLArbTablesStart:
			ps.advance()
			for ps.tok.kind == tkVLArbScopeStart {
				if err := ps.vlarbScope(); err != nil {
					return err
				}
			}
			if err := ps.expect(tkVLArbTablesEnd, "vlarb-scope or end-vlarb-tables"); err != nil {
				return err
			}
		case tkSL2VLTablesStart:
			ps.advance()
			for ps.tok.kind == tkSL2VLScopeStart {
				if err := ps.sl2vlScope(); err != nil {
					return err
				}
			}
			if err := ps.expect(tkSL2VLTablesEnd, "sl2vl-scope or end-sl2vl-tables"); err != nil {
				return err
			}
		case tkSetupEnd:
			ps.advance()
			return nil
		default:
			return ps.syntax("vlarb-tables, sl2vl-tables or end-qos-setup")
		}
	}
}

func (ps *policyParser) vlarbScope() error {
	ps.advance()
	groups := 0
	for {
		switch ps.tok.kind {
		case tkGroup, tkAcross:
			ps.advance()
			if _, err := ps.stringList(); err != nil {
				return err
			}
			groups++
		case tkVLArbHigh, tkVLArbLow:
			ps.advance()
			if err := ps.pairs(); err != nil {
				return err
			}
		case tkVLArbHighLimit:
			ps.advance()
			if _, _, err := ps.number(); err != nil {
				return err
			}
		case tkVLArbScopeEnd:
			if groups == 0 {
				return ps.errTok("vlarb-scope validation failed - no port groups specified by 'group' or by 'across'")
			}
			ps.advance()
			return nil
		default:
			return ps.syntax("a vlarb-scope entry or end-vlarb-scope")
		}
	}
}

func (ps *policyParser) sl2vlScope() error {
	ps.advance()
	groups, table := 0, false
	for {
		switch ps.tok.kind {
		case tkGroup, tkAcross, tkAcrossFrom, tkAcrossTo:
			ps.advance()
			if _, err := ps.stringList(); err != nil {
				return err
			}
			groups++
		case tkFrom, tkTo:
			which := "from"
			if ps.tok.kind == tkTo {
				which = "to"
			}
			ps.advance()
			if ps.tok.kind == tkAsterisk {
				ps.advance()
				continue
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
		case tkSL2VLTable:
			ps.advance()
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
		case tkSL2VLScopeEnd:
			if !table {
				return ps.errTok("sl2vl-scope validation failed - no sl2vl table specified")
			}
			if groups == 0 {
				return ps.errTok("sl2vl-scope validation failed - no port groups specified by 'group', 'across-to' or 'across-from'")
			}
			ps.advance()
			return nil
		default:
			return ps.syntax("an sl2vl-scope entry or end-sl2vl-scope")
		}
	}
}

func (ps *policyParser) levels() error {
	ps.advance()
	for ps.tok.kind == tkLevelStart {
		if err := ps.level(); err != nil {
			return err
		}
	}
	return ps.expect(tkLevelsEnd, "qos-level or end-qos-levels")
}

func (ps *policyParser) level() error {
	l := Level{Line: ps.tok.line}
	ps.advance()
	var nameSet, useSet, mtuSet, rateSet, lifeSet bool
	for {
		switch k := ps.tok.kind; k {
		case tkName, tkUse:
			ps.advance()
			s, err := ps.singleString()
			if err != nil {
				return err
			}
			if k == tkName {
				if nameSet {
					return ps.errTok("qos-level has multiple 'name' tags")
				}
				l.Name, nameSet = s, true
			} else {
				if useSet {
					return ps.errTok("qos-level has multiple 'use' tags")
				}
				l.Use, useSet = s, true
			}
		case tkSL, tkMTULimit, tkRateLimit, tkPacketLife:
			ps.advance()
			v, _, err := ps.number()
			if err != nil {
				return err
			}
			switch k {
			case tkSL:
				if l.SLSet {
					return ps.errPrev("'qos-level' has multiple 'sl' tags")
				}
				// OpenSM keeps (uint8_t)v and hands out its low 4 bits
				// in PathRecords; SL keeps what was written.
				l.SL, l.SLSet = int(min(v, 1<<31-1)), true
			case tkMTULimit:
				if mtuSet {
					return ps.errPrev("'qos-level' has multiple 'mtu-limit' tags")
				}
				if v < 1 || v > 5 {
					return ps.errPrev("mtu limit is out of range, value: %d", int32(v))
				}
				l.MTU, mtuSet = int(v), true
			case tkRateLimit:
				if rateSet {
					return ps.errPrev("'qos-level' has multiple 'rate-limit' tags")
				}
				if v < 2 || v > 22 {
					return ps.errPrev("rate limit is out of range, value: %d", int32(v))
				}
				l.Rate, rateSet = int(v), true
			case tkPacketLife:
				if lifeSet {
					return ps.errPrev("'qos-level' has multiple 'packet-life' tags")
				}
				l.PacketLife, lifeSet = int(uint8(v)), true
			}
		case tkPathBits:
			ps.advance()
			rs, err := ps.ranges()
			if err != nil {
				return err
			}
			for _, r := range rs {
				l.PathBits = append(l.PathBits, r.text)
			}
		case tkPKey:
			ps.advance()
			rs, err := ps.ranges()
			if err != nil {
				return err
			}
			s, r := pkeysOf(rs)
			l.PKeys, l.PKeyRanges = append(l.PKeys, s...), append(l.PKeyRanges, r...)
		case tkLevelEnd:
			if !l.SLSet {
				return ps.errTok("qos-level validation failed - no 'sl' specified")
			}
			if !nameSet {
				return ps.errTok("qos-level validation failed - no 'name' specified")
			}
			ps.advance()
			ps.p.Levels = append(ps.p.Levels, l)
			return nil
		default:
			return ps.syntax("a qos-level entry or end-qos-level")
		}
	}
}

func (ps *policyParser) rules() error {
	ps.advance()
	for ps.tok.kind == tkRuleStart {
		if err := ps.rule(); err != nil {
			return err
		}
	}
	return ps.expect(tkRulesEnd, "qos-match-rule or end-qos-match-rules")
}

func (ps *policyParser) rule() error {
	r := MatchRule{Line: ps.tok.line}
	ps.advance()
	var useSet, levelSet bool
	for {
		switch k := ps.tok.kind; k {
		case tkUse, tkQoSLevelName:
			ps.advance()
			s, err := ps.singleString()
			if err != nil {
				return err
			}
			if k == tkUse {
				if useSet {
					return ps.errTok("'qos-match-rule' has multiple 'use' tags")
				}
				r.Use, useSet = s, true
			} else {
				if levelSet {
					return ps.errTok("qos-match-rule has multiple 'qos-level-name' tags")
				}
				r.Level, levelSet = s, true
			}
		case tkSource, tkDestination:
			ps.advance()
			names, err := ps.stringList()
			if err != nil {
				return err
			}
			if k == tkSource {
				r.Source = append(r.Source, names...)
			} else {
				r.Destination = append(r.Destination, names...)
			}
		case tkQoSClass, tkServiceID:
			ps.advance()
			rs, err := ps.ranges()
			if err != nil {
				return err
			}
			for _, x := range rs {
				if k == tkQoSClass {
					r.QoSClasses = append(r.QoSClasses, x.text)
				} else {
					r.ServiceIDs = append(r.ServiceIDs, x.text)
				}
			}
		case tkPKey:
			ps.advance()
			rs, err := ps.ranges()
			if err != nil {
				return err
			}
			s, sp := pkeysOf(rs)
			r.PKeys, r.PKeyRanges = append(r.PKeys, s...), append(r.PKeyRanges, sp...)
		case tkRuleEnd:
			if !levelSet {
				return ps.errTok("match-rule validation failed - no 'qos-level-name' specified")
			}
			ps.advance()
			ps.p.Rules = append(ps.p.Rules, r)
			return nil
		default:
			return ps.syntax("a qos-match-rule entry or end-qos-match-rule")
		}
	}
}

func (ps *policyParser) ulps() error {
	ps.advance()
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
