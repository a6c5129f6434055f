package schema

import (
	"fmt"
	"sort"

	"github.com/agext/levenshtein"
)

// suggest returns " Did you mean "x"?" for the closest candidate within a
// small edit distance, or "". Ties go to the alphabetically first candidate,
// so the message is the same on every run.
func suggest(got string, candidates []string) string {
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	best, bestDist := "", 4
	for _, c := range sorted {
		if d := levenshtein.Distance(got, c, nil); d < bestDist {
			best, bestDist = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" Did you mean %q?", best)
}

// Suggest returns " Did you mean "x"?" for the candidate closest to got
// within a small edit distance, or "": the hint every "unknown name"
// error gives (a platform folder of --templates, say).
func Suggest(got string, candidates []string) string { return suggest(got, candidates) }
