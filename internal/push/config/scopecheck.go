package config

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
)

// VerifiedScope is the part of scope — the config a last-applied record
// says fabricgen applied before — that the device itself bears out, for a
// record whose signature could not be checked (no FABRICGEN_PLAN_KEY).
//
// Such a record is not taken at its word: it decides what fabricgen may
// remove (an object the render no longer defines, the managed lines of an
// interface it no longer configures), and an edited one would make apply
// delete another team's ACL. So each stanza the record alone makes
// managed — a named object neither the render defines nor fabricgen's
// naming (FG-…) claims, an interface the render does not configure —
// stays in the scope only when the device holds exactly what the record
// says for it (its managed lines, compared canonically, as they are right
// after an apply); otherwise the record's claim is ignored and the device
// keeps the stanza. On SONiC, each CONFIG_DB key of the record stays only
// when the device's fields for it equal the record's. Hosts are returned
// as they are here: their claims are the settings the render dropped,
// checked once read (VerifiedHostDropped).
//
// desired is the config compared against (the render; for a rollback the
// backup). An empty scope stays empty.
func VerifiedScope(running, desired, scope string, d *dialect.Dialect) (string, error) {
	switch {
	case scope == "" || d.Host:
		return scope, nil
	case d.ConfigDB:
		return verifiedScopeDB(running, scope)
	}
	mf := newManagedFilter(Parse(desired, d), nil, d)
	sc := Parse(scope, d)
	run := Parse(running, d)
	// key names the stanza a scope-only claim is about; "" for a node
	// managed without the scope.
	key := func(n *Node) (string, int, bool) {
		i, name := classify(n.Line, d)
		if i < 0 {
			return "", i, false
		}
		s := d.Sections[i]
		switch {
		case s.Named && !mf.names[i][name] && !ownedName(name, d):
			return fmt.Sprintf("named|%d|%s", i, name), i, true
		case s.Shared && !mf.headers[n.Line]:
			return "shared|" + n.Line, i, true
		}
		return "", i, true
	}
	group := func(t *Tree) map[string][]*Node {
		out := map[string][]*Node{}
		for _, n := range t.Nodes {
			if k, i, ok := key(n); ok && k != "" {
				out[k] = append(out[k], filtered(n, d.Sections[i], i))
			}
		}
		return out
	}
	text := func(ns []*Node) string {
		return Canonical(&Tree{Nodes: merge(ns)}, d).Text(d.Indent)
	}
	claims, have := group(sc), group(run)
	keep := &Tree{}
	for _, n := range sc.Nodes {
		k, _, ok := key(n)
		if !ok {
			continue
		}
		if k != "" && text(claims[k]) != text(have[k]) {
			continue // the device does not bear the claim out
		}
		keep.Nodes = append(keep.Nodes, n)
	}
	return keep.Text(d.Indent), nil
}

// verifiedScopeDB keeps the CONFIG_DB keys of scope whose fields the
// device holds with the same values (every field of the key, in the
// tables whose keys fabricgen owns whole).
func verifiedScopeDB(running, scope string) (string, error) {
	run, err := parseDB(running, "the running CONFIG_DB")
	if err != nil {
		return "", err
	}
	prev, err := parseRendered(scope, "the config applied last")
	if err != nil {
		return "", err
	}
	rf, pf := flatten(run), flatten(prev)
	keep := map[string]map[string]map[string]any{}
	for t, keys := range prev {
		for k, fields := range keys {
			ok := true
			for f := range fields {
				f := dbField{t, k, f}
				if rv, in := rf[f]; !in || rv != pf[f] {
					ok = false
				}
			}
			if ownedTable(t) {
				for f := range run[t][k] {
					if notManaged(t, f) {
						continue
					}
					if _, in := fields[f]; !in {
						ok = false
					}
				}
			}
			if !ok {
				continue
			}
			if keep[t] == nil {
				keep[t] = map[string]map[string]any{}
			}
			keep[t][k] = fields
		}
	}
	b, err := json.Marshal(keep)
	if err != nil {
		return "", fmt.Errorf("encode the verified scope: %w", err)
	}
	return string(b), nil
}

// VerifiedHostDropped is the part of dropped (HostDropped: the settings a
// last-applied script made that the render no longer makes, which a change
// sets back to their baseline) that the host bears out, for a record whose
// signature could not be checked: a line stays only when every setting it
// makes still has, in state (the host read with the read script), the
// value that line sets — as right after the apply that recorded it.
// Otherwise the record's claim is ignored and the host keeps the setting.
// Preamble lookups stay. "" when no setting line stays.
func VerifiedHostDropped(dropped, state string) (string, error) {
	if dropped == "" {
		return "", nil
	}
	values := lookupValues(dropped, state)
	var b strings.Builder
	kept := 0
	for _, raw := range strings.Split(dropped, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if reLookup.MatchString(line) {
			b.WriteString(line + "\n")
			continue
		}
		a, err := parseAction(strings.TrimSpace(ResolveHostScript(line, values)))
		if err != nil || len(a.Facts) == 0 {
			continue
		}
		cur := HostFacts([]HostAction{a}, state)
		ok := true
		for _, f := range a.Facts {
			ok = ok && cur[f.ID()] == f.Value
		}
		if ok {
			b.WriteString(line + "\n")
			kept++
		}
	}
	if kept == 0 {
		return "", nil
	}
	return b.String(), nil
}
