package config

import (
	"encoding/json"
	"fmt"
	"github.com/fabricgen/fabricgen/schema"
	"sort"
	"strings"
	"unicode/utf16"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
)

// SONiC keeps its configuration in CONFIG_DB: tables of keys of fields.
// fabricgen compares the rendered CONFIG_DB fragment with the device's
// (`sonic-cfggen -d --print-data`) field by field, shows the difference
// as "TABLE|key|field = value" lines (one per table, key and field), and
// changes it with an RFC 6902 JSON Patch for `config apply-patch`.

// ownedTable reports the QoS tables whose keys fabricgen renders in full: a
// field the device has and the rendered key lacks is removed. In every
// other table (PORT, QUEUE, PORT_QOS_MAP, ACL_RULE…) only the rendered
// fields are managed, so the device's own fields (lanes, alias…) stay.
func ownedTable(t string) bool {
	switch t {
	case "DSCP_TO_TC_MAP", "DOT1P_TO_TC_MAP", "TC_TO_QUEUE_MAP", "TC_TO_PRIORITY_GROUP_MAP",
		"MAP_PFC_PRIORITY_TO_QUEUE", "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", "TC_TO_DSCP_MAP",
		"WRED_PROFILE", "SCHEDULER":
		return true
	}
	return false
}

// PatchOp is one JSON Patch operation.
type PatchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

type dbField struct{ table, key, field string }

// String is "TABLE|key|field".
func (f dbField) String() string { return f.table + "|" + f.key + "|" + f.field }

// flatten reads a CONFIG_DB JSON document into field → value, with field
// values printed as JSON when they are not strings (lists).
func flatten(doc map[string]map[string]map[string]any) map[dbField]string {
	out := map[dbField]string{}
	for t, keys := range doc {
		for k, fields := range keys {
			for f, v := range fields {
				s, ok := v.(string)
				if !ok {
					b, _ := json.Marshal(v)
					s = string(b)
				}
				out[dbField{t, k, f}] = s
			}
		}
	}
	return out
}

func parseDB(text, what string) (map[string]map[string]map[string]any, error) {
	doc := map[string]map[string]map[string]any{}
	if strings.TrimSpace(text) == "" {
		return doc, nil
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%s is not CONFIG_DB JSON ({\"TABLE\": {\"key\": {\"field\": value}}}): %w", what, err)
	}
	return doc, nil
}

// notManaged reports the CONFIG_DB fields fabricgen renders but does not
// manage: a port's description, which — as on every switch platform — is
// printed in the render for a config loaded by hand, while the device's
// own stays.
func notManaged(table, field string) bool { return table == "PORT" && field == "description" }

// parseRendered parses a rendered (or last-applied) fragment without the
// fields fabricgen does not manage.
func parseRendered(text, what string) (map[string]map[string]map[string]any, error) {
	doc, err := parseDB(text, what)
	if err != nil {
		return nil, err
	}
	for t, keys := range doc {
		for _, fields := range keys {
			for f := range fields {
				if notManaged(t, f) {
					delete(fields, f)
				}
			}
		}
	}
	return doc, nil
}

// portTables are the per-port tables whose keys begin with the port name
// ("Ethernet0" or "Ethernet0|3"). When the render has a key of one of them
// for a port, every key of that table for that port is fabricgen's: a
// queue or binding the render lacks is removed (a queue left bound to
// another scheduler after the lossless priority moved, the stock AZURE
// bindings a brownfield port has).
//
// BUFFER_QUEUE and BUFFER_PG are not: they are range tables (rangekeys.go),
// where a port's other queues and priority groups keep the device's
// profiles.
func portTable(t string) bool {
	switch t {
	case "QUEUE", "PORT_QOS_MAP", "PFC_WD":
		return true
	}
	return false
}

// rangeManaged reports whether a running key of a range table is managed
// for a render: it is a rendered key (all of its fields), or shares an
// index of its port with one without being it (it makes way).
func rangeManaged(t, key string, want map[string]map[string]map[string]any) bool {
	if !rangeTable(t) {
		return false
	}
	if want[t][key] != nil {
		return true
	}
	s, ok := parseSpan(key)
	if !ok {
		return false
	}
	for k := range want[t] {
		if w, ok := parseSpan(k); ok && w.overlaps(s) {
			return true
		}
	}
	return false
}

// portOf is the port a per-port table key belongs to.
func portOf(key string) string {
	p, _, _ := strings.Cut(key, "|")
	return p
}

// CompareConfigDB compares a device's CONFIG_DB with the rendered fragment.
func CompareConfigDB(device, running, rendered string, d *dialect.Dialect) (*Comparison, error) {
	return compareConfigDB(device, running, rendered, "", "", d)
}

// CompareSourceBaseline is CompareSource with, for CONFIG_DB, the
// device's CONFIG_DB from before fabricgen first changed it (baseline,
// its oldest backup; "" for none): a BUFFER_QUEUE or BUFFER_PG key the
// last apply set and the render drops gives its queues or priority groups
// back the baseline's profile (rangekeys.go). Other dialects ignore it.
func CompareSourceBaseline(device, running string, rendered, scope *Source, baseline string, d *dialect.Dialect) (*Comparison, error) {
	if d.ConfigDB && !d.Host {
		return compareConfigDB(device, running, rendered.Text(), scope.Text(), baseline, d)
	}
	return CompareSource(device, running, rendered, scope, d)
}

// dbSides parses compareConfigDB's documents: the running CONFIG_DB, the
// fragment the patch must reach (the render and the range tables' keys
// it adds for the device, rc), and the fields it manages.
func dbSides(running, rendered, scope, baseline string) (run, want map[string]map[string]map[string]any, managed map[dbField]bool, rc *rangeChange, err error) {
	if run, err = parseDB(running, "the running CONFIG_DB"); err != nil {
		return nil, nil, nil, nil, err
	}
	rendDoc, err := parseRendered(rendered, "the rendered config")
	if err != nil {
		return nil, nil, nil, nil, err
	}
	prev, err := parseRendered(scope, "the config applied last")
	if err != nil {
		return nil, nil, nil, nil, err
	}
	var base map[string]map[string]map[string]any
	if strings.TrimSpace(baseline) != "" {
		if base, err = parseDB(baseline, "the baseline CONFIG_DB (the oldest backup)"); err != nil {
			return nil, nil, nil, nil, err
		}
	}
	managed = dbManaged(run, rendDoc, prev)
	// The range tables' keys split or given back (rangekeys.go): the
	// patch sets them whole, as the device's.
	rc = planRanges(run, rendDoc, prev, base)
	want = withRanges(rendDoc, rc)
	for t, keys := range rc.add {
		for k, fields := range keys {
			for f := range fields {
				managed[dbField{t, k, f}] = true
			}
			for f := range run[t][k] {
				managed[dbField{t, k, f}] = true
			}
		}
	}
	for tk := range rc.merged {
		for f := range run[tk[0]][tk[1]] {
			managed[dbField{tk[0], tk[1], f}] = true
		}
	}
	return run, want, managed, rc, nil
}

// compareConfigDB compares a device's CONFIG_DB with the rendered
// fragment; scope is the fragment applied last, whose fields are managed
// too (removed when the render no longer sets them); baseline is the
// CONFIG_DB from before fabricgen changed the device ("" for none), read
// only for the range tables' dropped keys.
func compareConfigDB(device, running, rendered, scope, baseline string, d *dialect.Dialect) (*Comparison, error) {
	run, want, managed, rc, err := dbSides(running, rendered, scope, baseline)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", device, err)
	}
	rf, wf := flatten(run), flatten(want)
	fields := make([]dbField, 0, len(managed))
	for f := range managed {
		fields = append(fields, f)
	}
	sort.Slice(fields, func(i, j int) bool { return schema.NaturalLess(fields[i].String(), fields[j].String()) })

	var runText, wantText strings.Builder
	var ops []PatchOp
	var replaced []string
	addedKeys := map[[2]string]bool{}
	addedTables := map[string]bool{}
	removedKeys := map[[2]string]bool{}
	// A table every key of which goes is removed whole: CONFIG_DB has no
	// empty tables, and the config updater refuses a patch leaving one.
	removedTables := wholeTablesRemoved(run, want, managed)
	for _, f := range fields {
		rv, inRun := rf[f]
		wv, inWant := wf[f]
		if inRun {
			fmt.Fprintf(&runText, "%s = %s\n", f, rv)
		}
		if inWant {
			fmt.Fprintf(&wantText, "%s = %s\n", f, wv)
		}
		if inRun && (!inWant || rv != wv) && !rc.merged[[2]string{f.table, f.key}] {
			// A device key merged into a wider one keeps its value
			// on every index: nothing is taken over.
			replaced = append(replaced, fmt.Sprintf("%s = %s", f, rv))
		}
		switch {
		case inRun && !inWant && removedTables[f.table]:
			if !removedKeys[[2]string{f.table, ""}] {
				removedKeys[[2]string{f.table, ""}] = true
				ops = append(ops, PatchOp{Op: "remove", Path: pointer(f.table)})
			}
		case inRun && !inWant && want[f.table][f.key] == nil && wholeKeyManaged(run[f.table][f.key], f, managed):
			// Every field of the key goes: remove the key itself, so no
			// empty key is left behind.
			k := [2]string{f.table, f.key}
			if !removedKeys[k] {
				removedKeys[k] = true
				ops = append(ops, PatchOp{Op: "remove", Path: pointer(f.table, f.key)})
			}
		case inRun && !inWant:
			ops = append(ops, PatchOp{Op: "remove", Path: pointer(f.table, f.key, f.field)})
		case inWant && (!inRun || rv != wv):
			switch {
			case run[f.table] == nil && !addedTables[f.table]:
				addedTables[f.table] = true
				ops = append(ops, PatchOp{Op: "add", Path: pointer(f.table), Value: want[f.table]})
			case addedTables[f.table]:
			case run[f.table][f.key] == nil && !addedKeys[[2]string{f.table, f.key}]:
				addedKeys[[2]string{f.table, f.key}] = true
				ops = append(ops, PatchOp{Op: "add", Path: pointer(f.table, f.key), Value: want[f.table][f.key]})
			case addedKeys[[2]string{f.table, f.key}]:
			default:
				op := "replace"
				if !inRun {
					op = "add"
				}
				ops = append(ops, PatchOp{Op: op, Path: pointer(f.table, f.key, f.field), Value: want[f.table][f.key][f.field]})
			}
		}
	}
	cs := &ChangeSet{}
	if len(ops) > 0 {
		b := Block{}
		for _, op := range ops {
			line, err := json.Marshal(op)
			if err != nil {
				return nil, fmt.Errorf("%s: encode patch: %w", device, err)
			}
			b.Lines = append(b.Lines, string(line))
		}
		cs.Blocks = []Block{b}
	}
	c := &Comparison{
		RunningSHA256: Digest(running, d),
		Running:       runText.String(),
		Desired:       wantText.String(),
		Changes:       cs,
		Replaced:      replaced,
	}
	c.Diff = Unified(device+" (running)", device+" (fabricgen)", c.Running, c.Desired)
	return c, nil
}

// withRanges is the rendered fragment with the range tables' keys the
// patch adds for the device (rc), as a new document.
func withRanges(rendered map[string]map[string]map[string]any, rc *rangeChange) map[string]map[string]map[string]any {
	if len(rc.add) == 0 {
		return rendered
	}
	out := make(map[string]map[string]map[string]any, len(rendered))
	for t, keys := range rendered {
		out[t] = make(map[string]map[string]any, len(keys))
		for k, fields := range keys {
			out[t][k] = fields
		}
	}
	put := func(t, k string, fields map[string]any) {
		if out[t] == nil {
			out[t] = map[string]map[string]any{}
		}
		out[t][k] = fields
	}
	for t, keys := range rc.add {
		for k, fields := range keys {
			put(t, k, fields)
		}
	}
	return out
}

// wholeTablesRemoved is the set of running tables the render no longer
// has and every field of which fabricgen manages.
func wholeTablesRemoved(run, want map[string]map[string]map[string]any, managed map[dbField]bool) map[string]bool {
	removed := map[string]bool{}
	for t, keys := range run {
		if len(want[t]) > 0 || len(keys) == 0 {
			continue
		}
		all := true
		for k, fields := range keys {
			for fld := range fields {
				all = all && managed[dbField{t, k, fld}]
			}
		}
		if all {
			removed[t] = true
		}
	}
	return removed
}

// dbManaged is the set of CONFIG_DB fields fabricgen manages: every
// field the render or the last-applied fragment sets, whole keys of the
// QoS tables it owns, every key of a per-port table for a port the
// render configures in that table, and the range-table keys the render
// sets or displaces (rangeManaged).
func dbManaged(run, want, prev map[string]map[string]map[string]any) map[dbField]bool {
	managed := map[dbField]bool{}
	for f := range flatten(want) {
		managed[f] = true
	}
	ports := map[[2]string]bool{} // table, port the render configures
	for t, keys := range want {
		if portTable(t) {
			for k := range keys {
				ports[[2]string{t, portOf(k)}] = true
			}
		}
	}
	for f := range flatten(prev) {
		// A port the render no longer sets keeps its speed and FEC (the
		// interface stays; PORT speed is mandatory in sonic-port.yang):
		// only its MTU goes, as on the other platforms.
		if f.table != "PORT" || f.field == "mtu" {
			managed[f] = true
		}
	}
	for f := range flatten(run) {
		switch {
		case ownedTable(f.table) && (want[f.table][f.key] != nil || prev[f.table][f.key] != nil):
			managed[f] = true
		case portTable(f.table) && ports[[2]string{f.table, portOf(f.key)}]:
			managed[f] = true
		case rangeManaged(f.table, f.key, want):
			managed[f] = true
		}
	}
	return managed
}

// unmanagedDB lists the running CONFIG_DB fields fabricgen does not
// manage, one "TABLE|key|field = value" line each, sorted; range-table
// keys of a port fabricgen sets keys of are listed by index (rangeOurs).
func unmanagedDB(running, rendered, scope string) (string, error) {
	run, err := parseDB(running, "the running CONFIG_DB")
	if err != nil {
		return "", err
	}
	want, err := parseRendered(rendered, "the rendered config")
	if err != nil {
		return "", err
	}
	prev, err := parseRendered(scope, "the config applied last")
	if err != nil {
		return "", err
	}
	managed := dbManaged(run, want, prev)
	ours := rangeOurs(want, prev)
	var lines []string
	for f, v := range flatten(run) {
		s, isRange := parseSpan(f.key)
		switch {
		case isRange && ours[f.table][s.port] != nil:
			// A range-table key on a port fabricgen sets keys of is
			// listed by index, without fabricgen's: a stock range
			// split into the render's index and the device's
			// remainder lists as it did before the split.
			for i := s.lo; i <= s.hi; i++ {
				if !ours[f.table][s.port][i] {
					lines = append(lines, fmt.Sprintf("%s|%s|%d|%s = %s", f.table, s.port, i, f.field, v))
				}
			}
		case !managed[f]:
			lines = append(lines, fmt.Sprintf("%s = %s", f, v))
		}
	}
	// A key without fields (an NTP_SERVER, an interface address) has
	// nothing to flatten: it is a line of its own, fabricgen's only when
	// the render or the last apply has it.
	for t, keys := range run {
		for k, fields := range keys {
			_, rendered := want[t][k]
			_, applied := prev[t][k]
			if len(fields) == 0 && !rendered && !applied {
				lines = append(lines, t+"|"+k+" (no fields)")
			}
		}
	}
	sort.Slice(lines, func(i, j int) bool { return schema.NaturalLess(lines[i], lines[j]) })
	return strings.Join(lines, "\n") + "\n", nil
}

// rangeOurs is, by range table and port, the indexes the render's or the
// last-applied fragment's keys hold.
func rangeOurs(want, prev map[string]map[string]map[string]any) map[string]map[string]indexSet {
	out := map[string]map[string]indexSet{}
	for _, doc := range []map[string]map[string]map[string]any{want, prev} {
		for t, keys := range doc {
			if !rangeTable(t) {
				continue
			}
			for k := range keys {
				s, ok := parseSpan(k)
				if !ok {
					continue
				}
				if out[t] == nil {
					out[t] = map[string]indexSet{}
				}
				if out[t][s.port] == nil {
					out[t][s.port] = indexSet{}
				}
				for i := s.lo; i <= s.hi; i++ {
					out[t][s.port][i] = true
				}
			}
		}
	}
	return out
}

// wholeKeyManaged reports whether every field the running key has is
// managed, so removing all of them may remove the key.
func wholeKeyManaged(fields map[string]any, f dbField, managed map[dbField]bool) bool {
	for name := range fields {
		if !managed[dbField{f.table, f.key, name}] {
			return false
		}
	}
	return true
}

// pointer is an RFC 6901 JSON pointer: "~" as "~0", "/" as "~1".
func pointer(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(p))
	}
	return b.String()
}

// PatchDocument joins a change set's operations into one JSON Patch, in
// printable ASCII: every other character (inside strings: DEL and
// non-ASCII) is written as a \uXXXX escape, so the document can be typed
// into a shell line as data and chunked at any byte.
func PatchDocument(cs *ChangeSet) string {
	return asciiJSON("[" + strings.Join(cs.Commands(), ",") + "]")
}

// asciiJSON escapes every character of a JSON text outside printable
// ASCII as \uXXXX (a surrogate pair above U+FFFF), which is only valid
// inside strings, where json.Marshal put them.
func asciiJSON(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// jsonLine encodes one patch operation as a line of the change set.
func jsonLine(op PatchOp) (string, error) {
	b, err := json.Marshal(op)
	return string(b), err
}

// GuardedPatchDocument is PatchDocument preceded by an RFC 6902 test
// operation for every CONFIG_DB key the change set touches that before
// (the CONFIG_DB JSON apply read) has: the key's whole object as read.
// config apply-patch applies all of a patch or none of it, so when someone
// changes such a key after apply read the switch, the patch is refused as
// a whole instead of overwriting their change. A key before lacks is not
// guarded (JSON Patch cannot test that a path is absent).
func GuardedPatchDocument(cs *ChangeSet, before string) (string, error) {
	db, err := parseDB(before, "the running CONFIG_DB")
	if err != nil {
		return "", err
	}
	var tests []string
	seen := map[string]bool{}
	for _, line := range cs.Commands() {
		var op PatchOp
		if err := json.Unmarshal([]byte(line), &op); err != nil {
			return "", fmt.Errorf("patch operation %q: %w", line, err)
		}
		seg := strings.Split(op.Path, "/")
		if len(seg) < 3 || seg[0] != "" {
			continue
		}
		table, key := unescapePointer(seg[1]), unescapePointer(seg[2])
		obj, ok := db[table][key]
		guard := "/" + seg[1] + "/" + seg[2]
		if !ok || seen[guard] {
			continue
		}
		seen[guard] = true
		t, err := jsonLine(PatchOp{Op: "test", Path: guard, Value: obj})
		if err != nil {
			return "", err
		}
		tests = append(tests, t)
	}
	return asciiJSON("[" + strings.Join(append(tests, cs.Commands()...), ",") + "]"), nil
}

// PatchTookEffect reports whether any operation of the change set is in
// the CONFIG_DB now (now and before are `sonic-cfggen -d --print-data`
// output): an added or replaced field that holds our value and did not
// before, or a removed one that is gone and was there.
func PatchTookEffect(cs *ChangeSet, before, now string) (bool, error) {
	was, err := parseDB(before, "the CONFIG_DB before")
	if err != nil {
		return false, err
	}
	is, err := parseDB(now, "the CONFIG_DB now")
	if err != nil {
		return false, err
	}
	at := func(db map[string]map[string]map[string]any, seg []string) (string, bool) {
		var v any
		keys, ok := db[unescapePointer(seg[1])]
		if !ok {
			return "", false
		}
		v = keys
		if len(seg) > 2 {
			o, ok := keys[unescapePointer(seg[2])]
			if !ok {
				return "", false
			}
			v = o
			if len(seg) > 3 {
				f, ok := o[unescapePointer(seg[3])]
				if !ok {
					return "", false
				}
				v = f
			}
		}
		b, _ := json.Marshal(v)
		return string(b), true
	}
	for _, line := range cs.Commands() {
		var op PatchOp
		if err := json.Unmarshal([]byte(line), &op); err != nil {
			return false, fmt.Errorf("patch operation %q: %w", line, err)
		}
		seg := strings.Split(op.Path, "/")
		if len(seg) < 2 || len(seg) > 4 || seg[0] != "" {
			continue
		}
		old, had := at(was, seg)
		cur, has := at(is, seg)
		switch op.Op {
		case "remove":
			if had && !has {
				return true, nil
			}
		case "add", "replace":
			b, _ := json.Marshal(op.Value)
			if has && cur == string(b) && (!had || old != cur) {
				return true, nil
			}
		}
	}
	return false, nil
}

// unescapePointer undoes JSON Pointer escaping (RFC 6901).
func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}
