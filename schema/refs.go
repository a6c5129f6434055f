package schema

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// refKinds are the block types that other blocks refer to as KIND.NAME.
var refKinds = []string{"traffic_class", "ecn_profile", "pfc_watchdog", "qos_policy", "acl"}

func isRefKind(s string) bool { return IsRefKind(s) }

// IsRefKind reports whether blocks of type s are referred to as s.NAME
// (traffic_class, ecn_profile, pfc_watchdog, qos_policy, acl).
func IsRefKind(s string) bool {
	for _, k := range refKinds {
		if k == s {
			return true
		}
	}
	return false
}

// declareRefs records every referenceable name (reporting duplicates with
// the first declaration) and exposes them to expressions as objects, so
// that qos_policy.x evaluates to "qos_policy.x" inside conditionals too.
func (r *resolver) declareRefs(ctx *hcl.EvalContext, blocks map[string]hcl.Blocks) {
	for _, kind := range append(append([]string{}, refKinds...), "subnet", "role", "partition") {
		names := map[string]hcl.Range{}
		obj := map[string]cty.Value{}
		var folds foldIndex[string]
		exact := map[string]string{}
		for _, b := range blocks[kind] {
			name := b.Labels[0]
			if prev, dup := names[name]; dup {
				r.d.errorf(b.LabelRanges[0], "Duplicate "+kind, "A %s named %q was already declared at %s. Names must be unique; rename one of them.", kind, name, convRange(prev))
				continue
			}
			if kind != "role" && !r.checkLabel(b, kind) {
				continue
			}
			if prev, dup := folds.clash(name, exact); dup {
				r.d.errorf(b.LabelRanges[0], "Duplicate "+kind, "A %s named %q was already declared at %s. Names must differ in more than letter case; rename one of them.", kind, prev, convRange(names[prev]))
				continue
			}
			folds.add(name, name)
			exact[name] = name
			names[name] = b.DefRange
			obj[name] = cty.StringVal(kind + "." + name)
		}
		r.declared[kind] = names
		if isRefKind(kind) {
			ctx.Variables[kind] = cty.ObjectVal(obj)
		}
	}
}

// checkLabel checks the name label of a block of kind (an object name);
// a bad name is reported at the label and the block is skipped.
func (r *resolver) checkLabel(b *hcl.Block, kind string) bool {
	if err := checkObjectName(b.Labels[0]); err != nil {
		r.d.errorf(b.LabelRanges[0], "Invalid "+kind+" name", "%q cannot name a %s: %v. A name is %s; it is printed into device configurations as is.", b.Labels[0], kind, err, objectNameForm)
		return false
	}
	return true
}

// declaredNames returns the sorted declared names of kind.
func (r *resolver) declaredNames(kind string) []string {
	out := make([]string, 0, len(r.declared[kind]))
	for n := range r.declared[kind] {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// refExprs splits a list expression into its elements when it is written
// as a tuple, so each reference gets its own range.
func refExprs(expr hcl.Expression) ([]hcl.Expression, bool) {
	exprs, ds := hcl.ExprList(expr)
	if ds.HasErrors() {
		return nil, false
	}
	return exprs, true
}

// refOne resolves one reference expression to a declared name of kind.
// offOK lets the string "off" through (returned as "off").
func (r *resolver) refOne(expr hcl.Expression, ctx *hcl.EvalContext, kind string, offOK bool) (string, bool) {
	return r.refOneAttr(nil, expr, ctx, kind, offOK)
}

// refOneAttr is refOne for the whole expression of attr, which reports a
// null value when attr is required.
func (r *resolver) refOneAttr(attr *hcl.Attribute, expr hcl.Expression, ctx *hcl.EvalContext, kind string, offOK bool) (string, bool) {
	if tr, ds := hcl.AbsTraversalForExpr(expr); !ds.HasErrors() && len(tr) == 2 && isRefKind(tr.RootName()) {
		at, ok := tr[1].(hcl.TraverseAttr)
		if ok {
			return r.checkRef(expr.Range(), tr.RootName(), at.Name, kind)
		}
	}
	v, ds := expr.Value(ctx)
	r.d.addHCL(ds)
	if ds.HasErrors() || !r.d.checkSize(v, expr.Range(), kind+" reference") {
		return "", false
	}
	if v.IsNull() && attr == nil {
		// An element of a list: null is no reference, and dropping it
		// would silently drop what it stood for (a class, an ACL).
		r.d.errorf(expr.Range(), "Null reference", "This element of the list is null, not a %s reference. Remove it or give it a %s.NAME reference.", kind, kind)
		return "", false
	}
	if v.IsNull() || !v.IsKnown() {
		if v.IsNull() {
			r.d.nullRequired(attr)
		}
		return "", false
	}
	if v.Type() != cty.String {
		r.d.errorf(expr.Range(), "Invalid reference", "Expected a %s reference such as %s.NAME, got %s.", kind, kind, v.Type().FriendlyName())
		return "", false
	}
	s := v.AsString()
	if offOK && s == "off" {
		return "off", true
	}
	if k, n, ok := strings.Cut(s, "."); ok && isRefKind(k) {
		return r.checkRef(expr.Range(), k, n, kind)
	}
	return r.checkRef(expr.Range(), kind, s, kind)
}

func (r *resolver) checkRef(rng hcl.Range, gotKind, name, kind string) (string, bool) {
	if gotKind != kind {
		r.d.errorf(rng, "Wrong kind of reference", "Expected a %s reference (%s.NAME) here, not %s.%s.", kind, kind, gotKind, name)
		return "", false
	}
	if _, ok := r.declared[kind][name]; !ok {
		r.d.errorf(rng, "Reference to undeclared "+kind, "No %s named %q is declared.%s", kind, name, suggest(name, r.declaredNames(kind)))
		return "", false
	}
	return name, true
}

// refAttr resolves an optional single-reference attribute.
func (r *resolver) refAttr(attrs hcl.Attributes, name string, ctx *hcl.EvalContext, kind string, offOK bool) (string, hcl.Range, bool) {
	a, ok := attrs[name]
	if !ok {
		return "", hcl.Range{}, false
	}
	n, ok := r.refOneAttr(a, a.Expr, ctx, kind, offOK)
	return n, a.Range, ok
}

// refList resolves a list of references (or a single reference).
func (r *resolver) refList(attrs hcl.Attributes, name string, ctx *hcl.EvalContext, kind string) ([]string, hcl.Range, bool) {
	a, ok := attrs[name]
	if !ok {
		return nil, hcl.Range{}, false
	}
	if exprs, ok := refExprs(a.Expr); ok {
		var out []string
		good := true
		for _, e := range exprs {
			n, ok := r.refOne(e, ctx, kind, false)
			if ok {
				out = append(out, n)
			} else {
				good = false
			}
		}
		return out, a.Range, good
	}
	v, ds := a.Expr.Value(ctx)
	r.d.addHCL(ds)
	if ds.HasErrors() || !r.d.checkSize(v, a.Expr.Range(), fmt.Sprintf("%q", name)) || !v.IsWhollyKnown() || v.IsNull() {
		if !ds.HasErrors() && v.IsNull() {
			r.d.nullRequired(a)
		}
		return nil, a.Range, false
	}
	if v.Type() == cty.String {
		n, ok := r.refOne(a.Expr, ctx, kind, false)
		return []string{n}, a.Range, ok
	}
	if !v.CanIterateElements() {
		r.d.errorf(a.Expr.Range(), "Invalid reference list", "%q must be a list of %s references.", name, kind)
		return nil, a.Range, false
	}
	var out []string
	good := true
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e.IsNull() {
			r.d.errorf(a.Expr.Range(), "Null reference", "An element of %q is null, not a %s reference. Remove it or give it a %s.NAME reference.", name, kind, kind)
			return nil, a.Range, false
		}
		if e.Type() != cty.String {
			r.d.errorf(a.Expr.Range(), "Invalid reference list", "%q must be a list of %s references.", name, kind)
			return nil, a.Range, false
		}
		s := strings.TrimPrefix(e.AsString(), kind+".")
		if _, ok := r.checkRef(a.Expr.Range(), kind, s, kind); ok {
			out = append(out, s)
		} else {
			good = false
		}
	}
	return out, a.Range, good
}
