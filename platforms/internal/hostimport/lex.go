package hostimport

import (
	"strings"

	"github.com/fabricgen/fabricgen/internal/importer"
)

// The script form is read as the shell would split it into words, but
// nothing is ever run or expanded: $VAR, ${...}, $(...), backquotes and
// globs stay in the word as written, and the word is marked so a reader
// that needs its value reports the line instead of guessing.

// word is one shell word: quotes removed, expansions kept verbatim.
type word struct {
	text string
	// expand is true when the shell would change the word (a $, a
	// backquote, a glob or brace pattern outside quotes).
	expand bool
	// start and end are byte offsets of the word in the file.
	start, end int
}

// tokKind is a lexer token's kind.
type tokKind int

const (
	tWord tokKind = iota
	tOp
	tNewline
	tComment
	tEOF
)

// token is one lexer token: a word, an operator, a newline or a comment.
type token struct {
	kind tokKind
	w    word
	// op is the operator (";", "&&", "|", ">", ...) or the comment text.
	op    string
	line  int
	start int
	end   int
}

// lexer splits a script into tokens, one pass, in linear time.
type lexer struct {
	src []byte
	// str is src as one string: words, operators and comments are
	// substrings of it, not an allocation each.
	str  string
	name string
	pos  int
	line int
	// heredocs are the delimiters of here-documents opened on the current
	// line; their bodies follow the next newline and are skipped as data.
	heredocs []heredoc
	// pendingDelim is true right after a << operator: the next word is a
	// here-document's delimiter.
	pendingDelim bool
	pendingStrip bool
	// unended is the line of a here-document whose end line never came
	// (0: none), and unendedDelim its delimiter.
	unended      int
	unendedDelim string
}

type heredoc struct {
	delim string
	strip bool
}

func newLexer(name string, src []byte) *lexer {
	return &lexer{src: src, str: string(src), name: name, line: 1}
}

// next returns the next token, or an *importer.Error for an unterminated
// quote or substitution.
func (l *lexer) next() (token, error) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			l.pos++
		case c == '\\' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '\n':
			// A line continuation between words.
			l.pos += 2
			l.line++
		case c == '\n':
			t := token{kind: tNewline, line: l.line, start: l.pos, end: l.pos + 1}
			l.pos++
			l.line++
			if len(l.heredocs) > 0 {
				l.skipHeredocs()
			}
			return t, nil
		case c == '#':
			start := l.pos
			end := indexFrom(l.src, l.pos, '\n')
			l.pos = end
			return token{kind: tComment, op: l.str[start:end], line: l.line, start: start, end: end}, nil
		case strings.IndexByte(";&|<>()", c) >= 0:
			return l.operator(), nil
		default:
			return l.word()
		}
	}
	return token{kind: tEOF, line: l.line, start: l.pos, end: l.pos}, nil
}

func indexFrom(b []byte, from int, c byte) int {
	for i := from; i < len(b); i++ {
		if b[i] == c {
			return i
		}
	}
	return len(b)
}

func (l *lexer) operator() token {
	start, c := l.pos, l.src[l.pos]
	l.pos++
	if l.pos < len(l.src) {
		n := l.src[l.pos]
		switch {
		case c == n && c != '(' && c != ')':
			l.pos++
		case (c == '>' || c == '<') && n == '&', c == '&' && n == '>', c == '>' && n == '|':
			l.pos++
		}
	}
	op := l.str[start:l.pos]
	if op == "<<" && l.pos < len(l.src) && l.src[l.pos] == '<' {
		// A here-string (<<< WORD): the word is data, no body follows.
		l.pos++
		return token{kind: tOp, op: "<<<", line: l.line, start: start, end: l.pos}
	}
	if op == "<<" {
		l.pendingDelim = true
		l.pendingStrip = false
		if l.pos < len(l.src) && l.src[l.pos] == '-' {
			l.pendingStrip = true
			l.pos++
		}
	}
	return token{kind: tOp, op: op, line: l.line, start: start, end: l.pos}
}

// word reads one word.
func (l *lexer) word() (token, error) {
	start, line := l.pos, l.line
	// Most words are plain: no quote, escape or expansion. Such a word is
	// its own bytes.
	end := start
	for end < len(l.src) && plainByte[l.src[end]] {
		end++
	}
	if end == len(l.src) || wordEnd[l.src[end]] {
		l.pos = end
		return l.endWord(start, line, l.str[start:end], false), nil
	}
	var b strings.Builder
	b.Grow(end - start + 32)
	expand := false
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || strings.IndexByte(";&|<>()", c) >= 0:
			return l.endWord(start, line, b.String(), expand), nil
		case c == '\\':
			if l.pos+1 >= len(l.src) {
				l.pos++
				continue
			}
			if l.src[l.pos+1] == '\n' {
				l.pos += 2
				l.line++
				continue
			}
			b.WriteByte(l.src[l.pos+1])
			l.pos += 2
		case c == '\'':
			end := indexFrom(l.src, l.pos+1, '\'')
			if end >= len(l.src) {
				return token{}, importer.Errorf(l.name, l.line, "a single quote opened here is never closed; close it (a script line must be complete)")
			}
			l.countLines(l.pos, end)
			b.Write(l.src[l.pos+1 : end])
			l.pos = end + 1
		case c == '"':
			if err := l.doubleQuoted(&b, &expand); err != nil {
				return token{}, err
			}
		case c == '$' || c == '`':
			if err := l.expansion(&b); err != nil {
				return token{}, err
			}
			expand = true
		case c == '*' || c == '?' || (c == '~' && b.Len() == 0):
			b.WriteByte(c)
			expand = true
			l.pos++
		default:
			b.WriteByte(c)
			l.pos++
		}
	}
	return l.endWord(start, line, b.String(), expand), nil
}

// plainByte marks the bytes a word may hold as they are; wordEnd the
// bytes that end one.
var plainByte, wordEnd = func() (plain, end [256]bool) {
	for c := range 256 {
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || strings.IndexByte(";&|<>()", byte(c)) >= 0:
			end[c] = true
		case strings.IndexByte("\\'\"$`*?~", byte(c)) >= 0:
		default:
			plain[c] = true
		}
	}
	return plain, end
}()

func (l *lexer) endWord(start, line int, text string, expand bool) token {
	if !expand && strings.IndexByte(text, '{') >= 0 && strings.IndexByte(text, ',') >= 0 && strings.IndexByte(text, '}') >= 0 && text != "{" && text != "}" {
		expand = true // brace expansion: eth{0,1}
	}
	w := word{text: text, expand: expand, start: start, end: l.pos}
	if l.pendingDelim {
		l.pendingDelim = false
		l.heredocs = append(l.heredocs, heredoc{delim: text, strip: l.pendingStrip})
	}
	return token{kind: tWord, w: w, line: line, start: start, end: l.pos}
}

func (l *lexer) countLines(from, to int) {
	for i := from; i < to && i < len(l.src); i++ {
		if l.src[i] == '\n' {
			l.line++
		}
	}
}

// doubleQuoted reads "..." at l.pos into b.
func (l *lexer) doubleQuoted(b *strings.Builder, expand *bool) error {
	line := l.line
	l.pos++
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch c {
		case '"':
			l.pos++
			return nil
		case '\\':
			if l.pos+1 < len(l.src) && strings.IndexByte("$`\"\\\n", l.src[l.pos+1]) >= 0 {
				if l.src[l.pos+1] == '\n' {
					l.line++
				} else {
					b.WriteByte(l.src[l.pos+1])
				}
				l.pos += 2
				continue
			}
			b.WriteByte(c)
			l.pos++
		case '$', '`':
			if err := l.expansion(b); err != nil {
				return err
			}
			*expand = true
		case '\n':
			l.line++
			b.WriteByte(c)
			l.pos++
		default:
			b.WriteByte(c)
			l.pos++
		}
	}
	return importer.Errorf(l.name, line, "a double quote opened here is never closed; close it (a script line must be complete)")
}

// expansion copies a $..., ${...}, $(...) or `...` at l.pos into b,
// verbatim: it is data, never run.
func (l *lexer) expansion(b *strings.Builder) error {
	start, line := l.pos, l.line
	c := l.src[l.pos]
	if c == '`' {
		for i := l.pos + 1; i < len(l.src); i++ {
			switch l.src[i] {
			case '\\':
				i++
			case '`':
				l.countLines(l.pos, i)
				b.Write(l.src[start : i+1])
				l.pos = i + 1
				return nil
			}
		}
		return importer.Errorf(l.name, line, "a backquote opened here is never closed; close it (import never runs it)")
	}
	l.pos++
	if l.pos >= len(l.src) {
		b.WriteByte('$')
		return nil
	}
	switch n := l.src[l.pos]; {
	case n == '(' || n == '{':
		open, closing := n, byte(')')
		if n == '{' {
			closing = '}'
		}
		depth := 0
		for i := l.pos; i < len(l.src); i++ {
			switch l.src[i] {
			case '\\':
				i++
			case '\'':
				i = indexFrom(l.src, i+1, '\'')
			case '"':
				for i++; i < len(l.src) && l.src[i] != '"'; i++ {
					if l.src[i] == '\\' {
						i++
					}
				}
			case open:
				depth++
			case closing:
				depth--
				if depth == 0 {
					l.countLines(l.pos, i)
					b.Write(l.src[start : i+1])
					l.pos = i + 1
					return nil
				}
			}
		}
		what := "$("
		if n == '{' {
			what = "${"
		}
		return importer.Errorf(l.name, line, "a %s opened here is never closed; close it (import never expands it)", what)
	case isNameByte(n) || strings.IndexByte("?#@*!$-", n) >= 0:
		i := l.pos + 1
		if isNameByte(n) && (n < '0' || n > '9') {
			for i < len(l.src) && isNameByte(l.src[i]) {
				i++
			}
		}
		b.Write(l.src[start:i])
		l.pos = i
	default:
		b.WriteByte('$')
	}
	return nil
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// skipHeredocs skips the bodies of the here-documents opened on the line
// just ended: they are data for the command, not commands.
func (l *lexer) skipHeredocs() {
	for _, h := range l.heredocs {
		start, found := l.line, false
		for l.pos < len(l.src) {
			end := indexFrom(l.src, l.pos, '\n')
			ln := string(l.src[l.pos:end])
			if h.strip {
				ln = strings.TrimLeft(ln, "\t")
			}
			l.pos = end
			if l.pos < len(l.src) {
				l.pos++
				l.line++
			}
			if strings.TrimRight(ln, "\r") == h.delim {
				found = true
				break
			}
		}
		if !found && l.unended == 0 {
			l.unended, l.unendedDelim = start-1, h.delim
		}
	}
	l.heredocs = l.heredocs[:0]
}
