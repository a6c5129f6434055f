package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/fabricgen/fabricgen/internal/textdiff"
)

// UnifiedDiff returns a unified diff (3 lines of context) from a to b, or
// "" when they are equal: fabricgen's one diff (textdiff.Unified, exact
// however large the configs).
func UnifiedDiff(fromName, toName, a, b string) string {
	return textdiff.Unified(fromName, toName, a, b).Text
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
// ' ' keep, '-' delete from a, '+' insert from b (textdiff.Lines).
func LineOps(a, b []string) []byte {
	return textdiff.Lines(a, b)
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
