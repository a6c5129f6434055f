package dialect

import (
	"strings"
	"testing"

	"github.com/scrapli/scrapligo/platform"

	"github.com/fabricgen/fabricgen/schema"
)

// TestAllowlist: every platform of the model has a dialect whose scrapligo
// definition loads from scrapligo's embedded assets, and anything else is
// refused before it can reach scrapligo (which would read it as a path or URL).
func TestAllowlist(t *testing.T) {
	for _, p := range schema.Platforms() {
		d, err := Lookup(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if d.Driver == DriverNetwork {
			if _, err := platform.NewPlatform(d.Scrapli, "localhost"); err != nil {
				t.Errorf("%s: scrapligo definition %s: %v", p, d.Scrapli, err)
			}
		}
		if d.Negate == nil || d.Transaction == "" {
			t.Errorf("%s: incomplete dialect", p)
		}
	}
	for _, bad := range []schema.Platform{"../../etc/passwd", "https://example.com/x.yaml", "sonic_vs", ""} {
		if _, err := Lookup(bad); err == nil || !strings.Contains(err.Error(), "plan and apply support") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
