package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// UnifiedDiff returns a unified diff (3 lines of context) from a to b, or
// "" when they are equal.
func UnifiedDiff(fromName, toName, a, b string) string {
	if a == b {
		return ""
	}
	dmp := diffmatchpatch.New()
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)
	type op struct {
		kind byte
		text string
	}
	var ops []op
	for _, d := range diffs {
		k := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			k = '+'
		case diffmatchpatch.DiffDelete:
			k = '-'
		}
		for _, l := range strings.SplitAfter(d.Text, "\n") {
			if l != "" {
				ops = append(ops, op{k, strings.TrimSuffix(l, "\n")})
			}
		}
	}
	const ctx = 3
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", fromName, toName)
	i := 0
	for i < len(ops) {
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i >= len(ops) {
			break
		}
		start := max(i-ctx, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*ctx {
				end = min(end+ctx, len(ops))
				break
			}
			end = run
		}
		aStart, bStart := 1, 1
		for _, o := range ops[:start] {
			if o.kind != '+' {
				aStart++
			}
			if o.kind != '-' {
				bStart++
			}
		}
		aLen, bLen := 0, 0
		var body strings.Builder
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				aLen++
			}
			if o.kind != '-' {
				bLen++
			}
			body.WriteByte(o.kind)
			body.WriteString(o.text)
			body.WriteByte('\n')
		}
		if aLen == 0 {
			aStart--
		}
		if bLen == 0 {
			bStart--
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", aStart, aLen, bStart, bLen)
		out.WriteString(body.String())
		i = end
	}
	return out.String()
}

// SplitPipe separates `cmd | filter ...` into the command and its filters.
func SplitPipe(line string) (string, []string) {
	parts := strings.Split(line, "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts[0], parts[1:]
}

// ApplyFilters runs IOS-style output filters (include, exclude, begin,
// section, no-more). It returns an error message for an unknown filter.
func ApplyFilters(out string, filters []string) (string, error) {
	for _, f := range filters {
		verb, arg, _ := strings.Cut(f, " ")
		arg = strings.TrimSpace(arg)
		switch verb {
		case "no-more", "":
			continue
		case "include", "exclude", "begin", "section", "grep":
			re, err := regexp.Compile(arg)
			if err != nil {
				return "", fmt.Errorf("bad regular expression %q", arg)
			}
			out = filterLines(out, verb, re)
		default:
			return "", fmt.Errorf("unknown filter %q", verb)
		}
	}
	return out, nil
}

func filterLines(out, verb string, re *regexp.Regexp) string {
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var b strings.Builder
	inSection, begun := false, false
	for _, l := range lines {
		keep := false
		switch verb {
		case "include", "grep":
			keep = re.MatchString(l)
		case "exclude":
			keep = !re.MatchString(l)
		case "begin":
			begun = begun || re.MatchString(l)
			keep = begun
		case "section":
			top := l != "" && l[0] != ' '
			if top {
				inSection = re.MatchString(l)
			}
			keep = inSection || (!top && re.MatchString(l))
		}
		if keep {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// LineOps returns the edit script from a to b as one byte per line:
// ' ' keep, '-' delete from a, '+' insert from b.
func LineOps(a, b []string) []byte {
	dmp := diffmatchpatch.New()
	// Each element is diffed as one line whatever it holds: equal elements
	// get the same number, and the numbers are what is diffed (an element
	// holding a newline would otherwise count as two lines, and the ops
	// would not line up with a and b).
	ids := map[string]string{}
	join := func(ls []string) string {
		var b strings.Builder
		for _, l := range ls {
			id, ok := ids[l]
			if !ok {
				id = strconv.Itoa(len(ids))
				ids[l] = id
			}
			b.WriteString(id + "\n")
		}
		return b.String()
	}
	ja, jb := join(a), join(b)
	ca, cb, lines := dmp.DiffLinesToChars(ja, jb)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)
	var ops []byte
	for _, d := range diffs {
		k := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			k = '+'
		case diffmatchpatch.DiffDelete:
			k = '-'
		}
		for range strings.Count(d.Text, "\n") {
			ops = append(ops, k)
		}
	}
	return ops
}

// JSON prints v as indented JSON (four spaces, HTML unescaped) with a
// final newline, as SONiC's tools and EOS's "| json" do.
func JSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "    ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("{\"error\": %q}\n", err.Error())
	}
	return b.String()
}
