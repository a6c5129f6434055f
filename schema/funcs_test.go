package schema

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func evalString(t *testing.T, src string) (string, hcl.Diagnostics) {
	t.Helper()
	expr, ds := hclsyntax.ParseExpression([]byte(src), "test", hcl.InitialPos)
	if ds.HasErrors() {
		t.Fatalf("parse %s: %s", src, ds.Error())
	}
	v, ds := expr.Value(&hcl.EvalContext{Functions: Functions()})
	if ds.HasErrors() {
		return "", ds
	}
	if v.Type().FriendlyName() == "number" {
		return v.AsBigFloat().Text('f', -1), nil
	}
	return v.AsString(), nil
}

func TestFunctions(t *testing.T) {
	for _, tc := range []struct{ expr, want string }{
		{`cidrhost("10.1.2.0/31", 1)`, "10.1.2.1"},
		{`cidrhost("10.1.2.0/24", -1)`, "10.1.2.255"},
		{`cidrhost("2001:db8::/64", 5)`, "2001:db8::5"},
		{`cidrsubnet("10.0.0.0/8", 8, 2)`, "10.2.0.0/16"},
		{`cidrsubnet("100.64.0.0/10", 21, 5)`, "100.64.0.10/31"},
		{`cidrsubnet("2001:db8::/32", 16, 1)`, "2001:db8:1::/48"},
		{`format("leaf%02d", 7)`, "leaf07"},
		{`index(["a", "b", "c"], "c")`, "2"},
		{`join(",", [for i in range(3) : tostring(i)])`, "0,1,2"},
		{`length(toset(["a", "a", "b"]))`, "2"},
	} {
		got, ds := evalString(t, tc.expr)
		if ds.HasErrors() || got != tc.want {
			t.Errorf("%s = %q (%v), want %q", tc.expr, got, ds, tc.want)
		}
	}
	for _, bad := range []string{
		`cidrhost("10.0.0.0/31", 2)`, `cidrsubnet("10.0.0.0/30", 8, 0)`, `cidrsubnet("10.0.0.0/24", 2, 4)`,
		`cidrhost("nonsense", 1)`, `index(["a"], "z")`,
	} {
		if _, ds := evalString(t, bad); !ds.HasErrors() {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestRangeLarge(t *testing.T) {
	got, ds := evalString(t, `length(range(2048))`)
	if ds.HasErrors() || got != "2048" {
		t.Errorf("range(2048): %q %v", got, ds)
	}
	for expr, want := range map[string]string{`join(",", [for i in range(1, 7, 2) : tostring(i)])`: "1,3,5", `join(",", [for i in range(3, 0, -1) : tostring(i)])`: "3,2,1", `length(range(0))`: "0"} {
		if got, ds := evalString(t, expr); ds.HasErrors() || got != want {
			t.Errorf("%s = %q %v, want %q", expr, got, ds, want)
		}
	}
	if _, ds := evalString(t, `range(1, 2, 0)`); !ds.HasErrors() {
		t.Error("zero step accepted")
	}
}

// TestFlatten compares flatten with go-cty's stdlib version it replaces.
func TestFlatten(t *testing.T) {
	for _, src := range []string{
		`[]`, `[[]]`, `[1, [2, [3, "a"]], [], toset(["x", "y"])]`, `[[["deep"]]]`, `tolist([[1, 2], [3]])`,
		`[null, [null]]`, `[{ a = 1 }, [{ b = 2 }]]`, `toset([])`, `[for l in ["a", "b"] : [for h in [1, 2] : "${l}${h}"]]`,
	} {
		expr, ds := hclsyntax.ParseExpression([]byte(src), "test", hcl.InitialPos)
		if ds.HasErrors() {
			t.Fatalf("parse %s: %s", src, ds.Error())
		}
		arg, ds := expr.Value(&hcl.EvalContext{Functions: Functions()})
		if ds.HasErrors() {
			t.Fatalf("%s: %s", src, ds.Error())
		}
		want, err := stdlib.Flatten(arg)
		if err != nil {
			t.Fatalf("stdlib flatten %s: %v", src, err)
		}
		got, err := flattenFunc.Call([]cty.Value{arg})
		if err != nil || !got.RawEquals(want) {
			t.Errorf("flatten(%s) = %#v (%v), want %#v", src, got, err, want)
		}
	}
	for _, bad := range []string{`flatten("x")`, `flatten({ a = 1 })`, `flatten(null)`} {
		if _, ds := evalString(t, bad); !ds.HasErrors() {
			t.Errorf("%s: no error", bad)
		}
	}
}

func BenchmarkToSetLarge(b *testing.B) {
	expr, _ := hclsyntax.ParseExpression([]byte(`length(toset([for i in range(65536) : "n${i}"]))`), "b", hcl.InitialPos)
	ctx := &hcl.EvalContext{Functions: Functions()}
	for b.Loop() {
		if _, ds := expr.Value(ctx); ds.HasErrors() {
			b.Fatal(ds.Error())
		}
	}
}

func TestLengthOfObject(t *testing.T) {
	for expr, want := range map[string]string{`length({ a = 1, b = "x" })`: "2", `length([1, 2, 3])`: "3", `length({})`: "0"} {
		if got, ds := evalString(t, expr); ds.HasErrors() || got != want {
			t.Errorf("%s = %q %v, want %q", expr, got, ds, want)
		}
	}
}
