package config

import (
	"maps"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// SONiC keys BUFFER_QUEUE and BUFFER_PG ("range tables") by a port and a
// queue or priority-group index, "Ethernet0|5", or an inclusive range of
// them, "Ethernet0|5-6" (buffers_config.j2 writes "0-2", "3-4", "5-6";
// sonic-swss orchagent/bufferorch.cpp processQueue/processPriorityGroup
// split the key at "|", and Orch::parseIndexRange in orch.cpp reads
// "lo-hi" with lo < hi, or one index; sonic-yang-models' sonic-buffer-queue.yang
// and sonic-buffer-pg.yang key them by port and a qindex / pg_num of the
// pattern "n" or "n-m"). Two keys that
// share an index of one port are a hazard: bufferorch applies both, in no
// set order. So when fabricgen renders a key that shares indexes with a
// device's key without being that key, the device's key is removed and the
// indexes no rendered key covers are added back with the device key's own
// fields, as maximal contiguous ranges in SONiC's key form: the device keeps
// its profile on every other queue or priority group, and after the patch
// no two keys overlap. Those re-added keys are the device's, not
// fabricgen's: they are not managed in later plans.
//
// When a later render drops a key fabricgen applied (the last-applied
// scope has it, the render does not), its indexes that no other key covers
// would be left without a profile. They get back the profile the device
// had before fabricgen: the baseline's (the brownfield CONFIG_DB, the
// oldest backup) key covering them, merged with the device's adjacent keys
// that lie within that same baseline key and have its fields, so a stock
// "Ethernet0|5-6" comes back whole; an index the baseline gives no profile
// gets none. Without a baseline, what the device had is not known, and
// the dropped key goes as any field fabricgen no longer sets: merging the
// indexes into a neighbour with the same fields would guess (the stock
// lossless "3-4" between the lossy "0-2" and "5-6" would become lossy), so
// fabricgen does not.
//
// A key of another form ("Ethernet0", "Ethernet0|x-y", "Ethernet0|6-5",
// "Ethernet0|5-5", "Ethernet0|3-4-5", an index above maxRangeID, and the
// forms bufferorch takes that fabricgen does not split: a port list
// "Ethernet0,Ethernet4|3-4", a VOQ switch's "host|asic|port|3-4") is a
// plain key: managed only as itself.

// maxRangeID is the largest queue or priority-group index read as one
// (SONiC ports have at most a few dozen queues); a larger number makes a
// plain key, so no hostile key makes fabricgen walk a huge range.
const maxRangeID = 1023

// rangeTable reports the CONFIG_DB tables keyed by a port and an index or
// index range.
func rangeTable(t string) bool { return t == "BUFFER_QUEUE" || t == "BUFFER_PG" }

// span is the indexes lo..hi (inclusive) of one port.
type span struct {
	port   string
	lo, hi int
}

// key is the span in SONiC's key form: "Ethernet0|5" or "Ethernet0|5-6".
func (s span) key() string {
	if s.lo == s.hi {
		return s.port + "|" + strconv.Itoa(s.lo)
	}
	return s.port + "|" + strconv.Itoa(s.lo) + "-" + strconv.Itoa(s.hi)
}

func (s span) overlaps(o span) bool { return s.port == o.port && s.lo <= o.hi && o.lo <= s.hi }

func (s span) within(o span) bool { return s.port == o.port && o.lo <= s.lo && s.hi <= o.hi }

// parseSpan reads a range-table key; ok is false for a plain key.
func parseSpan(key string) (span, bool) {
	port, ids, found := strings.Cut(key, "|")
	if !found || port == "" || strings.Contains(port, ",") {
		return span{}, false
	}
	a, b, isRange := strings.Cut(ids, "-")
	lo, ok := parseIndex(a)
	hi := lo
	if isRange {
		var okHi bool
		hi, okHi = parseIndex(b)
		ok = ok && okHi
	}
	if !ok || isRange && lo >= hi {
		return span{}, false // bufferorch refuses "6-5" and "5-5" alike
	}
	return span{port, lo, hi}, true
}

// parseIndex reads a decimal index of at most maxRangeID.
func parseIndex(s string) (int, bool) {
	if s == "" || len(s) > 4 {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n <= maxRangeID
}

// indexSet is a set of queue or priority-group indexes of one port.
type indexSet map[int]bool

// keyedSpan is a range-table key and its span.
type keyedSpan struct {
	key string
	span
}

// spansOf lists the range keys of table t of a document by port, each
// port's sorted by index and key.
func spansOf(doc map[string]map[string]map[string]any, t string) map[string][]keyedSpan {
	out := map[string][]keyedSpan{}
	for k := range doc[t] {
		if s, ok := parseSpan(k); ok {
			out[s.port] = append(out[s.port], keyedSpan{k, s})
		}
	}
	for _, l := range out {
		sort.Slice(l, func(i, j int) bool {
			if l[i].lo != l[j].lo {
				return l[i].lo < l[j].lo
			}
			if l[i].hi != l[j].hi {
				return l[i].hi < l[j].hi
			}
			return l[i].key < l[j].key
		})
	}
	return out
}

// overlapsAny reports whether a key's span shares an index with any of
// spans but is not the same key.
func overlapsAny(k string, s span, spans []keyedSpan) bool {
	for _, o := range spans {
		if o.key != k && s.overlaps(o.span) {
			return true
		}
	}
	return false
}

// rangeChange is how the patch changes the range tables' keys besides
// what the render and the last-applied scope set.
type rangeChange struct {
	// add are the device's keys the patch (re)adds, whole: remainders of
	// keys a rendered key displaced, indexes a dropped key held given
	// back their profile, and the merges of them with adjacent keys.
	add map[string]map[string]map[string]any
	// merged are device keys removed only to be merged into a wider key
	// of add: every index keeps its fields, nothing is taken over.
	merged map[[2]string]bool
}

// piece is a span of indexes with the fields they end with.
type piece struct {
	span
	fields map[string]any
	// key is the running key a piece that stays as it is came from ("" for
	// a piece the patch adds).
	key string
	// origin is the span of the one key the piece's indexes had together
	// before (a baseline key, the displaced device key, the range across
	// a gap): pieces within one origin and with equal fields merge.
	origin *span
}

// planRanges works out the range tables' rangeChange for a render (want)
// over a running CONFIG_DB (run), with the last-applied scope prev and the
// baseline base (nil when there is none).
func planRanges(run, want, prev, base map[string]map[string]map[string]any) *rangeChange {
	rc := &rangeChange{add: map[string]map[string]map[string]any{}, merged: map[[2]string]bool{}}
	for _, t := range []string{"BUFFER_PG", "BUFFER_QUEUE"} {
		runSpans, wantSpans, baseSpans := spansOf(run, t), spansOf(want, t), spansOf(base, t)
		ports := make([]string, 0, len(runSpans))
		for p := range runSpans {
			ports = append(ports, p)
		}
		sort.Strings(ports)
		for _, port := range ports {
			tp := tablePort{t: t, run: run[t], want: want[t], prev: prev[t], base: base[t], haveBase: base != nil}
			tp.plan(rc, runSpans[port], wantSpans[port], baseSpans[port])
		}
	}
	return rc
}

// tablePort is one table's keys of the running CONFIG_DB, the render, the
// last-applied scope and the baseline, for planning one port.
type tablePort struct {
	t                     string
	run, want, prev, base map[string]map[string]any
	haveBase              bool
}

// plan is planRanges for the keys of one port.
func (tp tablePort) plan(rc *rangeChange, runs, wants, bases []keyedSpan) {
	covered := map[int]bool{}
	for _, w := range wants {
		for i := w.lo; i <= w.hi; i++ {
			covered[i] = true
		}
	}
	var displaced, dropped []keyedSpan
	var pieces []*piece
	for _, r := range runs {
		switch {
		case tp.want[r.key] != nil:
		case tp.prev[r.key] != nil:
			dropped = append(dropped, r)
		case overlapsAny(r.key, r.span, wants):
			displaced = append(displaced, r)
		default:
			pieces = append(pieces, &piece{span: r.span, fields: tp.run[r.key], key: r.key})
			for i := r.lo; i <= r.hi; i++ {
				covered[i] = true
			}
		}
	}
	baseOf := func(i int) *keyedSpan {
		for j := range bases {
			if bases[j].lo <= i && i <= bases[j].hi {
				return &bases[j]
			}
		}
		return nil
	}
	// gapsOf groups the indexes of s no key covers into maximal
	// contiguous spans, marking them covered.
	gapsOf := func(s span) []span {
		var out []span
		for i := s.lo; i <= s.hi; i++ {
			if covered[i] {
				continue
			}
			covered[i] = true
			if n := len(out); n > 0 && out[n-1].hi == i-1 {
				out[n-1].hi = i
			} else {
				out = append(out, span{s.port, i, i})
			}
		}
		return out
	}
	for _, d := range displaced {
		for _, g := range gapsOf(d.span) {
			o := d.span
			if b := baseOf(g.lo); b != nil && g.within(b.span) {
				o = b.span
			}
			pieces = append(pieces, &piece{span: g, fields: tp.run[d.key], origin: &o})
		}
	}
	for _, d := range dropped {
		gaps := gapsOf(d.span)
		if !tp.haveBase {
			// Nothing says what the indexes had before fabricgen
			// (a guess from the neighbours could make a lossless
			// queue lossy): the key goes, as any dropped field.
			continue
		}
		for _, g := range gaps {
			for i := g.lo; i <= g.hi; {
				b := baseOf(i)
				if b == nil {
					i++ // no profile before fabricgen: none after
					continue
				}
				hi := min(g.hi, b.hi)
				o := b.span
				pieces = append(pieces, &piece{span: span{g.port, i, hi}, fields: tp.base[b.key], origin: &o})
				i = hi + 1
			}
		}
	}
	for _, g := range mergePieces(pieces) {
		if len(g) == 1 && g[0].key != "" {
			continue // a device key that stays as it is
		}
		s := span{g[0].port, g[0].lo, g[len(g)-1].hi}
		for _, p := range g {
			if p.key != "" && p.key != s.key() {
				rc.merged[[2]string{tp.t, p.key}] = true
			}
		}
		if rc.add[tp.t] == nil {
			rc.add[tp.t] = map[string]map[string]any{}
		}
		rc.add[tp.t][s.key()] = maps.Clone(g[0].fields)
	}
}

// mergePieces groups the pieces, in index order, into runs that become
// one key: adjacent, with equal fields, all within one origin, and at
// least one of them new (device keys that were apart before stay apart).
func mergePieces(pieces []*piece) [][]*piece {
	sort.SliceStable(pieces, func(i, j int) bool { return pieces[i].lo < pieces[j].lo })
	var out [][]*piece
	for _, p := range pieces {
		if n := len(out); n > 0 {
			g := out[n-1]
			last := g[len(g)-1]
			if last.hi+1 == p.lo && reflect.DeepEqual(last.fields, p.fields) && (p.key == "" || hasNew(g)) && commonOrigin(g, p) {
				out[n-1] = append(g, p)
				continue
			}
		}
		out = append(out, []*piece{p})
	}
	return out
}

// commonOrigin reports whether the group g and p lie within the origin
// of one of them.
func commonOrigin(g []*piece, p *piece) bool {
	all := span{p.port, g[0].lo, p.hi}
	if p.origin != nil && all.within(*p.origin) {
		return true
	}
	for _, q := range g {
		if q.origin != nil && all.within(*q.origin) {
			return true
		}
	}
	return false
}

// hasNew reports whether a group holds a piece the patch adds.
func hasNew(g []*piece) bool {
	for _, p := range g {
		if p.key == "" {
			return true
		}
	}
	return false
}
