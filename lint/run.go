package lint

import (
	"context"
	"fmt"

	"github.com/fabricgen/fabricgen/schema"
)

// Options tune a lint run.
type Options struct {
	// Config enables/disables rules and overrides severities (nil: defaults).
	Config *Config
	// Only restricts the run to these rule IDs (empty: every enabled rule).
	Only []string
}

// Run lints a resolved fabric: every enabled rule of the registry, then the
// configured severity overrides and the inline suppressions. Findings are
// sorted deterministically. The error is non-nil only when linting could
// not run (ctx cancelled, nil fabric).
func Run(ctx context.Context, f *schema.Fabric, opts Options) ([]Finding, error) {
	if f == nil {
		return nil, fmt.Errorf("lint: no fabric to check")
	}
	var walk *Walk
	var walkErr error
	getWalk := func() *Walk {
		if walk == nil && walkErr == nil {
			walk, walkErr = NewWalk(ctx, f)
			if walkErr != nil {
				walk = &Walk{}
				for fl := range walk.flows {
					walk.flows[fl] = &flowGraph{flow: Flow(fl)}
				}
			}
		}
		return walk
	}
	var groups []qosGroup
	getGroups := func() []qosGroup {
		if groups == nil {
			groups = buildGroups(f, linked)
		}
		return groups
	}
	sups := ParseSuppressions(f)
	var out []Finding
	for _, r := range Rules() {
		if !enabled(r, opts) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("lint: %w", err)
		}
		rc, hasRC := RuleConfig{}, false
		if opts.Config != nil {
			rc, hasRC = opts.Config.Rules[r.ID]
		}
		p := &Pass{Fabric: f, Rule: r, Suppressions: sups, walk: getWalk, qosGroups: getGroups}
		p.report = func(fd Finding) {
			if hasRC && rc.Severity != 0 {
				fd.Severity = rc.Severity
			}
			for i := range sups {
				if sups[i].covers(&fd) {
					return
				}
			}
			out = append(out, fd)
		}
		r.Run(p)
		if walkErr != nil {
			return nil, fmt.Errorf("lint: walking the fabric: %w", walkErr)
		}
	}
	SortFindings(out)
	return out, nil
}

func enabled(r *Rule, opts Options) bool {
	if len(opts.Only) > 0 && !containsInsensitive(opts.Only, r.ID) {
		return false
	}
	if opts.Config != nil {
		if rc, ok := opts.Config.Rules[r.ID]; ok && !rc.Enabled {
			return false
		}
	}
	return true
}
