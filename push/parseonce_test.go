package push

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
)

// Lines no section of any dialect claims: in the rendered config and in
// the last-applied record they are never sent nor read back, so each
// time the dialect canonicalises one of them is one parse (or digest) of
// that config.
const (
	renderedMarker = "fabricgen-parse-count-rendered"
	scopeMarker    = "fabricgen-parse-count-last-applied"
)

// parseCounter counts the lines a dialect canonicalises, by line.
type parseCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *parseCounter) count(line string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[line]
}

func (c *parseCounter) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n = map[string]int{}
}

// instrument returns the platform's dialect with a Canonical that counts
// the lines it sees, in a dialect cache for Options.dialects.
func (c *parseCounter) instrument(t *testing.T, p schema.Platform) *dialectCache {
	t.Helper()
	dl, err := lookupDialect(p)
	if err != nil {
		t.Fatal(err)
	}
	counted := *dl
	canon := dl.Canonical
	counted.Canonical = func(line string) string {
		c.mu.Lock()
		c.n[line]++
		c.mu.Unlock()
		if canon != nil {
			return canon(line)
		}
		return line
	}
	return &dialectCache{m: map[schema.Platform]*dialect.Dialect{p: &counted}}
}

// TestApplyParsesEachConfigOnce: one plan, and one apply, parse the
// rendered config once and the last-applied record's config once, however
// often the device is compared (before the change, the scope the device
// bears out, the takeover check, the verification after it, the lines
// fabricgen does not manage) — every platform compared as indented text.
func TestApplyParsesEachConfigOnce(t *testing.T) {
	for _, pc := range platformCases(t) {
		dl, err := platforms.Dialect(pc.dev.platform)
		if err != nil {
			t.Fatal(err)
		}
		if dl.Host || dl.ConfigDB {
			continue // compared as facts and JSON, not parsed as text
		}
		t.Run(string(pc.dev.platform), func(t *testing.T) {
			dev := pc.dev
			dev.rendered = strings.TrimRight(dev.rendered, "\n") + "\n" + renderedMarker + "\n"
			r := newRig(t, dev)
			var c parseCounter
			c.reset()
			r.opts.dialects = c.instrument(t, dev.platform)
			// An unsigned record: its scope is checked against each read.
			if err := r.opts.State.WriteApplied(state.Applied{Device: dev.name, Platform: string(dev.platform), Run: "r0",
				Time: time.Now().UTC(), IntentDigest: r.f.Digest, Rendered: pc.dev.rendered + scopeMarker + "\n"}); err != nil {
				t.Fatal(err)
			}
			p := r.plan()
			if d := p.Devices[0]; d.Status != planfile.StatusChange {
				t.Fatalf("plan: %s (%s), want change", d.Status, d.Error)
			}
			if got := [2]int{c.count(renderedMarker), c.count(scopeMarker)}; got != [2]int{1, 1} {
				t.Errorf("plan parsed the rendered config %d time(s), the last-applied one %d, want once each", got[0], got[1])
			}
			c.reset()
			opts := r.opts
			opts.State.BackupRoot = t.TempDir()
			res, err := Apply(context.Background(), p, r.f, r.inputs, ApplyOptions{Options: opts, TrustPlan: true})
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Status != StatusApplied {
				t.Fatalf("apply: %s: %s", res[0].Status, res[0].Reason)
			}
			if got := [2]int{c.count(renderedMarker), c.count(scopeMarker)}; got != [2]int{1, 1} {
				t.Errorf("apply parsed the rendered config %d time(s), the last-applied one %d, want once each", got[0], got[1])
			}
		})
	}
}
