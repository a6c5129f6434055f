package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// A host has no unmanaged lines: every setting push reads is one the
// script sets. What another administrator changes during an apply is
// told apart by the change set: a setting the change does not touch that
// now differs from the backup is theirs. The restore after a failure
// leaves it alone (and says so), so their change is not silently undone.

// HostOthers lists, as "setting = value" lines, the settings of the script
// that the change lines do not set and whose value in now differs from the
// one in backup, sorted.
func HostOthers(script string, changes []string, backup, now string) ([]string, error) {
	actions, err := ParseHostScript(ResolveHostScript(script, lookupValues(script, backup)))
	if err != nil {
		return nil, err
	}
	touched, err := hostTouched(changes)
	if err != nil {
		return nil, err
	}
	was, is := HostFacts(actions, backup), HostFacts(actions, now)
	var out []string
	for id, v := range is {
		if !touched[id] && was[id] != v {
			out = append(out, fmt.Sprintf("%s = %s", id, v))
		}
	}
	sort.Slice(out, func(i, j int) bool { return schema.NaturalLess(out[i], out[j]) })
	return out, nil
}

// hostTouched is the set of settings the change lines set.
func hostTouched(changes []string) (map[string]bool, error) {
	acts, err := ParseHostScript(strings.Join(changes, "\n"))
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, a := range acts {
		for _, f := range a.Facts {
			out[f.ID()] = true
		}
	}
	return out, nil
}

// HostRestoreCommandsKeeping is HostRestoreCommands leaving the settings
// keep names (fact IDs, the part of HostOthers' lines before " = ") as
// they are now.
func HostRestoreCommandsKeeping(script, backup, now string, keep []string) ([]string, error) {
	skip := map[string]bool{}
	for _, k := range keep {
		id, _, _ := strings.Cut(k, " = ")
		skip[id] = true
	}
	return hostRestore(script, backup, now, skip)
}

// HostSameExcept reports whether every setting of the script has the same
// value in a and b, the settings keep names aside.
func HostSameExcept(script, a, b string, keep []string) (bool, error) {
	actions, err := ParseHostScript(ResolveHostScript(script, lookupValues(script, a)))
	if err != nil {
		return false, err
	}
	skip := map[string]bool{}
	for _, k := range keep {
		id, _, _ := strings.Cut(k, " = ")
		skip[id] = true
	}
	fa, fb := HostFacts(actions, a), HostFacts(actions, b)
	for id, v := range fa {
		if !skip[id] && fb[id] != v {
			return false, nil
		}
	}
	return true, nil
}

// HostTheirs lists the settings the change lines set whose value now is
// neither the backup's nor the one the change sets ("ID = value"):
// someone else set them while the change went in. A restore keeps them
// (setting them back to the backup would erase their change).
func HostTheirs(script string, changes []string, backup, now string) ([]string, error) {
	actions, err := ParseHostScript(ResolveHostScript(script, lookupValues(script, backup)))
	if err != nil {
		return nil, err
	}
	ours := map[string]string{}
	for _, f := range changeFacts(changes) {
		ours[f.ID()] = f.Value
	}
	was, is := HostFacts(actions, backup), HostFacts(actions, now)
	var out []string
	for id, v := range is {
		if o, ok := ours[id]; ok && v != was[id] && v != o {
			out = append(out, fmt.Sprintf("%s = %s", id, v))
		}
	}
	sort.Slice(out, func(i, j int) bool { return schema.NaturalLess(out[i], out[j]) })
	return out, nil
}

// HostLineChanged reads, from read (the output of the line's read-back
// command readCmd), the settings one change line sets and lists those
// someone else changed after apply read the host ("ID = value (was V)"):
// the value differs from the backup's and is not one the change (changes:
// all its lines) sets, since earlier lines of the change may have moved it
// already (the first DSCP app entry switches an mlx5 port to trust dscp).
// A setting the backup did not have yet (a configfs file the change's
// setup lines create) is not compared.
func HostLineChanged(line, readCmd, read, backup string, changes []string) ([]string, error) {
	acts, err := ParseHostScript(line)
	if err != nil || len(acts) == 0 {
		// A restore line (mlnx_qos --dscp2prio del, dcb app del) is
		// not a script line: nothing to compare.
		return nil, nil
	}
	ours := map[string]bool{}
	for _, f := range changeFacts(changes) {
		ours[f.ID()+" = "+f.Value] = true
	}
	now := HostFacts(acts, HostState([]string{readCmd}, []string{read}))
	was := HostFacts(acts, backup)
	var out []string
	for id, v := range now {
		if was[id] != v && was[id] != "<unset>" && !ours[id+" = "+v] {
			out = append(out, fmt.Sprintf("%s = %s (was %s)", id, v, was[id]))
		}
	}
	sort.Strings(out)
	return out, nil
}

// changeFacts are the facts the change lines set, line by line; a line
// that is not a script line (a restore's del) sets none here.
func changeFacts(changes []string) []Fact {
	var out []Fact
	for _, l := range changes {
		acts, err := ParseHostScript(l)
		if err != nil {
			continue
		}
		for _, a := range acts {
			out = append(out, a.Facts...)
		}
	}
	return out
}
