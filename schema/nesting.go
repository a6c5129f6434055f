package schema

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// MaxNesting bounds how deeply brackets, braces, parentheses and template
// interpolations may nest. HCL's parser recurses once per level and a
// crafted file would otherwise exhaust the stack (a fatal error, not a
// recoverable panic); real fabrics nest a handful of levels.
const MaxNesting = 100

// checkNesting lexes src (the lexer is not recursive) and refuses a file
// nested deeper than MaxNesting.
func (d *decoder) checkNesting(src []byte, path string) bool {
	if strings.HasSuffix(path, JSONSuffix) {
		return d.checkJSONNesting(src, path)
	}
	toks, _ := hclsyntax.LexConfig(src, path, hcl.InitialPos)
	depth, unary, cond, parens := 0, 0, 0, 0
	for _, t := range toks {
		// Each "?" of a chained conditional (a ? b : c ? d : …) recurses once.
		switch {
		case t.Type == hclsyntax.TokenQuestion:
			cond++
			if cond > MaxNesting {
				d.errorf(t.Range, "Nested too deeply", "This expression chains more than %d conditionals. Use a map lookup or locals instead.", MaxNesting)
				return false
			}
		case t.Type == hclsyntax.TokenOParen || t.Type == hclsyntax.TokenOBrack:
			parens++
		case (t.Type == hclsyntax.TokenCParen || t.Type == hclsyntax.TokenCBrack) && parens > 0:
			parens--
		case t.Type == hclsyntax.TokenNewline && parens == 0:
			// A newline outside () and [] ends the attribute or map item.
			cond = 0
		}
		// A run of prefix operators (- - - 1, !!!x) recurses like nesting.
		if t.Type == hclsyntax.TokenMinus || t.Type == hclsyntax.TokenBang {
			unary++
			if unary > MaxNesting {
				d.errorf(t.Range, "Nested too deeply", "This file chains more than %d operators in a row. Simplify the expression.", MaxNesting)
				return false
			}
		} else {
			unary = 0
		}
		switch t.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen,
			hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl, hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc:
			depth++
			if depth > MaxNesting {
				d.errorf(t.Range, "Nested too deeply", "This file nests brackets, braces, parentheses or templates more than %d levels deep. Flatten the expression, e.g. with locals.", MaxNesting)
				return false
			}
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen,
			hclsyntax.TokenTemplateSeqEnd, hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc:
			if depth > 0 {
				depth--
			}
		}
	}
	return true
}

// checkJSONNesting does the same for JSON syntax, skipping string contents.
func (d *decoder) checkJSONNesting(src []byte, path string) bool {
	depth, inStr, esc := 0, false, false
	for i, c := range src {
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
