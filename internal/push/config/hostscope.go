package config

import (
	"fmt"
	"github.com/fabricgen/fabricgen/schema"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
)

// A host script names the settings fabricgen makes on a NIC. When the
// intent stops making some (a port removed from the intent), the script
// applied last still names them: they are set back to their value before
// fabricgen first changed them (the baseline, kept in the last-applied
// record), so nothing fabricgen set is left behind on a port it no longer
// manages.

// HostDropped returns the action lines of the last-applied script whose
// settings the intent's script no longer makes, with the preamble lookups
// they use, as a script of its own ("" when there are none).
func HostDropped(intent, applied string) (string, error) {
	if applied == "" {
		return "", nil
	}
	kept := map[string]bool{}
	acts, err := ParseHostScript(ResolveHostScript(intent, selfLookups(intent)))
	if err != nil {
		return "", err
	}
	for _, a := range acts {
		for _, f := range a.Facts {
			kept[f.ID()] = true
		}
	}
	var b strings.Builder
	dropped := 0
	for _, raw := range strings.Split(applied, "\n") {
		line := strings.TrimSpace(raw)
		if reLookup.MatchString(line) {
			b.WriteString(line + "\n")
			continue
		}
		a, err := parseAction(strings.TrimSpace(ResolveHostScript(line, selfLookups(applied))))
		if err != nil || len(a.Facts) == 0 {
			continue
		}
		gone := true
		for _, f := range a.Facts {
			gone = gone && !kept[f.ID()]
		}
		if gone {
			b.WriteString(line + "\n")
			dropped++
		}
	}
	if dropped == 0 {
		return "", nil
	}
	return b.String(), nil
}

// selfLookups stands each preamble lookup for itself, so scripts can be
// compared without the values a host prints.
func selfLookups(script string) map[string]string {
	values := map[string]string{}
	for _, l := range HostLookups(script) {
		values[l.Var] = l.Var
	}
	return values
}

// HostReadScript is the script whose settings plan reads on a host: the
// intent's, plus the settings the last apply made that the intent dropped.
func HostReadScript(intent, dropped string) string {
	if dropped == "" {
		return intent
	}
	return intent + "\n" + dropped
}

// CompareHostScoped is CompareHost where the settings the last apply made
// and the intent dropped (HostDropped) are set back to their baseline
// values: they are shown in the diff and restored by the change set.
func CompareHostScoped(device, state, intent, dropped, baseline string, d *dialect.Dialect) (*Comparison, error) {
	c, err := CompareHost(device, state, intent, d)
	if err != nil || dropped == "" {
		return c, err
	}
	restore, err := HostRestoreCommands(dropped, baseline, state)
	if err != nil {
		return nil, fmt.Errorf("%s: settings fabricgen made on a port the intent no longer has: %w", device, err)
	}
	actions, err := ParseHostScript(ResolveHostScript(dropped, lookupValues(dropped, state)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", device, err)
	}
	was, now := HostFacts(actions, baseline), HostFacts(actions, state)
	ids := make([]string, 0, len(now))
	for id := range now {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return schema.NaturalLess(ids[i], ids[j]) })
	var run, des strings.Builder
	run.WriteString(c.Running)
	des.WriteString(c.Desired)
	for _, id := range ids {
		fmt.Fprintf(&run, "%s = %s\n", id, now[id])
		fmt.Fprintf(&des, "%s = %s\n", id, was[id])
	}
	c.Running, c.Desired = run.String(), des.String()
	if len(restore) > 0 {
		if c.Changes.Empty() {
			c.Changes = &ChangeSet{}
		}
		c.Changes.Blocks = append(c.Changes.Blocks, Block{Lines: restore})
	}
	c.Diff = Unified(device+" (running)", device+" (fabricgen)", c.Running, c.Desired)
	return c, nil
}

// MergeHostState adds to base the reads of add that base does not have:
// the baseline keeps the oldest value of every setting.
func MergeHostState(base, add string) string {
	b, a := splitState(base), splitState(add)
	for k, v := range a {
		if _, ok := b[k]; !ok {
			b[k] = v
		}
	}
	cmds := make([]string, 0, len(b))
	for k := range b {
		cmds = append(cmds, k)
	}
	sort.Strings(cmds)
	outs := make([]string, len(cmds))
	for i, c := range cmds {
		outs[i] = b[c]
	}
	return HostState(cmds, outs)
}
