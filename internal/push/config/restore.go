package config

import (
	"fmt"
	"github.com/fabricgen/fabricgen/schema"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
)

// CompareRestore compares a device's running config with a backup taken
// before a change, to restore it: the managed sections are those of the
// backup and of scope, the config that was applied since (so an ACL or
// class-map that apply created, absent from the backup, is removed, and
// an interface that apply configured loses the lines it added). Lines
// outside the managed sections are never touched, so other
// administrators' changes since the backup stay. Host platforms are
// restored with HostRestoreCommands instead.
func CompareRestore(device, running, backup, scope string, d *dialect.Dialect) (*Comparison, error) {
	if d.Host {
		return nil, fmt.Errorf("%s: host settings are restored with HostRestoreCommands", device)
	}
	if d.Files {
		// The backup holds every file the change wrote, as it was
		// (absent ones too): restoring is writing it back.
		return compareFiles(device, running, backup, "backup")
	}
	if d.ConfigDB {
		return compareRestoreDB(device, running, backup, scope, d)
	}
	run, want := managedScoped(Parse(running, d), Parse(backup, d), Parse(scope, d), d)
	c := &Comparison{
		RunningSHA256: Digest(running, d),
		Running:       Canonical(run, d).Text(d.Indent),
		Desired:       Canonical(want, d).Text(d.Indent),
		Changes:       Changes(run, want, d),
	}
	c.Diff = Unified(device+" (running)", device+" (backup)", c.Running, c.Desired)
	return c, nil
}

// restoreManaged is the set of fields a restore puts back: those scope
// sets, whole keys in the QoS tables fabricgen owns, every key of a
// per-port table for a port scope configures in that table (what apply
// took over, dbManaged: the stock AZURE bindings and queues of a
// brownfield port come back), and in the range tables every backup and
// running key of a port scope sets keys of: the remainder keys go, and
// the stock range keys (a "Ethernet0|3-4" under a rendered
// "Ethernet0|3") come back whole.
func restoreManaged(sc, bk, run map[string]map[string]map[string]any) map[dbField]bool {
	managed := map[dbField]bool{}
	ports := map[[2]string]bool{} // table, port scope configures
	for t, keys := range sc {
		if portTable(t) {
			for k := range keys {
				ports[[2]string{t, portOf(k)}] = true
			}
		}
	}
	for _, doc := range []map[string]map[string]map[string]any{bk, run} {
		for t, keys := range doc {
			for k, fields := range keys {
				if !portTable(t) || !ports[[2]string{t, portOf(k)}] {
					continue
				}
				for f := range fields {
					managed[dbField{t, k, f}] = true
				}
			}
		}
	}
	for t, keys := range sc {
		for k, fields := range keys {
			if ownedTable(t) {
				for f := range bk[t][k] {
					managed[dbField{t, k, f}] = true
				}
				for f := range run[t][k] {
					managed[dbField{t, k, f}] = true
				}
			}
			for f := range fields {
				managed[dbField{t, k, f}] = true
			}
		}
	}
	for _, t := range []string{"BUFFER_PG", "BUFFER_QUEUE"} {
		// Every index of a port scope sets keys of: the remainder
		// and given-back keys the applies left go, and the stock
		// range keys come back whole, exactly the backup's.
		touched := map[string]bool{}
		for k := range sc[t] {
			if s, ok := parseSpan(k); ok {
				touched[s.port] = true
			}
		}
		for _, doc := range []map[string]map[string]map[string]any{bk, run} {
			for k, fields := range doc[t] {
				if s, ok := parseSpan(k); ok && touched[s.port] {
					for f := range fields {
						managed[dbField{t, k, f}] = true
					}
				}
			}
		}
	}
	return managed
}

// compareRestoreDB restores the CONFIG_DB fields scope sets (and, in the
// QoS tables fabricgen owns, whole keys) to their values in the backup: a
// field the backup lacks is removed.
func compareRestoreDB(device, running, backup, scope string, d *dialect.Dialect) (*Comparison, error) {
	sc, err := parseRendered(scope, "the applied config")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", device, err)
	}
	bk, err := parseDB(backup, "the backup")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", device, err)
	}
	run, err := parseDB(running, "the running CONFIG_DB")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", device, err)
	}
	// The desired fragment: for every key scope touches, the backup's
	// fields (all of them in owned tables, else those scope sets).
	want := map[string]map[string]map[string]any{}
	put := func(t, k, f string, v any) {
		if want[t] == nil {
			want[t] = map[string]map[string]any{}
		}
		if want[t][k] == nil {
			want[t][k] = map[string]any{}
		}
		want[t][k][f] = v
	}
	managed := restoreManaged(sc, bk, run)
	for f := range managed {
		if v, ok := bk[f.table][f.key][f.field]; ok {
			put(f.table, f.key, f.field, v)
		}
	}
	fields := make([]dbField, 0, len(managed))
	for f := range managed {
		fields = append(fields, f)
	}
	sort.Slice(fields, func(i, j int) bool { return schema.NaturalLess(fields[i].String(), fields[j].String()) })
	gone := goneKeys(run, bk, managed)
	rf, wf := flatten(run), flatten(want)
	var runText, wantText strings.Builder
	var lines []string
	for _, f := range fields {
		rv, inRun := rf[f]
		wv, inWant := wf[f]
		if inRun {
			fmt.Fprintf(&runText, "%s = %s\n", f, rv)
		}
		if inWant {
			fmt.Fprintf(&wantText, "%s = %s\n", f, wv)
		}
		var op *PatchOp
		switch g, whole := gone[dbField{f.table, f.key, ""}]; {
		case whole && g != "":
			// A key (or table) the backup lacks goes at once, at its
			// first field: removing its fields one by one would leave
			// an empty key behind.
			op = &PatchOp{Op: "remove", Path: g}
			gone[dbField{f.table, f.key, ""}] = ""
			if g == pointer(f.table) {
				for k := range run[f.table] {
					gone[dbField{f.table, k, ""}] = ""
				}
			}
		case whole:
		case inRun && !inWant:
			op = &PatchOp{Op: "remove", Path: pointer(f.table, f.key, f.field)}
		case inWant && !inRun && run[f.table] == nil:
			op = &PatchOp{Op: "add", Path: pointer(f.table), Value: map[string]any{f.key: map[string]any{f.field: want[f.table][f.key][f.field]}}}
			run[f.table] = map[string]map[string]any{f.key: {}}
		case inWant && !inRun && run[f.table][f.key] == nil:
			op = &PatchOp{Op: "add", Path: pointer(f.table, f.key), Value: map[string]any{f.field: want[f.table][f.key][f.field]}}
			run[f.table][f.key] = map[string]any{}
		case inWant && !inRun:
			op = &PatchOp{Op: "add", Path: pointer(f.table, f.key, f.field), Value: want[f.table][f.key][f.field]}
		case inWant && rv != wv:
			op = &PatchOp{Op: "replace", Path: pointer(f.table, f.key, f.field), Value: want[f.table][f.key][f.field]}
		}
		if op != nil {
			b, err := jsonLine(*op)
			if err != nil {
				return nil, fmt.Errorf("%s: encode patch: %w", device, err)
			}
			lines = append(lines, b)
		}
	}
	cs := &ChangeSet{}
	if len(lines) > 0 {
		cs.Blocks = []Block{{Lines: lines}}
	}
	c := &Comparison{
		RunningSHA256: Digest(running, d),
		Running:       runText.String(),
		Desired:       wantText.String(),
		Changes:       cs,
	}
	c.Diff = Unified(device+" (running)", device+" (backup)", c.Running, c.Desired)
	return c, nil
}

// goneKeys finds the keys of the running CONFIG_DB that a restore removes
// whole: the backup lacks them and every field they have is managed (so
// the restore removes them all). Each maps (as TABLE|key|"") to the
// pointer of what goes: the key, or its table when the backup lacks the
// table and every key of it goes.
func goneKeys(run, bk map[string]map[string]map[string]any, managed map[dbField]bool) map[dbField]string {
	out := map[dbField]string{}
	for t, keys := range run {
		all := true
		for k, fields := range keys {
			whole := bk[t][k] == nil && len(fields) > 0
			for f := range fields {
				whole = whole && managed[dbField{t, k, f}]
			}
			if whole {
				out[dbField{t, k, ""}] = pointer(t, k)
			}
			all = all && whole
		}
		// A table the backup lacks or holds empty goes whole: CONFIG_DB
		// has no empty tables (the config updater refuses a patch that
		// would leave one).
		if all && len(bk[t]) == 0 && len(keys) > 0 {
			for k := range keys {
				out[dbField{t, k, ""}] = pointer(t)
			}
		}
	}
	return out
}
