package schema

import (
	"fmt"
	"math/big"
	"net/netip"

	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// Functions returns the functions available in intent expressions: go-cty's
// standard library plus cidrhost, cidrsubnet, index and the to* conversions,
// with the limits of docs/language.md. A new map is built on each call;
// callers own it.
func Functions() map[string]function.Function { return functions(newBudget()) }

// functions builds the function table of one load, whose budget the
// functions that build large values charge.
func functions(b *budget) map[string]function.Function {
	fs := map[string]function.Function{
		"abs": stdlib.AbsoluteFunc, "ceil": stdlib.CeilFunc, "chomp": stdlib.ChompFunc,
		"chunklist": stdlib.ChunklistFunc, "coalesce": stdlib.CoalesceFunc,
		"coalescelist": stdlib.CoalesceListFunc, "compact": stdlib.CompactFunc,
		"concat": stdlib.ConcatFunc, "contains": stdlib.ContainsFunc, "distinct": stdlib.DistinctFunc,
		"element": stdlib.ElementFunc, "flatten": flattenFunc, "floor": stdlib.FloorFunc,
		"format": stdlib.FormatFunc, "formatlist": stdlib.FormatListFunc, "indent": stdlib.IndentFunc,
		"join": stdlib.JoinFunc, "jsondecode": stdlib.JSONDecodeFunc, "jsonencode": stdlib.JSONEncodeFunc,
		"keys": stdlib.KeysFunc, "length": lengthFunc, "log": stdlib.LogFunc,
		"lookup": stdlib.LookupFunc, "lower": stdlib.LowerFunc, "max": stdlib.MaxFunc,
		"merge": stdlib.MergeFunc, "min": stdlib.MinFunc, "parseint": stdlib.ParseIntFunc,
		"pow": stdlib.PowFunc, "range": rangeFunc, "regex": stdlib.RegexFunc,
		"regexall": stdlib.RegexAllFunc, "replace": stdlib.ReplaceFunc, "reverse": stdlib.ReverseListFunc,
		"setintersection": stdlib.SetIntersectionFunc, "setproduct": stdlib.SetProductFunc,
		"setsubtract": stdlib.SetSubtractFunc, "setunion": stdlib.SetUnionFunc,
		"signum": stdlib.SignumFunc, "slice": stdlib.SliceFunc, "sort": stdlib.SortFunc,
		"split": stdlib.SplitFunc, "strlen": stdlib.StrlenFunc, "substr": stdlib.SubstrFunc,
		"title": stdlib.TitleFunc, "trim": stdlib.TrimFunc, "trimprefix": stdlib.TrimPrefixFunc,
		"trimspace": stdlib.TrimSpaceFunc, "trimsuffix": stdlib.TrimSuffixFunc, "upper": stdlib.UpperFunc,
		"values": stdlib.ValuesFunc, "zipmap": stdlib.ZipmapFunc,
		"try": tryfunc.TryFunc, "can": tryfunc.CanFunc,
		"cidrhost": cidrHostFunc, "cidrsubnet": cidrSubnetFunc, "index": indexFunc,
		"toset":    convertFunc(cty.Set(cty.DynamicPseudoType)),
		"tolist":   convertFunc(cty.List(cty.DynamicPseudoType)),
		"tomap":    convertFunc(cty.Map(cty.DynamicPseudoType)),
		"tostring": convertFunc(cty.String), "tonumber": convertFunc(cty.Number),
		"tobool": convertFunc(cty.Bool),
	}
	// Every function's arguments are measured and charged before the call
	// (see bound). Those that build a value check its size (and those
	// that can build one much larger than their arguments check the
	// arguments first, preChecks). The others return a number, a bool or
	// a part of an argument, and are not wrapped: a wrapper is one more
	// go-cty call, which walks every argument once more. try and can take
	// expressions, not values.
	pre := preChecks(b)
	for name, f := range fs {
		switch name {
		case "try", "can", "length", "element", "lookup", "index", "contains", "strlen", "coalesce":
			continue
		}
		fs[name] = boundedFunc(b, f, pre[name])
	}
	for name, f := range internalFunctions(b) {
		fs[name] = f
	}
	return fs
}

func convertFunc(want cty.Type) function.Function {
	conv := func(v cty.Value) (cty.Value, error) {
		if fast, ok := homogeneousCollection(v, want); ok {
			return fast, nil
		}
		return convert.Convert(v, want)
	}
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "v", Type: cty.DynamicPseudoType, AllowNull: true, AllowDynamicType: true}},
		Type: func(args []cty.Value) (cty.Type, error) {
			if !args[0].IsKnown() || want.IsPrimitiveType() {
				// A primitive's conversion fails or not in Impl: converting
				// twice (a number's shortest decimal form) doubled the cost.
				return want, nil
			}
			v, err := conv(args[0])
			if err != nil {
				return cty.NilType, function.NewArgError(0, err)
			}
			return v.Type(), nil
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			v, err := conv(args[0])
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			return v, nil
		},
	})
}

// homogeneousCollection converts a tuple whose elements all share one type
// straight into a list or set. go-cty's general conversion unifies element
// types pairwise, which is quadratic: toset() of 65,536 NIC names took
// minutes.
func homogeneousCollection(v cty.Value, want cty.Type) (cty.Value, bool) {
	if (!want.IsListType() && !want.IsSetType()) || !v.Type().IsTupleType() || !v.IsWhollyKnown() || v.LengthInt() == 0 {
		return cty.NilVal, false
	}
	elems := v.AsValueSlice()
	t0 := elems[0].Type()
	if ety := want.ElementType(); ety != cty.DynamicPseudoType && !ety.Equals(t0) {
		return cty.NilVal, false
	}
	for _, e := range elems {
		if e.IsNull() || !e.Type().Equals(t0) {
			return cty.NilVal, false
		}
	}
	if want.IsSetType() {
		return cty.SetVal(elems), true
	}
	return cty.ListVal(elems), true
}

// indexFunc is index(list, value): the position of value in list.
var indexFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "list", Type: cty.DynamicPseudoType},
		{Name: "value", Type: cty.DynamicPseudoType},
	},
	Type: function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		l := args[0]
		if !l.Type().IsListType() && !l.Type().IsTupleType() {
			return cty.NilVal, function.NewArgErrorf(0, "index needs a list or tuple, not %s", l.Type().FriendlyName())
		}
		i := 0
		for it := l.ElementIterator(); it.Next(); i++ {
			_, e := it.Element()
			if eq := e.Equals(args[1]); eq.IsKnown() && eq.True() {
				return cty.NumberIntVal(int64(i)), nil
			}
		}
		return cty.NilVal, function.NewArgErrorf(1, "value %s is not in the list", args[1].GoString())
	},
})

var cidrHostFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "prefix", Type: cty.String}, {Name: "hostnum", Type: cty.Number}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		p, err := netip.ParsePrefix(args[0].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgError(0, err)
		}
		n, _ := args[1].AsBigFloat().Int(nil)
		hostBits := p.Addr().BitLen() - p.Bits()
		if n.Sign() < 0 {
			n.Add(n, new(big.Int).Lsh(big.NewInt(1), uint(hostBits)))
		}
		if n.Sign() < 0 || n.BitLen() > hostBits {
			return cty.NilVal, function.NewArgErrorf(1, "host number %s does not fit in %s", args[1].AsBigFloat().Text('f', 0), p)
		}
		a, err := addToAddr(p.Masked().Addr(), n)
		if err != nil {
			return cty.NilVal, function.NewArgError(1, err)
		}
		return cty.StringVal(a.String()), nil
	},
})

var cidrSubnetFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String}, {Name: "newbits", Type: cty.Number}, {Name: "netnum", Type: cty.Number},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		p, err := netip.ParsePrefix(args[0].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgError(0, err)
		}
		nb, _ := args[1].AsBigFloat().Int64()
		if nb < 0 || int(nb)+p.Bits() > p.Addr().BitLen() {
			return cty.NilVal, function.NewArgErrorf(1, "cannot add %d bits to %s", nb, p)
		}
		num, _ := args[2].AsBigFloat().Int(nil)
		if num.Sign() < 0 || num.BitLen() > int(nb) {
			return cty.NilVal, function.NewArgErrorf(2, "network number %s does not fit in %d new bits", num, nb)
		}
		bits := p.Bits() + int(nb)
		shift := new(big.Int).Lsh(num, uint(p.Addr().BitLen()-bits))
		a, err := addToAddr(p.Masked().Addr(), shift)
		if err != nil {
			return cty.NilVal, function.NewArgError(2, err)
		}
		return cty.StringVal(netip.PrefixFrom(a, bits).String()), nil
	},
})

func addToAddr(a netip.Addr, n *big.Int) (netip.Addr, error) {
	b := a.AsSlice()
	v := new(big.Int).SetBytes(b)
	v.Add(v, n)
	if v.BitLen() > len(b)*8 {
		return netip.Addr{}, fmt.Errorf("address overflow")
	}
	out := v.FillBytes(make([]byte, len(b)))
	r, _ := netip.AddrFromSlice(out)
	return r, nil
}

// rangeFunc is range([start,] limit[, step]) with numbers, like go-cty's
// but with a larger cap: MaxElements values (go-cty's stops at 1,024, too
// few for a 2,048-leaf fabric). The count is computed exactly before any
// value is built.
var rangeFunc = function.New(&function.Spec{
	VarParam: &function.Parameter{Name: "params", Type: cty.Number},
	Type:     function.StaticReturnType(cty.List(cty.Number)),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		start, step, count, err := rangeBounds(args)
		if err != nil {
			return cty.NilVal, err
		}
		if count.Sign() == 0 {
			return cty.ListValEmpty(cty.Number), nil
		}
		if !count.IsInt64() || count.Int64() > MaxElements {
			return cty.NilVal, fmt.Errorf("range would produce %s values; at most %d", count, MaxElements)
		}
		n := int(count.Int64())
		s, st := start.Int64(), step.Int64()
		if !start.IsInt64() || !step.IsInt64() {
			return cty.NilVal, fmt.Errorf("range arguments must be between -2^63 and 2^63")
		}
		vals := make([]cty.Value, n)
		for i := range n {
			vals[i] = cty.NumberIntVal(s + int64(i)*st)
		}
		return cty.ListVal(vals), nil
	},
})

// rangeBounds reads range's arguments: the start, the step and how many
// values it produces (0 when the span and the step disagree in sign).
func rangeBounds(args []cty.Value) (start, step, count *big.Int, err error) {
	ints := make([]*big.Int, len(args))
	for i, a := range args {
		bf := a.AsBigFloat()
		if !bf.IsInt() {
			return nil, nil, nil, function.NewArgErrorf(i, "range arguments must be whole numbers")
		}
		ints[i], _ = bf.Int(nil)
	}
	var end *big.Int
	step = big.NewInt(1)
	switch len(ints) {
	case 1:
		start, end = big.NewInt(0), ints[0]
	case 2:
		start, end = ints[0], ints[1]
	case 3:
		start, end, step = ints[0], ints[1], ints[2]
	default:
		return nil, nil, nil, fmt.Errorf("range takes one, two or three arguments")
	}
	if step.Sign() == 0 {
		return nil, nil, nil, fmt.Errorf("range step must not be zero")
	}
	// count = ceil((end-start)/step) when positive.
	span := new(big.Int).Sub(end, start)
	if span.Sign() != step.Sign() {
		return start, step, new(big.Int), nil
	}
	count, rem := new(big.Int).QuoRem(span, step, new(big.Int))
	if rem.Sign() != 0 {
		count.Add(count, big.NewInt(1))
	}
	return start, step, count, nil
}

// rangeCount is how many values range(args...) produces.
func rangeCount(args []cty.Value) (int64, error) {
	_, _, count, err := rangeBounds(args)
	if err != nil {
		return 0, err
	}
	if !count.IsInt64() {
		return MaxElements + 1, nil
	}
	return count.Int64(), nil
}

// lengthFunc is go-cty's length, extended to objects (their attribute
// count), as Terraform's: a local written as { a = 1 } is an object.
var lengthFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowDynamicType: true, AllowUnknown: true, AllowMarked: true}},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v, marks := args[0].Unmark()
		if v.Type().IsObjectType() && v.IsKnown() && !v.IsNull() {
			return cty.NumberIntVal(int64(len(v.Type().AttributeTypes()))).WithMarks(marks), nil
		}
		return stdlib.LengthFunc.Call([]cty.Value{args[0]})
	},
})

// flattenFunc is go-cty's flatten in one pass: stdlib's version flattens
// twice (once for the type, once for the value) and walks the argument for
// marks first, which dominated loading examples/scale's 65,536-name lists.
// The result is the same tuple; marks cannot arise in intent files (no
// function creates them), so a marked argument only keeps its outer marks.
var flattenFunc = function.New(&function.Spec{
	Description: "Flattens nested lists, sets and tuples into one tuple.",
	Params:      []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType, AllowMarked: true}},
	Type:        function.StaticReturnType(cty.DynamicPseudoType),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v, marks := args[0].Unmark()
		if t := v.Type(); !t.IsListType() && !t.IsSetType() && !t.IsTupleType() {
			return cty.NilVal, function.NewArgErrorf(0, "can only flatten lists, sets and tuples, not %s", t.FriendlyName())
		}
		if !v.IsKnown() {
			return cty.DynamicVal.WithMarks(marks), nil
		}
		var out []cty.Value
		if ok, err := flattenInto(&out, v); err != nil {
			return cty.NilVal, function.NewArgError(0, err)
		} else if !ok {
			return cty.DynamicVal.WithMarks(marks), nil
		}
		if len(out) == 0 {
			return cty.EmptyTupleVal.WithMarks(marks), nil
		}
		return cty.TupleVal(out).WithMarks(marks), nil
	},
})

// flattenInto appends the leaves of collection v to out; false means an
// unknown value made the result unknown. More than MaxElements leaves is
// an error, found before they are all collected.
func flattenInto(out *[]cty.Value, v cty.Value) (bool, error) {
	for _, e := range v.AsValueSlice() {
		if e == cty.DynamicVal {
			return false, nil
		}
		t := e.Type()
		if e.IsNull() || (!t.IsListType() && !t.IsSetType() && !t.IsTupleType()) {
			if len(*out) >= MaxElements {
				return false, fmt.Errorf("the flattened list would have more than %d elements", MaxElements)
			}
			*out = append(*out, e)
			continue
		}
		if !e.IsKnown() {
			return false, nil
		}
		if ok, err := flattenInto(out, e); !ok || err != nil {
			return ok, err
		}
	}
	return true, nil
}
