// Package nestlimit bounds how deeply an HCL or JSON text nests before a
// parser sees it. HCL's parsers recurse once per level of brackets,
// braces, parentheses, templates, conditionals and prefix operators, and a
// crafted file exhausts the goroutine stack: a Go "fatal error: stack
// overflow", which no recover catches. encoding/json stops at 10,000
// levels, but with an error that names no line. The checks here lex or
// scan (neither recurses) and refuse the text at the file:line:column
// where it passes Max, with what to do about it.
//
// Every HCL or JSON file fabricgen parses is checked: intent files and
// variable files (schema, which has its own JSON checks on top), -var
// values, .fabricgen.hcl, inventories, plan files, state records and
// snapshot files.
package nestlimit

import (
	"errors"
	"fmt"
	"io"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Max bounds nesting: real fabrics, configs and records nest a handful of
// levels.
const Max = 100

// ErrTooDeep is wrapped by every *Error.
var ErrTooDeep = errors.New("nested too deeply")

// Error is a text nested deeper than Max: where, and what to do.
type Error struct {
	// Range is the token or byte that passed Max.
	Range hcl.Range
	// Detail says what nests too deeply and how to fix it.
	Detail string
}

// Error is "FILE:LINE:COL: nested too deeply: DETAIL".
func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s", e.Range.Filename, e.Range.Start.Line, e.Range.Start.Column, ErrTooDeep, e.Detail)
}

// Unwrap makes errors.Is(err, ErrTooDeep) hold.
func (e *Error) Unwrap() error { return ErrTooDeep }

// HCL checks HCL native syntax (a whole file) named filename.
func HCL(src []byte, filename string) error {
	toks, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	return tokens(toks)
}

// HCLExpression checks one HCL expression (a -var value) named filename.
func HCLExpression(src []byte, filename string) error {
	toks, _ := hclsyntax.LexExpression(src, filename, hcl.InitialPos)
	return tokens(toks)
}

func tokens(toks hclsyntax.Tokens) error {
	if rng, msg, deep := TooDeep(toks); deep {
		return &Error{Range: rng, Detail: msg}
	}
	return nil
}

// TooDeep finds the first token nested deeper than Max, with the message
// that explains it.
func TooDeep(toks hclsyntax.Tokens) (hcl.Range, string, bool) {
	depth, unary, cond, parens := 0, 0, 0, 0
	for _, t := range toks {
		// Each "?" of a chained conditional (a ? b : c ? d : …) recurses once.
		switch {
		case t.Type == hclsyntax.TokenQuestion:
			cond++
			if cond > Max {
				return t.Range, fmt.Sprintf("This expression chains more than %d conditionals. Use a map lookup or locals instead.", Max), true
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
			if unary > Max {
				return t.Range, fmt.Sprintf("This chains more than %d operators in a row. Simplify the expression.", Max), true
			}
		} else {
			unary = 0
		}
		switch t.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen,
			hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl, hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc:
			depth++
			if depth > Max {
				return t.Range, fmt.Sprintf("This nests brackets, braces, parentheses or templates more than %d levels deep. Flatten the expression, e.g. with locals.", Max), true
			}
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen,
			hclsyntax.TokenTemplateSeqEnd, hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc:
			if depth > 0 {
				depth--
			}
		}
	}
	return hcl.Range{}, "", false
}

// JSON checks a JSON text named filename: objects and arrays nested
// deeper than Max are refused.
func JSON(src []byte, filename string) error {
	s := jsonScanner{name: filename, line: 1}
	return s.scan(src)
}

// JSONReader passes r through, failing with an *Error (after the bytes
// before it) once the JSON it carries nests deeper than Max: for a file
// decoded as it is read.
func JSONReader(r io.Reader, filename string) io.Reader {
	return &jsonReader{r: r, s: jsonScanner{name: filename, line: 1}}
}

type jsonReader struct {
	r   io.Reader
	s   jsonScanner
	err error
}

func (j *jsonReader) Read(p []byte) (int, error) {
	if j.err != nil {
		return 0, j.err
	}
	n, err := j.r.Read(p)
	if serr := j.s.scan(p[:n]); serr != nil {
		j.err = serr
		return j.s.ok, serr
	}
	return n, err
}

// jsonScanner tracks depth, line and column across the chunks it scans.
type jsonScanner struct {
	name           string
	depth          int
	inString, esc  bool
	line, col, off int
	// ok is how many bytes of the last chunk were scanned before an error.
	ok int
}

func (s *jsonScanner) scan(b []byte) error {
	for i, c := range b {
		s.off++
		if c == '\n' {
			s.line, s.col = s.line+1, 0
		} else if c&0xC0 != 0x80 { // not a UTF-8 continuation byte
			s.col++
		}
		switch {
		case s.inString:
			switch {
			case s.esc:
				s.esc = false
			case c == '\\':
				s.esc = true
			case c == '"':
				s.inString = false
			}
		case c == '"':
			s.inString = true
		case c == '[' || c == '{':
			s.depth++
			if s.depth > Max {
				s.ok = i
				pos := hcl.Pos{Line: s.line, Column: s.col, Byte: s.off - 1}
				end := pos
				end.Column++
				end.Byte++
				return &Error{Range: hcl.Range{Filename: s.name, Start: pos, End: end},
					Detail: fmt.Sprintf("This JSON nests objects or arrays more than %d levels deep; no file fabricgen reads nests more than a few. Flatten it (or replace it with the file fabricgen wrote).", Max)}
			}
		case c == ']' || c == '}':
			if s.depth > 0 {
				s.depth--
			}
		}
	}
	return nil
}
