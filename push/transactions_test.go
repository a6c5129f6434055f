package push

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// transactionProblems lists, naming the platform, every platform of the
// registry that table has no usable transaction for: no entry, no run
// function, a kind other than the dialect's, or a named transaction that
// cannot be found or removed again.
func transactionProblems(table map[schema.Platform]transaction) []string {
	var out []string
	for _, pl := range platforms.Needing("push dialect") {
		p := pl.Name
		tx, ok := table[p]
		if !ok {
			out = append(out, fmt.Sprintf("%s: no transaction (its folder gives none: platforms/<folder>/txn.go, Platform.Transaction)", p))
			continue
		}
		dl, err := platforms.Dialect(p)
		switch {
		case err != nil:
			out = append(out, fmt.Sprintf("%s: %v", p, err))
		case tx.Kind != dl.Transaction:
			out = append(out, fmt.Sprintf("%s: transaction %s, the dialect says %s", p, tx.Kind, dl.Transaction))
		case tx.Run == nil:
			out = append(out, fmt.Sprintf("%s: transaction %s has no run function", p, tx.Kind))
		case tx.Named && (tx.Leftovers == nil || tx.Remove == nil):
			out = append(out, fmt.Sprintf("%s: named transaction %s cannot be found or removed", p, tx.Kind))
		}
	}
	return out
}

// TestTransactionsComplete: every platform has a transaction agreeing with
// its dialect, and every dialect push accepts has one.
func TestTransactionsComplete(t *testing.T) {
	for _, problem := range transactionProblems(transactions()) {
		t.Error(problem)
	}
	for _, pl := range platforms.Needing("push dialect") {
		p := pl.Name
		if _, err := lookupDialect(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestTransactionsCompleteCanFail: the check names a platform whose entry
// is removed, has no run function, or disagrees with the dialect.
func TestTransactionsCompleteCanFail(t *testing.T) {
	full := transactions()
	for _, pl := range platforms.Needing("push dialect") {
		p := pl.Name
		for what, change := range map[string]func(map[schema.Platform]transaction){
			"removed": func(m map[schema.Platform]transaction) { delete(m, p) },
			"no run":  func(m map[schema.Platform]transaction) { tx := m[p]; tx.Run = nil; m[p] = tx },
			"other kind": func(m map[schema.Platform]transaction) {
				tx := m[p]
				tx.Kind = "other"
				m[p] = tx
			},
		} {
			table := maps.Clone(full)
			change(table)
			got := transactionProblems(table)
			if len(got) != 1 || !slices.ContainsFunc(got, func(s string) bool { return len(s) > len(p) && s[:len(p)+1] == string(p)+":" }) {
				t.Errorf("%s %s: problems %q, want one naming %s", p, what, got, p)
			}
		}
	}
}
