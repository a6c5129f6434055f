package config_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
)

type cdb = map[string]map[string]map[string]any

const (
	lossy    = "egress_lossy_profile"
	lossless = "egress_lossless_profile"
	pgLossy  = "ingress_lossy_profile"
	pgLL     = "pg_lossless_100000_5m_profile"
)

// stockDB is a SKU's stock buffer configuration (buffers_config.j2) on
// Ethernet0 and Ethernet4, with a port table the patch must not touch.
func stockDB() cdb {
	db := cdb{"BUFFER_QUEUE": {}, "BUFFER_PG": {}, "PORT": {}}
	for _, p := range []string{"Ethernet0", "Ethernet4"} {
		db["BUFFER_QUEUE"][p+"|0-2"] = map[string]any{"profile": lossy}
		db["BUFFER_QUEUE"][p+"|3-4"] = map[string]any{"profile": lossless}
		db["BUFFER_QUEUE"][p+"|5-6"] = map[string]any{"profile": lossy}
		db["BUFFER_PG"][p+"|0"] = map[string]any{"profile": pgLossy}
		db["BUFFER_PG"][p+"|3-4"] = map[string]any{"profile": pgLL}
		db["PORT"][p] = map[string]any{"speed": "100000", "mtu": "9100"}
	}
	return db
}

func encode(t *testing.T, db cdb) string {
	t.Helper()
	b, err := json.Marshal(db)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func decode(t *testing.T, s string) cdb {
	t.Helper()
	db := cdb{}
	if err := json.Unmarshal([]byte(s), &db); err != nil {
		t.Fatalf("decode %q: %v", s, err)
	}
	return db
}

// render is a render of the given BUFFER_QUEUE and BUFFER_PG keys ("TABLE|port|ids"
// = profile).
func render(t *testing.T, keys map[string]string) string {
	t.Helper()
	db := cdb{}
	for tk, prof := range keys {
		tb, k, _ := strings.Cut(tk, "|")
		if db[tb] == nil {
			db[tb] = map[string]map[string]any{}
		}
		db[tb][k] = map[string]any{"profile": prof}
	}
	return encode(t, db)
}

// applyPatch applies a change set to a CONFIG_DB strictly, as `config
// apply-patch` would have to: an add needs its parent, adds no key or
// table that exists, a remove or replace needs its target; no table or
// key is left empty.
func applyPatch(t *testing.T, running string, cs *config.ChangeSet) string {
	t.Helper()
	db := decode(t, running)
	for _, line := range cs.Commands() {
		var op config.PatchOp
		if err := json.Unmarshal([]byte(line), &op); err != nil {
			t.Fatalf("op %s: %v", line, err)
		}
		seg := strings.Split(op.Path, "/")[1:]
		for i := range seg {
			seg[i] = strings.ReplaceAll(strings.ReplaceAll(seg[i], "~1", "/"), "~0", "~")
		}
		fail := func(why string) { t.Fatalf("op %s: %s", line, why) }
		switch {
		case len(seg) == 1:
			_, has := db[seg[0]]
			switch op.Op {
			case "remove":
				if !has {
					fail("no such table")
				}
				delete(db, seg[0])
			case "add":
				if has {
					fail("the table exists")
				}
				var v map[string]map[string]any
				b, _ := json.Marshal(op.Value)
				_ = json.Unmarshal(b, &v)
				db[seg[0]] = v
			default:
				fail("unexpected op")
			}
		case len(seg) == 2:
			if db[seg[0]] == nil {
				fail("no parent table")
			}
			_, has := db[seg[0]][seg[1]]
			switch op.Op {
			case "remove":
				if !has {
					fail("no such key")
				}
				delete(db[seg[0]], seg[1])
			case "add":
				if has {
					fail("the key exists: add over it")
				}
				var v map[string]any
				b, _ := json.Marshal(op.Value)
				_ = json.Unmarshal(b, &v)
				db[seg[0]][seg[1]] = v
			default:
				fail("unexpected op")
			}
		case len(seg) == 3:
			obj := db[seg[0]][seg[1]]
			if obj == nil {
				fail("no parent key")
			}
			_, has := obj[seg[2]]
			switch op.Op {
			case "remove":
				if !has {
					fail("no such field")
				}
				delete(obj, seg[2])
			case "replace":
				if !has {
					fail("no such field")
				}
				obj[seg[2]] = op.Value
			case "add":
				obj[seg[2]] = op.Value
			default:
				fail("unexpected op")
			}
		default:
			fail("bad path")
		}
	}
	for tb, keys := range db {
		if len(keys) == 0 {
			t.Errorf("the patch leaves table %s empty", tb)
		}
		for k, f := range keys {
			if len(f) == 0 {
				t.Errorf("the patch leaves key %s|%s empty", tb, k)
			}
		}
	}
	return encode(t, db)
}

// profiles is a range table's keys and profiles, "Ethernet0|5-6=profile",
// sorted.
func profiles(db cdb, table string) []string {
	var out []string
	for k, f := range db[table] {
		out = append(out, fmt.Sprintf("%s=%v", k, f["profile"]))
	}
	sort.Strings(out)
	return out
}

// byIndex is a range table's profile of each port and index, from its
// "port|lo[-hi]" keys.
func byIndex(t *testing.T, db cdb, table string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for k, f := range db[table] {
		port, ids, _ := strings.Cut(k, "|")
		a, b, isRange := strings.Cut(ids, "-")
		lo, err1 := strconv.Atoi(a)
		hi, err2 := lo, error(nil)
		if isRange {
			hi, err2 = strconv.Atoi(b)
		}
		if err1 != nil || err2 != nil || hi-lo > 64 || strings.ContainsAny(ids, "+ ") || isRange && lo >= hi {
			continue // a plain key
		}
		for i := lo; i <= hi; i++ {
			id := fmt.Sprintf("%s|%d", port, i)
			if prev, dup := out[id]; dup {
				t.Errorf("%s: index %s has two keys (%s and %v)", table, id, prev, f["profile"])
			}
			out[id] = fmt.Sprint(f["profile"])
		}
	}
	return out
}

// checkCover: no two keys overlap, and every index that had a profile
// before has one after, but those of lost ("TABLE|port|index").
func checkCover(t *testing.T, before, after cdb, lost ...string) {
	t.Helper()
	for _, tb := range []string{"BUFFER_QUEUE", "BUFFER_PG"} {
		was, is := byIndex(t, before, tb), byIndex(t, after, tb)
		for id := range was {
			if _, ok := is[id]; !ok && !slices.Contains(lost, tb+"|"+id) {
				t.Errorf("%s|%s had a profile and has none after the patch", tb, id)
			}
		}
	}
}

func sonicDialect(t *testing.T) *dialect.Dialect {
	t.Helper()
	for _, d := range dialectsOf(t, dialect.LinesJSONPatch) {
		if d.ConfigDB {
			return d
		}
	}
	t.Fatal("no CONFIG_DB dialect")
	return nil
}

// step compares running with the render (scope and baseline as given),
// applies the patch, checks it is valid, leaves no overlap and no index
// without a profile that had one, changes nothing of the port table, and
// is idempotent; it returns the device after and the comparison.
func step(t *testing.T, d *dialect.Dialect, running, rendered, scope, baseline string, lost ...string) (string, *config.Comparison) {
	t.Helper()
	cmp, err := config.CompareSourceBaseline("leaf", running, config.NewSource(rendered, d), config.NewSource(scope, d), baseline, d)
	if err != nil {
		t.Fatal(err)
	}
	if err := config.CheckSendable(cmp.Changes, d); err != nil {
		t.Errorf("the patch may not be sent: %v", err)
	}
	after := applyPatch(t, running, cmp.Changes)
	checkCover(t, decode(t, running), decode(t, after), lost...)
	if !reflect.DeepEqual(decode(t, running)["PORT"], decode(t, after)["PORT"]) {
		t.Errorf("the patch changed PORT")
	}
	again, err := config.CompareSourceBaseline("leaf", after, config.NewSource(rendered, d), config.NewSource(scope, d), baseline, d)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Changes.Empty() {
		t.Errorf("not idempotent: the patched device still has changes %q", again.Changes.Commands())
	}
	// The next plan, with this render applied last: nothing to do,
	// nothing taken over.
	next, err := config.CompareSourceBaseline("leaf", after, config.NewSource(rendered, d), config.NewSource(rendered, d), baseline, d)
	if err != nil {
		t.Fatal(err)
	}
	if !next.Changes.Empty() || len(next.Replaced) > 0 {
		t.Errorf("the next plan changes %q, takes over %q", next.Changes.Commands(), next.Replaced)
	}
	// Lines fabricgen does not manage read the same before and after
	// (apply's check for someone else's change during the apply).
	was, err1 := config.Unmanaged(running, rendered, scope, d)
	is, err2 := config.Unmanaged(after, rendered, scope, d)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if was != is {
		t.Errorf("the unmanaged lines changed with the patch:\n%s", config.Unified("before", "after", was, is).Text)
	}
	return after, cmp
}

func TestRangeKeysSplit(t *testing.T) {
	d := sonicDialect(t)
	stock := encode(t, stockDB())
	stockBQ := []string{"Ethernet0|0-2=" + lossy, "Ethernet0|3-4=" + lossless, "Ethernet0|5-6=" + lossy,
		"Ethernet4|0-2=" + lossy, "Ethernet4|3-4=" + lossless, "Ethernet4|5-6=" + lossy}
	stockPG := []string{"Ethernet0|0=" + pgLossy, "Ethernet0|3-4=" + pgLL, "Ethernet4|0=" + pgLossy, "Ethernet4|3-4=" + pgLL}
	e4BQ, e4PG := stockBQ[3:], stockPG[2:]
	for _, c := range []struct {
		name           string
		running        string
		render         map[string]string
		wantBQ, wantPG []string
		replaced       []string
	}{{
		name:    "5 over stock 5-6",
		running: stock,
		render:  map[string]string{"BUFFER_QUEUE|Ethernet0|5": lossless},
		wantBQ: append([]string{"Ethernet0|0-2=" + lossy, "Ethernet0|3-4=" + lossless, "Ethernet0|5=" + lossless,
			"Ethernet0|6=" + lossy}, e4BQ...),
		wantPG:   stockPG,
		replaced: []string{"BUFFER_QUEUE|Ethernet0|5-6|profile = " + lossy},
	}, {
		name:     "PG 3 over stock 3-4",
		running:  stock,
		render:   map[string]string{"BUFFER_PG|Ethernet0|3": "roce_pg"},
		wantBQ:   stockBQ,
		wantPG:   append([]string{"Ethernet0|0=" + pgLossy, "Ethernet0|3=roce_pg", "Ethernet0|4=" + pgLL}, e4PG...),
		replaced: []string{"BUFFER_PG|Ethernet0|3-4|profile = " + pgLL},
	}, {
		name:    "PG 5 beside stock 3-4: nothing displaced",
		running: stock,
		render:  map[string]string{"BUFFER_PG|Ethernet0|5": pgLL},
		wantBQ:  stockBQ,
		wantPG:  append([]string{"Ethernet0|0=" + pgLossy, "Ethernet0|3-4=" + pgLL, "Ethernet0|5=" + pgLL}, e4PG...),
	}, {
		name:    "0-7 over three stock keys",
		running: stock,
		render:  map[string]string{"BUFFER_QUEUE|Ethernet0|0-7": lossless},
		wantBQ:  append([]string{"Ethernet0|0-7=" + lossless}, e4BQ...),
		wantPG:  stockPG,
		replaced: []string{"BUFFER_QUEUE|Ethernet0|0-2|profile = " + lossy, "BUFFER_QUEUE|Ethernet0|3-4|profile = " + lossless,
			"BUFFER_QUEUE|Ethernet0|5-6|profile = " + lossy},
	}, {
		name:     "a render key equal to a stock key: plain replace",
		running:  stock,
		render:   map[string]string{"BUFFER_QUEUE|Ethernet0|5-6": lossless},
		wantBQ:   append([]string{"Ethernet0|0-2=" + lossy, "Ethernet0|3-4=" + lossless, "Ethernet0|5-6=" + lossless}, e4BQ...),
		wantPG:   stockPG,
		replaced: []string{"BUFFER_QUEUE|Ethernet0|5-6|profile = " + lossy},
	}, {
		name:    "the middle of a range",
		running: stock,
		render:  map[string]string{"BUFFER_QUEUE|Ethernet0|1": lossless},
		wantBQ: append([]string{"Ethernet0|0=" + lossy, "Ethernet0|1=" + lossless, "Ethernet0|2=" + lossy,
			"Ethernet0|3-4=" + lossless, "Ethernet0|5-6=" + lossy}, e4BQ...),
		wantPG:   stockPG,
		replaced: []string{"BUFFER_QUEUE|Ethernet0|0-2|profile = " + lossy},
	}, {
		name:    "a render across two stock keys",
		running: stock,
		render:  map[string]string{"BUFFER_QUEUE|Ethernet0|4-5": lossless},
		wantBQ: append([]string{"Ethernet0|0-2=" + lossy, "Ethernet0|3=" + lossless, "Ethernet0|4-5=" + lossless,
			"Ethernet0|6=" + lossy}, e4BQ...),
		wantPG:   stockPG,
		replaced: []string{"BUFFER_QUEUE|Ethernet0|3-4|profile = " + lossless, "BUFFER_QUEUE|Ethernet0|5-6|profile = " + lossy},
	}, {
		name:    "two ports",
		running: stock,
		render:  map[string]string{"BUFFER_QUEUE|Ethernet0|5": lossless, "BUFFER_QUEUE|Ethernet4|6": lossless, "BUFFER_PG|Ethernet4|4": "roce_pg"},
		wantBQ: []string{"Ethernet0|0-2=" + lossy, "Ethernet0|3-4=" + lossless, "Ethernet0|5=" + lossless, "Ethernet0|6=" + lossy,
			"Ethernet4|0-2=" + lossy, "Ethernet4|3-4=" + lossless, "Ethernet4|5=" + lossy, "Ethernet4|6=" + lossless},
		wantPG: []string{"Ethernet0|0=" + pgLossy, "Ethernet0|3-4=" + pgLL, "Ethernet4|0=" + pgLossy, "Ethernet4|3=" + pgLL, "Ethernet4|4=roce_pg"},
		replaced: []string{"BUFFER_PG|Ethernet4|3-4|profile = " + pgLL, "BUFFER_QUEUE|Ethernet0|5-6|profile = " + lossy,
			"BUFFER_QUEUE|Ethernet4|5-6|profile = " + lossy},
	}} {
		t.Run(c.name, func(t *testing.T) {
			after, cmp := step(t, d, c.running, render(t, c.render), "", "")
			db := decode(t, after)
			if got := profiles(db, "BUFFER_QUEUE"); !reflect.DeepEqual(got, c.wantBQ) {
				t.Errorf("BUFFER_QUEUE after:\n got %q\nwant %q", got, c.wantBQ)
			}
			if got := profiles(db, "BUFFER_PG"); !reflect.DeepEqual(got, c.wantPG) {
				t.Errorf("BUFFER_PG after:\n got %q\nwant %q", got, c.wantPG)
			}
			got := append([]string(nil), cmp.Replaced...)
			sort.Strings(got)
			if !reflect.DeepEqual(got, c.replaced) && (len(got) > 0 || len(c.replaced) > 0) {
				t.Errorf("taken over:\n got %q\nwant %q", got, c.replaced)
			}
		})
	}
}

// Keys of another form are plain keys: managed only as themselves, never
// split, never a panic.
func TestRangeKeysHostile(t *testing.T) {
	d := sonicDialect(t)
	hostile := []string{"Ethernet0|x-y", "Ethernet0|6-5", "Ethernet0|3-4-5", "Ethernet0", "Ethernet0|", "|3", "Ethernet0|-3",
		"Ethernet0|3-", "Ethernet0|99999999999999999999", "Ethernet0|0-1000000", "Ethernet0|1024", "Ethernet0| 5",
		"Ethernet0|+5", "Ethernet0,Ethernet4|5-6", "Ethernet0|5|6", "Ethernet0|٣", "Ethernet0|5-5"}
	for _, k := range hostile {
		t.Run(k, func(t *testing.T) {
			db := stockDB()
			db["BUFFER_QUEUE"][k] = map[string]any{"profile": "theirs"}
			running := encode(t, db)
			// Over a hostile running key: it stays as it is.
			after, _ := step(t, d, running, render(t, map[string]string{"BUFFER_QUEUE|Ethernet0|5": lossless}), "", "")
			if got := decode(t, after)["BUFFER_QUEUE"][k]; !reflect.DeepEqual(got, map[string]any{"profile": "theirs"}) {
				t.Errorf("the hostile key became %v", got)
			}
			// A hostile rendered key: set as itself, nothing split.
			after, _ = step(t, d, encode(t, stockDB()), render(t, map[string]string{"BUFFER_QUEUE|" + k: lossless}), "", "")
			got := decode(t, after)
			if p := got["BUFFER_QUEUE"][k]["profile"]; p != lossless {
				t.Errorf("the rendered key holds %v", p)
			}
			for sk := range stockDB()["BUFFER_QUEUE"] {
				if got["BUFFER_QUEUE"][sk] == nil && sk != k {
					t.Errorf("stock key %s went for the plain key %q", sk, k)
				}
			}
		})
	}
}

// The lossless queue moves 5 → 6 → back to 3, each render applied over
// the last: the device ends with a non-overlapping cover, no index that
// had a profile without one, and a rollback gives back the stock keys
// exactly.
func TestRangeKeysMoves(t *testing.T) {
	d := sonicDialect(t)
	stock := encode(t, stockDB())
	moves := []string{"5", "6", "3"}
	for _, c := range []struct {
		name     string
		baseline string
		// after each move, Ethernet0's BUFFER_QUEUE keys, and the
		// queues the move leaves without a profile
		want, lost [][]string
	}{{
		name:     "with the brownfield baseline",
		baseline: stock,
		want: [][]string{
			{"Ethernet0|0-2=" + lossy, "Ethernet0|3-4=" + lossless, "Ethernet0|5=" + lossless, "Ethernet0|6=" + lossy},
			{"Ethernet0|0-2=" + lossy, "Ethernet0|3-4=" + lossless, "Ethernet0|5=" + lossy, "Ethernet0|6=" + lossless},
			{"Ethernet0|0-2=" + lossy, "Ethernet0|3=" + lossless, "Ethernet0|4=" + lossless, "Ethernet0|5-6=" + lossy},
		},
		lost: [][]string{nil, nil, nil},
	}, {
		// Without a baseline nothing says what the dropped queue had
		// before fabricgen: its key goes, as any dropped field, and the
		// queue has no profile (no guess from the neighbours).
		name: "without a baseline",
		want: [][]string{
			{"Ethernet0|0-2=" + lossy, "Ethernet0|3-4=" + lossless, "Ethernet0|5=" + lossless, "Ethernet0|6=" + lossy},
			{"Ethernet0|0-2=" + lossy, "Ethernet0|3-4=" + lossless, "Ethernet0|6=" + lossless},
			{"Ethernet0|0-2=" + lossy, "Ethernet0|3=" + lossless, "Ethernet0|4=" + lossless},
		},
		lost: [][]string{nil, {"BUFFER_QUEUE|Ethernet0|5"}, {"BUFFER_QUEUE|Ethernet0|6"}},
	}} {
		t.Run(c.name, func(t *testing.T) {
			running, scope := stock, ""
			for i, q := range moves {
				rendered := render(t, map[string]string{"BUFFER_QUEUE|Ethernet0|" + q: lossless})
				running, _ = step(t, d, running, rendered, scope, c.baseline, c.lost[i]...)
				var got []string
				for _, p := range profiles(decode(t, running), "BUFFER_QUEUE") {
					if strings.HasPrefix(p, "Ethernet0|") {
						got = append(got, p)
					}
				}
				if !reflect.DeepEqual(got, c.want[i]) {
					t.Errorf("after the move to %s:\n got %q\nwant %q", q, got, c.want[i])
				}
				if c.baseline != "" {
					checkCover(t, stockDB(), decode(t, running))
				}
				scope = rendered
			}
			// Rollback to the brownfield: the range tables exactly the
			// stock ones, idempotently.
			back, err := config.CompareRestore("leaf", running, stock, scope, d)
			if err != nil {
				t.Fatal(err)
			}
			restored := applyPatch(t, running, back.Changes)
			for _, tb := range []string{"BUFFER_QUEUE", "BUFFER_PG"} {
				if got, want := profiles(decode(t, restored), tb), profiles(stockDB(), tb); !reflect.DeepEqual(got, want) {
					t.Errorf("%s after the rollback:\n got %q\nwant %q", tb, got, want)
				}
			}
			again, err := config.CompareRestore("leaf", restored, stock, scope, d)
			if err != nil {
				t.Fatal(err)
			}
			if !again.Changes.Empty() {
				t.Errorf("the rollback is not idempotent: %q", again.Changes.Commands())
			}
		})
	}
}

// The remainder keys are the device's: listed among the lines fabricgen
// does not manage, never in what it applied.
func TestRangeKeysRemainderUnmanaged(t *testing.T) {
	d := sonicDialect(t)
	rendered := render(t, map[string]string{"BUFFER_QUEUE|Ethernet0|5": lossless})
	after, _ := step(t, d, encode(t, stockDB()), rendered, "", "")
	un, err := config.Unmanaged(after, rendered, rendered, d)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(un, "BUFFER_QUEUE|Ethernet0|6|profile = "+lossy+"\n") {
		t.Errorf("the remainder is not among the unmanaged lines:\n%s", un)
	}
	if strings.Contains(un, "Ethernet0|5|") {
		t.Errorf("the rendered queue is among the unmanaged lines:\n%s", un)
	}
	paths, err := config.ManagedPaths(rendered, d)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"BUFFER_QUEUE|Ethernet0|5|profile = " + lossless}; !reflect.DeepEqual(paths, want) {
		t.Errorf("managed paths %q, want %q", paths, want)
	}
}

// A running CONFIG_DB that already has overlapping keys (someone's
// hazard) is not made worse: the keys fabricgen adds overlap nothing.
func TestRangeKeysRunningOverlap(t *testing.T) {
	d := sonicDialect(t)
	db := stockDB()
	db["BUFFER_QUEUE"]["Ethernet0|6"] = map[string]any{"profile": "theirs"}
	db["BUFFER_QUEUE"]["Ethernet0|0-7"] = map[string]any{"profile": "wide"}
	running := encode(t, db)
	cmp, err := config.CompareScoped("leaf", running, render(t, map[string]string{"BUFFER_QUEUE|Ethernet0|5": lossless}), "", d)
	if err != nil {
		t.Fatal(err)
	}
	after := decode(t, applyPatch(t, running, cmp.Changes))
	var got []string
	for _, p := range profiles(after, "BUFFER_QUEUE") {
		if strings.HasPrefix(p, "Ethernet0|") {
			got = append(got, p)
		}
	}
	// 0-2 and 3-4 stay (they overlap 0-7, not the render); 0-7 and 5-6
	// give way to 5; what they leave that no staying key covers is 7.
	want := []string{"Ethernet0|0-2=" + lossy, "Ethernet0|3-4=" + lossless, "Ethernet0|5=" + lossless, "Ethernet0|6=theirs", "Ethernet0|7=wide"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("BUFFER_QUEUE after:\n got %q\nwant %q", got, want)
	}
}

func TestRangeKeysBadBaseline(t *testing.T) {
	d := sonicDialect(t)
	_, err := config.CompareSourceBaseline("leaf", encode(t, stockDB()), config.NewSource("{}", d), config.NewSource("{}", d), "not json", d)
	if err == nil || !strings.Contains(err.Error(), "baseline") {
		t.Errorf("err = %v, want the baseline named", err)
	}
}

// keysFrom reads pairs of bytes as "Ethernet<0|4>|lo[-hi]" BUFFER_QUEUE keys
// with profile p<n>, skipping a pair whose key the document has.
func keysFrom(b string) map[string]map[string]any {
	out := map[string]map[string]any{}
	for i := 0; i+1 < len(b); i += 2 {
		port := "Ethernet" + strconv.Itoa(int(b[i]>>7)*4)
		lo, hi := int(b[i]&7), int(b[i+1]&7)
		k := port + "|" + strconv.Itoa(lo)
		if hi > lo {
			k += "-" + strconv.Itoa(hi)
		}
		out[k] = map[string]any{"profile": "p" + strconv.Itoa(int(b[i+1]>>3&3))}
	}
	return out
}

// FuzzRangeKeys: for any running and rendered BUFFER_QUEUE keys of two
// ports (queues 0..7), the patch is valid, idempotent, and leaves no
// index the running keys alone covered by two keys.
func FuzzRangeKeys(f *testing.F) {
	f.Add("\x00\x02\x03\x0c\x05\x06", "\x05\x0d")
	f.Add("\x00\x07", "\x03\x04\x85\x86")
	f.Add("\x05\x06\x06\x06\x00\x07", "\x05\x05")
	f.Fuzz(func(t *testing.T, running, rendered string) {
		d := sonicDialect(t)
		run := cdb{"BUFFER_QUEUE": keysFrom(running), "PORT": {"Ethernet0": {"mtu": "9100"}, "Ethernet4": {"mtu": "9100"}}}
		if len(run["BUFFER_QUEUE"]) == 0 {
			delete(run, "BUFFER_QUEUE")
		}
		want := cdb{"BUFFER_QUEUE": keysFrom(rendered)}
		if len(want["BUFFER_QUEUE"]) == 0 || len(byIndexLoose(want)) < indexCount(want) {
			return // no render, or one whose own keys overlap
		}
		// The running keys' own overlaps (someone's hazard) may stay;
		// the patch adds none.
		hazard := map[string]int{}
		for k := range run["BUFFER_QUEUE"] {
			port, ids, _ := strings.Cut(k, "|")
			a, b, isRange := strings.Cut(ids, "-")
			lo, _ := strconv.Atoi(a)
			hi := lo
			if isRange {
				hi, _ = strconv.Atoi(b)
			}
			for i := lo; i <= hi; i++ {
				hazard[port+"|"+strconv.Itoa(i)]++
			}
		}
		cmp, err := config.CompareScoped("leaf", encode(t, run), encode(t, want), "", d)
		if err != nil {
			t.Fatal(err)
		}
		after := decode(t, applyPatch(t, encode(t, run), cmp.Changes))
		seen := map[string]int{}
		for k := range after["BUFFER_QUEUE"] {
			port, ids, _ := strings.Cut(k, "|")
			a, b, isRange := strings.Cut(ids, "-")
			lo, _ := strconv.Atoi(a)
			hi := lo
			if isRange {
				hi, _ = strconv.Atoi(b)
			}
			for i := lo; i <= hi; i++ {
				seen[port+"|"+strconv.Itoa(i)]++
			}
		}
		for id, n := range seen {
			if n > 1 && n > hazard[id] {
				t.Errorf("index %s has %d keys after the patch (%d before)", id, n, hazard[id])
			}
		}
		for id := range hazard {
			if seen[id] == 0 {
				t.Errorf("index %s lost its profile", id)
			}
		}
		for k, fields := range want["BUFFER_QUEUE"] {
			if !reflect.DeepEqual(after["BUFFER_QUEUE"][k], fields) {
				t.Errorf("rendered key %s is %v after the patch", k, after["BUFFER_QUEUE"][k])
			}
		}
		again, err := config.CompareScoped("leaf", encode(t, after), encode(t, want), "", d)
		if err != nil {
			t.Fatal(err)
		}
		if !again.Changes.Empty() {
			t.Errorf("not idempotent: %q", again.Changes.Commands())
		}
	})
}

// byIndexLoose is byIndex without the overlap check.
func byIndexLoose(db cdb) map[string]bool {
	out := map[string]bool{}
	for k := range db["BUFFER_QUEUE"] {
		port, ids, _ := strings.Cut(k, "|")
		a, b, isRange := strings.Cut(ids, "-")
		lo, _ := strconv.Atoi(a)
		hi := lo
		if isRange {
			hi, _ = strconv.Atoi(b)
		}
		for i := lo; i <= hi; i++ {
			out[port+"|"+strconv.Itoa(i)] = true
		}
	}
	return out
}

// indexCount is the number of indexes a document's BUFFER_QUEUE keys
// hold, an index counted once per key.
func indexCount(db cdb) int {
	n := 0
	for k := range db["BUFFER_QUEUE"] {
		_, ids, _ := strings.Cut(k, "|")
		a, b, isRange := strings.Cut(ids, "-")
		lo, _ := strconv.Atoi(a)
		hi := lo
		if isRange {
			hi, _ = strconv.Atoi(b)
		}
		n += hi - lo + 1
	}
	return n
}
