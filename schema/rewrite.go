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
	fnForEach     = "_for_collection"
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
		fnForEach:     forCollectionFunc(b),
	}
}

// bound rewrites a native-syntax tree so that evaluating it cannot build
// more than the limits allow: string templates with interpolations and
// %{ for } directives become calls that check the length before they
// concatenate, every for expression's collection passes a call that
// charges its length to the load's budget, arithmetic checks its result,
// and number literals out of range are reported. HCL itself builds these
// values without a limit.
func bound(node hclsyntax.Node) hcl.Diagnostics {
	var diags hcl.Diagnostics
	w := func(e hclsyntax.Expression) hclsyntax.Expression {
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
	opt := func(e hclsyntax.Expression) hclsyntax.Expression {
		if e == nil {
			return nil
		}
		return w(e)
	}
	// The walker only rewrites nodes and returns no diagnostics.
	_ = hclsyntax.VisitAll(node, func(n hclsyntax.Node) hcl.Diagnostics {
		switch n := n.(type) {
		case *hclsyntax.Attribute:
			n.Expr = w(n.Expr)
		case *hclsyntax.ForExpr:
			coll := w(n.CollExpr)
			if fc, ok := coll.(*hclsyntax.FunctionCallExpr); !ok || fc.Name != fnForEach {
				r := coll.Range()
				coll = &hclsyntax.FunctionCallExpr{Name: fnForEach, Args: []hclsyntax.Expression{coll},
					NameRange: r, OpenParenRange: r, CloseParenRange: r}
			}
			n.CollExpr = coll
			n.KeyExpr, n.ValExpr, n.CondExpr = opt(n.KeyExpr), w(n.ValExpr), opt(n.CondExpr)
		case *hclsyntax.FunctionCallExpr:
			for i := range n.Args {
				n.Args[i] = w(n.Args[i])
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
			n.Condition, n.TrueResult, n.FalseResult = w(n.Condition), w(n.TrueResult), w(n.FalseResult)
		case *hclsyntax.BinaryOpExpr:
			n.LHS, n.RHS = w(n.LHS), w(n.RHS)
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
