// Package skus is what SONiC's own buffer manager knows about each
// hardware SKU's lossless headroom: the rows of every SKU's
// pg_profile_lookup.ini in sonic-buildimage (device/<vendor>/<platform>/
// <hwsku>/), as lookup.tsv beside this file (Apache-2.0, see
// LICENSE-sonic-buildimage; regenerate with the command in its header).
//
// In SONiC's traditional buffer model, buffermgrd (sonic-swss
// cfgmgr/buffermgr.cpp) creates a port's lossless priority-group profile
// pg_lossless_<speed>_<cable>_profile from the row whose speed and cable
// length are exactly the port's PORT speed and CABLE_LENGTH; with no such
// row it logs "No PG profile configured for speed … and cable length …"
// and creates no lossless PG, so the class is lossy on that port.
package skus

import (
	"bufio"
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

//go:embed lookup.tsv
var lookupTSV string

// Row is one line of a pg_profile_lookup.ini: the headroom buffermgrd
// gives a lossless priority group of a port of this speed and cable
// length. Values are kept as written (buffermgrd copies the strings).
type Row struct {
	// Speed is the port speed in Mb/s, as PORT|<port>|speed writes it.
	Speed string
	// Cable is the cable length as CABLE_LENGTH writes it ("5m").
	Cable string
	// Size, Xon, Xoff are bytes; Threshold is the dynamic_th (or
	// static_th) value; XonOffset is empty when the file has none.
	Size, Xon, Xoff, Threshold, XonOffset string
}

// SKU is one hardware SKU's lookup file.
type SKU struct {
	// Platform is the SONiC platform directory (x86_64-mlnx_msn2700-r0).
	Platform string
	// HWSKU is the SKU directory, DEVICE_METADATA|localhost|hwsku.
	HWSKU string
	// ASIC is the platform's platform_asic ("" when it has none).
	ASIC string
	// Rows are the file's rows, in the file's order.
	Rows []Row
}

// Row returns the row buffermgrd would use for a port of this speed
// and cable length.
func (s SKU) Row(speed, cable string) (Row, bool) {
	for _, r := range s.Rows {
		if r.Speed == speed && r.Cable == cable {
			return r, true
		}
	}
	return Row{}, false
}

// Cables lists the cable lengths the SKU has a row for at this speed,
// in the file's order.
func (s SKU) Cables(speed string) []string {
	var out []string
	for _, r := range s.Rows {
		if r.Speed == speed && !slices.Contains(out, r.Cable) {
			out = append(out, r.Cable)
		}
	}
	return out
}

// Table is every SKU of lookup.tsv.
type Table struct {
	// SKUs are sorted by HWSKU, then Platform.
	SKUs []SKU
	// Source is the sonic-buildimage commit the table was generated from.
	Source string
}

// Find returns the SKUs named hwsku (one per platform that has it).
func (t *Table) Find(hwsku string) []SKU {
	i, _ := slices.BinarySearchFunc(t.SKUs, hwsku, func(s SKU, h string) int { return strings.Compare(s.HWSKU, h) })
	var out []SKU
	for ; i < len(t.SKUs) && t.SKUs[i].HWSKU == hwsku; i++ {
		out = append(out, t.SKUs[i])
	}
	return out
}

// Load returns the embedded lookup.tsv, parsed once per process: the
// table is read-only, shared by every caller.
func Load() (*Table, error) { return loadOnce() }

var loadOnce = sync.OnceValues(func() (*Table, error) {
	t, err := ParseTable(lookupTSV)
	if err != nil {
		return nil, fmt.Errorf("platforms/sonic/skus/lookup.tsv: %w", err)
	}
	return t, nil
})

// Meters is a cable length as a lookup row writes it ("5m", "40m") in
// metres, false for any other form.
func Meters(cable string) (float64, bool) {
	n, ok := strings.CutSuffix(cable, "m")
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(n, 64)
	return v, err == nil && v >= 0
}

// CableFor returns the cable length of the row buffermgrd would use for a
// port of this speed whose cable is meters long: the shortest of the
// SKU's cable lengths at that speed that is at least as long, which is
// what CABLE_LENGTH must say (buffermgrd matches the string exactly).
// It is false when the SKU has no row at that speed that long.
func (s SKU) CableFor(speed string, meters float64) (string, bool) {
	best, bestM := "", -1.0
	for _, c := range s.Cables(speed) {
		m, ok := Meters(c)
		if ok && m >= meters && (bestM < 0 || m < bestM) {
			best, bestM = c, m
		}
	}
	return best, bestM >= 0
}

// ParseTable parses the lookup.tsv form: "# source: COMMIT" comment,
// "table ID SPEED CABLE SIZE XON XOFF THRESHOLD [XON_OFFSET]" rows and
// "sku PLATFORM HWSKU ASIC ID" lines (tab-separated; ASIC "-" for
// none). Every sku names a table; the SKUs come out sorted.
func ParseTable(text string) (*Table, error) {
	t := &Table{}
	tables := map[string][]Row{}
	type ref struct {
		sku  SKU
		id   string
		line int
	}
	var refs []ref
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 4096), 1<<16)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if src, ok := strings.CutPrefix(line, "# source: "); ok {
			t.Source = src
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		switch {
		case f[0] == "table" && (len(f) == 8 || len(f) == 9):
			r := Row{Speed: f[2], Cable: f[3], Size: f[4], Xon: f[5], Xoff: f[6], Threshold: f[7]}
			if len(f) == 9 {
				r.XonOffset = f[8]
			}
			tables[f[1]] = append(tables[f[1]], r)
		case f[0] == "sku" && len(f) == 5:
			asic := f[3]
			if asic == "-" {
				asic = ""
			}
			refs = append(refs, ref{SKU{Platform: f[1], HWSKU: f[2], ASIC: asic}, f[4], n})
		default:
			return nil, fmt.Errorf("line %d: want a table row or a sku line, got %q", n, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for _, r := range refs {
		rows, ok := tables[r.id]
		if !ok {
			return nil, fmt.Errorf("line %d: sku %s/%s names table %s, which the file does not have", r.line, r.sku.Platform, r.sku.HWSKU, r.id)
		}
		r.sku.Rows = rows
		t.SKUs = append(t.SKUs, r.sku)
	}
	slices.SortFunc(t.SKUs, func(a, b SKU) int {
		return cmpOr(strings.Compare(a.HWSKU, b.HWSKU), strings.Compare(a.Platform, b.Platform))
	})
	return t, nil
}

func cmpOr(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

// ParseLookup reads a pg_profile_lookup.ini as buffermgrd does
// (readPgProfileLookupFile): a line that is empty or starts with '#' is
// skipped; otherwise its whitespace-separated fields are speed, cable,
// size, xon, xoff, threshold and an optional xon_offset. A later row for
// the same speed and cable replaces an earlier one, as buffermgrd's map
// does, and fields after the seventh are ignored, as its stream reads
// stop there. A line with fewer than six fields is an error here
// (buffermgrd would store empty values for it).
func ParseLookup(text string) ([]Row, error) {
	var out []Row
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) < 6 {
			return nil, fmt.Errorf("line %d: want speed, cable, size, xon, xoff, threshold and an optional xon_offset, got %d fields", n+1, len(f))
		}
		r := Row{Speed: f[0], Cable: f[1], Size: f[2], Xon: f[3], Xoff: f[4], Threshold: f[5]}
		if len(f) >= 7 {
			r.XonOffset = f[6]
		}
		if i := slices.IndexFunc(out, func(o Row) bool { return o.Speed == r.Speed && o.Cable == r.Cable }); i >= 0 {
			out[i] = r
			continue
		}
		out = append(out, r)
	}
	return out, nil
}

// DynamicModelSince is the first release branch whose images for
// Mellanox are built with the dynamic buffer model (sonic-buildimage
// #6194, 2020-12: platform/mellanox/rules.mk SONIC_BUFFER_MODEL=dynamic,
// written to DEVICE_METADATA by files/build_templates/init_cfg.json.j2).
const DynamicModelSince = 202012

// DefaultBufferModel is the buffer model SONiC's image for an ASIC family
// and release branch (YYYYMM) is built with: dynamic on mellanox from
// DynamicModelSince, traditional everywhere else. The platform's default
// for a device (platforms/sonic) and the lab's factory switch both take it
// from here.
func DefaultBufferModel(asic string, branch int) string {
	if asic == "mellanox" && branch >= DynamicModelSince {
		return "dynamic"
	}
	return "traditional"
}
