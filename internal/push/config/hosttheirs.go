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
