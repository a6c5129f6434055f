package osmconf

import (
	"strings"
)

// tokKind is a token of OpenSM's QoS policy lexer (osm_qos_parser_l.l).
type tokKind int

// Token kinds, named after the lexer's TK_* tokens.
const (
	tkEOF tokKind = iota
	tkText
	tkNumber
	tkDash
	tkDotDot
	tkComma
	tkAsterisk
	// sections
	tkULPsStart
	tkULPsEnd
	tkPortGroupsStart
	tkPortGroupsEnd
	tkPortGroupStart
	tkPortGroupEnd
	tkSetupStart
	tkSetupEnd
	tkVLArbTablesStart
	tkVLArbTablesEnd
	tkVLArbScopeStart
	tkVLArbScopeEnd
	tkSL2VLTablesStart
	tkSL2VLTablesEnd
	tkSL2VLScopeStart
	tkSL2VLScopeEnd
	tkLevelsStart
	tkLevelsEnd
	tkLevelStart
	tkLevelEnd
	tkRulesStart
	tkRulesEnd
	tkRuleStart
	tkRuleEnd
	// "key:" fields
	tkPortGUID
	tkPortName
	tkPartition
	tkNodeType
	tkName
	tkUse
	tkGroup
	tkVLArbHigh
	tkVLArbLow
	tkVLArbHighLimit
	tkTo
	tkFrom
	tkAcrossTo
	tkAcrossFrom
	tkAcross
	tkSL2VLTable
	tkSL
	tkMTULimit
	tkRateLimit
	tkPacketLife
	tkPathBits
	tkQoSClass
	tkSource
	tkDestination
	tkServiceID
	tkPKey
	tkQoSLevelName
	// node types
	tkNodeRouter
	tkNodeCA
	tkNodeSwitch
	tkNodeSelf
	tkNodeAll
	// ULPs
	tkULPDefault
	tkULPAnyServiceID
	tkULPAnyPKey
	tkULPAnyTargetPortGUID
	tkULPAnySourcePortGUID
	tkULPAnySourceTargetPortGUID
	tkULPSDPDefault
	tkULPSDPPort
	tkULPRDSDefault
	tkULPRDSPort
	tkULPISERDefault
	tkULPISERPort
	tkULPSRPGUID
	tkULPIPoIBDefault
	tkULPIPoIBPKey
)

// lexMode is the "in_*" state the lexer enters after a field keyword and
// leaves at a new line.
type lexMode int

const (
	modeNone        lexMode = iota
	modeDescription         // use: everything is text, white space included
	modeStrings             // names, lists of names: numbers and '-', ':', '*' are text
	modeNodeType            // node-type: CA, SWITCH, ... are tokens
	modeNumbers             // every other field
)

// word is one fixed lexer pattern and its token.
type word struct {
	text string
	kind tokKind
	mode lexMode // the mode a field keyword starts
}

// lexTables are the lexer's fixed patterns; each lexer builds its own, so
// the package holds no mutable state.
type lexTables struct {
	sections [24]word
	fields   [27]word
	nodes    [5]word
	ulps     [15]ulpWord
}

// newLexTables returns the patterns in the order of osm_qos_parser_l.l.
func newLexTables() *lexTables {
	return &lexTables{
		// the patterns without a colon
		sections: [...]word{
			{"qos-ulps", tkULPsStart, 0}, {"end-qos-ulps", tkULPsEnd, 0},
			{"port-groups", tkPortGroupsStart, 0}, {"end-port-groups", tkPortGroupsEnd, 0},
			{"port-group", tkPortGroupStart, 0}, {"end-port-group", tkPortGroupEnd, 0},
			{"qos-setup", tkSetupStart, 0}, {"end-qos-setup", tkSetupEnd, 0},
			{"vlarb-tables", tkVLArbTablesStart, 0}, {"end-vlarb-tables", tkVLArbTablesEnd, 0},
			{"vlarb-scope", tkVLArbScopeStart, 0}, {"end-vlarb-scope", tkVLArbScopeEnd, 0},
			{"sl2vl-tables", tkSL2VLTablesStart, 0}, {"end-sl2vl-tables", tkSL2VLTablesEnd, 0},
			{"sl2vl-scope", tkSL2VLScopeStart, 0}, {"end-sl2vl-scope", tkSL2VLScopeEnd, 0},
			{"qos-levels", tkLevelsStart, 0}, {"end-qos-levels", tkLevelsEnd, 0},
			{"qos-level", tkLevelStart, 0}, {"end-qos-level", tkLevelEnd, 0},
			{"qos-match-rules", tkRulesStart, 0}, {"end-qos-match-rules", tkRulesEnd, 0},
			{"qos-match-rule", tkRuleStart, 0}, {"end-qos-match-rule", tkRuleEnd, 0},
		},
		// the patterns followed by [ \t]*:[ \t]*
		fields: [...]word{
			{"port-guid", tkPortGUID, modeNumbers}, {"port-name", tkPortName, modeStrings},
			{"partition", tkPartition, modeStrings}, {"node-type", tkNodeType, modeNodeType},
			{"name", tkName, modeStrings}, {"use", tkUse, modeDescription},
			{"group", tkGroup, modeStrings}, {"vlarb-high", tkVLArbHigh, modeNumbers},
			{"vlarb-low", tkVLArbLow, modeNumbers}, {"vl-high-limit", tkVLArbHighLimit, modeNumbers},
			{"to", tkTo, modeNumbers}, {"from", tkFrom, modeNumbers},
			{"across-to", tkAcrossTo, modeStrings}, {"across-from", tkAcrossFrom, modeStrings},
			{"across", tkAcross, modeStrings}, {"sl2vl-table", tkSL2VLTable, modeNumbers},
			{"sl", tkSL, modeNumbers}, {"mtu-limit", tkMTULimit, modeNumbers},
			{"rate-limit", tkRateLimit, modeNumbers}, {"packet-life", tkPacketLife, modeNumbers},
			{"path-bits", tkPathBits, modeNumbers}, {"qos-class", tkQoSClass, modeNumbers},
			{"source", tkSource, modeStrings}, {"destination", tkDestination, modeStrings},
			{"service-id", tkServiceID, modeNumbers}, {"pkey", tkPKey, modeNumbers},
			{"qos-level-name", tkQoSLevelName, modeStrings},
		},
		// the case-insensitive node type words
		nodes: [...]word{
			{"router", tkNodeRouter, 0}, {"ca", tkNodeCA, 0}, {"switch", tkNodeSwitch, 0},
			{"self", tkNodeSelf, 0}, {"all", tkNodeAll, 0},
		},
		ulps: [...]ulpWord{
			{"default", "", tkULPDefault},
			{"any", "service-id", tkULPAnyServiceID}, {"any", "pkey", tkULPAnyPKey},
			{"any", "target-port-guid", tkULPAnyTargetPortGUID}, {"any", "source-port-guid", tkULPAnySourcePortGUID},
			{"any", "source-target-port-guid", tkULPAnySourceTargetPortGUID},
			{"sdp", "", tkULPSDPDefault}, {"sdp", "port-num", tkULPSDPPort},
			{"rds", "", tkULPRDSDefault}, {"rds", "port-num", tkULPRDSPort},
			{"iser", "", tkULPISERDefault}, {"iser", "port-num", tkULPISERPort},
			{"srp", "target-port-guid", tkULPSRPGUID},
			{"ipoib", "", tkULPIPoIBDefault}, {"ipoib", "pkey", tkULPIPoIBPKey},
		},
	}
}

// ulpWord is a ULP pattern: a case-insensitive name, then either
// [ \t]*:[ \t]* (after "") or [ \t]*,[ \t]* and the keyword after.
type ulpWord struct {
	name, after string
	kind        tokKind
}

// token is one lexed token with where it starts and where OpenSM's
// line_num/column_num stand after it (what its error messages report).
type token struct {
	kind          tokKind
	text          string
	line, col     int // start, 1-based
	endLine, eCol int // OpenSM's position after the token
	off           int // byte offset of the start
}

// policyLexer is a port of the flex scanner: longest match, earlier rule
// on a tie, the in_* modes set by field keywords and cleared at newlines.
type policyLexer struct {
	t         *lexTables
	s         string
	i         int
	line, col int
	// in_description, in_single_string/in_list_of_strings, in_node_type:
	// the flags that change tokens; they add up until a new line.
	desc, str, node bool
	// nextNL and nextQuote cache the index of the next '\n' and '"' at
	// or after the position (len(s) for none), so that a text of many '#'
	// or '"' without the closing byte is still read in linear time.
	nextNL, nextQuote int
	cached            bool
}

// nextByte returns the index of the next c at or after from (len(s) when
// there is none), using and refreshing *cache.
func (lx *policyLexer) nextByte(cache *int, c byte, from int) int {
	if !lx.cached {
		lx.nextNL, lx.nextQuote, lx.cached = -1, -1, true
	}
	if *cache < from {
		if j := strings.IndexByte(lx.s[from:], c); j >= 0 {
			*cache = from + j
		} else {
			*cache = len(lx.s)
		}
	}
	return *cache
}

// white skips [ \t]* at i and returns the new index.
func white(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// hasPrefixFold reports whether s[i:] starts with w, ASCII case-insensitively.
func hasPrefixFold(s string, i int, w string) bool {
	return len(s)-i >= len(w) && strings.EqualFold(s[i:i+len(w)], w)
}

// advance moves the position over n bytes as save_pos does.
func (lx *policyLexer) advance(n int) {
	for _, c := range []byte(lx.s[lx.i : lx.i+n]) {
		if c == '\n' {
			lx.line++
			lx.col = 1
		} else {
			lx.col++
		}
	}
	lx.i += n
}

// next returns the next token the parser sees.
//
//nolint:gocyclo // one candidate per rule of OpenSM's flex scanner, tried in the scanner's order: splitting it would hide the longest-match order the port must keep.
func (lx *policyLexer) next() token {
	for {
		s, i := lx.s, lx.i
		if i >= len(s) {
			return token{kind: tkEOF, line: lx.line, col: lx.col, endLine: lx.line, eCol: lx.col, off: i}
		}
		best, kind, mode, rule := 0, tkText, modeNone, 0
		// try records a candidate of length n from rule r (lower wins ties).
		try := func(n int, k tokKind, m lexMode, r int) {
			if n > best {
				best, kind, mode, rule = n, k, m, r
			}
		}
		const (
			rComment = iota + 1
			rWhiteNL
			rWhite
			rNL
			rSection
			rField
			rNode
			rULP
			rNum
			rChar
			rQuoted
			rAny
		)
		if s[i] == '#' {
			if j := lx.nextByte(&lx.nextNL, '\n', i); j < len(s) {
				try(j-i+1, tkEOF, modeNone, rComment)
			}
		}
		if w := white(s, i); w > i {
			if w < len(s) && s[w] == '\n' {
				try(w-i+1, tkEOF, modeNone, rWhiteNL)
			}
			try(w-i, tkEOF, modeNone, rWhite)
		}
		if s[i] == '\n' {
			try(1, tkEOF, modeNone, rNL)
		}
		for _, w := range lx.t.sections {
			if strings.HasPrefix(s[i:], w.text) {
				try(len(w.text), w.kind, modeNone, rSection)
			}
		}
		for _, w := range lx.t.fields {
			if strings.HasPrefix(s[i:], w.text) {
				if j := white(s, i+len(w.text)); j < len(s) && s[j] == ':' {
					try(white(s, j+1)-i, w.kind, w.mode, rField)
				}
			}
		}
		for _, w := range lx.t.nodes {
			if hasPrefixFold(s, i, w.text) {
				try(len(w.text), w.kind, modeNone, rNode)
			}
		}
		for _, u := range lx.t.ulps {
			if !hasPrefixFold(s, i, u.name) {
				continue
			}
			j := white(s, i+len(u.name))
			if u.after == "" {
				if j < len(s) && s[j] == ':' {
					try(white(s, j+1)-i, u.kind, modeNumbers, rULP)
				}
			} else if j < len(s) && s[j] == ',' {
				j = white(s, j+1)
				if strings.HasPrefix(s[j:], u.after) {
					try(j+len(u.after)-i, u.kind, modeNumbers, rULP)
				}
			}
		}
		if n := lexNumber(s, i); n > 0 {
			try(n, tkNumber, modeNone, rNum)
		}
		switch s[i] {
		case '-':
			try(1, tkDash, modeNone, rChar)
		case ':':
			try(1, tkDotDot, modeNone, rChar)
		case ',':
			try(1, tkComma, modeNone, rChar)
		case '*':
			try(1, tkAsterisk, modeNone, rChar)
		case '"':
			if j := lx.nextByte(&lx.nextQuote, '"', i+1); j < len(s) {
				try(j-i+1, tkText, modeNone, rQuoted)
			}
		}
		if s[i] != '\n' {
			try(1, tkText, modeNone, rAny)
		}
		text := s[i : i+best]
		start := token{line: lx.line, col: lx.col, off: i}
		lx.advance(best)
		tok := token{kind: kind, text: text, line: start.line, col: start.col, endLine: lx.line, eCol: lx.col, off: i}
		inText := lx.desc || lx.str
		switch rule {
		case rComment, rWhiteNL, rNL:
			lx.desc, lx.str, lx.node = false, false, false
			continue
		case rWhite:
			if lx.desc {
				tok.kind = tkText
				return tok
			}
			continue
		case rSection, rField, rULP:
			if lx.desc {
				tok.kind = tkText
				return tok
			}
			switch mode {
			case modeDescription:
				lx.desc = true
			case modeStrings:
				lx.str = true
			case modeNodeType:
				lx.node = true
			}
			return tok
		case rNode:
			if !lx.node {
				tok.kind = tkText
			}
			return tok
		case rNum:
			if inText {
				tok.kind = tkText
			}
			return tok
		case rChar:
			if tok.kind == tkComma {
				if lx.desc {
					tok.kind = tkText
				}
			} else if inText {
				tok.kind = tkText
			}
			return tok
		case rQuoted:
			tok.text = text[1 : len(text)-1]
			return tok
		default:
			return tok
		}
	}
}

// lexNumber matches 0[xX][0-9a-fA-F]+ or [0-9]+ at i (longest).
func lexNumber(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '9' {
		n++
	}
	if i+2 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') && hexVal(s[i+2]) < 16 {
		h := 2
		for i+h < len(s) && hexVal(s[i+h]) < 16 {
			h++
		}
		if h > n {
			n = h
		}
	}
	return n
}
