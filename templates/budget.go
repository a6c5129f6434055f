package templates

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"text/template"
	"text/template/parse"
	"time"

	"github.com/fabricgen/fabricgen/templates/view"
)

// An override template's render is bounded four ways, each on its own
// (see docs/templates.md, "Limits of override templates"):
//
//   - time: the deadline is checked at every step (below), so a template
//     without a loop stops too;
//   - steps: every action, every range iteration, every template call and
//     every call of a function that can take time (the string builders and
//     the comparisons) is one step;
//   - strings: every string a function builds (print, printf, println,
//     html, js, urlquery, join, compact, json, shellword, oneline) counts
//     against one budget per render, whether it is printed or kept in a
//     variable, and a call whose result could pass it is refused before
//     anything is built: {{$s = print $s $s}} in a row stops at the budget
//     instead of doubling to gigabytes;
//   - output: what the render writes.
//
// The other builtins (and, or, not, len, index, slice) take constant time
// per call and build nothing; call is refused (views hold no functions).

// Default budgets of one override render (one execution of device.tmpl or
// of one sub-template). Measured with TestOverrideBudgetsFitScale, which
// renders the largest devices of examples/scale (a 2,048-port EOS spine:
// 1.04 MiB of output) and one device of every other platform with every
// platform's embedded templates loaded as overrides, and the spine with a
// device.tmpl that rebuilds its 2,048 interfaces from fields with one
// printf per line: the most any render used was 38,914 steps and 262 KiB
// of strings. The defaults leave 250 times that, and the test fails when
// a render uses more than a tenth of one.
const (
	DefaultStepLimit   = 10_000_000
	DefaultStringLimit = 64 << 20
)

var (
	errStepLimit   = errors.New("step limit reached")
	errStringLimit = errors.New("string limit reached")
	errNoCall      = errors.New("call is not available in override templates: the views hold no functions to call")
)

// execStats is what one override render used, for tests and measurements.
type execStats struct {
	Steps, StringBytes, OutputBytes int64
	Took                            time.Duration
}

// step counts one step and checks the run-wide stop, the step limit and
// the deadline.
func (e *limitedExec) step() error {
	e.steps++
	switch {
	case e.stop.Load():
		e.stopped = true
		return errTimeLimit
	case e.steps > e.set.stepLimit:
		e.hit = errStepLimit
		return errStepLimit
	case time.Now().After(e.deadline):
		e.hit = errTimeLimit
		e.stop.Store(true)
		return errTimeLimit
	}
	return nil
}

// tick is the injected action: it records where the render is (an index
// into the set's locations) and counts a step.
func (e *limitedExec) tick(at int) (string, error) {
	e.where = at
	return "", e.step()
}

// spend counts n bytes of strings a function has built.
func (e *limitedExec) spend(n int64) error {
	if e.strBytes+n > e.set.strLimit {
		e.hit = errStringLimit
		return errStringLimit
	}
	e.strBytes += n
	return nil
}

// build runs one string-building function within the budgets: bound is
// an upper bound of the result's length, checked before f runs; the
// result's real length is what is counted.
func (e *limitedExec) build(bound int64, f func() (string, error)) (string, error) {
	if err := e.step(); err != nil {
		return "", err
	}
	if bound < 0 || e.strBytes+bound > e.set.strLimit {
		// Refused before anything is built.
		e.hit = errStringLimit
		return "", errStringLimit
	}
	s, err := f()
	if err != nil {
		return "", err
	}
	return s, e.spend(int64(len(s)))
}

// argLen is the length of the text of args that are strings (or byte
// slices, errors and Stringers as their text would be: they are few and
// small in views), the part of a print that can grow without bound.
func argLen(args []any) int64 {
	var n int64
	for _, a := range args {
		switch v := a.(type) {
		case string:
			n += int64(len(v))
		case []byte:
			n += int64(len(v))
		case *string:
			if v != nil {
				n += int64(len(*v))
			}
		default:
			n += 64 // a number, a bool, a small view value
		}
	}
	return n
}

// maxArgLen is the longest string among args (what one printf verb can
// print at most, besides its width).
func maxArgLen(args []any) int64 {
	var m int64
	for _, a := range args {
		if n := argLen([]any{a}); n > m {
			m = n
		}
	}
	return m
}

// budgetFuncs returns the functions of one override clone: the repo's
// and text/template's string builders and comparisons, each counting a
// step, checking the deadline and (the builders) the string budget.
func (e *limitedExec) budgetFuncs() template.FuncMap {
	b := e.build
	return template.FuncMap{
		tickName: e.tick,
		"print": func(args ...any) (string, error) {
			return b(argLen(args)+int64(len(args)), func() (string, error) { return fmt.Sprint(args...), nil })
		},
		"println": func(args ...any) (string, error) {
			return b(argLen(args)+int64(len(args))+1, func() (string, error) { return fmt.Sprintln(args...), nil })
		},
		"printf": func(format string, args ...any) (string, error) {
			verbs, widths, err := printfBound(format)
			if err != nil {
				return "", err
			}
			bound := int64(len(format)) + widths + int64(verbs)*maxArgLen(args)
			return b(bound, func() (string, error) { return fmt.Sprintf(format, args...), nil })
		},
		// Escapers: a byte becomes at most 6 (js \uXXXX), 5 (html &#34;)
		// or 3 (urlquery %XX).
		"html": func(args ...any) (string, error) {
			return b(5*(argLen(args)+int64(len(args))), func() (string, error) { return template.HTMLEscaper(args...), nil })
		},
		"js": func(args ...any) (string, error) {
			return b(6*(argLen(args)+int64(len(args))), func() (string, error) { return template.JSEscaper(args...), nil })
		},
		"urlquery": func(args ...any) (string, error) {
			return b(3*(argLen(args)+int64(len(args))), func() (string, error) { return template.URLQueryEscaper(args...), nil })
		},
		"join": func(xs []int, sep string) (string, error) {
			return b(int64(len(xs))*(20+int64(len(sep))), func() (string, error) { return view.JoinInts(xs, sep), nil })
		},
		"compact": func(xs []int) (string, error) {
			return b(int64(len(xs))*21, func() (string, error) { return view.CompactInts(xs), nil })
		},
		"json": func(s string) (string, error) {
			return b(6*int64(len(s))+2, func() (string, error) { return view.JSONString(s), nil })
		},
		"shellword": func(s string) (string, error) {
			return b(4*int64(len(s))+2, func() (string, error) { return view.ShellWord(s), nil })
		},
		"oneline": func(s string) (string, error) {
			return b(4*int64(len(s)), func() (string, error) { return view.OneLine(s), nil })
		},
		// Comparisons take time in the length of strings they compare.
		"eq": func(a reflect.Value, bs ...reflect.Value) (bool, error) {
			if err := e.step(); err != nil {
				return false, err
			}
			return eq(a, bs...)
		},
		"ne": e.cmp(ne),
		"lt": e.cmp(lt),
		"le": e.cmp(le),
		"gt": e.cmp(gt),
		"ge": e.cmp(ge),
		"call": func(reflect.Value, ...reflect.Value) (reflect.Value, error) {
			return reflect.Value{}, errNoCall
		},
	}
}

// cmp wraps a two-argument comparison with a step.
func (e *limitedExec) cmp(f func(a, b reflect.Value) (bool, error)) func(a, b reflect.Value) (bool, error) {
	return func(a, b reflect.Value) (bool, error) {
		if err := e.step(); err != nil {
			return false, err
		}
		return f(a, b)
	}
}

// printfBound checks an override's printf format (no width or precision
// above maxPrintfWidth, none taken from an argument) and returns its
// number of verbs and the sum of its widths and precisions: the result
// is at most len(format) + widths + verbs × the longest argument.
func printfBound(format string) (verbs int, widths int64, err error) {
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		verbs++
		n := 0
		for ; i < len(format) && isPrintfFlag(format[i]); i++ {
			switch c := format[i]; {
			case c >= '0' && c <= '9':
				n = n*10 + int(c-'0')
				if n > maxPrintfWidth {
					return 0, 0, fmt.Errorf("printf: a width or precision above %d", maxPrintfWidth)
				}
			default:
				widths += int64(n)
				n = 0
			}
		}
		widths += int64(n)
		if i < len(format) && format[i] == '*' {
			return 0, 0, errors.New("printf: widths from arguments (*) are not allowed in override templates")
		}
	}
	return verbs, widths, nil
}

func isPrintfFlag(c byte) bool {
	switch c {
	case '+', '-', '#', ' ', '.', '[', ']':
		return true
	}
	return c >= '0' && c <= '9'
}

// tickAction is the injected {{fabricgenTick AT}} at pos of a template:
// its nodes carry no tree, so an error they raise is placed by the
// executing template's text, at pos.
func tickAction(pos parse.Pos, line, at int) *parse.ActionNode {
	id := parse.NewIdentifier(tickName).SetPos(pos)
	num := &parse.NumberNode{NodeType: parse.NodeNumber, Pos: pos, IsInt: true, Int64: int64(at), Text: strconv.Itoa(at)}
	cmd := &parse.CommandNode{NodeType: parse.NodeCommand, Pos: pos, Args: []parse.Node{id, num}}
	pipe := &parse.PipeNode{NodeType: parse.NodePipe, Pos: pos, Line: line, Cmds: []*parse.CommandNode{cmd}}
	return &parse.ActionNode{NodeType: parse.NodeAction, Pos: pos, Line: line, Pipe: pipe}
}

// The comparisons below are text/template's own (Go 1.26,
// src/text/template/funcs.go, BSD-style licence of the Go project),
// copied because the package does not export its builtins and an
// override of a name replaces the builtin: the semantics must stay
// exactly those of eq, ne, lt, le, gt and ge (TestBudgetBuiltinsAgree).

var (
	errBadComparisonType = errors.New("invalid type for comparison")
	errNoComparison      = errors.New("missing argument for comparison")
)

type kind int

const (
	invalidKind kind = iota
	boolKind
	complexKind
	intKind
	floatKind
	stringKind
	uintKind
)

func basicKind(v reflect.Value) (kind, error) {
	switch v.Kind() {
	case reflect.Bool:
		return boolKind, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intKind, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return uintKind, nil
	case reflect.Float32, reflect.Float64:
		return floatKind, nil
	case reflect.Complex64, reflect.Complex128:
		return complexKind, nil
	case reflect.String:
		return stringKind, nil
	}
	return invalidKind, errBadComparisonType
}

// indirectInterface returns the concrete value in an interface value, or
// else the zero reflect.Value.
func indirectInterface(v reflect.Value) reflect.Value {
	if v.Kind() != reflect.Interface {
		return v
	}
	if v.IsNil() {
		return reflect.Value{}
	}
	return v.Elem()
}

// isNil returns true if v is the zero reflect.Value, or nil of its type.
func isNil(v reflect.Value) bool {
	if !v.IsValid() {
		return true
	}
	switch v.Kind() {
	case reflect.Chan, reflect.Func, reflect.Interface, reflect.Map, reflect.Pointer, reflect.Slice:
		return v.IsNil()
	}
	return false
}

// canCompare reports whether v1 and v2 are both the same kind, or one is nil.
func canCompare(v1, v2 reflect.Value) bool {
	k1 := v1.Kind()
	k2 := v2.Kind()
	if k1 == k2 {
		return true
	}
	return k1 == reflect.Invalid || k2 == reflect.Invalid
}

// eq evaluates the comparison a == b || a == c || ...
func eq(arg1 reflect.Value, arg2 ...reflect.Value) (bool, error) {
	arg1 = indirectInterface(arg1)
	if len(arg2) == 0 {
		return false, errNoComparison
	}
	k1, _ := basicKind(arg1)
	for _, arg := range arg2 {
		arg = indirectInterface(arg)
		k2, _ := basicKind(arg)
		truth := false
		if k1 != k2 {
			switch {
			case k1 == intKind && k2 == uintKind:
				truth = arg1.Int() >= 0 && uint64(arg1.Int()) == arg.Uint()
			case k1 == uintKind && k2 == intKind:
				truth = arg.Int() >= 0 && arg1.Uint() == uint64(arg.Int())
			default:
				if arg1.IsValid() && arg.IsValid() {
					return false, fmt.Errorf("incompatible types for comparison: %v and %v", arg1.Type(), arg.Type())
				}
			}
		} else {
			switch k1 {
			case boolKind:
				truth = arg1.Bool() == arg.Bool()
			case complexKind:
				truth = arg1.Complex() == arg.Complex()
			case floatKind:
				truth = arg1.Float() == arg.Float()
			case intKind:
				truth = arg1.Int() == arg.Int()
			case stringKind:
				truth = arg1.String() == arg.String()
			case uintKind:
				truth = arg1.Uint() == arg.Uint()
			default:
				if !canCompare(arg1, arg) {
					return false, fmt.Errorf("non-comparable types %s: %v, %s: %v", arg1, arg1.Type(), arg.Type(), arg)
				}
				if isNil(arg1) || isNil(arg) {
					truth = isNil(arg) == isNil(arg1)
				} else {
					if !arg.Type().Comparable() {
						return false, fmt.Errorf("non-comparable type %s: %v", arg, arg.Type())
					}
					truth = arg1.Interface() == arg.Interface()
				}
			}
		}
		if truth {
			return true, nil
		}
	}
	return false, nil
}

// ne evaluates the comparison a != b.
func ne(arg1, arg2 reflect.Value) (bool, error) {
	equal, err := eq(arg1, arg2)
	return !equal, err
}

// lt evaluates the comparison a < b.
func lt(arg1, arg2 reflect.Value) (bool, error) {
	arg1 = indirectInterface(arg1)
	k1, err := basicKind(arg1)
	if err != nil {
		return false, err
	}
	arg2 = indirectInterface(arg2)
	k2, err := basicKind(arg2)
	if err != nil {
		return false, err
	}
	truth := false
	if k1 != k2 {
		switch {
		case k1 == intKind && k2 == uintKind:
			truth = arg1.Int() < 0 || uint64(arg1.Int()) < arg2.Uint()
		case k1 == uintKind && k2 == intKind:
			truth = arg2.Int() >= 0 && arg1.Uint() < uint64(arg2.Int())
		default:
			return false, fmt.Errorf("incompatible types for comparison: %v and %v", arg1.Type(), arg2.Type())
		}
	} else {
		switch k1 {
		case boolKind, complexKind:
			return false, errBadComparisonType
		case floatKind:
			truth = arg1.Float() < arg2.Float()
		case intKind:
			truth = arg1.Int() < arg2.Int()
		case stringKind:
			truth = arg1.String() < arg2.String()
		case uintKind:
			truth = arg1.Uint() < arg2.Uint()
		default:
			return false, errBadComparisonType
		}
	}
	return truth, nil
}

// le evaluates the comparison a <= b.
func le(arg1, arg2 reflect.Value) (bool, error) {
	lessThan, err := lt(arg1, arg2)
	if lessThan || err != nil {
		return lessThan, err
	}
	return eq(arg1, arg2)
}

// gt evaluates the comparison a > b.
func gt(arg1, arg2 reflect.Value) (bool, error) {
	lessOrEqual, err := le(arg1, arg2)
	if err != nil {
		return false, err
	}
	return !lessOrEqual, nil
}

// ge evaluates the comparison a >= b.
func ge(arg1, arg2 reflect.Value) (bool, error) {
	lessThan, err := lt(arg1, arg2)
	if err != nil {
		return false, err
	}
	return !lessThan, nil
}
