package view

import (
	"encoding/json"
	"strconv"
	"strings"
	"text/template"
)

// Funcs are the helpers templates may call. They only format; every
// decision is made in Go before the template runs.
func Funcs() template.FuncMap {
	return template.FuncMap{
		"join":    JoinInts,
		"compact": CompactInts,
		"json":    JSONString,
		// shellword quotes a name for a POSIX shell when it needs it;
		// oneline escapes control characters (for comments).
		"shellword": ShellWord,
		"oneline":   OneLine,
	}
}

// JoinInts joins integers with sep: join [24 26] " " = "24 26".
func JoinInts(xs []int, sep string) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(strconv.Itoa(x))
	}
	return b.String()
}

// CompactInts folds runs of consecutive integers: [24 25 26 27 48] = "24-27,48".
func CompactInts(xs []int) string {
	var b strings.Builder
	for i := 0; i < len(xs); {
		j := i
		for j+1 < len(xs) && xs[j+1] == xs[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(xs[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(xs[j]))
		}
		i = j + 1
	}
	return b.String()
}

// JSONString encodes s as a JSON string literal.
func JSONString(s string) string {
	if plainJSON(s) {
		return `"` + s + `"`
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// WriteJSONString writes s as a JSON string literal without building it
// first.
func WriteJSONString(b *strings.Builder, s string) {
	if !plainJSON(s) {
		b.WriteString(JSONString(s))
		return
	}
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
}

// PlainJSON reports whether s needs no escaping (encoding/json also
// escapes <, > and &).
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}
