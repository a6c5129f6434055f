package osmconf

import (
	"fmt"
	"net/netip"
	"strings"
)

// OpenSM's defaults for a partition's IPoIB broadcast group and its
// multicast groups (include/opensm/osm_base.h).
const (
	DefaultMGroupMTU  = 4 // OSM_DEFAULT_MGRP_MTU: 2048 bytes
	DefaultMGroupRate = 3 // OSM_DEFAULT_MGRP_RATE: 10 Gb/s
)

// prtnLineBuf is the size of osm_prtn_config_parse_file's line buffer; it
// reads with fgets(line, sizeof(line) - 1), so at most 4094 bytes a line.
const (
	prtnLineBuf = 4096
	prtnMaxLine = prtnLineBuf - 2
)

// Partition is one line of partitions.conf.
type Partition struct {
	Name  string
	PKey  uint16
	Line  int
	IPoIB bool
	MTU   int
	Rate  int
	SL    int
	Scope int // 0 when not given
	// Members in file order.
	Members []Member

	// Index0 is the indx0 flag (the P_Key goes to index 0 of the table).
	Index0 bool
	// DefMember is the defmember flag ("full", "limited", "both"), "" when not given.
	DefMember string
	// QKey, TClass and FlowLabel are the group flags Q_Key, TClass and FlowLabel (0 when not given).
	QKey      uint32
	TClass    uint8
	FlowLabel uint32
	// ScopeMask has bit N set for every valid scope=N flag (Scope is the last).
	ScopeMask uint16
	// MGroups are the mgid= multicast groups OpenSM creates for the partition.
	MGroups []MGroup
	// Warnings are OpenSM's "PARSE WARN"/"PARSE ERROR" log lines for this
	// statement that do not make it reject the file.
	Warnings []string
}

// Key returns the P_Key OpenSM uses: the low 15 bits (membership is per port).
func (p Partition) Key() uint16 { return p.PKey & 0x7fff }

// Member is one member: a port GUID, ALL, ALL_CAS, ALL_SWITCHES, ALL_ROUTERS or SELF, with its membership.
type Member struct {
	Name string // ALL, ALL_CAS, ALL_SWITCHES, ALL_ROUTERS, SELF, or the GUID as written
	GUID uint64 // 0 for the named groups
	Full bool   // full membership
	Both bool   // Both = "both" membership (full, and limited too under allow_both_pkeys)
	Line int
}

// MGroup is one mgid= multicast group of a partition, with the flags it
// inherits from the partition and its own.
type MGroup struct {
	MGID      string
	Line      int
	MTU, Rate int
	SL        int
	ScopeMask uint16
	QKey      uint32
	TClass    uint8
	FlowLabel uint32
}

// membership values of osm_prtn_config.c.
const (
	memLimited = iota
	memFull
	memBoth
)

// groupFlags is osm_prtn_config.c's struct group_flags, plus which ones
// were given.
type groupFlags struct {
	mtu, rate, sl, scopeMask, scope uint32
	qKey, flowLabel                 uint32
	tClass                          uint8
	mtuSet, rateSet                 bool
}

// partConf is one statement in progress (struct part_conf).
type partConf struct {
	created    bool
	idx        int // index into the output
	isIPoIB    bool
	flags      groupFlags
	membership int
	indx0      bool
	defMember  string
}

// prtnParser is a port of osm_prtn_config_parse_file and its helpers that
// works, like the C code, on one persistent line buffer of NUL-terminated
// strings, so that it accepts, refuses and misreads what OpenSM does.
type prtnParser struct {
	b        []byte
	lineno   int
	lineEnd  int  // index of the NUL that fgets wrote
	stale    bool // the parser read past lineEnd (bytes of earlier lines)
	overflow bool // the parser read past the buffer (C: undefined)
	parts    []Partition
	mgids    map[string]bool // groups created so far
}

// ParsePartitions parses partitions.conf as OpenSM 3.3.23's
// osm_prtn_config_parse_file does and returns its statements in file
// order (a P_Key defined twice appears twice; OpenSM merges the members).
// It fails where OpenSM rejects the whole file (and falls back to its
// default partition): "no partition definition found", "bad partition
// definition", "bad PortGUID", a file without any statement; and where
// OpenSM's behaviour is undefined (a NUL byte, a line of more than 4094
// bytes, an mgid without a value). Errors read "partitions.conf:LINE:COL: ...".
func ParsePartitions(text string) ([]Partition, error) {
	if len(text) > MaxTextSize {
		return nil, fmt.Errorf("partitions.conf: %d bytes exceeds the %d-byte limit", len(text), MaxTextSize)
	}
	ps := &prtnParser{b: make([]byte, prtnLineBuf), mgids: map[string]bool{}}
	var conf *partConf
	success := 0
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i+1], text[i+1:]
		} else {
			text = ""
		}
		ps.lineno++
		ps.lineEnd = len(line)
		if i := strings.IndexByte(line, 0); i >= 0 {
			return nil, ps.errAt(i, "NUL byte (OpenSM would stop reading the line there)")
		}
		if len(line) > prtnMaxLine {
			return nil, ps.errAt(0, fmt.Sprintf("line of %d bytes; OpenSM reads at most %d and would split it", len(line), prtnMaxLine))
		}
		copy(ps.b, line)
		ps.b[len(line)] = 0
		ps.lineEnd = len(line)
		ps.stale = false

		p := 0
		if q := ps.strchr(p, '#'); q >= 0 {
			ps.b[q] = 0
		}
		for {
			for c := ps.at(p); c == ' ' || c == '\t' || c == '\n'; c = ps.at(p) {
				p++
			}
			if ps.at(p) == 0 {
				break
			}
			if conf == nil {
				conf = &partConf{membership: memLimited, flags: groupFlags{rate: DefaultMGroupRate, mtu: DefaultMGroupMTU}}
			}
			q := ps.strchr(p, ';')
			if q >= 0 {
				ps.b[q] = 0
			}
			n, err := ps.parsePartConf(conf, p)
			if err != nil {
				return nil, err
			}
			success = 1
			p += n
			if q < 0 {
				break
			}
			conf = nil
		}
		if ps.overflow {
			return nil, ps.errAt(0, "OpenSM 3.3.23 would read past its 4096-byte line buffer here (undefined behaviour)")
		}
		if ps.stale && len(ps.parts) > 0 {
			last := &ps.parts[len(ps.parts)-1]
			last.Warnings = append(last.Warnings, fmt.Sprintf("line %d: OpenSM 3.3.23 reads past the end of this line (bytes left there by longer earlier lines) and may parse them too; give an mgid= member at the end of a line a flag (,sl=N) to avoid it", ps.lineno))
		}
	}
	if success != 1 {
		return nil, fmt.Errorf("partitions.conf:%d:1: no partition definition in the file (OpenSM reports \"Partition configuration in error\" and uses its default partition)", max(ps.lineno, 1))
	}
	return ps.parts, nil
}

// errAt formats an error at byte offset i of the current line.
func (ps *prtnParser) errAt(i int, msg string) error {
	if i > ps.lineEnd {
		return fmt.Errorf("partitions.conf:%d:%d: %s; OpenSM 3.3.23 found this past the end of the line, in bytes left by longer earlier lines (it reads there after a ';' that starts a line or follows another ';')", ps.lineno, ps.lineEnd+1, msg)
	}
	return fmt.Errorf("partitions.conf:%d:%d: %s", ps.lineno, i+1, msg)
}

// warn records an OpenSM warning on the statement of conf.
func (ps *prtnParser) warn(conf *partConf, msg string) {
	if conf == nil || !conf.created {
		return
	}
	p := &ps.parts[conf.idx]
	p.Warnings = append(p.Warnings, fmt.Sprintf("line %d: %s", ps.lineno, msg))
}

// at reads the buffer as C would, noting reads past the line and the buffer.
func (ps *prtnParser) at(i int) byte {
	if i < 0 || i >= len(ps.b) {
		ps.overflow = true
		return 0
	}
	if i > ps.lineEnd {
		ps.stale = true
	}
	return ps.b[i]
}

// set writes the buffer (writes past it are dropped and noted).
func (ps *prtnParser) set(i int, c byte) {
	if i < 0 || i >= len(ps.b) {
		ps.overflow = true
		return
	}
	ps.b[i] = c
}

// strlen is C's strlen at i.
func (ps *prtnParser) strlen(i int) int {
	n := 0
	for ps.at(i+n) != 0 {
		n++
		if i+n >= len(ps.b) {
			ps.overflow = true
			return n
		}
	}
	return n
}

// strchr is C's strchr at i: the index of c, or -1.
func (ps *prtnParser) strchr(i int, c byte) int {
	for j := i; ; j++ {
		if j >= len(ps.b) {
			ps.overflow = true
			return -1
		}
		switch ps.at(j) {
		case c:
			return j
		case 0:
			return -1
		}
	}
}

// str returns the C string at i.
func (ps *prtnParser) str(i int) string {
	n := ps.strlen(i)
	if i < 0 || i >= len(ps.b) {
		return ""
	}
	return string(ps.b[i : i+n])
}

// cstr is a C string pointer: nil for NULL.
type cstr = *string

// isBlank is the white space of the partition parser's macros.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

// parseNameToken is parse_name_token: "name[=value]" at str, white space
// around both stripped in place; it returns how far the caller advances.
func (ps *prtnParser) parseNameToken(str int) (int, string, cstr) {
	p := str
	for isBlank(ps.at(p)) {
		p++
	}
	q := ps.strchr(p, '=')
	if q >= 0 {
		ps.set(q, 0)
		q++
	}
	n := ps.strlen(str) + 1
	valStart := q
	q = p + ps.strlen(p)
	for q != p && (ps.at(q) == 0 || isBlank(ps.at(q))) {
		ps.set(q, 0)
		q--
	}
	name := ps.str(p)
	if valStart < 0 {
		return n, name, nil
	}
	p = valStart
	for isBlank(ps.at(p)) {
		p++
	}
	q = p + ps.strlen(p)
	n += q - valStart + 1
	for q != p && (ps.at(q) == 0 || isBlank(ps.at(q))) {
		ps.set(q, 0)
		q--
	}
	val := ps.str(p)
	return n, name, &val
}

// parsePartConf is parse_part_conf: one statement's part on this line.
func (ps *prtnParser) parsePartConf(conf *partConf, str int) (int, error) {
	n := 0
	p := str
	start := str
	if c := ps.at(p); c == '\t' || c == 0 || c == '\n' {
		p++
	}
	n += p - str

	if !conf.created {
		q := ps.strchr(p, ':')
		if q < 0 {
			return 0, ps.errAt(start, "PARSE ERROR: no partition definition found (a header \"Name[=PKey][,flag...] :\" must be on one line)")
		}
		ps.set(q, 0)
		q++
		str = q
		q = ps.strchr(p, ',')
		if q >= 0 {
			ps.set(q, 0)
		}
		headerCol := p
		ret, name, id := ps.parseNameToken(p)
		p += ret
		n += ret
		var flags [][2]cstr
		for q >= 0 {
			q = ps.strchr(p, ',')
			if q >= 0 {
				ps.set(q, 0)
				q++
			}
			ret, flag, val := ps.parseNameToken(p)
			p += ret
			n += ret
			f := flag
			flags = append(flags, [2]cstr{&f, val})
		}
		// partition_add_flag runs before partition_create, which needs
		// the flags; warnings go to the partition once it exists.
		var pending []string
		for _, fv := range flags {
			pending = append(pending, partitionAddFlag(conf, *fv[0], fv[1])...)
		}
		nameP := &name
		if p != str || !ps.partitionCreate(conf, nameP, id) {
			for isBlank(ps.at(headerCol)) {
				headerCol++
			}
			return 0, ps.errAt(headerCol, "PARSE ERROR: bad partition definition (the P_Key must be a number: decimal, 0x hex or 0-prefixed octal)")
		}
		for _, w := range pending {
			ps.warn(conf, w)
		}
	}

	for {
		q := ps.strchr(p, ',')
		if q >= 0 {
			ps.set(q, 0)
			q++
		}
		col := p
		for isBlank(ps.at(col)) {
			col++
		}
		ret, name, flag := ps.parseNameToken(p)
		n += ret
		if name == "mgid" {
			m, err := ps.mgroupCreate(p+ret, flag, conf, col)
			if err != nil {
				return 0, err
			}
			return n + m, nil
		}
		if !ps.partitionAddPort(conf, name, flag) {
			return 0, ps.errAt(col, fmt.Sprintf("PARSE ERROR: bad PortGUID %q (want a non-zero GUID, ALL, ALL_CAS, ALL_SWITCHES, ALL_ROUTERS, SELF or NONE)", name))
		}
		p += ret
		if q < 0 {
			break
		}
	}
	return n, nil
}

// cStrtoul is C's strtoul(s, &end, 0) as an unsigned long: the value
// (negative numbers wrap, overflow saturates) and whether the whole string
// was a number.
func cStrtoul(s string) (uint64, bool, bool) {
	n := cParse(s)
	v := n.mag
	if n.overflow {
		v = ^uint64(0)
	} else if n.neg {
		v = -v
	}
	return v, n.digits, n.digits && n.end == len(s)
}

// partitionCreate is partition_create; false where it returns -1.
func (ps *prtnParser) partitionCreate(conf *partConf, name, id cstr) bool {
	if id == nil && name != nil && len(*name) > 0 && (*name)[0] >= '0' && (*name)[0] <= '9' {
		id, name = name, nil
	}
	var pkey uint16
	var warns []string
	if id != nil {
		v, _, whole := cStrtoul(*id)
		if !whole {
			return false
		}
		if v > 0xffff {
			warns = append(warns, fmt.Sprintf("P_Key %s does not fit 16 bits; OpenSM uses 0x%04x", *id, uint16(v)))
		}
		pkey = uint16(v)
	}
	part := Partition{PKey: pkey, Line: ps.lineno, IPoIB: conf.isIPoIB, SL: int(conf.flags.sl),
		Index0: conf.indx0, DefMember: conf.defMember, QKey: conf.flags.qKey, TClass: conf.flags.tClass,
		FlowLabel: conf.flags.flowLabel, ScopeMask: uint16(conf.flags.scopeMask), Scope: int(conf.flags.scope)}
	if name != nil {
		part.Name = *name
	}
	if conf.flags.mtuSet {
		part.MTU = int(conf.flags.mtu)
	}
	if conf.flags.rateSet {
		part.Rate = int(conf.flags.rate)
	}
	ps.parts = append(ps.parts, part)
	conf.created = true
	conf.idx = len(ps.parts) - 1
	for _, w := range warns {
		ps.warn(conf, w)
	}
	return true
}

// prefixOf is strncmp(s, word, strlen(s)) == 0: s is a prefix of word
// (the empty string included), as OpenSM matches flags and names.
func prefixOf(s, word string) bool { return strings.HasPrefix(word, s) }

// verifyVal is verify_val: strtoul, warning about trailing text.
func verifyVal(flag, val string, warns *[]string) uint32 {
	v, _, whole := cStrtoul(val)
	if !whole && val != "" {
		*warns = append(*warns, fmt.Sprintf("PARSE WARN: suspicious val=(%s) detected. flag=(%s)", val, flag))
	}
	return uint32(v)
}

// strictSmall is the sl/FlowLabel check: strtoul no larger than max,
// and what follows the number (or the whole value, when it has no digits)
// is empty or starts with white space.
func strictSmall(val string, max uint64) (uint32, bool) {
	if val == "" {
		return 0, false
	}
	n := cParse(val)
	v, _, _ := cStrtoul(val)
	if v > max {
		return 0, false
	}
	if end := n.end; end < len(val) && !cIsSpace(val[end]) {
		return 0, false
	}
	return uint32(v), true
}

// parseGroupFlag is parse_group_flag: whether flag is a group flag; its
// warnings are appended.
func parseGroupFlag(f *groupFlags, flag string, val cstr, warns *[]string) bool {
	verify := func(v string) uint32 { return verifyVal(flag, v, warns) }
	small := func(dst *uint32, max uint64) func(string) bool {
		return func(v string) bool {
			x, ok := strictSmall(v, max)
			if ok {
				*dst = x
			}
			return ok
		}
	}
	// The group flags in OpenSM's order: name, what OpenSM does when the
	// value is missing or invalid, the flag seen (set with or without a
	// value), and set, which keeps a value and tells whether it is valid.
	for _, g := range []struct {
		name, tail string
		seen       *bool
		set        func(v string) bool
	}{
		{"mtu", "skipped", &f.mtuSet, func(v string) bool { f.mtu = verify(v); return f.mtu != 0 }},
		{"rate", "skipped", &f.rateSet, func(v string) bool { f.rate = verify(v); return f.rate != 0 }},
		{"scope", "skipped", nil, func(v string) bool {
			s := verify(v)
			if s == 0 || s > 0xf {
				return false
			}
			f.scopeMask |= 1 << s
			f.scope = s
			return true
		}},
		{"Q_Key", "using '0'", nil, func(v string) bool { f.qKey = verify(v); return f.qKey != 0 }},
		{"TClass", "using '0'", nil, func(v string) bool { f.tClass = uint8(verify(v)); return f.tClass != 0 }},
		{"sl", "skipped", nil, small(&f.sl, 15)},
		{"FlowLabel", "skipped", nil, small(&f.flowLabel, 0xfffff)},
	} {
		if !prefixOf(flag, g.name) {
			continue
		}
		if g.seen != nil {
			*g.seen = true
		}
		if val == nil || !g.set(*val) {
			*warns = append(*warns, fmt.Sprintf("PARSE WARN: flag '%s' requires valid value - %s", g.name, g.tail))
		}
		return true
	}
	return false
}

// partitionAddFlag is partition_add_flag; it returns the warnings.
func partitionAddFlag(conf *partConf, flag string, val cstr) []string {
	var warns []string
	if parseGroupFlag(&conf.flags, flag, val, &warns) {
		return warns
	}
	switch {
	case prefixOf(flag, "ipoib"):
		conf.isIPoIB = true
	case prefixOf(flag, "defmember"):
		v := ""
		if val != nil {
			v = *val
		}
		switch {
		case val == nil || (!prefixOf(v, "limited") && !prefixOf(v, "both") && !prefixOf(v, "full")):
			warns = append(warns, "PARSE WARN: flag 'defmember' requires valid value (limited or full or both) - skipped")
		case prefixOf(v, "full"):
			conf.membership, conf.defMember = memFull, "full"
		case prefixOf(v, "both"):
			conf.membership, conf.defMember = memBoth, "both"
		default:
			conf.membership, conf.defMember = memLimited, "limited"
		}
	case flag == "indx0":
		conf.indx0 = true
	default:
		warns = append(warns, fmt.Sprintf("PARSE WARN: unrecognized partition flag '%s' - ignored", flag))
	}
	return warns
}

// partitionAddPort is partition_add_port; false for a bad PortGUID.
func (ps *prtnParser) partitionAddPort(conf *partConf, name string, flag cstr) bool {
	if name == "" || prefixOf(name, "NONE") {
		return true
	}
	membership := conf.membership
	if flag != nil {
		membership = memLimited
		switch {
		case prefixOf(*flag, "full"):
			membership = memFull
		case prefixOf(*flag, "both"):
			membership = memBoth
		case !prefixOf(*flag, "limited"):
			ps.warn(conf, fmt.Sprintf("PARSE WARN: unrecognized port flag '%s'. Assume 'limited'", *flag))
		}
	}
	m := Member{Full: membership == memFull, Both: membership == memBoth, Line: ps.lineno}
	switch {
	case prefixOf(name, "ALL"):
		m.Name = "ALL"
	case prefixOf(name, "ALL_CAS"):
		m.Name = "ALL_CAS"
	case prefixOf(name, "ALL_SWITCHES"):
		m.Name = "ALL_SWITCHES"
	case prefixOf(name, "ALL_ROUTERS"):
		m.Name = "ALL_ROUTERS"
	case prefixOf(name, "SELF"):
		m.Name = "SELF"
	default:
		n := cParse(name)
		guid, _, whole := cStrtoul(name)
		if guid == 0 || !whole {
			return false
		}
		if n.neg || n.overflow {
			ps.warn(conf, fmt.Sprintf("GUID %s is not a 64-bit unsigned number; OpenSM uses 0x%016x", name, guid))
		}
		m.Name, m.GUID = name, guid
	}
	p := &ps.parts[conf.idx]
	p.Members = append(p.Members, m)
	return true
}

// mgroupCreate is mgroup_create: an mgid= group and its flags at p.
func (ps *prtnParser) mgroupCreate(p int, mgid cstr, conf *partConf, col int) (int, error) {
	if mgid == nil {
		return 0, ps.errAt(col, "mgid without '=' and a GID: OpenSM 3.3.23 passes NULL to inet_pton and crashes")
	}
	addr, err := netip.ParseAddr(*mgid)
	if err != nil || !addr.Is6() || addr.Zone() != "" || addr.As16()[0] != 0xff {
		ps.warn(conf, fmt.Sprintf("PARSE ERROR: mgid %q: gid is not multicast (group skipped)", *mgid))
		return 0, nil
	}
	g := conf.flags
	g.tClass = 0
	var warns []string
	n := 0
	for {
		q := ps.strchr(p, ',')
		if q >= 0 {
			ps.set(q, 0)
			q++
		}
		ret, flag, val := ps.parseNameToken(p)
		if !parseGroupFlag(&g, flag, val, &warns) {
			warns = append(warns, fmt.Sprintf("PARSE WARN: unrecognized mgroup flag '%s' - ignored", flag))
		}
		p += ret
		n += ret
		if q < 0 {
			break
		}
	}
	for _, w := range warns {
		ps.warn(conf, w)
	}
	raw := addr.As16()
	part := &ps.parts[conf.idx]
	if sig := uint16(raw[2])<<8 | uint16(raw[3]); sig == 0x401b || sig == 0x601b {
		mpkey := uint16(raw[4])<<8 | uint16(raw[5])
		broadcast := raw == netip.MustParseAddr("ff12:401b:ffff::ffff:ffff").As16()
		switch {
		case !broadcast && mpkey != 0 && mpkey != part.Key()|0x8000:
			ps.warn(conf, fmt.Sprintf("IP MC group (%s) specified with invalid pkey 0x%04x for partition pkey = 0x%04x (group skipped)", *mgid, mpkey, part.Key()))
			return n, nil
		case g.rate != conf.flags.rate:
			ps.warn(conf, fmt.Sprintf("IP MC group (%s) specified with invalid rate (%d) [Partition broadcast group rate = %d] (group skipped)", *mgid, g.rate, conf.flags.rate))
			return n, nil
		case g.mtu != conf.flags.mtu:
			ps.warn(conf, fmt.Sprintf("IP MC group (%s) specified with invalid mtu (%d) [Partition broadcast group mtu = %d] (group skipped)", *mgid, g.mtu, conf.flags.mtu))
			return n, nil
		}
		pk := part.Key() | 0x8000
		raw[4], raw[5] = byte(pk>>8), byte(pk)
		if g.qKey == 0 {
			g.qKey = 0x0b1b // OSM_IPOIB_BROADCAST_MGRP_QKEY
		}
	}
	gid := netip.AddrFrom16(raw).String()
	if ps.mgids[gid] {
		return n, nil // "don't create multiple copies of the group"
	}
	ps.mgids[gid] = true
	part.MGroups = append(part.MGroups, MGroup{MGID: gid, Line: ps.lineno, MTU: int(g.mtu), Rate: int(g.rate),
		SL: int(g.sl), ScopeMask: uint16(g.scopeMask), QKey: g.qKey, TClass: g.tClass, FlowLabel: g.flowLabel})
	return n, nil
}
