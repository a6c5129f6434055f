package schema

import (
	"fmt"
	"math/big"
	"net/netip"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// decoder collects diagnostics while typed values are read out of HCL
// bodies. It is safe for concurrent use.
type decoder struct {
	mu    sync.Mutex
	diags Diagnostics
	seen  map[string]bool
	// invariant caches the values of expressions that cannot differ between
	// (and marks those that can)
	// for_each/count instances (they refer to nothing but var, local and
	// block references), so a block expanded 65,536 times evaluates its
	// constant attributes once.
	invariant sync.Map // hclsyntax.Expression → cachedValue
	// budget counts what expressions have built, for the limits of limits.go.
	budget *budget
	// required holds the attributes a schema requires (*hcl.Attribute →
	// true): null is not a value for them.
	required sync.Map
	// badVars says a variable was given a value that is not one (its
	// error is recorded) and has none: the values computed from it are
	// unknown, and are not errors of their own.
	badVars bool
}

// cachedValue is an evaluated invariant expression; ok=false means its
// evaluation failed or was null (the diagnostics were recorded then).
type cachedValue struct {
	v  cty.Value
	ok bool
	// variant marks an expression that differs per instance: never cached.
	variant bool
	// coll is set for a variant index expression whose collection is
	// invariant (name = local.names[count.index]): the collection is
	// evaluated once and only the key per instance.
	coll *cty.Value
}

// instanceInvariant reports whether expr's value is the same in every
// instance of its block.
func instanceInvariant(expr hclsyntax.Expression) bool {
	for _, tr := range expr.Variables() {
		switch root := tr.RootName(); {
		case root == "var" || root == "local" || isRefKind(root):
		default:
			return false
		}
	}
	return true
}

// instanceInvariantCached is instanceInvariant, answered from the
// evaluation cache when expr was evaluated before.
func instanceInvariantCached(d *decoder, expr hclsyntax.Expression) bool {
	if cv, hit := loadAs[cachedValue](&d.invariant, expr); hit {
		return !cv.variant
	}
	return instanceInvariant(expr)
}

func newDecoder() *decoder { return &decoder{seen: map[string]bool{}, budget: newBudget()} }

// add records a diagnostic unless an identical one (same subject and summary)
// was recorded already: HCL often reports one mistake twice.
func (d *decoder) add(diag *Diagnostic) {
	key := diag.Summary
	if diag.Subject != nil {
		key = fmt.Sprintf("%s@%s:%d", diag.Summary, diag.Subject.Filename, diag.Subject.Start.Byte)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.seen[key] {
		return
	}
	d.seen[key] = true
	d.diags = append(d.diags, diag)
}

// errorf records an error at rng.
func (d *decoder) errorf(rng hcl.Range, summary, detail string, args ...any) {
	r := convRange(rng)
	d.add(&Diagnostic{Severity: SevError, Summary: summary, Detail: fmt.Sprintf(detail, args...), Subject: &r})
}

// addHCL converts and records HCL diagnostics, dropping the consequential
// "value must be known" errors HCL adds after a failed reference.
func (d *decoder) addHCL(ds hcl.Diagnostics) {
	for _, h := range ds {
		if h.Summary == "Unsuitable value type" || strings.Contains(h.Detail, "value must be known") {
			continue
		}
		diag := &Diagnostic{Summary: h.Summary, Detail: h.Detail, Severity: SevError}
		if h.Severity == hcl.DiagWarning {
			diag.Severity = SevWarning
		}
		if h.Subject != nil {
			r := convRange(*h.Subject)
			diag.Subject = &r
		}
		if h.Context != nil {
			r := convRange(*h.Context)
			diag.Context = &r
		}
		d.add(diag)
	}
}

// convPos narrows an HCL position; files are at most MaxFileSize bytes, so
// every offset fits an int32.
func convPos(p hcl.Pos) Pos {
	return Pos{Line: int32(p.Line), Column: int32(p.Column), Byte: int32(p.Byte)}
}

// RangeFromHCL converts an HCL source range (packages that parse HCL of
// their own, such as lint's suppressions, report through it).
func RangeFromHCL(r hcl.Range) Range { return convRange(r) }

func convRange(r hcl.Range) Range {
	return Range{
		Filename: r.Filename,
		Start:    convPos(r.Start),
		End:      convPos(r.End),
	}
}

// eval evaluates an attribute. ok is false on error, on an unknown value,
// and on null (an attribute set to null counts as unset).
func (d *decoder) eval(attr *hcl.Attribute, ctx *hcl.EvalContext) (cty.Value, bool) {
	native, isNative := attr.Expr.(hclsyntax.Expression)
	if !isNative {
		return d.evalUncached(attr, ctx)
	}
	if c, hit := loadAs[cachedValue](&d.invariant, native); hit {
		ix, isIndex := native.(*hclsyntax.IndexExpr)
		switch {
		case !c.variant:
			return c.v, c.ok
		case c.coll != nil && isIndex:
			return d.evalIndex(attr, ix, *c.coll, ctx)
		}
		return d.evalUncached(attr, ctx)
	}
	if instanceInvariant(native) {
		v, ok := d.evalUncached(attr, ctx)
		d.invariant.Store(native, cachedValue{v: v, ok: ok})
		return v, ok
	}
	if ie, isIndex := native.(*hclsyntax.IndexExpr); isIndex && instanceInvariant(ie.Collection) {
		if coll, ds := ie.Collection.Value(ctx); !ds.HasErrors() && d.budget.chargeWalk(coll, walksRead) == nil && coll.IsWhollyKnown() {
			d.invariant.Store(native, cachedValue{variant: true, coll: &coll})
			return d.evalIndex(attr, ie, coll, ctx)
		}
	}
	d.invariant.Store(native, cachedValue{variant: true})
	return d.evalUncached(attr, ctx)
}

// evalIndex evaluates ie, whose collection value is already known, as
// hclsyntax.IndexExpr.Value would.
func (d *decoder) evalIndex(attr *hcl.Attribute, ie *hclsyntax.IndexExpr, coll cty.Value, ctx *hcl.EvalContext) (cty.Value, bool) {
	key, ds := ie.Key.Value(ctx)
	if ds.HasErrors() {
		return d.checkValue(attr, cty.NilVal, ds)
	}
	v, ids := hcl.Index(coll, key, &ie.BracketRange)
	return d.checkValue(attr, v, append(ds, ids...))
}

func (d *decoder) evalUncached(attr *hcl.Attribute, ctx *hcl.EvalContext) (cty.Value, bool) {
	v, ds := attr.Expr.Value(ctx)
	return d.checkValue(attr, v, ds)
}

// checkValue records an evaluation's diagnostics and accepts only known,
// non-null values.
func (d *decoder) checkValue(attr *hcl.Attribute, v cty.Value, ds hcl.Diagnostics) (cty.Value, bool) {
	d.addHCL(ds)
	if ds.HasErrors() || !d.checkSize(v, attr.Expr.Range(), fmt.Sprintf("%q", attr.Name)) {
		return cty.NilVal, false
	}
	if !v.IsWhollyKnown() {
		if !d.badVars {
			d.errorf(attr.Expr.Range(), "Value not known", "The value of %q cannot be known when the fabric is loaded.", attr.Name)
		}
		return cty.NilVal, false
	}
	if v.IsNull() {
		d.nullRequired(attr)
		return cty.NilVal, false
	}
	return v, true
}

// markRequired records which of c's attributes schema s requires.
func (d *decoder) markRequired(c *hcl.BodyContent, s *hcl.BodySchema) {
	for _, as := range s.Attributes {
		if a, ok := c.Attributes[as.Name]; ok && as.Required {
			d.required.Store(a, true)
		}
	}
}

// nullRequired reports attr when its schema requires it: an attribute set
// to null counts as unset, and a required one cannot be unset.
func (d *decoder) nullRequired(attr *hcl.Attribute) {
	if _, req := d.required.Load(attr); req {
		d.errorf(attr.Expr.Range(), "Missing required value", "%q is required, but its value is null. Give it a value (a variable or expression that yields null does not count).", attr.Name)
	}
}

func typeName(t cty.Type) string { return t.FriendlyName() }

func (d *decoder) str(attrs hcl.Attributes, name string, ctx *hcl.EvalContext) Value[string] {
	attr, ok := attrs[name]
	if !ok {
		return Value[string]{}
	}
	v, ok := d.eval(attr, ctx)
	if !ok {
		return Value[string]{}
	}
	if v.Type() != cty.String {
		d.errorf(attr.Expr.Range(), "Incorrect attribute type", "%q must be a string, not %s.", name, typeName(v.Type()))
		return Value[string]{}
	}
	return Value[string]{V: v.AsString(), Set: true, Src: convRange(attr.Range)}
}

// text reads a description: free text checked by checkText with rule.
func (d *decoder) text(attrs hcl.Attributes, name string, ctx *hcl.EvalContext, rule TextRule) Value[string] {
	s := d.str(attrs, name, ctx)
	if !s.Set {
		return s
	}
	if err := checkText(s.V, rule); err != nil {
		d.errorf(attrs[name].Expr.Range(), "Invalid "+name, "%q cannot be a %s: %v. A %s is %s.", s.V, name, err, name, textForm)
		return Value[string]{}
	}
	return s
}

func (d *decoder) boolean(attrs hcl.Attributes, name string, ctx *hcl.EvalContext) Value[bool] {
	attr, ok := attrs[name]
	if !ok {
		return Value[bool]{}
	}
	v, ok := d.eval(attr, ctx)
	if !ok {
		return Value[bool]{}
	}
	if v.Type() != cty.Bool {
		d.errorf(attr.Expr.Range(), "Incorrect attribute type", "%q must be true or false, not %s.", name, typeName(v.Type()))
		return Value[bool]{}
	}
	return Value[bool]{V: v.True(), Set: true, Src: convRange(attr.Range)}
}

// number converts a cty number to an int within [lo, hi].
func (d *decoder) number(v cty.Value, rng hcl.Range, what string, lo, hi int) (int, bool) {
	if v.IsNull() {
		d.errorf(rng, "Null value", "%s is null; give it a number between %d and %d, or leave it out.", what, lo, hi)
		return 0, false
	}
	if v.Type() != cty.Number {
		d.errorf(rng, "Incorrect attribute type", "%s must be a number, not %s.", what, typeName(v.Type()))
		return 0, false
	}
	bf := v.AsBigFloat()
	if !bf.IsInt() {
		d.errorf(rng, "Invalid value", "%s must be a whole number; got %s.", what, bf.Text('g', -1))
		return 0, false
	}
	i, acc := bf.Int64()
	if acc != big.Exact || i < int64(lo) || i > int64(hi) {
		d.errorf(rng, "Value out of range", "%s must be between %d and %d; got %s.", what, lo, hi, bf.Text('f', 0))
		return 0, false
	}
	return int(i), true
}

func (d *decoder) integer(attrs hcl.Attributes, name string, ctx *hcl.EvalContext, lo, hi int) Value[int] {
	attr, ok := attrs[name]
	if !ok {
		return Value[int]{}
	}
	v, ok := d.eval(attr, ctx)
	if !ok {
		return Value[int]{}
	}
	i, ok := d.number(v, attr.Expr.Range(), fmt.Sprintf("%q", name), lo, hi)
	if !ok {
		return Value[int]{}
	}
	return Value[int]{V: i, Set: true, Src: convRange(attr.Range)}
}

// intList reads a number or a list of numbers, each within [lo, hi], sorted and unique.
func (d *decoder) intList(attrs hcl.Attributes, name string, ctx *hcl.EvalContext, lo, hi int) Value[[]int] {
	attr, ok := attrs[name]
	if !ok {
		return Value[[]int]{}
	}
	v, ok := d.eval(attr, ctx)
	if !ok {
		return Value[[]int]{}
	}
	what := fmt.Sprintf("each element of %q", name)
	var out []int
	if v.Type() == cty.Number {
		i, ok := d.number(v, attr.Expr.Range(), fmt.Sprintf("%q", name), lo, hi)
		if !ok {
			return Value[[]int]{}
		}
		out = []int{i}
	} else if v.CanIterateElements() && !v.Type().IsMapType() && !v.Type().IsObjectType() {
		good := true
		seen := map[int]bool{}
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			i, ok := d.number(e, attr.Expr.Range(), what, lo, hi)
			if !ok {
				good = false
				continue
			}
			if seen[i] {
				d.errorf(attr.Expr.Range(), "Duplicate value", "%d appears more than once in %q.", i, name)
				good = false
				continue
			}
			seen[i] = true
			out = append(out, i)
		}
		if !good {
			return Value[[]int]{}
		}
		sort.Ints(out)
	} else {
		d.errorf(attr.Expr.Range(), "Incorrect attribute type", "%q must be a number or a list of numbers, not %s.", name, typeName(v.Type()))
		return Value[[]int]{}
	}
	if out == nil {
		out = []int{}
	}
	return Value[[]int]{V: out, Set: true, Src: convRange(attr.Range)}
}

// enum reads a string that must be one of allowed.
func (d *decoder) enum(attrs hcl.Attributes, name string, ctx *hcl.EvalContext, allowed ...string) Value[string] {
	s := d.str(attrs, name, ctx)
	if !s.Set {
		return s
	}
	for _, a := range allowed {
		if s.V == a {
			return s
		}
	}
	d.errorf(attrs[name].Expr.Range(), "Invalid value for \""+name+"\"", "%q is not one of %s.%s", s.V, quoteList(allowed), suggest(s.V, allowed))
	return Value[string]{}
}

// unitValue reads a string with a unit through parse.
func unitValue[T any](d *decoder, attrs hcl.Attributes, name string, ctx *hcl.EvalContext, parse func(string) (T, error)) Value[T] {
	attr, ok := attrs[name]
	if !ok {
		return Value[T]{}
	}
	v, ok := d.eval(attr, ctx)
	if !ok {
		return Value[T]{}
	}
	if v.Type() != cty.String {
		var example string
		if v.Type() == cty.Number {
			example = fmt.Sprintf(" Write the unit, e.g. \"%sKB\", \"%sG\", \"%sms\" or \"%sm\".", v.AsBigFloat().Text('f', -1), v.AsBigFloat().Text('f', -1), v.AsBigFloat().Text('f', -1), v.AsBigFloat().Text('f', -1))
		}
		d.errorf(attr.Expr.Range(), "Missing unit", "%q must be a string with a unit, not %s.%s", name, typeName(v.Type()), example)
		return Value[T]{}
	}
	t, err := parse(v.AsString())
	if err != nil {
		d.errorf(attr.Expr.Range(), "Invalid value for \""+name+"\"", "%s.", err.Error())
		return Value[T]{}
	}
	return Value[T]{V: t, Set: true, Src: convRange(attr.Range)}
}

func (d *decoder) prefix(attrs hcl.Attributes, name string, ctx *hcl.EvalContext, hostBitsOK bool) Value[netip.Prefix] {
	s := d.str(attrs, name, ctx)
	if !s.Set {
		return Value[netip.Prefix]{}
	}
	p, err := netip.ParsePrefix(s.V)
	if err != nil {
		d.errorf(attrs[name].Expr.Range(), "Invalid prefix", "%q is not an IPv4 or IPv6 prefix in CIDR form (e.g. \"10.0.1.0/24\" or \"2001:db8::/64\").", s.V)
		return Value[netip.Prefix]{}
	}
	if !hostBitsOK && p.Masked() != p {
		d.errorf(attrs[name].Expr.Range(), "Invalid prefix", "%q has host bits set; the network is %s.", s.V, p.Masked())
		return Value[netip.Prefix]{}
	}
	return Value[netip.Prefix]{V: p, Set: true, Src: s.Src}
}

// portRanges reads an L4 port match: a number, "a-b", or a list of those.
func (d *decoder) portRanges(attrs hcl.Attributes, name string, ctx *hcl.EvalContext) Value[[]PortRange] {
	attr, ok := attrs[name]
	if !ok {
		return Value[[]PortRange]{}
	}
	v, ok := d.eval(attr, ctx)
	if !ok {
		return Value[[]PortRange]{}
	}
	var elems []cty.Value
	if v.Type() == cty.Number || v.Type() == cty.String {
		elems = []cty.Value{v}
	} else if v.CanIterateElements() && !v.Type().IsObjectType() && !v.Type().IsMapType() {
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			elems = append(elems, e)
		}
	} else {
		d.errorf(attr.Expr.Range(), "Incorrect attribute type", "%q must be a port number, a range \"a-b\", or a list of those.", name)
		return Value[[]PortRange]{}
	}
	var out []PortRange
	for _, e := range elems {
		if e.IsNull() {
			d.errorf(attr.Expr.Range(), "Null value", "An element of %q is null; write a port number or a range \"a-b\", or remove it.", name)
			return Value[[]PortRange]{}
		}
		switch e.Type() {
		case cty.Number:
			p, ok := d.number(e, attr.Expr.Range(), fmt.Sprintf("%q", name), 0, 65535)
			if !ok {
				return Value[[]PortRange]{}
			}
			out = append(out, PortRange{p, p})
		case cty.String:
			a, b, found := strings.Cut(e.AsString(), "-")
			lo, err1 := strconv.Atoi(strings.TrimSpace(a))
			hi, err2 := lo, error(nil)
			if found {
				hi, err2 = strconv.Atoi(strings.TrimSpace(b))
			}
			if err1 != nil || err2 != nil || lo < 0 || hi > 65535 || lo > hi {
				d.errorf(attr.Expr.Range(), "Invalid port range", "%q is not a port or a range like \"4791\" or \"49152-65535\" (0–65535, low first).", e.AsString())
				return Value[[]PortRange]{}
			}
			out = append(out, PortRange{lo, hi})
		default:
			d.errorf(attr.Expr.Range(), "Incorrect attribute type", "%q elements must be numbers or \"a-b\" strings.", name)
			return Value[[]PortRange]{}
		}
	}
	return Value[[]PortRange]{V: out, Set: true, Src: convRange(attr.Range)}
}

// intMap reads a map such as dscp_map = { "26" = 3 }: keys in [klo, khi], values in [vlo, vhi].
func (d *decoder) intMap(attrs hcl.Attributes, name string, ctx *hcl.EvalContext, klo, khi, vlo, vhi int) map[int]Value[int] {
	attr, ok := attrs[name]
	if !ok {
		return nil
	}
	v, ok := d.eval(attr, ctx)
	if !ok {
		return nil
	}
	if !v.Type().IsObjectType() && !v.Type().IsMapType() {
		d.errorf(attr.Expr.Range(), "Incorrect attribute type", "%q must be a map like { \"26\" = 3 }, not %s.", name, typeName(v.Type()))
		return nil
	}
	out := map[int]Value[int]{}
	src := convRange(attr.Range)
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		ki, err := strconv.Atoi(k.AsString())
		if err != nil || ki < klo || ki > khi {
			d.errorf(attr.Expr.Range(), "Invalid map key", "key %q of %q must be a number between %d and %d.", k.AsString(), name, klo, khi)
			continue
		}
		vi, ok := d.number(e, attr.Expr.Range(), fmt.Sprintf("%s[%q]", name, k.AsString()), vlo, vhi)
		if !ok {
			continue
		}
		out[ki] = Value[int]{V: vi, Set: true, Src: src}
	}
	return out
}

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = strconv.Quote(x)
	}
	return strings.Join(q, ", ")
}
