package shell

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/fabricgen/fabricgen/internal/nestlimit"
)

// MaxLine bounds a command line the shell parses (Exec, Changes, eval and
// sh -c): lines typed or replayed into the lab are a few hundred bytes
// (push writes SONiC patches in chunks of 384).
const MaxLine = 64 << 10

// parseBudget bounds the bytes parsed for one line: the line and what its
// eval and sh -c parse, statically and when they run (a chain of evals
// parses its text once per level).
const parseBudget = 16 * MaxLine

// maxNest bounds how deeply the brackets, quotes and substitutions of a
// line nest before the parser (which recurses once per level) sees it.
const maxNest = nestlimit.Max

// maxChain bounds the operators (&&, ||, |) and compound-command keywords
// of a line: the parser recurses once for each of them too.
const maxChain = 1000

// Error is a line the lab shell refuses: where (line and column, from 1)
// and what, in bash's words where bash has them.
type Error struct {
	Line, Col int
	// Msg is what the terminal shows after "bash: ".
	Msg string
}

// Error is "LINE:COL: MSG".
func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// errorAt returns an *Error at pos.
func errorAt(pos syntax.Pos, format string, args ...any) *Error {
	return &Error{Line: int(pos.Line()), Col: int(pos.Col()), Msg: fmt.Sprintf(format, args...)}
}

// message is the text bash prints for err (after "bash: ").
func message(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Msg
	}
	return err.Error()
}

// Parse parses a command line with mvdan.cc/sh/v3/syntax (bash variant)
// after bounding its size and nesting; errors are *Error, with bash's
// texts for the common syntax errors.
func Parse(src string) (*syntax.File, error) {
	return parseWith(newParser(), src)
}

// newParser returns a parser for the bash variant. A parser is reused
// line after line (never two lines at once): making one costs more than
// parsing a typical line.
func newParser() *syntax.Parser {
	return syntax.NewParser(syntax.Variant(syntax.LangBash))
}

// parsing is a parser and what is left of the parse budget of the line
// being run or scanned; a child shell shares its parent's.
type parsing struct {
	parser *syntax.Parser
	left   int
}

func newParsing() *parsing { return &parsing{parser: newParser(), left: parseBudget} }

// parse parses src, counting it against the budget.
func (ps *parsing) parse(src string) (*syntax.File, error) {
	ps.left -= len(src)
	if ps.left < 0 {
		return nil, &Error{Line: 1, Col: 1, Msg: fmt.Sprintf("maximum nesting level exceeded (more than %d bytes to parse for one line, eval and sh -c included)", parseBudget)}
	}
	return parseWith(ps.parser, src)
}

// parseWith is Parse with a parser.
func parseWith(p *syntax.Parser, src string) (*syntax.File, error) {
	if err := checkBounds(src); err != nil {
		return nil, err
	}
	f, err := p.Parse(strings.NewReader(src), "")
	if err != nil {
		var pe syntax.ParseError
		if errors.As(err, &pe) {
			return nil, &Error{Line: int(pe.Pos.Line()), Col: int(pe.Pos.Col()), Msg: bashSyntaxError(src, pe)}
		}
		var le syntax.LangError
		if errors.As(err, &le) {
			return nil, errorAt(le.Pos, "%s: not supported in the lab shell", le.Feature)
		}
		return nil, &Error{Line: 1, Col: 1, Msg: err.Error()}
	}
	return f, nil
}

// bashSyntaxError words a parse error as bash does.
func bashSyntaxError(src string, pe syntax.ParseError) string {
	text := pe.Text
	token := func() string {
		// The first `...` (or "`") of the message names the token.
		if i := strings.IndexAny(text, "`\""); i >= 0 {
			q := text[i]
			if j := strings.IndexByte(text[i+1:], q); j >= 0 {
				return text[i+1 : i+1+j]
			}
		}
		return ""
	}
	switch {
	case strings.HasPrefix(text, "reached EOF without closing quote"):
		return "unexpected EOF while looking for matching `" + token() + "'"
	case strings.HasPrefix(text, "reached EOF without matching"):
		closer := text[strings.LastIndex(text[:len(text)-1], "`")+1 : len(text)-1]
		return "unexpected EOF while looking for matching `" + closer + "'"
	case strings.HasPrefix(text, "unclosed here-document"):
		return "here-documents are not supported in the lab shell"
	case text == "invalid parameter name":
		return "bad substitution"
	case strings.Contains(text, "must be followed by"):
		return "syntax error near unexpected token `" + nextToken(src, int(pe.Pos.Offset())+len(token())) + "'"
	case strings.Contains(text, "encountered `"):
		return "syntax error near unexpected token `" + text[strings.LastIndex(text[:len(text)-1], "`")+1:len(text)-1] + "'"
	case strings.HasPrefix(text, "`"):
		return "syntax error near unexpected token `" + token() + "'"
	}
	return "syntax error: " + text
}

// nextToken is the token bash names after an operator that lacks its
// operand: the next operator or word from src[i], or "newline" at the end.
func nextToken(src string, i int) string {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i >= len(src) || src[i] == '\n' {
		return "newline"
	}
	const ops = "|&;<>()"
	j := i + 1
	if strings.IndexByte(ops, src[i]) >= 0 {
		if j < len(src) && strings.IndexByte(ops, src[j]) >= 0 {
			j++
		}
		return src[i:j]
	}
	for j < len(src) && strings.IndexByte(" \t\n"+ops, src[j]) < 0 {
		j++
	}
	return src[i:j]
}

// arithmetic is the refusal of $(( and ((.
const arithmetic = "((: arithmetic is not supported in the lab shell"

// keywords are the words that make the parser recurse (compound commands
// and the like); checkBounds counts them with the operators.
var keywords = map[string]bool{
	"if": true, "while": true, "until": true, "for": true, "case": true, "select": true,
	"function": true, "!": true, "[[": true, "time": true, "coproc": true,
}

// boundsScan is the state of checkBounds: a stack of the open contexts,
// never a recursion.
type boundsScan struct {
	src   string
	stack []byte
	chain int
}

// Contexts on the boundsScan stack.
const (
	ctxParen   = '(' // ( $( <( >(
	ctxBrace   = '{' // { group
	ctxParam   = '$' // ${ outside double quotes
	ctxDParam  = 'P' // ${ inside double quotes
	ctxDouble  = '"'
	ctxBacktik = '`'
)

// checkBounds refuses a line nested deeper than maxNest, chaining more
// than maxChain operators or longer than MaxLine, at the line:col where
// it passes the bound; and $(( and (( arithmetic, which the lab shell does
// not run. It scans without recursion; it may over-count (a brace inside
// a word), never under-count what the parser recurses on.
func checkBounds(src string) error {
	// Nesting first: its scan is linear and names where the line
	// passes the bound.
	b := &boundsScan{src: src}
	for i := 0; i < len(src); i++ {
		var err error
		i, err = b.step(i)
		if err != nil {
			return err
		}
	}
	if len(src) > MaxLine {
		return &Error{Line: 1, Col: 1, Msg: fmt.Sprintf("line too long (%d bytes, at most %d in the lab shell)", len(src), MaxLine)}
	}
	return nil
}

// top is the innermost open context (ctxParen at the top level).
func (b *boundsScan) top() byte {
	if len(b.stack) == 0 {
		return ctxParen
	}
	return b.stack[len(b.stack)-1]
}

func (b *boundsScan) push(i int, c byte) error {
	b.stack = append(b.stack, c)
	if len(b.stack) > maxNest {
		return b.errorAt(i, fmt.Sprintf("maximum nesting level exceeded (more than %d levels of quotes, brackets and substitutions)", maxNest))
	}
	return nil
}

func (b *boundsScan) pop() { b.stack = b.stack[:len(b.stack)-1] }

func (b *boundsScan) errorAt(i int, msg string) *Error {
	line := 1 + strings.Count(b.src[:i], "\n")
	col := i - strings.LastIndexByte(b.src[:i], '\n')
	return &Error{Line: line, Col: col, Msg: msg}
}

// wordStart reports whether src[i] starts a word in code.
func (b *boundsScan) wordStart(i int) bool {
	return i == 0 || strings.IndexByte(" \t\n;&|()<>{}", b.src[i-1]) >= 0
}

// step reads the byte at i and returns the index of the last byte it used.
func (b *boundsScan) step(i int) (int, error) {
	src := b.src
	c := src[i]
	next := byte(0)
	if i+1 < len(src) {
		next = src[i+1]
	}
	switch top := b.top(); {
	case c == '\\':
		return i + 1, nil
	case top == ctxDouble || top == ctxDParam:
		return b.quoted(i, top)
	case c == '(' && next == '(', c == '$' && strings.HasPrefix(src[i:], "$(("):
		return i, b.errorAt(i, arithmetic)
	case (c == '$' || c == '<' || c == '>') && next == '(':
		return i + 1, b.push(i, ctxParen)
	case c == '\'':
		if j := strings.IndexByte(src[i+1:], '\''); j >= 0 {
			return i + 1 + j, nil
		}
		return len(src), nil
	case c == '"':
		return i, b.push(i, ctxDouble)
	case c == '`':
		if top == ctxBacktik {
			b.pop()
			return i, nil
		}
		return i, b.push(i, ctxBacktik)
	case c == '$' && next == '{':
		return i + 1, b.push(i, ctxParam)
	case c == '(':
		return i, b.push(i, ctxParen)
	case c == '{' && top != ctxParam:
		return i, b.push(i, ctxBrace)
	case c == ')' && top == ctxParen && len(b.stack) > 0,
		c == '}' && (top == ctxBrace || top == ctxParam):
		b.pop()
		return i, nil
	case c == '#' && b.wordStart(i) && top != ctxParam:
		if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
			return i + j, nil
		}
		return len(src), nil
	case c == '|' || c == '&' && next == '&':
		err := b.chained(i)
		if next == c {
			i++
		}
		return i, err
	case b.wordStart(i):
		// The longest keyword is "function": look no further.
		j := i
		for j < len(src) && j-i <= len("function") && strings.IndexByte(" \t\n;&|()<>", src[j]) < 0 {
			j++
		}
		if keywords[src[i:j]] {
			return i, b.chained(i)
		}
	}
	return i, nil
}

// quoted reads the byte at i inside double quotes (or a ${ in them).
func (b *boundsScan) quoted(i int, top byte) (int, error) {
	src := b.src
	switch c := src[i]; {
	case c == '"' && top == ctxDouble:
		b.pop()
	case c == '"':
		return i, b.push(i, ctxDouble)
	case c == '}' && top == ctxDParam:
		b.pop()
	case c == '`':
		return i, b.push(i, ctxBacktik)
	case c == '$' && strings.HasPrefix(src[i:], "$(("):
		return i, b.errorAt(i, arithmetic)
	case c == '$' && i+1 < len(src) && src[i+1] == '(':
		return i + 1, b.push(i, ctxParen)
	case c == '$' && i+1 < len(src) && src[i+1] == '{':
		return i + 1, b.push(i, ctxDParam)
	}
	return i, nil
}

func (b *boundsScan) chained(i int) error {
	b.chain++
	if b.chain > maxChain {
		return b.errorAt(i, fmt.Sprintf("maximum nesting level exceeded (more than %d operators and compound commands in one line)", maxChain))
	}
	return nil
}
