package cli

import (
	"slices"
	"strings"
	"testing"
)

// TestConfigTokens: quoted strings and bracketed lists are one token.
func TestConfigTokens(t *testing.T) {
	cases := []struct {
		in   string
		want []string
		err  bool
	}{
		{`set a b`, []string{"set", "a", "b"}, false},
		{`set d "to gpu01"`, []string{"set", "d", `"to gpu01"`}, false},
		{`set l [  A   B ]`, []string{"set", "l", "[ A B ]"}, false},
		{`set d "open`, nil, true},
		{`set l [ A`, nil, true},
	}
	for _, c := range cases {
		got, err := ConfigTokens(c.in)
		if (err != nil) != c.err || !slices.Equal(got, c.want) {
			t.Errorf("ConfigTokens(%q) = %q, %v; want %q (error %v)", c.in, got, err, c.want, c.err)
		}
	}
}

// TestPathTree: a scalar keyword keeps one value, removing the last
// statement of a hierarchy removes the hierarchy, clones are independent.
func TestPathTree(t *testing.T) {
	scalar := func(p []string) bool { return len(p) == 3 && p[2] == "mtu" }
	tr := NewPathTree(scalar)
	for _, s := range []string{"interfaces et1 mtu 9000", "interfaces et1 mtu 9216", "interfaces et1 description x", "system host-name h"} {
		tr.Set(strings.Fields(s))
	}
	c := tr.Clone()
	if !tr.Remove(strings.Fields("interfaces et1 description x")) || tr.Remove(strings.Fields("interfaces et9")) {
		t.Fatal("Remove reported the wrong presence")
	}
	tr.Remove(strings.Fields("interfaces et1 mtu"))
	got := strings.Join(tr.SetLines(), "|")
	if want := "set system host-name h"; got != want {
		t.Errorf("after removals: %q, want only %q", got, want)
	}
	var lines []string
	for _, s := range c.Statements() {
		lines = append(lines, strings.Join(s, " "))
	}
	if want := "interfaces et1 mtu 9216|interfaces et1 description x|system host-name h"; strings.Join(lines, "|") != want {
		t.Errorf("clone statements %q, want %q", strings.Join(lines, "|"), want)
	}
}

// TestLineOpsOneOpPerElement: the edit script has one op per element of a
// (kept or deleted) and of b (kept or inserted), also when an element
// holds a newline (a fuzzed Junos statement made junosCompare index past
// its lines).
func TestLineOpsOneOpPerElement(t *testing.T) {
	for _, c := range []struct{ a, b []string }{
		{[]string{"x", "y\nz"}, []string{"x", "w"}},
		{nil, []string{"a\n", "\n"}},
		{[]string{"same", "same"}, []string{"same"}},
		{[]string{"a\nb"}, []string{"a", "b"}},
	} {
		ops := LineOps(c.a, c.b)
		var na, nb int
		for _, op := range ops {
			switch op {
			case ' ':
				na++
				nb++
			case '-':
				na++
			case '+':
				nb++
			}
		}
		if na != len(c.a) || nb != len(c.b) {
			t.Errorf("LineOps(%q, %q) = %q: %d ops on a, %d on b", c.a, c.b, ops, na, nb)
		}
	}
}
