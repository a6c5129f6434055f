package schema

import (
	"github.com/fabricgen/fabricgen/internal/units"

	"fmt"
	"math"
	"math/big"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// Bounded evaluation: no input may exhaust memory, the stack or the CPU.
// Each limit is checked before the value it bounds is built; the limits
// are documented in docs/language.md ("Limits").
const (
	// MaxStringLen bounds every string an expression builds, in bytes.
	MaxStringLen = 1 << 20
	// MaxElements bounds every collection an expression builds.
	MaxElements = 1_000_000
	// MaxVarFileSize bounds a -var-file (and MaxKeyFileSize, in push, a key file).
	MaxVarFileSize = 1 << 20
	// MaxEvalElements bounds what one load builds in total, in elements
	// weighted by their memory (see weightElem): collection elements,
	// map and object entries, for-expression iterations. MaxEvalBytes
	// bounds the string bytes.
	MaxEvalElements = 2_000_000
	MaxEvalBytes    = 64 << 20
	// MaxValueElements bounds the expanded size of a value something
	// walks (see expand.go); MaxEvalWalk bounds what one load's function
	// calls, comparisons and attribute reads walk in total.
	MaxValueElements = 2_000_000
	MaxEvalWalk      = 20_000_000
	// MaxObjects bounds the devices, ports and links of one fabric together.
	MaxObjects = 1_000_000
	// maxNumberExp bounds a number's binary exponent: |x| < 2^1024
	// (about 1.8e308, a float64's range) and, unless 0, |x| ≥ 2^-1024.
	// A number outside would print as hundreds of thousands of digits.
	maxNumberExp = 1024
)

// evalLimits are the load-wide totals of one load (tests shrink them).
type evalLimits struct {
	elems, bytes, walk int64
}

// defaultLimits are the documented totals.
func defaultLimits() evalLimits {
	return evalLimits{elems: MaxEvalElements, bytes: MaxEvalBytes, walk: MaxEvalWalk}
}

// budget counts what one load has built and walked so far. It is safe for
// concurrent use.
type budget struct {
	limits                      evalLimits
	elems, bytes, walk, objects atomic.Int64
	// spent is set once a load-wide total is exceeded (or the load is
	// cancelled): that error is reported once, and from then on the
	// checked calls return unknown values, so that the rest of an
	// expression (a for expression keeps evaluating after an error)
	// costs nothing.
	spent atomic.Bool
	// cancelled is set when the load's context is done.
	cancelled atomic.Bool
}

// newBudget is a budget with the documented limits.
func newBudget() *budget { return &budget{limits: defaultLimits()} }

// exhausted reports whether an earlier call already exceeded a total, or
// the load was cancelled.
func (b *budget) exhausted() bool { return b != nil && (b.spent.Load() || b.cancelled.Load()) }

// spendElems charges a collection of n elements costing cost budget
// elements (n times its weight); the error says which limit.
func (b *budget) spendElems(n, cost int) error {
	if n > MaxElements {
		return fmt.Errorf("the collection would have %d elements; at most %d", n, MaxElements)
	}
	if b != nil && b.elems.Add(int64(cost)) > b.limits.elems {
		b.spent.Store(true)
		return &totalError{fmt.Sprintf("this fabric builds more than %d collection elements in total while it loads (a map or object entry counts %d, a for-expression iteration %d); simplify the expressions", b.limits.elems, weightEntry, weightIteration)}
	}
	return nil
}

// fits reports, without charging, whether a collection costing cost
// budget elements would stay within the load's total: functions that
// build large collections (range, setproduct) ask before they build.
func (b *budget) fits(cost int) error {
	if b != nil && b.elems.Load()+int64(cost) > b.limits.elems {
		return &totalError{fmt.Sprintf("this fabric would build more than %d collection elements in total while it loads; simplify the expressions", b.limits.elems)}
	}
	return nil
}

// spendBytes charges a string of n bytes.
func (b *budget) spendBytes(n int) error {
	if n > MaxStringLen {
		return fmt.Errorf("the string would be %d bytes long; at most %d (%s)", n, MaxStringLen, units.Size(MaxStringLen))
	}
	if b != nil && b.bytes.Add(int64(n)) > b.limits.bytes {
		b.spent.Store(true)
		return &totalError{fmt.Sprintf("this fabric builds more than %s of strings in total while it loads; simplify the expressions", units.Size(b.limits.bytes))}
	}
	return nil
}

// spendWalk charges a walk over n values.
func (b *budget) spendWalk(n int) error {
	if b != nil && b.walk.Add(int64(n)) > b.limits.walk {
		b.spent.Store(true)
		return &totalError{fmt.Sprintf("function calls, comparisons and attribute reads walk more than %d values in total while this fabric loads (a large value passed to a function in every instance of a block?); call the function once in a local, or index the list directly (local.names[count.index])", b.limits.walk)}
	}
	return nil
}

// spendObjects charges n devices, ports or links.
func (b *budget) spendObjects(n int) bool {
	return b == nil || b.objects.Add(int64(n)) <= MaxObjects
}

// checkNumber refuses a number too large or too small to print.
func checkNumber(v cty.Value) error {
	if !v.IsKnown() || v.IsNull() || v.Type() != cty.Number {
		return nil
	}
	bf := v.AsBigFloat()
	if bf.IsInf() {
		return fmt.Errorf("the number is infinite")
	}
	if bf.Sign() == 0 {
		return nil
	}
	if e := bf.MantExp(nil); e > maxNumberExp {
		return fmt.Errorf("the number is too large: at most about 1.8e308")
	} else if e < -maxNumberExp {
		return fmt.Errorf("the number is too close to zero: at least about 1e-308, or 0")
	}
	return nil
}

// checkResult checks the outer size of a value an expression built:
// a string's length, a collection's element count, a number's magnitude.
func (b *budget) checkResult(v cty.Value) error {
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() {
		return nil
	}
	t := v.Type()
	switch {
	case t == cty.String:
		return b.spendBytes(len(v.AsString()))
	case t == cty.Number:
		return checkNumber(v)
	case t.IsListType() || t.IsSetType() || t.IsTupleType():
		return b.spendElems(v.LengthInt(), v.LengthInt()*weightElem)
	case t.IsMapType() || t.IsObjectType():
		return b.spendElems(v.LengthInt(), v.LengthInt()*weightEntry)
	}
	return nil
}

// checkDeep checks every string, number and collection in v, and its
// nesting; for values from outside the intent files (-var, environment).
func checkDeep(v cty.Value) error {
	visited := 0
	var walk func(v cty.Value, depth int) error
	walk = func(v cty.Value, depth int) error {
		if depth > MaxNesting {
			return fmt.Errorf("the value nests more than %d levels deep", MaxNesting)
		}
		if visited++; visited > MaxElements {
			return fmt.Errorf("the value has more than %d elements", MaxElements)
		}
		v, _ = v.Unmark()
		if !v.IsKnown() || v.IsNull() {
			return nil
		}
		if err := (*budget)(nil).checkResult(v); err != nil {
			return err
		}
		if v.CanIterateElements() {
			for it := v.ElementIterator(); it.Next(); {
				_, e := it.Element()
				if err := walk(e, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(v, 0)
}

// sizeOf estimates, from above, how many bytes v takes printed as JSON
// (stringFactor multiplies string lengths: 6 covers JSON escapes). It
// stops once the estimate passes limit, so it costs at most about limit
// steps whatever v is.
func sizeOf(v cty.Value, stringFactor, limit int) int {
	total := 0
	var walk func(v cty.Value)
	walk = func(v cty.Value) {
		if total > limit {
			return
		}
		v, _ = v.Unmark()
		switch {
		case !v.IsKnown() || v.IsNull():
			total += 4
		case v.Type() == cty.String:
			total += len(v.AsString())*stringFactor + 2
		case v.Type() == cty.Number:
			total += numberDigits(v.AsBigFloat())
		case v.Type() == cty.Bool:
			total += 5
		case v.CanIterateElements():
			total += 2
			for it := v.ElementIterator(); it.Next() && total <= limit; {
				k, e := it.Element()
				if t := v.Type(); t.IsMapType() || t.IsObjectType() {
					total += len(k.AsString())*stringFactor + 3
				}
				total++
				walk(e)
			}
		default:
			total += 8
		}
	}
	walk(v)
	return total
}

// numberDigits bounds the length of a number printed in decimal.
func numberDigits(f *big.Float) int {
	if f.IsInf() || f.Sign() == 0 {
		return 4
	}
	e := f.MantExp(nil)
	if e < 0 {
		e = -e
	}
	// log10(2) < 0.302; 160 covers a 512-bit mantissa's digits and the sign.
	return int(float64(e)*0.302) + 160
}

// boundedFunc wraps f: pre (when set) checks the arguments before f
// builds anything, and the result's outer size is charged after. A
// parameter typed as a collection takes its argument as is and is
// converted here (a tuple whose elements share one type directly, see
// homogeneousCollection): go-cty unifies element types pairwise, so
// converting a tuple of 100,000 strings took minutes, and HCL would
// convert before the argument's walk is charged.
func boundedFunc(b *budget, f function.Function, pre func(args []cty.Value) error) function.Function {
	orig := f.Params()
	loosen := func(p function.Parameter) function.Parameter {
		if !p.Type.IsPrimitiveType() && p.Type != cty.DynamicPseudoType {
			p.Type, p.AllowDynamicType = cty.DynamicPseudoType, true
		}
		return p
	}
	params := make([]function.Parameter, len(orig))
	for i, p := range orig {
		params[i] = loosen(p)
	}
	varParam := f.VarParam()
	if varParam != nil {
		vp := loosen(*varParam)
		varParam = &vp
	}
	typeOf := func(i int) cty.Type {
		if i < len(orig) {
			return orig[i].Type
		}
		if vp := f.VarParam(); vp != nil {
			return vp.Type
		}
		return cty.DynamicPseudoType
	}
	conv := func(args []cty.Value) ([]cty.Value, error) {
		out := args
		for i, a := range args {
			t := typeOf(i)
			if t.IsPrimitiveType() || t == cty.DynamicPseudoType || !a.IsKnown() || a.IsNull() {
				continue
			}
			v, ok := homogeneousCollection(a, t)
			if !ok {
				if err := a.Type().TestConformance(t); err == nil {
					continue
				}
				var err error
				if v, err = convert.Convert(a, t); err != nil {
					return nil, function.NewArgError(i, err)
				}
			}
			if &out[0] == &args[0] {
				out = append([]cty.Value(nil), args...)
			}
			out[i] = v
		}
		return out, nil
	}
	spec := &function.Spec{
		Description: f.Description(),
		Params:      params,
		VarParam:    varParam,
		// The result's type is left to f's own check in Impl: asking f
		// here as well would walk every argument once more.
		Type: func(args []cty.Value) (cty.Type, error) {
			if b.exhausted() || pre == nil {
				return cty.DynamicPseudoType, nil
			}
			args, err := conv(args)
			if err != nil {
				return cty.NilType, err
			}
			return cty.DynamicPseudoType, pre(args)
		},
		Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
			if b.exhausted() {
				return cty.UnknownVal(ret), nil
			}
			args, err := conv(args)
			if err != nil {
				return cty.NilVal, err
			}
			v, err := f.Call(args)
			if err != nil {
				return cty.NilVal, err
			}
			if err := b.checkResult(v); err != nil {
				return cty.NilVal, err
			}
			return v, nil
		},
	}
	return function.New(spec)
}

// known reports whether every argument is wholly known and not null, so a
// pre-check can inspect them.
func known(args ...cty.Value) bool {
	for _, a := range args {
		a, _ = a.Unmark()
		if !a.IsWhollyKnown() || a.IsNull() {
			return false
		}
	}
	return true
}

// str is a known string argument's value.
func str(v cty.Value) string {
	v, _ = v.Unmark()
	return v.AsString()
}

// lengthOf is a known collection argument's length.
func lengthOf(v cty.Value) int {
	v, _ = v.Unmark()
	if !v.CanIterateElements() {
		return 0
	}
	return v.LengthInt()
}

// smallInt is a known number argument as an int, or false when it is not
// a whole number within ±MaxStringLen.
func smallInt(v cty.Value) (int, bool) {
	v, _ = v.Unmark()
	if v.Type() != cty.Number {
		return 0, false
	}
	i, acc := v.AsBigFloat().Int64()
	if acc != big.Exact || i < -MaxStringLen || i > MaxStringLen {
		return 0, false
	}
	return int(i), true
}

// preChecks are the argument checks of the functions that can build a
// value much larger than their arguments; b is the load's budget, which
// the largest builders must fit before they build.
func preChecks(b *budget) map[string]func(args []cty.Value) error {
	sumLen := func(from int) func(args []cty.Value) error {
		return func(args []cty.Value) error {
			n := 0
			for _, a := range args[from:] {
				if a.IsKnown() && !a.IsNull() {
					n += lengthOf(a)
				}
			}
			if err := (*budget)(nil).spendElems(n, 0); err != nil {
				return err
			}
			return b.fits(n)
		}
	}
	return map[string]func(args []cty.Value) error{
		"range": func(args []cty.Value) error {
			if !known(args...) {
				return nil
			}
			n, err := rangeCount(args)
			if err != nil || n > MaxElements {
				return nil // range reports it
			}
			return b.fits(int(n))
		},
		"indent": func(args []cty.Value) error {
			if !known(args...) {
				return nil
			}
			n, ok := smallInt(args[0])
			if !ok || n < 0 {
				return function.NewArgErrorf(0, "indent takes 0 to %d spaces", MaxStringLen)
			}
			s := str(args[1])
			return limitArg(1, len(s)+n*strings.Count(s, "\n"))
		},
		"join": func(args []cty.Value) error {
			if !known(args...) {
				return nil
			}
			sep, n, elems := len(str(args[0])), 0, 0
			for _, l := range args[1:] {
				l, _ = l.Unmark()
				for it := l.ElementIterator(); it.Next(); {
					_, e := it.Element()
					e, _ = e.Unmark()
					if e.Type() == cty.String {
						n += len(e.AsString())
					} else {
						n += sizeOf(e, 1, MaxStringLen)
					}
					n += sep
					elems++
					if n > MaxStringLen {
						return limitArg(0, n)
					}
				}
			}
			return (*budget)(nil).spendElems(elems, 0)
		},
		"replace": func(args []cty.Value) error {
			if !known(args...) {
				return nil
			}
			s, old, repl := str(args[0]), str(args[1]), str(args[2])
			var n int
			if old == "" {
				n = len(s) + (utf8.RuneCountInString(s)+1)*len(repl)
			} else {
				n = len(s) + strings.Count(s, old)*len(repl)
			}
			return limitArg(2, n)
		},
		"split": func(args []cty.Value) error {
			if !known(args...) {
				return nil
			}
			sep, s := str(args[0]), str(args[1])
			n := strings.Count(s, sep) + 1
			return (*budget)(nil).spendElems(n, 0)
		},
		"format":     func(args []cty.Value) error { return checkFormat(args, 1) },
		"formatlist": checkFormatList,
		"setproduct": func(args []cty.Value) error {
			n := 1
			for _, a := range args {
				if !a.IsKnown() || a.IsNull() {
					return nil
				}
				n *= lengthOf(a)
				if n > MaxElements {
					return fmt.Errorf("setproduct would build more than %d elements", MaxElements)
				}
			}
			if err := b.fits(n); err != nil {
				return err
			}
			// Each of the n results holds one element of every argument:
			// an argument of k elements is repeated n/k times.
			expanded := n
			for _, a := range args {
				if k := lengthOf(a); k > 0 {
					size, _ := measure(a, MaxValueElements)
					expanded += n / k * (size - 1)
				}
				if expanded > MaxValueElements {
					return fmt.Errorf("setproduct would build a value that expands to more than %d elements", MaxValueElements)
				}
			}
			return nil
		},
		"concat":   sumLen(0),
		"setunion": sumLen(0),
		"merge":    sumLen(0),
		"jsondecode": func(args []cty.Value) error {
			if !known(args...) {
				return nil
			}
			if depth := jsonDepth(str(args[0])); depth > MaxNesting {
				return function.NewArgErrorf(0, "the JSON nests %d levels deep; at most %d", depth, MaxNesting)
			}
			return nil
		},
		"jsonencode": func(args []cty.Value) error {
			if !known(args...) {
				return nil
			}
			return limitArg(0, sizeOf(args[0], 6, MaxStringLen))
		},
		"parseint": func(args []cty.Value) error {
			if !known(args...) {
				return nil
			}
			if len(str(args[0])) > 1100 {
				return function.NewArgErrorf(0, "the number is too long: at most 1,100 digits")
			}
			return nil
		},
		"chunklist": func(args []cty.Value) error {
			if !known(args...) {
				return nil
			}
			if n, ok := smallInt(args[1]); ok && n == 0 {
				return (*budget)(nil).spendElems(lengthOf(args[0]), 0)
			}
			return nil
		},
	}
}

// limitArg refuses a result of n bytes, blaming argument i.
func limitArg(i, n int) error {
	if n > MaxStringLen {
		return function.NewArgErrorf(i, "the result would be %d bytes long; strings are at most %d bytes (%s)", n, MaxStringLen, units.Size(MaxStringLen))
	}
	return nil
}

// formatVerb is one verb of a format string, as far as sizes go.
type formatVerb struct {
	arg, width, prec int
	quote            bool
}

// parseFormat reads a format string's literal length and verbs (cty's
// syntax: %[flags][[n]][width][.prec]verb, %% for a percent sign).
func parseFormat(f string) (literal int, verbs []formatVerb, err error) {
	next := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			literal++
			continue
		}
		i++
		if i < len(f) && f[i] == '%' {
			literal++
			continue
		}
		for i < len(f) && strings.IndexByte("-+# 0", f[i]) >= 0 {
			i++
		}
		if i < len(f) && f[i] == '[' {
			j := strings.IndexByte(f[i:], ']')
			if j < 0 {
				return 0, nil, nil // malformed: cty reports it
			}
			var n int
			if _, serr := fmt.Sscanf(f[i+1:i+j], "%d", &n); serr == nil {
				next = n - 1
			}
			i += j + 1
		}
		num := func() (int, error) {
			n := 0
			for i < len(f) && f[i] >= '0' && f[i] <= '9' {
				n = n*10 + int(f[i]-'0')
				if n > MaxStringLen {
					return 0, fmt.Errorf("a width or precision in the format is larger than %d", MaxStringLen)
				}
				i++
			}
			return n, nil
		}
		v := formatVerb{arg: next}
		if v.width, err = num(); err != nil {
			return 0, nil, err
		}
		if i < len(f) && f[i] == '.' {
			i++
			if v.prec, err = num(); err != nil {
				return 0, nil, err
			}
		}
		if i < len(f) {
			v.quote = f[i] == 'q'
		}
		verbs = append(verbs, v)
		next++
	}
	return literal, verbs, nil
}

// verbSize bounds what one verb prints for arg.
func verbSize(v formatVerb, arg cty.Value) int {
	factor := 1
	if v.quote {
		factor = 6
	}
	return v.width + v.prec + sizeOf(arg, factor, MaxStringLen)
}

// checkFormat bounds format(f, args...) before it runs; first is the
// index of the first value argument.
func checkFormat(args []cty.Value, first int) error {
	if !args[0].IsKnown() || args[0].IsNull() {
		return nil
	}
	literal, verbs, err := parseFormat(str(args[0]))
	if err != nil {
		return function.NewArgError(0, err)
	}
	n := literal
	for _, v := range verbs {
		if i := first + v.arg; i >= first && i < len(args) {
			n += verbSize(v, args[i])
		}
		if n > MaxStringLen {
			break
		}
	}
	return limitArg(0, n)
}

// checkFormatList bounds formatlist: each list argument's elements are
// printed once, each other argument once per element.
func checkFormatList(args []cty.Value) error {
	if !args[0].IsKnown() || args[0].IsNull() {
		return nil
	}
	literal, verbs, err := parseFormat(str(args[0]))
	if err != nil {
		return function.NewArgError(0, err)
	}
	rows := 1
	for _, a := range args[1:] {
		if t := a.Type(); a.IsKnown() && !a.IsNull() && (t.IsListType() || t.IsTupleType() || t.IsSetType()) {
			rows = max(rows, lengthOf(a))
		}
	}
	if err := (*budget)(nil).spendElems(rows, 0); err != nil {
		return err
	}
	n := literal * rows
	for _, v := range verbs {
		i := 1 + v.arg
		if i < 1 || i >= len(args) {
			continue
		}
		a := args[i]
		if t := a.Type(); a.IsKnown() && !a.IsNull() && (t.IsListType() || t.IsTupleType() || t.IsSetType()) {
			n += (v.width+v.prec)*rows + sizeOf(a, map[bool]int{true: 6, false: 1}[v.quote], MaxStringLen)
		} else {
			n += verbSize(v, a) * rows
		}
		if n > MaxStringLen {
			break
		}
	}
	return limitArg(0, n)
}

// jsonDepth is the deepest nesting of arrays and objects in JSON text.
func jsonDepth(s string) int {
	depth, deepest, inStr, esc := 0, 0, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr && esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth = max(0, depth-1)
		}
	}
	return deepest
}

// templateFunc concatenates a template's parts, as hclsyntax's string
// templates do, checking the length before the string is built. Native
// syntax templates with an interpolation are rewritten to call it.
func templateFunc(b *budget) function.Function {
	return function.New(&function.Spec{
		VarParam: &function.Parameter{Name: "parts", Type: cty.DynamicPseudoType, AllowNull: true, AllowDynamicType: true},
		Type:     function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if b.exhausted() {
				return cty.UnknownVal(cty.String), nil
			}
			strs := make([]string, len(args))
			n := 0
			for i, a := range args {
				if a.IsNull() {
					return cty.NilVal, function.NewArgErrorf(i, "the interpolated value is null; a string template cannot include null")
				}
				s, err := convert.Convert(a, cty.String)
				if err != nil {
					return cty.NilVal, function.NewArgErrorf(i, "cannot include this value in a string template: %s", err)
				}
				strs[i] = s.AsString()
				n += len(strs[i])
				if n > MaxStringLen {
					return cty.NilVal, function.NewArgErrorf(i, "the string would be more than %d bytes long (%s)", MaxStringLen, units.Size(MaxStringLen))
				}
			}
			if err := b.spendBytes(n); err != nil {
				return cty.NilVal, err
			}
			return cty.StringVal(strings.Join(strs, "")), nil
		},
	})
}

// templateForFunc joins the strings of a template's %{ for } directive,
// checking the length first.
func templateForFunc(b *budget) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "iterations", Type: cty.DynamicPseudoType, AllowDynamicType: true}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if b.exhausted() {
				return cty.UnknownVal(cty.String), nil
			}
			var sb strings.Builder
			parts := args[0].AsValueSlice()
			strs := make([]string, len(parts))
			n := 0
			for i, p := range parts {
				if p.IsNull() {
					return cty.NilVal, function.NewArgErrorf(0, "an iteration result is null; a string template cannot include null")
				}
				s, err := convert.Convert(p, cty.String)
				if err != nil {
					return cty.NilVal, function.NewArgErrorf(0, "cannot include an iteration result in a string template: %s", err)
				}
				strs[i] = s.AsString()
				n += len(strs[i])
				if n > MaxStringLen {
					return cty.NilVal, function.NewArgErrorf(0, "the string would be more than %d bytes long (%s)", MaxStringLen, units.Size(MaxStringLen))
				}
			}
			if err := b.spendBytes(n); err != nil {
				return cty.NilVal, err
			}
			sb.Grow(n)
			for _, s := range strs {
				sb.WriteString(s)
			}
			return cty.StringVal(sb.String()), nil
		},
	})
}

// boundedOp wraps an arithmetic operator so that its result stays a
// printable number.
func boundedOp(op function.Function) function.Function {
	return function.New(&function.Spec{
		Params: op.Params(),
		Type: func(args []cty.Value) (cty.Type, error) {
			return op.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			v, err := op.Call(args)
			if err != nil {
				return cty.NilVal, err
			}
			if err := checkNumber(v); err != nil {
				return cty.NilVal, err
			}
			return v, nil
		},
	})
}

// numberLiteralOK checks a number literal's text ("1e400", "0.5").
func numberLiteralOK(f *big.Float) error {
	if f == nil {
		return nil
	}
	return checkNumber(cty.NumberVal(f))
}

var _ = math.MaxInt64
