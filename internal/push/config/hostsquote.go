package config

import (
	"errors"
	"fmt"
	"strings"
)

// Host script lines are shell command lines. fabricgen reads them as
// words, with POSIX quoting, and refuses anything the shell would expand
// or interpret (an unquoted $, `, *, ?, [, {, ~, #, !, a $ inside double
// quotes): a line that parses runs exactly the words it shows. Every
// command fabricgen builds from those words quotes them again with
// quoteWord, so a name is never code.

// shellToken is one word, or an operator (>, |, ||, &&, ;, &, <, >>, >&,
// (, )) when op is set.
type shellToken struct {
	s  string
	op bool
}

// errShellVar is a $ outside single quotes: after ResolveHostScript,
// only a variable without a (safe) value is left.
var errShellVar = errors.New("uses a shell variable that no NAME=$(command) line of the preamble sets, or whose value the host printed is not a plain device name")

// shellWords splits a command line into words and operators.
func shellWords(line string) ([]shellToken, error) {
	var out []shellToken
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			out = append(out, shellToken{s: cur.String()})
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated single quote")
			}
			cur.WriteString(line[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				switch d := line[i]; d {
				case '$':
					return nil, errShellVar
				case '`':
					return nil, fmt.Errorf("a backquote inside double quotes runs a command")
				case '\\':
					if i+1 < len(line) && strings.IndexByte("$`\"\\", line[i+1]) >= 0 {
						i++
					}
					cur.WriteByte(line[i])
				default:
					cur.WriteByte(d)
				}
			}
			if i >= len(line) {
				return nil, fmt.Errorf("unterminated double quote")
			}
			inWord = true
		case c == '\\':
			if i+1 >= len(line) {
				return nil, fmt.Errorf("a backslash ends the line")
			}
			i++
			cur.WriteByte(line[i])
			inWord = true
		case strings.IndexByte("<>|&;()", c) >= 0:
			flush()
			op := string(c)
			if i+1 < len(line) && (line[i+1] == c || (c == '>' && line[i+1] == '&')) && c != ';' && c != '(' && c != ')' {
				op += string(line[i+1])
				i++
			}
			out = append(out, shellToken{s: op, op: true})
		case c == '$':
			return nil, errShellVar
		case c < 0x20 || c == 0x7f:
			return nil, fmt.Errorf("contains the control character %#02x", c)
		case strings.IndexByte("`*?[]{}!", c) >= 0, (c == '~' || c == '#') && !inWord:
			return nil, fmt.Errorf("has an unquoted %q, which the shell would interpret", string(c))
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return out, nil
}

// wordsOnly returns the tokens' words, or false when an operator is among them.
func wordsOnly(toks []shellToken) ([]string, bool) {
	out := make([]string, len(toks))
	for i, t := range toks {
		if t.op {
			return nil, false
		}
		out[i] = t.s
	}
	return out, true
}

// quotePlain reports whether c needs no quoting anywhere in a shell word.
func quotePlain(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("_.,/:@%+=-", c) >= 0
}

// quoteWord returns s as one POSIX shell word: as it is when every
// character is plain, else in single quotes (a quote inside is closed,
// escaped with a backslash and reopened).
func quoteWord(s string) string {
	plain := s != ""
	for i := 0; i < len(s) && plain; i++ {
		plain = quotePlain(s[i])
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// quoteWords quotes each word and joins them with spaces.
func quoteWords(ws ...string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = quoteWord(w)
	}
	return strings.Join(q, " ")
}

// safeLookupValue reports whether a preamble lookup's value (an RDMA
// device name printed by the host) may be put into a command: a plain
// word of at most 64 bytes, never "." or "..".
func safeLookupValue(v string) bool {
	if v == "" || len(v) > 64 || v == "." || v == ".." || v[0] == '-' {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !lookupValueByte(v[i]) {
			return false
		}
	}
	return true
}

// lookupValueByte reports whether c may appear in a safe lookup value:
// an ASCII letter or digit, or one of _ . : @ + -.
func lookupValueByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_.:@+-", c) >= 0
}

// ShellQuote quotes each word as one POSIX shell word (single quotes
// where it holds anything but letters, digits and _.,/:@%+=-) and joins
// them with spaces: a command built from it runs exactly those words.
func ShellQuote(words ...string) string { return quoteWords(words...) }
