package platforms

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/schema"
)

// Dialect returns the push dialect of platform p (a fresh value), or an
// error naming the platforms fabricgen can push to. This is push's
// allowlist: a platform name never reaches scrapligo unless a folder gives
// it a dialect (scrapligo would read an unknown name as a file path or
// URL).
func Dialect(p schema.Platform) (*dialect.Dialect, error) {
	if pl, ok := Get(p); ok && pl.Dialect != nil {
		return pl.Dialect(), nil
	} else if ok && pl.Spec.Managed {
		return nil, fmt.Errorf("platform %q: the subnet manager configures these switches; nothing is pushed to them", p)
	}
	return nil, fmt.Errorf("platform %q: plan and apply support %s; render its config with `fabricgen render` and push it by hand",
		p, strings.Join(Pushable(), ", "))
}

// Pushable lists the names of the platforms Dialect accepts, sorted.
func Pushable() []string {
	var out []string
	for _, pl := range All() {
		if pl.Dialect != nil {
			out = append(out, string(pl.Name))
		}
	}
	sort.Strings(out)
	return out
}
