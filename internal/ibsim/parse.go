package ibsim

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// PortPair is a switch SL-to-VL row's input and output port (0, 0 on a CA).
type PortPair struct{ In, Out int }

// ParseSL2VL reads `smpquery sl2vl` output: one row per (in, out) port
// pair, "ports: in  1, out  3: | 0| 1| ...|15|", sixteen VLs by SL.
func ParseSL2VL(out string) (map[PortPair][16]int, error) {
	rows := map[PortPair][16]int{}
	for n, line := range strings.Split(out, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "ports:")
		if !ok {
			continue
		}
		head, cells, ok := strings.Cut(rest, ":")
		if !ok {
			return nil, fmt.Errorf("sl2vl line %d: no ':' after the port pair: %q", n+1, line)
		}
		var pp PortPair
		if _, err := fmt.Sscanf(strings.ReplaceAll(head, " ", ""), "in%d,out%d", &pp.In, &pp.Out); err != nil {
			return nil, fmt.Errorf("sl2vl line %d: port pair %q: %w", n+1, head, err)
		}
		var vls [16]int
		fields := strings.Split(strings.Trim(strings.TrimSpace(cells), "|"), "|")
		if len(fields) != 16 {
			return nil, fmt.Errorf("sl2vl line %d: %d VLs, want 16", n+1, len(fields))
		}
		for i, f := range fields {
			v, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || v < 0 || v > 15 {
				return nil, fmt.Errorf("sl2vl line %d: SL %d: VL %q is not 0-15", n+1, i, f)
			}
			vls[i] = v
		}
		rows[pp] = vls
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("sl2vl: no 'ports:' rows in %q", firstLine(out))
	}
	return rows, nil
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// Entry is one VL arbitration table entry.
type Entry struct{ VL, Weight int }

// String is "VL:weight", as opensm.conf writes it.
func (e Entry) String() string { return fmt.Sprintf("%d:%d", e.VL, e.Weight) }

// VLArb is a port's VL arbitration tables, entries with weight 0 left out.
type VLArb struct{ Low, High []Entry }

// ParseVLArb reads `smpquery vlarb` output: for each table a "# Low
// priority …" or "# High priority …" heading, then "VL    : |0x0 |…|" and
// "WEIGHT: |0x40|…|" rows.
func ParseVLArb(out string) (VLArb, error) {
	var a VLArb
	var cur *[]Entry
	var vls []int
	seen := 0
	for n, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "# Low priority"):
			cur, vls = &a.Low, nil
			seen++
		case strings.HasPrefix(line, "# High priority"):
			cur, vls = &a.High, nil
			seen++
		case strings.HasPrefix(line, "VL") || strings.HasPrefix(line, "WEIGHT"):
			if cur == nil {
				return VLArb{}, fmt.Errorf("vlarb line %d: a row before any table heading", n+1)
			}
			name, cells, _ := strings.Cut(line, ":")
			var vals []int
			for _, f := range strings.Split(strings.Trim(strings.TrimSpace(cells), "|"), "|") {
				v, err := strconv.ParseUint(strings.TrimSpace(f), 0, 8)
				if err != nil {
					return VLArb{}, fmt.Errorf("vlarb line %d: %q: %w", n+1, f, err)
				}
				vals = append(vals, int(v))
			}
			if strings.TrimSpace(name) == "VL" {
				vls = vals
				continue
			}
			if len(vals) != len(vls) {
				return VLArb{}, fmt.Errorf("vlarb line %d: %d weights for %d VLs", n+1, len(vals), len(vls))
			}
			for i, w := range vals {
				if w != 0 {
					*cur = append(*cur, Entry{VL: vls[i], Weight: w})
				}
			}
		}
	}
	if seen != 2 {
		return VLArb{}, fmt.Errorf("vlarb: %d table headings, want the low and the high table", seen)
	}
	return a, nil
}

// ParsePKeyTable reads `smpquery pkeys` output and returns the whole
// table by index, zeros included.
func ParsePKeyTable(out string) ([]uint16, error) {
	var table []uint16
	_, err := pkeyRows(out, func(n, i int) error {
		if i != len(table) {
			return fmt.Errorf("pkeys line %d: index %d after %d entries", n+1, i, len(table))
		}
		return nil
	}, func(k uint16) { table = append(table, k) })
	if err != nil {
		return nil, err
	}
	if len(table) == 0 {
		return nil, noPKeyRows(out)
	}
	return table, nil
}

// ParsePKeys reads `smpquery pkeys` output ("   0: 0xffff 0x8001 0x0000 …")
// and returns the P_Keys that are not 0, in table order.
func ParsePKeys(out string) ([]uint16, error) {
	var keys []uint16
	rows, err := pkeyRows(out, func(int, int) error { return nil }, func(k uint16) {
		if k != 0 {
			keys = append(keys, k)
		}
	})
	if err != nil {
		return nil, err
	}
	if rows == 0 {
		return nil, noPKeyRows(out)
	}
	return keys, nil
}

// pkeyRows reads the "IDX: KEY KEY …" rows of `smpquery pkeys` output:
// row sees each row's line index and table index before key sees its
// P_Keys. It returns how many rows there were.
func pkeyRows(out string, row func(n, idx int) error, key func(uint16)) (int, error) {
	rows := 0
	for n, line := range strings.Split(out, "\n") {
		idx, rest, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		i, err := strconv.Atoi(idx)
		if err != nil {
			continue
		}
		if err := row(n, i); err != nil {
			return 0, err
		}
		rows++
		for _, f := range strings.Fields(rest) {
			v, err := strconv.ParseUint(f, 0, 16)
			if err != nil {
				return 0, fmt.Errorf("pkeys line %d: %q is not a P_Key: %w", n+1, f, err)
			}
			key(uint16(v))
		}
	}
	return rows, nil
}

// noPKeyRows is the error of `smpquery pkeys` output without a table.
func noPKeyRows(out string) error {
	return fmt.Errorf("pkeys: no table rows in %q", firstLine(out))
}

// PathRecord is the part of an SA PathRecord the proof tests read.
type PathRecord struct {
	SGID, DGID netip.Addr
	SLID, DLID int
	PKey       uint16
	SL         int
	// MTU is the record's MTU field (selector in the top two bits).
	MTU int
}

// SrcGUID and DstGUID are the port GUIDs in the GIDs' low 64 bits.
func (p PathRecord) SrcGUID() uint64 { return guidOf(p.SGID) }

// DstGUID is the destination port GUID.
func (p PathRecord) DstGUID() uint64 { return guidOf(p.DGID) }

func guidOf(a netip.Addr) uint64 {
	b := a.As16()
	var g uint64
	for _, x := range b[8:] {
		g = g<<8 | uint64(x)
	}
	return g
}

// GID is the link-local GID of a port GUID (fe80::/64 + GUID).
func GID(guid uint64) netip.Addr {
	var b [16]byte
	b[0], b[1] = 0xfe, 0x80
	for i := range 8 {
		b[15-i] = byte(guid >> (8 * i))
	}
	return netip.AddrFrom16(b)
}

// ParsePathRecords reads `saquery -p` output: "PathRecord dump:" blocks of
// "name....value" lines.
func ParsePathRecords(out string) ([]PathRecord, error) {
	return parseRecords(out, "PathRecord dump:", "path record", recordFields[PathRecord]{
		"sgid": addrField(func(p *PathRecord) *netip.Addr { return &p.SGID }, false),
		"dgid": addrField(func(p *PathRecord) *netip.Addr { return &p.DGID }, false),
		"slid": intField(func(p *PathRecord) *int { return &p.SLID }, 0xffff),
		"dlid": intField(func(p *PathRecord) *int { return &p.DLID }, 0xffff),
		"sl":   intField(func(p *PathRecord) *int { return &p.SL }, 15),
		"mtu":  intField(func(p *PathRecord) *int { return &p.MTU }, 0xff),
		"pkey": pkeyField(func(p *PathRecord) *uint16 { return &p.PKey }),
	})
}

// recordFields are the fields a record parser keeps: by name as saquery
// writes it, what sets the field from its value.
type recordFields[R any] map[string]func(r *R, val string) error

// parseRecords reads saquery's record dumps: each header line starts a
// record, and its "name....value" lines set the fields named in fields
// (others are passed over). what names the record in errors.
func parseRecords[R any](out, header, what string, fields recordFields[R]) ([]R, error) {
	var recs []R
	for n, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if line == header {
			recs = append(recs, *new(R))
			continue
		}
		if len(recs) == 0 || line == "" {
			continue
		}
		i := strings.Index(line, "..")
		if i < 0 {
			continue
		}
		key, val := line[:i], strings.TrimLeft(line[i:], ".")
		set, ok := fields[key]
		if !ok {
			continue
		}
		if err := set(&recs[len(recs)-1], val); err != nil {
			return nil, fmt.Errorf("%s line %d: %s: %w", what, n+1, key, err)
		}
	}
	return recs, nil
}

// intField is a number field from 0 to limit.
func intField[R any](field func(*R) *int, limit int) func(*R, string) error {
	return func(r *R, val string) error {
		v, err := atoi(val, limit)
		*field(r) = v
		return err
	}
}

// pkeyField is a P_Key field.
func pkeyField[R any](field func(*R) *uint16) func(*R, string) error {
	return func(r *R, val string) error {
		v, err := atoi(val, 0xffff)
		*field(r) = uint16(v)
		return err
	}
}

// addrField is a GID field; gid6 asks for an IPv6 address (a GID), where
// otherwise any address netip parses is kept.
func addrField[R any](field func(*R) *netip.Addr, gid6 bool) func(*R, string) error {
	return func(r *R, val string) error {
		a, err := netip.ParseAddr(val)
		if err != nil {
			return err
		}
		if gid6 && !a.Is6() {
			return fmt.Errorf("%q is not a GID", val)
		}
		*field(r) = a
		return nil
	}
}

func atoi(s string, limit int) (int, error) {
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if v < 0 || v > int64(limit) {
		return 0, fmt.Errorf("%d is outside 0-%d", v, limit)
	}
	return int(v), nil
}

// MCGroup is the part of an SA MCMemberRecord the proof tests read: a
// multicast group as `saquery -g` lists it.
type MCGroup struct {
	MGID netip.Addr
	MLID int
	PKey uint16
	SL   int
	// MTU and Rate are the record's fields (selector in the top two
	// bits, the IBTA enum below: MTU 0x84 is exactly 2048 bytes).
	MTU, Rate int
}

// MTUBytes is the group's MTU in bytes (the low six bits of MTU as the
// IBTA enum, 1 → 256 … 5 → 4096), or 0 when the enum is not an MTU.
func (g MCGroup) MTUBytes() int {
	code := g.MTU & 0x3f
	if code < 1 || code > 5 {
		return 0
	}
	return 128 << code
}

// ParseMCGroups reads `saquery -g` output: "MCMemberRecord group dump:"
// blocks of "name....value" lines (MGID, Mlid, Mtu, pkey, Rate, SL).
func ParseMCGroups(out string) ([]MCGroup, error) {
	return parseRecords(out, "MCMemberRecord group dump:", "MCMemberRecord", recordFields[MCGroup]{
		"MGID": addrField(func(g *MCGroup) *netip.Addr { return &g.MGID }, true),
		"Mlid": intField(func(g *MCGroup) *int { return &g.MLID }, 0xffff),
		"Mtu":  intField(func(g *MCGroup) *int { return &g.MTU }, 0xff),
		"Rate": intField(func(g *MCGroup) *int { return &g.Rate }, 0xff),
		"SL":   intField(func(g *MCGroup) *int { return &g.SL }, 15),
		"pkey": pkeyField(func(g *MCGroup) *uint16 { return &g.PKey }),
	})
}
