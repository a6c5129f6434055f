package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/fabricgen/fabricgen/internal/nestlimit"
)

// MaxNesting bounds how deeply brackets, braces, parentheses and template
// interpolations may nest. HCL's parser recurses once per level and a
// crafted file would otherwise exhaust the stack (a fatal error, not a
// recoverable panic); real fabrics nest a handful of levels. Every other
// HCL or JSON file fabricgen parses has the same bound (internal/nestlimit).
const MaxNesting = nestlimit.Max

// checkNesting lexes src (the lexer is not recursive) and refuses a file
// nested deeper than MaxNesting.
func (d *decoder) checkNesting(src []byte, path string) bool {
	if strings.HasSuffix(path, JSONSuffix) || strings.HasSuffix(path, ".json") {
		return d.checkJSONNesting(src, path)
	}
	toks, _ := hclsyntax.LexConfig(src, path, hcl.InitialPos)
	if rng, msg, deep := tooDeep(toks); deep {
		d.errorf(rng, "Nested too deeply", "%s", msg)
		return false
	}
	return true
}

// tooDeep finds the first token nested deeper than MaxNesting, with the
// message that explains it.
func tooDeep(toks hclsyntax.Tokens) (hcl.Range, string, bool) { return nestlimit.TooDeep(toks) }

// checkJSONNesting does the same for JSON syntax. HCL evaluates a JSON
// string as a template, so a string holding "${" or "%{" is checked as
// one (checkJSONTemplate); numbers are checked against the range a
// number may have.
func (d *decoder) checkJSONNesting(src []byte, path string) bool {
	depth := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(src) {
				return true // unterminated: the parser reports it
			}
			if lit := src[i : j+1]; bytes.Contains(lit, []byte("${")) || bytes.Contains(lit, []byte("%{")) {
				if !d.checkJSONTemplate(src, path, i, lit) {
					return false
				}
			}
			i = j
		case c == '-' || (c >= '0' && c <= '9'):
			j := i
			for j < len(src) && strings.IndexByte("+-.eE0123456789", src[j]) >= 0 {
				j++
			}
			if f, _, err := big.ParseFloat(string(src[i:j]), 10, 512, big.ToNearestEven); err == nil {
				if err := numberLiteralOK(f); err != nil {
					r := posAt(src, path, i)
					d.add(&Diagnostic{Severity: SevError, Summary: "Number out of range", Subject: &r,
						Detail: fmt.Sprintf("%s. Numbers in the intent are at most about 1.8e308 in size.", upperFirst(err.Error()))})
					return false
				}
			}
			i = j - 1
		case c == '{' || c == '[':
			depth++
			if depth > MaxNesting {
				r := posAt(src, path, i)
				d.add(&Diagnostic{Severity: SevError, Summary: "Nested too deeply", Subject: &r,
					Detail: fmt.Sprintf("This JSON file nests objects or arrays more than %d levels deep.", MaxNesting)})
				return false
			}
		case c == '}' || c == ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return true
}

// JSON templates cannot be rewritten like native ones (see bound): HCL
// parses them anew each time it evaluates them. So what could build
// large values there is refused instead.
const (
	maxJSONTemplateParts = 32
	maxJSONTemplateOps   = 8
)

// checkJSONTemplate checks one JSON string literal lit (with its quotes),
// at byte off of src, that holds template syntax: its nesting, and that
// it has no for expression or %{ for } directive, at most
// maxJSONTemplateParts parts and maxJSONTemplateOps multiplications or
// divisions.
func (d *decoder) checkJSONTemplate(src []byte, path string, off int, lit []byte) bool {
	at := posAt(src, path, off)
	fail := func(detail string) bool {
		d.add(&Diagnostic{Severity: SevError, Summary: "Template too complex for JSON", Subject: &at, Detail: detail})
		return false
	}
	var s string
	if err := json.Unmarshal(lit, &s); err != nil {
		return true // the parser reports it
	}
	start := hcl.Pos{Line: int(at.Start.Line), Column: int(at.Start.Column), Byte: int(at.Start.Byte)}
	toks, _ := hclsyntax.LexTemplate([]byte(s), path, start)
	if _, msg, deep := tooDeep(toks); deep {
		d.add(&Diagnostic{Severity: SevError, Summary: "Nested too deeply", Subject: &at, Detail: msg})
		return false
	}
	ops := 0
	for _, t := range toks {
		if t.Type == hclsyntax.TokenStar || t.Type == hclsyntax.TokenSlash || t.Type == hclsyntax.TokenPercent {
			ops++
		}
	}
	if ops > maxJSONTemplateOps {
		return fail(fmt.Sprintf("A string template in a JSON file may hold at most %d multiplications, divisions and remainders; write the expression in a .fab.hcl file.", maxJSONTemplateOps))
	}
	expr, ds := hclsyntax.ParseTemplate([]byte(s), path, start)
	if ds.HasErrors() {
		return true // evaluation reports it
	}
	problem := ""
	// The walker returns no diagnostics: it records the problem instead.
	_ = hclsyntax.VisitAll(expr, func(n hclsyntax.Node) hcl.Diagnostics {
		switch n := n.(type) {
		case *hclsyntax.ForExpr, *hclsyntax.TemplateJoinExpr:
			problem = "A string template in a JSON file may not use for expressions or %{ for } directives (their size cannot be bounded there); write it in a .fab.hcl file."
		case *hclsyntax.TemplateExpr:
			if len(n.Parts) > maxJSONTemplateParts {
				problem = fmt.Sprintf("A string template in a JSON file may have at most %d parts; write it in a .fab.hcl file.", maxJSONTemplateParts)
			}
		case *hclsyntax.LiteralValueExpr:
			if n.Val.Type() == cty.Number {
				if err := checkNumber(n.Val); err != nil {
					problem = upperFirst(err.Error()) + "."
				}
			}
		}
		return nil
	})
	if problem != "" {
		return fail(problem)
	}
	if tr, ok := walkedReference(expr); ok {
		return fail(fmt.Sprintf("A string template in a JSON file may use %s only as a part of the string, not in a function call, a comparison or a conditional (what those walk cannot be charged in JSON templates); write the expression in a .fab.hcl file.", tr))
	}
	return true
}

// walkedReference finds a reference to a variable or a local value inside
// a function call, an == or != or a conditional: what walks its
// arguments, operands or results. Native syntax charges those walks (see
// bound); JSON templates are parsed anew at each evaluation and cannot be.
// count.index, each.key, each.value and block references stay allowed:
// they are small, or bounded by the for_each value (checked).
func walkedReference(expr hclsyntax.Expression) (string, bool) {
	w := &walkWatch{}
	_ = hclsyntax.Walk(expr, w)
	return w.found, w.found != ""
}

// walkWatch is the hclsyntax.Walker of walkedReference.
type walkWatch struct {
	depth int // walking nodes entered and not left
	found string
}

func walks(n hclsyntax.Node) bool {
	switch n := n.(type) {
	case *hclsyntax.FunctionCallExpr, *hclsyntax.ConditionalExpr:
		return true
	case *hclsyntax.BinaryOpExpr:
		return n.Op == hclsyntax.OpEqual || n.Op == hclsyntax.OpNotEqual
	}
	return false
}

// Enter implements hclsyntax.Walker.
func (w *walkWatch) Enter(n hclsyntax.Node) hcl.Diagnostics {
	if walks(n) {
		w.depth++
	}
	if st, ok := n.(*hclsyntax.ScopeTraversalExpr); ok && w.depth > 0 && w.found == "" {
		if root := st.Traversal.RootName(); root == "var" || root == "local" {
			w.found = root + "." + traversalName(st.Traversal)
		}
	}
	return nil
}

// Exit implements hclsyntax.Walker.
func (w *walkWatch) Exit(n hclsyntax.Node) hcl.Diagnostics {
	if walks(n) {
		w.depth--
	}
	return nil
}

// traversalName is the attribute a traversal's second step names, or "…".
func traversalName(tr hcl.Traversal) string {
	if len(tr) > 1 {
		if a, ok := tr[1].(hcl.TraverseAttr); ok {
			return a.Name
		}
	}
	return "…"
}
