package config

import (
	"encoding/json"
	"fmt"
	"sort"
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
	sc, _, err := checkScope(running, desired, scope, d, true)
	return sc, err
}

// DerivableScope is the part of scope — the config an unverified
// last-applied record says fabricgen applied before — that fabricgen can
// re-derive as its own without taking the record at its word: the objects
// the render defines, the named objects fabricgen's naming (the dialect's
// OwnedNames, FG-…) claims, the interfaces the render configures; on
// SONiC the CONFIG_DB keys the render defines or whose name is
// fabricgen's. It is what plan and apply act on for a record whose
// signature could not be checked unless --trust-records was given: a
// copy of the device's own ACL pasted into a record (readable in the
// committed backups) would pass VerifiedScope.
//
// held lists, one line each ("ip access-list MGMT-SSH",
// "ACL_TABLE|MGMT"), the record-only claims VerifiedScope would have kept
// (the device holds exactly what the record says) and so whose removal is
// held back. Hosts are returned as they are here (see
// DerivableHostDropped).
func DerivableScope(running, desired, scope string, d *dialect.Dialect) (sc string, held []string, err error) {
	return checkScope(running, desired, scope, d, false)
}

// checkScope is VerifiedScope (trust: a record-only claim the device
// bears out stays) and DerivableScope (!trust: it is held back).
func checkScope(running, desired, scope string, d *dialect.Dialect, trust bool) (string, []string, error) {
	sc, held, err := CheckScope(running, NewSource(desired, d), NewSource(scope, d), d, trust)
	return sc.Text(), held, err
}

// CheckScope is VerifiedScope (trust) or DerivableScope (!trust) with the
// desired config and the scope parsed once (NewSource), for the many
// reads of one device a plan or an apply compares. The scope it keeps is
// parsed too; a nil or empty scope is returned as it is.
func CheckScope(running string, desired, scope *Source, d *dialect.Dialect, trust bool) (*Source, []string, error) {
	switch {
	case scope.Text() == "" || d.Host || d.Files:
		return scope, nil, nil
	case d.ConfigDB:
		kept, held, err := verifiedScopeDB(running, desired.Text(), scope.Text(), d, trust)
		if err != nil {
			return nil, nil, err
		}
		return NewSource(kept, d), held, nil
	}
	mf := newManagedFilter(desired.orEmpty(), nil, d)
	sc := scope.orEmpty()
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
	var held []string
	seen := map[string]bool{}
	for _, n := range sc.Nodes {
		k, _, ok := key(n)
		if !ok {
			continue
		}
		if k != "" && text(claims[k]) != text(have[k]) {
			continue // the device does not bear the claim out
		}
		if k != "" && !trust {
			if !seen[k] {
				seen[k] = true
				held = append(held, n.Line)
			}
			continue // only the record says fabricgen made it
		}
		keep.Nodes = append(keep.Nodes, n)
	}
	return &Source{text: keep.Text(d.Indent), tree: keep}, held, nil
}

// verifiedScopeDB keeps the CONFIG_DB keys of scope whose fields the
// device holds with the same values (every field of the key, in the
// tables whose keys fabricgen owns whole). Without trust, a key the
// render (desired) does not define and whose name is not fabricgen's is
// held back instead.
func verifiedScopeDB(running, desired, scope string, d *dialect.Dialect, trust bool) (string, []string, error) {
	run, err := parseDB(running, "the running CONFIG_DB")
	if err != nil {
		return "", nil, err
	}
	prev, err := parseRendered(scope, "the config applied last")
	if err != nil {
		return "", nil, err
	}
	var want map[string]map[string]map[string]any
	if !trust {
		if want, err = parseRendered(desired, "the rendered config"); err != nil {
			return "", nil, err
		}
	}
	var held []string
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
			if !trust && !derivableKey(want, t, k, d) {
				held = append(held, t+"|"+k)
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
		return "", nil, fmt.Errorf("encode the verified scope: %w", err)
	}
	sort.Strings(held)
	return string(b), held, nil
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

// derivableKey reports whether a CONFIG_DB key of a last-applied record
// is fabricgen's without the record's word: the render (want) defines it,
// its name is fabricgen's (the dialect's OwnedNames; the templates'
// "FABRICGEN" maps and "fabricgen.N" schedulers), or it is a rule of an
// ACL table the render defines.
func derivableKey(want map[string]map[string]map[string]any, t, k string, d *dialect.Dialect) bool {
	if _, in := want[t][k]; in || ownedName(k, d) || strings.HasPrefix(strings.ToLower(k), "fabricgen") {
		return true
	}
	if t == "ACL_RULE" {
		_, in := want["ACL_TABLE"][portOf(k)]
		return in
	}
	return false
}

// DerivableHostDropped is VerifiedHostDropped for a record that is not
// trusted (no signature checked, no --trust-records): every setting a
// dropped line makes is one only the record says fabricgen made, so none
// is set back. held lists the setting lines VerifiedHostDropped would have
// kept (the host still has what they set), whose reset is held back.
func DerivableHostDropped(dropped, state string) (kept string, held []string, err error) {
	v, err := VerifiedHostDropped(dropped, state)
	if err != nil || v == "" {
		return "", nil, err
	}
	for _, raw := range strings.Split(v, "\n") {
		line := strings.TrimSpace(raw)
		if line != "" && !reLookup.MatchString(line) {
			held = append(held, line)
		}
	}
	return "", held, nil
}
