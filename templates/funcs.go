package templates

import (
	"strconv"
	"strings"
	"text/template"
)

// funcs are the helpers templates may call. They only format; every
// decision is made in Go before the template runs.
func funcs() template.FuncMap {
	return template.FuncMap{
		"join":    joinInts,
		"compact": compactInts,
		"json":    jsonString,
		// shellword quotes a name for a POSIX shell when it needs it;
		// oneline escapes control characters (for comments).
		"shellword": shellWord,
		"oneline":   oneLine,
	}
}

// joinInts joins integers with sep: join [24 26] " " = "24 26".
func joinInts(xs []int, sep string) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(strconv.Itoa(x))
	}
	return b.String()
}

// compactInts folds runs of consecutive integers: [24 25 26 27 48] = "24-27,48".
func compactInts(xs []int) string {
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
