package config

import (
	"encoding/json"
	"fmt"

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
// as they are: a host's read-back holds only the settings a script sets,
// so there is nothing to compare a claim with before reading it (see
// docs/push.md, "Unsigned records").
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
