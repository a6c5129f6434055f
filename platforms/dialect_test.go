package platforms

import (
	"slices"
	"strings"
	"testing"

	"github.com/scrapli/scrapligo/platform"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/schema"
)

// TestAllowlist: every platform of the model has a dialect whose scrapligo
// definition loads from scrapligo's embedded assets, and anything else is
// refused before it can reach scrapligo (which would read it as a path or URL).
func TestAllowlist(t *testing.T) {
	for _, pl := range Needing("push dialect") {
		p := pl.Name
		d, err := Dialect(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if d.Driver == dialect.DriverNetwork {
			if _, err := platform.NewPlatform(d.Scrapli, "localhost"); err != nil {
				t.Errorf("%s: scrapligo definition %s: %v", p, d.Scrapli, err)
			}
		}
		if d.Negate == nil || d.Transaction == "" {
			t.Errorf("%s: incomplete dialect", p)
		}
	}
	if _, err := Dialect("ib_switch"); err == nil || !strings.Contains(err.Error(), "subnet manager") {
		t.Errorf("ib_switch: %v, want the subnet manager named", err)
	}
	for _, bad := range []schema.Platform{"../../etc/passwd", "https://example.com/x.yaml", "sonic_vs", ""} {
		if _, err := Dialect(bad); err == nil || !strings.Contains(err.Error(), "plan and apply support") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestDialectsComplete: every folder's dialect describes its own platform
// (not a copy of another's), is a fresh value on each call, and Pushable
// names every platform of the model.
func TestDialectsComplete(t *testing.T) {
	for _, pl := range Needing("push dialect") {
		d := pl.Dialect()
		if d.Platform != pl.Name {
			t.Errorf("platforms/%s: its dialect is the dialect of %s", pl.Folder, d.Platform)
		}
		if pl.Dialect() == d {
			t.Errorf("platforms/%s: Dialect returns the same value twice; build a fresh one", pl.Folder)
		}
	}
	var want []string
	for _, p := range Needing("push dialect") {
		want = append(want, string(p.Name))
	}
	slices.Sort(want)
	if got := Pushable(); !slices.Equal(got, want) {
		t.Errorf("Pushable() = %v, want %v", got, want)
	}
}

// TestTransactionsAgreeWithDialects: every folder's push transaction is of
// the kind its dialect names, and a named transaction can be found and
// removed again (push checks the same through transactionFor).
func TestTransactionsAgreeWithDialects(t *testing.T) {
	for _, pl := range Needing("push transaction") {
		tx := pl.Transaction
		switch {
		case tx.Run == nil:
			t.Errorf("platforms/%s: no push transaction (txn.go)", pl.Folder)
		case tx.Kind != pl.Dialect().Transaction:
			t.Errorf("platforms/%s: transaction %s, its dialect says %s", pl.Folder, tx.Kind, pl.Dialect().Transaction)
		case tx.Named && (tx.Leftovers == nil || tx.Remove == nil):
			t.Errorf("platforms/%s: named transaction %s cannot be found or removed", pl.Folder, tx.Kind)
		}
	}
}
