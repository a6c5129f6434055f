package config

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// PatchTheirs splits how the CONFIG_DB changed between before and now
// (`sonic-cfggen -d --print-data` output) into fabricgen's change set cs
// and someone else's: a field differs from before and is theirs when cs
// does not set it, or sets it to another value than the one it holds now.
// It returns their fields ("TABLE|key|field = value", "… (removed)"),
// sorted, and the JSON Patch that puts back to before only the fields that
// hold cs's value, keeping theirs (an empty change set when none does).
// A field whose line (before's or now's) matches one of derived is the
// device's own response to the change (dialect.Derived: SONiC buffermgrd's
// lossless PGs) and is neither.
func PatchTheirs(cs *ChangeSet, before, now string, derived ...*regexp.Regexp) ([]string, *ChangeSet, error) {
	wasDB, err := parseDB(before, "the CONFIG_DB before")
	if err != nil {
		return nil, nil, err
	}
	isDB, err := parseDB(now, "the CONFIG_DB now")
	if err != nil {
		return nil, nil, err
	}
	was, is := flatten(wasDB), flatten(isDB)
	ours, err := patchLeaves(cs, was)
	if err != nil {
		return nil, nil, err
	}
	all := map[dbField]bool{}
	for f := range was {
		all[f] = true
	}
	for f := range is {
		all[f] = true
	}
	var theirs []string
	var undo []dbField
	for f := range all {
		wv, inWas := was[f]
		iv, inIs := is[f]
		if inWas == inIs && wv == iv {
			continue
		}
		if (inWas && matchesLine(f.String()+" = "+wv, derived)) || (inIs && matchesLine(f.String()+" = "+iv, derived)) {
			continue
		}
		o, touched := ours[f]
		if touched && o.absent == !inIs && (o.absent || o.v == iv) {
			undo = append(undo, f)
			continue
		}
		if inIs {
			theirs = append(theirs, fmt.Sprintf("%s = %s", f, iv))
		} else {
			theirs = append(theirs, fmt.Sprintf("%s (removed)", f))
		}
	}
	sort.Strings(theirs)
	sort.Slice(undo, func(i, j int) bool { return schema.NaturalLess(undo[i].String(), undo[j].String()) })
	// The undo, field by field; a key (table) before lacked and holds
	// nothing of theirs goes whole, one before had whole comes back whole.
	theirKey := map[[2]string]bool{}
	theirTable := map[string]bool{}
	for _, t := range theirs {
		p := strings.SplitN(strings.Fields(t)[0], "|", 3)
		if len(p) == 3 {
			theirKey[[2]string{p[0], p[1]}] = true
			theirTable[p[0]] = true
		}
	}
	var ops []PatchOp
	done := map[string]bool{}
	once := func(op PatchOp) {
		if !done[op.Op+op.Path] {
			done[op.Op+op.Path] = true
			ops = append(ops, op)
		}
	}
	for _, f := range undo {
		_, inWas := was[f]
		_, inIs := is[f]
		switch {
		case wasDB[f.table] == nil && !theirTable[f.table]:
			once(PatchOp{Op: "remove", Path: pointer(f.table)})
		case wasDB[f.table][f.key] == nil && !theirKey[[2]string{f.table, f.key}]:
			once(PatchOp{Op: "remove", Path: pointer(f.table, f.key)})
		case !inWas:
			once(PatchOp{Op: "remove", Path: pointer(f.table, f.key, f.field)})
		case isDB[f.table] == nil:
			once(PatchOp{Op: "add", Path: pointer(f.table), Value: wasDB[f.table]})
		case isDB[f.table][f.key] == nil:
			once(PatchOp{Op: "add", Path: pointer(f.table, f.key), Value: wasDB[f.table][f.key]})
		case inIs:
			once(PatchOp{Op: "replace", Path: pointer(f.table, f.key, f.field), Value: wasDB[f.table][f.key][f.field]})
		default:
			once(PatchOp{Op: "add", Path: pointer(f.table, f.key, f.field), Value: wasDB[f.table][f.key][f.field]})
		}
	}
	out := &ChangeSet{}
	if len(ops) > 0 {
		b := Block{}
		for _, op := range ops {
			line, err := jsonLine(op)
			if err != nil {
				return nil, nil, fmt.Errorf("encode the undo patch: %w", err)
			}
			b.Lines = append(b.Lines, line)
		}
		out.Blocks = []Block{b}
	}
	return theirs, out, nil
}

// leaf is what a patch leaves in a CONFIG_DB field: a value, or absent.
type leaf struct {
	v      string
	absent bool
}

// patchLeaves is what the change set cs leaves in each field it touches,
// applied to the fields was (the CONFIG_DB before).
func patchLeaves(cs *ChangeSet, was map[dbField]string) (map[dbField]leaf, error) {
	ours := map[dbField]leaf{}
	str := func(v any) string {
		if s, ok := v.(string); ok {
			return s
		}
		b, _ := json.Marshal(v)
		return string(b)
	}
	for _, line := range cs.Commands() {
		var op PatchOp
		if err := json.Unmarshal([]byte(line), &op); err != nil {
			return nil, fmt.Errorf("patch operation %q: %w", line, err)
		}
		seg := strings.Split(op.Path, "/")
		if len(seg) < 2 || len(seg) > 4 || seg[0] != "" {
			continue
		}
		for i := range seg {
			seg[i] = unescapePointer(seg[i])
		}
		// Every field before had under the path goes, unless the value
		// sets it again.
		for f := range was {
			if f.table == seg[1] && (len(seg) < 3 || f.key == seg[2]) && (len(seg) < 4 || f.field == seg[3]) {
				ours[f] = leaf{absent: true}
			}
		}
		if op.Op != "add" && op.Op != "replace" {
			continue
		}
		switch len(seg) {
		case 2:
			keys, _ := op.Value.(map[string]any)
			for k, fs := range keys {
				fields, _ := fs.(map[string]any)
				for n, v := range fields {
					ours[dbField{seg[1], k, n}] = leaf{v: str(v)}
				}
			}
		case 3:
			fields, _ := op.Value.(map[string]any)
			for n, v := range fields {
				ours[dbField{seg[1], seg[2], n}] = leaf{v: str(v)}
			}
		case 4:
			ours[dbField{seg[1], seg[2], seg[3]}] = leaf{v: str(op.Value)}
		}
	}
	return ours, nil
}

// matchesLine reports whether line matches one of res.
func matchesLine(line string, res []*regexp.Regexp) bool {
	for _, re := range res {
		if re.MatchString(line) {
			return true
		}
	}
	return false
}
