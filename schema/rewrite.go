package schema

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// Names of the functions the rewritten syntax tree calls (see bound).
// Users can call them too; they do nothing a template cannot.
const (
	fnTemplate    = "_template"
	fnTemplateFor = "_template_for"
)

// Arithmetic that cannot grow a number past what prints: the operators
// of hclsyntax with their results checked. They hold no state.
var (
	opAdd      = &hclsyntax.Operation{Impl: boundedOp(stdlib.AddFunc), Type: cty.Number}
	opSubtract = &hclsyntax.Operation{Impl: boundedOp(stdlib.SubtractFunc), Type: cty.Number}
	opMultiply = &hclsyntax.Operation{Impl: boundedOp(stdlib.MultiplyFunc), Type: cty.Number}
	opDivide   = &hclsyntax.Operation{Impl: boundedOp(stdlib.DivideFunc), Type: cty.Number}
	opModulo   = &hclsyntax.Operation{Impl: boundedOp(stdlib.ModuloFunc), Type: cty.Number}
)

// internalFunctions are the functions bound() makes the syntax tree call.
func internalFunctions(b *budget) map[string]function.Function {
	return map[string]function.Function{
		fnTemplate:    templateFunc(b),
		fnTemplateFor: templateForFunc(b),
	}
}

// bound rewrites a native-syntax tree so that evaluating it cannot build
// or walk more than the limits allow (HCL itself builds and walks values
// without a limit):
//   - string templates with interpolations and %{ for } directives
//     become calls that check the length before they concatenate;
//   - every for expression's collection charges its iterations to b
//     before the first runs (forCollection), and tuples and objects built
//     inside an expression charge their elements (builtExpr);
//   - what function calls, == and != and conditionals are about to walk
//     is measured and charged first (chargedExpr, expand.go);
//   - arithmetic checks its result, and number literals out of range are
//     reported.
func bound(node hclsyntax.Node, b *budget) hcl.Diagnostics {
	var diags hcl.Diagnostics
	// template rewrites a template into a checked call.
	template := func(e hclsyntax.Expression) hclsyntax.Expression {
		switch e := e.(type) {
		case *hclsyntax.TemplateExpr:
			// A template of one part is a literal, or the body of a
			// directive, which builds a new string each iteration.
			if len(e.Parts) == 0 || e.IsStringLiteral() {
				return e
			}
			return &hclsyntax.FunctionCallExpr{Name: fnTemplate, Args: e.Parts,
				NameRange: e.SrcRange, OpenParenRange: e.SrcRange, CloseParenRange: e.SrcRange}
		case *hclsyntax.TemplateJoinExpr:
			r := e.Tuple.Range()
			return &hclsyntax.FunctionCallExpr{Name: fnTemplateFor, Args: []hclsyntax.Expression{e.Tuple},
				NameRange: r, OpenParenRange: r, CloseParenRange: r}
		}
		return e
	}
	// w rewrites an expression nested in another: templates as above,
	// tuple and object constructors charged. An attribute's own
	// expression is checked by whoever reads it (decoder, locals).
	w := func(e hclsyntax.Expression) hclsyntax.Expression {
		switch e.(type) {
		case *hclsyntax.TupleConsExpr, *hclsyntax.ObjectConsExpr:
			return &builtExpr{ParenthesesExpr: around(e), b: b}
		}
		return template(e)
	}
	opt := func(e hclsyntax.Expression) hclsyntax.Expression {
		if e == nil {
			return nil
		}
		return w(e)
	}
	charge := func(e hclsyntax.Expression, walks int) hclsyntax.Expression {
		return &chargedExpr{ParenthesesExpr: around(w(e)), b: b, walks: walks}
	}
	visit := func(n hclsyntax.Node) {
		switch n := n.(type) {
		case *builtExpr, *chargedExpr, *forCollection:
			// Added above: the walk goes on to the node they wrap.
		case *hclsyntax.Attribute:
			n.Expr = template(n.Expr)
		case *hclsyntax.ForExpr:
			weight := weightIteration
			if n.KeyExpr != nil {
				weight = weightEntry
			}
			n.CollExpr = &forCollection{ParenthesesExpr: around(w(n.CollExpr)), b: b, weight: weight}
			n.KeyExpr, n.ValExpr, n.CondExpr = opt(n.KeyExpr), w(n.ValExpr), opt(n.CondExpr)
		case *hclsyntax.FunctionCallExpr:
			for i := range n.Args {
				n.Args[i] = charge(n.Args[i], walksCall)
			}
		case *hclsyntax.TupleConsExpr:
			for i := range n.Exprs {
				n.Exprs[i] = w(n.Exprs[i])
			}
		case *hclsyntax.ObjectConsExpr:
			for i := range n.Items {
				n.Items[i].KeyExpr, n.Items[i].ValueExpr = w(n.Items[i].KeyExpr), w(n.Items[i].ValueExpr)
			}
		case *hclsyntax.ObjectConsKeyExpr:
			n.Wrapped = w(n.Wrapped)
		case *hclsyntax.ConditionalExpr:
			n.Condition = w(n.Condition)
			n.TrueResult, n.FalseResult = charge(n.TrueResult, 0), charge(n.FalseResult, 0)
		case *hclsyntax.BinaryOpExpr:
			switch n.Op {
			case hclsyntax.OpEqual, hclsyntax.OpNotEqual:
				n.LHS, n.RHS = charge(n.LHS, walksCompare), charge(n.RHS, walksCompare)
			default:
				n.LHS, n.RHS = w(n.LHS), w(n.RHS)
			}
			switch n.Op {
			case hclsyntax.OpAdd:
				n.Op = opAdd
			case hclsyntax.OpSubtract:
				n.Op = opSubtract
			case hclsyntax.OpMultiply:
				n.Op = opMultiply
			case hclsyntax.OpDivide:
				n.Op = opDivide
			case hclsyntax.OpModulo:
				n.Op = opModulo
			}
		case *hclsyntax.UnaryOpExpr:
			n.Val = w(n.Val)
		case *hclsyntax.IndexExpr:
			n.Collection, n.Key = w(n.Collection), w(n.Key)
		case *hclsyntax.SplatExpr:
			n.Source, n.Each = w(n.Source), opt(n.Each)
		case *hclsyntax.RelativeTraversalExpr:
			n.Source = w(n.Source)
		case *hclsyntax.TemplateExpr:
			for i := range n.Parts {
				n.Parts[i] = w(n.Parts[i])
			}
		case *hclsyntax.TemplateWrapExpr:
			n.Wrapped = w(n.Wrapped)
		case *hclsyntax.ParenthesesExpr:
			n.Expression = w(n.Expression)
		case *hclsyntax.LiteralValueExpr:
			if n.Val.Type() == cty.Number && n.Val.IsKnown() && !n.Val.IsNull() {
				if err := checkNumber(n.Val); err != nil {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Number out of range",
						Detail: fmt.Sprintf("%s. Numbers in the intent are at most about 1.8e308 in size.", upperFirst(err.Error())), Subject: n.SrcRange.Ptr()})
				}
			}
		}
	}
	// The walker only rewrites nodes and returns no diagnostics.
	_ = hclsyntax.VisitAll(node, func(n hclsyntax.Node) hcl.Diagnostics {
		visit(n)
		return nil
	})
	return diags
}

// upperFirst capitalises the first letter of a message.
func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
