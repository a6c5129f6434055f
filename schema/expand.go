package schema

import (
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Values are shared, walks are not. go-cty builds [local.a, local.a] by
// reference, in constant time, but every function call walks its
// arguments as a tree (go-cty looks for marks in each element before the
// function runs), as do comparisons, conversions and the decoder: a chain
// of locals a1 = [a0, a0], a2 = [a1, a1], … is 2^n elements to every walk
// after n short lines. So the expanded size of a value — its elements at
// every level, a value included twice counted twice — is measured before
// anything walks it, and what those walks cost is charged to the load's
// walk budget (MaxEvalWalk). A value may expand to at most
// MaxValueElements elements and nest MaxNesting levels.

// Memory weights of what an expression builds, in budget elements (about
// 130 bytes of heap each, garbage included): a list or tuple element
// costs one, a map or object entry four (two hash maps, the key, the
// value), and a for-expression iteration two (HCL allocates a scope per
// iteration). Measured with examples in bounded_test.go under a 2 GiB
// address-space limit.
const (
	weightElem      = 1
	weightEntry     = 4
	weightIteration = 2
)

// measure walks v and returns its expanded size (the number of values a
// tree walk meets, v included) and how deeply it nests (0 for a
// primitive). It stops as soon as the size passes limit or the nesting
// passes MaxNesting, so it costs at most about limit steps whatever v is.
// Collections of primitives are counted from their type and length.
func measure(v cty.Value, limit int) (size, depth int) {
	if t := v.Type(); t.IsPrimitiveType() {
		return 1, 0
	}
	m := measurer{limit: limit}
	m.walk(v, 0)
	return m.size, m.depth
}

// measurer is measure's walk (a method, not a closure: measure runs for
// every attribute the decoder reads, and a closure would be allocated
// each time).
type measurer struct {
	limit, size, depth int
}

func (m *measurer) walk(v cty.Value, d int) {
	if m.size > m.limit || m.depth > MaxNesting {
		return
	}
	m.size++
	m.depth = max(m.depth, d)
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() {
		return
	}
	t := v.Type()
	if t.IsPrimitiveType() || t == cty.DynamicPseudoType || t.IsCapsuleType() {
		return
	}
	if n := v.LengthInt(); n == 0 {
		return
	} else if flatType(t) {
		m.size += n
		m.depth = max(m.depth, d+1)
		return
	}
	for it := v.ElementIterator(); it.Next() && m.size <= m.limit && m.depth <= MaxNesting; {
		_, e := it.Element()
		m.walk(e, d+1)
	}
}

// flatType reports whether every element of a collection of type t is a
// primitive, so that its length is its expanded size.
func flatType(t cty.Type) bool {
	switch {
	case t.IsListType() || t.IsSetType() || t.IsMapType():
		return t.ElementType().IsPrimitiveType()
	case t.IsTupleType():
		for _, et := range t.TupleElementTypes() {
			if !et.IsPrimitiveType() {
				return false
			}
		}
		return true
	case t.IsObjectType():
		for _, at := range t.AttributeTypes() {
			if !at.IsPrimitiveType() {
				return false
			}
		}
		return true
	}
	return false
}

// typeSize is the number of type nodes a walk of t meets (what comparing
// or unifying two types costs), at most about limit.
func typeSize(t cty.Type, limit int) int {
	n := 0
	var walk func(t cty.Type)
	walk = func(t cty.Type) {
		if n > limit {
			return
		}
		n++
		switch {
		case t.IsListType() || t.IsSetType() || t.IsMapType():
			walk(t.ElementType())
		case t.IsTupleType():
			for _, et := range t.TupleElementTypes() {
				walk(et)
			}
		case t.IsObjectType():
			for _, at := range t.AttributeTypes() {
				walk(at)
			}
		}
	}
	walk(t)
	return n
}

// sizeError explains why a value was refused, or is nil when it is within
// the limits.
func sizeError(size, depth int) error {
	switch {
	case depth > MaxNesting:
		return fmt.Errorf("the value nests more than %d levels deep", MaxNesting)
	case size > MaxValueElements:
		return fmt.Errorf("the value expands to more than %d elements (a value included several times counts each time); build smaller values, or refer to large ones instead of repeating them", MaxValueElements)
	}
	return nil
}

// How many times a value is walked after it is measured: a function
// call walks each argument three times (go-cty looks for marks in the
// wrapper's call and in the wrapped function's type check and call), a
// comparison once, the decoder once (IsWhollyKnown); the measure itself
// is one more walk.
const (
	walksCall    = 4
	walksCompare = 2
	walksRead    = 2
)

// chargeWalk measures v for walks about to happen and charges them to
// the budget: the error says which limit it passes.
func (b *budget) chargeWalk(v cty.Value, walks int) error {
	size, depth := measure(v, MaxValueElements)
	if err := sizeError(size, depth); err != nil {
		return err
	}
	return b.spendWalk(size * walks)
}

// checkSize refuses a value an attribute or local evaluated to when it is
// too large or too deep to walk (the decoder walks every value it
// reads); what measures charge the walk budget. what names the value in
// the message ("local.a", "\"names\"").
func (d *decoder) checkSize(v cty.Value, rng hcl.Range, what string) bool {
	if d.budget.exhausted() {
		return false
	}
	if err := d.budget.chargeWalk(v, walksRead); err != nil {
		d.errorf(rng, limitSummary(err), "%s: %s.", what, err)
		return false
	}
	return true
}

// totalError is a load-wide total exceeded (elements, bytes, walks), as
// opposed to one value too large.
type totalError struct{ msg string }

func (e *totalError) Error() string { return e.msg }

// limitSummary is the diagnostic summary of a limit's error.
func limitSummary(err error) string {
	var te *totalError
	if errors.As(err, &te) {
		return "Evaluation limit reached"
	}
	return "Value too large"
}

// The wrappers below are syntax nodes, not function calls: go-cty's
// function calls walk their arguments before the function runs.

// forCollection passes a for expression's collection through, charging
// its iterations (and the entries of an object result) to the load's
// element budget before the first one runs.
type forCollection struct {
	*hclsyntax.ParenthesesExpr
	b *budget
	// weight is what one iteration costs: a tuple element or an object
	// entry, and the iteration's scope.
	weight int
}

// Value implements hclsyntax.Expression.
func (e *forCollection) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	// Once a total is exceeded nothing more is built: an expression goes
	// on after an error (a for expression evaluates every iteration), so
	// it would otherwise build all it was refused.
	if e.b.exhausted() {
		return cty.DynamicVal, nil
	}
	v, ds := e.Expression.Value(ctx)
	if ds.HasErrors() {
		return v, ds
	}
	u, _ := v.Unmark()
	if u.IsKnown() && !u.IsNull() && u.CanIterateElements() && u.Type() != cty.DynamicPseudoType {
		n := u.LengthInt()
		if err := e.b.spendElems(n, n*e.weight); err != nil {
			return cty.DynamicVal, append(ds, budgetDiag(e.Range(), limitSummary(err), err))
		}
	}
	return v, ds
}

// chargedExpr charges the walks of its value before the expression
// around it walks it: a function argument, an operand of == or !=, a
// template part. walks is how many walks follow (walksCall, …); 0
// charges the type only (a conditional unifies its results' types).
type chargedExpr struct {
	*hclsyntax.ParenthesesExpr
	b     *budget
	walks int
}

// Value implements hclsyntax.Expression.
func (e *chargedExpr) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if e.b.exhausted() {
		return cty.DynamicVal, nil
	}
	v, ds := e.Expression.Value(ctx)
	if ds.HasErrors() {
		return v, ds
	}
	var err error
	if e.walks == 0 {
		err = e.b.spendWalk(typeSize(v.Type(), MaxValueElements))
	} else {
		err = e.b.chargeWalk(v, e.walks)
	}
	if err != nil {
		return cty.DynamicVal, append(ds, budgetDiag(e.Range(), limitSummary(err), err))
	}
	return v, ds
}

// builtExpr charges the collection a nested tuple or object constructor
// built ([i, i] in a for expression's body) to the element budget.
type builtExpr struct {
	*hclsyntax.ParenthesesExpr
	b *budget
}

// around is the node the wrappers above embed: a walk of the syntax tree
// (Variables, VisitAll) goes through a ParenthesesExpr to the expression
// inside it, where an embedded expression alone would hide that node and
// show only its children.
func around(e hclsyntax.Expression) *hclsyntax.ParenthesesExpr {
	return &hclsyntax.ParenthesesExpr{Expression: e, SrcRange: e.Range()}
}

// Value implements hclsyntax.Expression.
func (e *builtExpr) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if e.b.exhausted() {
		return cty.DynamicVal, nil
	}
	v, ds := e.Expression.Value(ctx)
	if ds.HasErrors() {
		return v, ds
	}
	if u, _ := v.Unmark(); u.IsKnown() && !u.IsNull() && u.CanIterateElements() {
		n := u.LengthInt()
		w := weightElem
		if t := u.Type(); t.IsObjectType() || t.IsMapType() {
			w = weightEntry
		}
		if err := e.b.spendElems(n, n*w); err != nil {
			return cty.DynamicVal, append(ds, budgetDiag(e.Range(), limitSummary(err), err))
		}
	}
	return v, ds
}

// budgetDiag is the diagnostic of a refused value at rng.
func budgetDiag(rng hcl.Range, summary string, err error) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: upperFirst(err.Error()) + ".", Subject: rng.Ptr()}
}
