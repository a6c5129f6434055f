package schema

import (
	"fmt"

	"github.com/agext/levenshtein"
)

// suggest returns " Did you mean "x"?" for the closest candidate within a
// small edit distance, or "".
func suggest(got string, candidates []string) string {
	best, bestDist := "", 4
	for _, c := range candidates {
		if d := levenshtein.Distance(got, c, nil); d < bestDist {
			best, bestDist = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" Did you mean %q?", best)
}
