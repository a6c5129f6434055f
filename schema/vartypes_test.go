package schema

import (
	"strings"
	"testing"
)

// TestComplexVariableTypes: a variable's type may be any type constraint
// (docs/language.md). The evaluation bounds wrap every function argument
// and must not hide list(number)'s keyword from typeexpr.TypeConstraint
// (they once made every complex type an "Invalid type specification"):
// the fabric loads with the default and with a -var of the type, and a
// -var of another type is refused against the declared type.
func TestComplexVariableTypes(t *testing.T) {
	for _, c := range []struct{ typ, def, set, bad string }{
		{"list(number)", "[1, 2]", "[3]", `["x"]`},
		{"map(string)", `{a = "x"}`, `{b = "y"}`, `["x"]`},
		{"set(string)", `["a"]`, `["b", "b"]`, `{a = {}}`},
		{"object({n = number, s = string})", `{n = 1, s = "a"}`, `{n = 2, s = "b"}`, `{n = "x", s = "b"}`},
		{"tuple([string, number])", `["a", 1]`, `["b", 2]`, `["b"]`},
		{"list(list(number))", "[[1]]", "[[2, 3]]", "[3]"},
	} {
		t.Run(c.typ, func(t *testing.T) {
			dir := mkFabric(t, map[string]string{
				"fabric.fab.hcl": precedenceFabric,
				"vars.fab.hcl":   "variable \"v\" {\n  type    = " + c.typ + "\n  default = " + c.def + "\n}\n",
			})
			mustLoad(t, dir, Options{Platforms: testCatalog()})
			mustLoad(t, dir, Options{Vars: map[string]string{"v": c.set}, Platforms: testCatalog()})
			_, ds := Load(dir, Options{Vars: map[string]string{"v": c.bad}, Platforms: testCatalog()})
			if !ds.HasErrors() || !strings.Contains(ds.Error(), "Invalid value for variable") {
				t.Fatalf("-var v=%s: want an invalid value error, got %v", c.bad, ds.Error())
			}
		})
	}
}
