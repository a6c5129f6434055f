package lint

import (
	"context"
	"fmt"
	"runtime"
	"strings"

	"golang.org/x/sync/errgroup"

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
	var rules []*Rule
	needWalk, needLimits := false, false
	for _, r := range Rules() {
		if enabled(r, opts) {
			rules = append(rules, r)
			needWalk = needWalk || r.Path
			needLimits = needLimits || strings.HasPrefix(r.ID, "PLT")
		}
	}
	// Shared inputs are computed before the rules run, so rules only read.
	// The platform checks run beside the walk.
	var limits map[schema.Platform][]Finding
	done := make(chan struct{})
	go func() {
		defer close(done)
		if needLimits {
			limits = platformLimits(f)
		}
	}()
	var walk *Walk
	if needWalk {
		var err error
		if walk, err = NewWalk(ctx, f); err != nil {
			<-done
			return nil, fmt.Errorf("lint: %w", err)
		}
	}
	<-done
	groups := buildGroups(f, linked)
	sups := ParseSuppressions(f)
	results := make([][]Finding, len(rules))
	eg, ctx := errgroup.WithContext(ctx)
	eg.SetLimit(runtime.GOMAXPROCS(0))
	for i, r := range rules {
		eg.Go(func() error {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("lint: %w", err)
			}
			rc, hasRC := RuleConfig{}, false
			if opts.Config != nil {
				rc, hasRC = opts.Config.Rules[r.ID]
			}
			p := &Pass{Fabric: f, Rule: r, Suppressions: sups,
				walk: func() *Walk { return walk }, qosGroups: func() []qosGroup { return groups },
				limits: func() map[schema.Platform][]Finding { return limits }}
			p.report = func(fd Finding) {
				if hasRC && rc.Severity != 0 {
					fd.Severity = rc.Severity
				}
				for i := range sups {
					if sups[i].covers(&fd) {
						return
					}
				}
				results[i] = append(results[i], fd)
			}
			r.Run(p)
			return nil
		})
	}
	if err := eg.Wait(); err != nil {
		return nil, err
	}
	var out []Finding
	for _, rs := range results {
		out = append(out, mergeSameCause(rs)...)
	}
	SortFindings(out)
	return out, nil
}

func enabled(r *Rule, opts Options) bool {
	if r.ID == ValidationRule {
		return false // the loader's diagnostics; nothing to run
	}
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

// mergeSameCause makes one finding of a rule's findings that point at the
// same line and say the same thing but for the place (one policy line that
// NIC and switch ports share): one cause, one finding, with the count.
func mergeSameCause(fs []Finding) []Finding {
	if len(fs) < 2 {
		return fs
	}
	type key struct {
		subj    schema.Range
		summary string
	}
	idx := make(map[key]int, len(fs))
	out := fs[:0:0]
	for _, fd := range fs {
		if fd.Subject == nil {
			out = append(out, fd)
			continue
		}
		summary := fd.Summary
		if fd.Device != "" {
			summary = strings.ReplaceAll(summary, fd.Device+":"+fd.Port, "")
			summary = strings.ReplaceAll(summary, fd.Device, "")
		}
		k := key{*fd.Subject, summary}
		if i, ok := idx[k]; ok {
			m := &out[i]
			m.Count = max(m.Count, 1) + max(fd.Count, 1)
			m.Paths = satAdd(m.Paths, fd.Paths)
			continue
		}
		idx[k] = len(out)
		out = append(out, fd)
	}
	return out
}
