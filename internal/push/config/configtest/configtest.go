// Package configtest holds the checks of push's config kit that the
// platform folders' tests run on their own dialect: the kit is one, the
// vendor text each folder's test feeds it is the folder's.
package configtest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
)

// Changes compares running with rendered on d and checks the commands of
// the change set are want, in order, and that a change set is empty
// exactly when the diff is.
func Changes(t *testing.T, d *dialect.Dialect, running, rendered string, want []string) {
	t.Helper()
	cmp, err := config.Compare("dev", running, rendered, d)
	if err != nil {
		t.Fatal(err)
	}
	got := cmp.Changes.Commands()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("commands:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if cmp.Changes.Empty() != (cmp.Diff.Text == "") {
		t.Errorf("change set empty=%v but diff %q", cmp.Changes.Empty(), cmp.Diff.Text)
	}
}

// ScopeCase is an unverified record's scope on a device, and what
// VerifiedScope and DerivableScope must make of it.
type ScopeCase struct {
	// Running, Render and Scope are the device's config, the render and
	// the record's claimed scope.
	Running, Render, Scope string
	// VerifiedHas are parts of VerifiedScope's answer.
	VerifiedHas []string
	// DerivedHas and DerivedLacks are parts DerivableScope keeps and
	// drops.
	DerivedHas, DerivedLacks []string
	// Held are the claims DerivableScope holds back.
	Held []string
}

// Scope checks c on d: of the claims the device bears out, VerifiedScope
// keeps each; DerivableScope keeps only those the render or fabricgen's
// naming re-derives, and lists the rest as held back; and the scope kept
// from a config parsed once compares as the same scope parsed again from
// its text.
func Scope(t *testing.T, d *dialect.Dialect, c ScopeCase) {
	t.Helper()
	v, err := config.VerifiedScope(c.Running, c.Render, c.Scope, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range c.VerifiedHas {
		if !strings.Contains(v, s) {
			t.Errorf("VerifiedScope lacks %q:\n%s", s, v)
		}
	}
	got, held, err := config.DerivableScope(c.Running, c.Render, c.Scope, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range c.DerivedHas {
		if !strings.Contains(got, s) {
			t.Errorf("DerivableScope lacks %q:\n%s", s, got)
		}
	}
	for _, s := range c.DerivedLacks {
		if strings.Contains(got, s) {
			t.Errorf("DerivableScope keeps %q:\n%s", s, got)
		}
	}
	if !reflect.DeepEqual(held, c.Held) {
		t.Errorf("held %q, want %q", held, c.Held)
	}
	for _, trust := range []bool{true, false} {
		kept, _, err := config.CheckScope(c.Running, config.NewSource(c.Render, d), config.NewSource(c.Scope, d), d, trust)
		if err != nil {
			t.Fatal(err)
		}
		once, err1 := config.CompareSource("d", c.Running, config.NewSource(c.Render, d), kept, d)
		again, err2 := config.CompareScoped("d", c.Running, c.Render, kept.Text(), d)
		if err1 != nil || err2 != nil || !reflect.DeepEqual(once, again) {
			t.Errorf("trust %v: the kept scope parsed once compares otherwise than its text (%v, %v):\n%+v\n%+v", trust, err1, err2, once, again)
		}
	}
}
