package lint

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/internal/natsort"
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
	rep, err := run(ctx, f, opts, false)
	return rep.Findings, err
}

// RunReport lints like Run and also returns the findings that suppressions
// hid (an ignore comment, or a rule the configuration turns off), each with
// why, for outputs that show them as suppressed (SARIF). The rules the
// configuration turns off run for this, so it costs more than Run.
func RunReport(ctx context.Context, f *schema.Fabric, opts Options) (Report, error) {
	return run(ctx, f, opts, true)
}

func run(ctx context.Context, f *schema.Fabric, opts Options, keep bool) (Report, error) {
	if f == nil {
		return Report{}, fmt.Errorf("lint: no fabric to check")
	}
	var rules []*Rule
	var off []bool // off[i]: rules[i] runs only for its suppressed findings
	needWalk, needLimits := false, false
	for _, r := range Rules() {
		if !r.AppliesTo(f.LinkLayer.V) {
			continue // another link layer's rule: it has nothing to judge here
		}
		on := enabled(r, opts)
		if on || (keep && configOff(r, opts)) {
			rules = append(rules, r)
			off = append(off, !on)
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
			return Report{}, fmt.Errorf("lint: %w", err)
		}
	}
	<-done
	groups := buildGroups(f, linked)
	exist := NewExist(f)
	sups := ParseSuppressions(f)
	results := make([][]reported, len(rules))
	hidden := make([][]Suppressed, len(rules))
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
				exist:  func() *Exist { return exist },
				limits: func() map[schema.Platform][]Finding { return limits }}
			p.report = func(fd Finding, a *Alike) {
				if hasRC && rc.Severity != 0 {
					fd.Severity = rc.Severity
				}
				if off[i] {
					hidden[i] = append(hidden[i], Suppressed{Finding: fd, Kind: SuppressedExternal,
						Justification: "rule " + r.ID + " is turned off (enabled = false) in " + configName(opts.Config)})
					return
				}
				for j := range sups {
					if sups[j].covers(&fd) {
						if keep {
							hidden[i] = append(hidden[i], Suppressed{Finding: fd, Kind: SuppressedInSource, Justification: sups[j].Reason})
						}
						return
					}
				}
				results[i] = append(results[i], reported{fd, a})
			}
			r.Run(p)
			return nil
		})
	}
	if err := eg.Wait(); err != nil {
		return Report{}, err
	}
	places := placesOf(f)
	var out []Finding
	for _, rs := range results {
		out = append(out, mergeSameLine(groupAlike(rs, places), places)...)
	}
	for i := range out {
		sortPlaces(out[i].Places)
	}
	SortFindings(out)
	return Report{Findings: foldImplied(out, impliesClosure(Rules())), Suppressed: mergeSuppressed(hidden)}, nil
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

// reported is a finding as a rule reported it, with what makes it alike
// others (nil: nothing).
type reported struct {
	f     Finding
	alike *Alike
}

// Alike says that a finding is one place of a problem that other findings
// of its rule may share: the same message but for the place, the same fix.
type Alike struct {
	// Key is the finding's summary without its place ("lossless link
	// without cable_length; headroom assumes 40m").
	Key string
	// Place names the finding's place, for the grouped finding's related
	// locations ("link leaf2-Ethernet49-1 (leaf2:Ethernet49/1–spine1:Ethernet2/1)").
	Place string
	// Summary words the grouped finding for n places (n > 1).
	Summary func(n int) string
}

// ReportAlike records a finding that is one place of a problem: the
// rule's findings with the same a.Key, fix and severity become one
// finding at the first place, with every other place a related location
// (so a SARIF viewer marks them all), their counts added and the summary
// a.Summary. Rule, Severity and Fix default as for Report.
func (p *Pass) ReportAlike(f Finding, a Alike) {
	if f.Rule == "" {
		f.Rule = p.Rule.ID
	}
	if f.Severity == 0 {
		f.Severity = p.Rule.Severity
	}
	if f.Fix == "" {
		f.Fix, f.Edit = p.Rule.Fix, p.Rule.Edit
	}
	f.Count = max(f.Count, 1)
	p.report(f, &a)
}

// groupAlike makes one finding of the findings reported alike with the
// same key, fix and severity (after suppressions and severity overrides):
// the first stands at its place, names it in its detail, and lists every
// other place as a related location. Findings with different fixes stay
// apart, as do findings reported with Report. The group's places are
// every place of its findings (places finds the block of a finding that
// lists none; nil: none).
func groupAlike(rs []reported, places placeFunc) []Finding {
	type key struct {
		alike, fix string
		sev        schema.Severity
	}
	idx := map[key]int{}
	out := make([]Finding, 0, len(rs))
	alike := make([]*Alike, 0, len(rs))
	grouped := map[int]bool{}
	for _, r := range rs {
		if r.alike == nil || r.f.Subject == nil {
			out, alike = append(out, r.f), append(alike, nil)
			continue
		}
		k := key{r.alike.Key, r.f.Fix, r.f.Severity}
		i, ok := idx[k]
		if !ok {
			idx[k] = len(out)
			out, alike = append(out, r.f), append(alike, r.alike)
			continue
		}
		m := &out[i]
		if !grouped[i] && len(m.Places) == 0 {
			m.Places = places.list([][2]string{{m.Device, m.Port}})
		}
		grouped[i] = true
		m.Count = max(m.Count, 1) + max(r.f.Count, 1)
		m.Paths = addFlowPaths(m.Paths, r.f.Paths)
		m.Related = append(m.Related, Related{Range: *r.f.Subject, Message: r.alike.Place})
		m.Related = addRelated(m.Related, r.f.Related)
		// Every place of every grouped finding is one of the group's.
		if len(r.f.Places) > 0 {
			m.Places = addPlaces(m.Places, r.f.Places)
		} else {
			m.Places = addPlaces(m.Places, places.list([][2]string{{r.f.Device, r.f.Port}}))
		}
	}
	for i := range out {
		a := alike[i]
		if a == nil || !grouped[i] || a.Summary == nil {
			continue
		}
		m := &out[i]
		here := "Here: " + a.Place + "."
		if m.Detail != "" {
			here = m.Detail + "\n" + here
		}
		m.Summary, m.Detail = a.Summary(m.Count), here
	}
	return out
}

// mergeSameLine makes one finding of a rule's findings whose subjects
// start on the same line: the line is the cause, so it is one finding (the
// first, in the rule's deterministic order), with the places and paths of
// all and, in its detail, what the others said that differs but for the
// place. Findings without a subject merge only when they say the same.
func mergeSameLine(fs []Finding, places placeFunc) []Finding {
	if len(fs) < 2 {
		return fs
	}
	type key struct {
		file    string
		line    int32
		summary string // only for findings without a subject
	}
	type extra struct {
		seen  map[string]bool
		notes []string
		more  int
	}
	idx := make(map[key]int, len(fs))
	extras := map[int]*extra{}
	out := fs[:0:0]
	for _, fd := range fs {
		k := key{summary: fd.Summary}
		if fd.Subject != nil {
			k = key{file: fd.Subject.Filename, line: fd.Subject.Start.Line}
		}
		i, ok := idx[k]
		if !ok {
			idx[k] = len(out)
			out = append(out, fd)
			continue
		}
		m := &out[i]
		m.Count = max(m.Count, 1) + max(fd.Count, 1)
		m.Paths = addFlowPaths(m.Paths, fd.Paths)
		m.Severity = max(m.Severity, fd.Severity)
		m.Related = addRelated(m.Related, fd.Related)
		// Each place the line reaches is one of the finding's places (the
		// port or device block), so a finding about N places points at them.
		if places != nil && fd.Device != "" && (fd.Device != m.Device || fd.Port != m.Port) {
			if len(m.Places) == 0 {
				m.Places = places.list([][2]string{{m.Device, m.Port}})
			}
			m.Places = addPlaces(m.Places, places.list([][2]string{{fd.Device, fd.Port}}))
		}
		m.Places = addPlaces(m.Places, fd.Places)
		if placeless(m) == placeless(&fd) {
			continue
		}
		x := extras[i]
		if x == nil {
			x = &extra{seen: map[string]bool{placeless(m): true}}
			extras[i] = x
		}
		if pl := placeless(&fd); !x.seen[pl] {
			x.seen[pl] = true
			if len(x.notes) < maxLineNotes {
				x.notes = append(x.notes, fd.Summary)
			} else {
				x.more++
			}
		}
	}
	for i, x := range extras {
		if len(x.notes) == 0 {
			continue
		}
		note := "The same line also: " + strings.Join(x.notes, "; ")
		if x.more > 0 {
			note += fmt.Sprintf("; and %d more", x.more)
		}
		m := &out[i]
		if m.Detail != "" {
			note = m.Detail + "\n" + note
		}
		m.Detail = note
	}
	return out
}

// placeFunc finds a device's or port's block: "" port for the device.
type placeFunc func(device, port string) (schema.Range, bool)

// placesOf finds the blocks of f's devices and ports.
func placesOf(f *schema.Fabric) placeFunc {
	if f == nil {
		return nil
	}
	devs := make(map[string]*schema.Device, len(f.Devices))
	for _, d := range f.Devices {
		devs[d.Name] = d
	}
	return func(device, port string) (schema.Range, bool) {
		d := devs[device]
		if d == nil {
			return schema.Range{}, false
		}
		if port == "" {
			return d.Range, d.Range.Filename != ""
		}
		for _, p := range d.Ports {
			if p.Name == port {
				return p.Range, p.Range.Filename != ""
			}
		}
		return d.Range, d.Range.Filename != ""
	}
}

// list is the blocks of the named places (device, port; "" port: the
// device), those found, in order (none without a placeFunc).
func (pf placeFunc) list(names [][2]string) []Related {
	if pf == nil {
		return nil
	}
	var out []Related
	for _, n := range names {
		if n[0] == "" {
			continue
		}
		if r, ok := pf(n[0], n[1]); ok {
			what := "device " + n[0]
			if n[1] != "" {
				what = "port " + n[0] + ":" + n[1]
			}
			out = addPlaces(out, []Related{{Range: r, Message: what}})
		}
	}
	return out
}

// sortPlaces orders a finding's places by what they name, naturally
// (leaf2 before leaf10), however its rule and the merges gathered them.
func sortPlaces(ps []Related) {
	slices.SortStableFunc(ps, func(a, b Related) int {
		switch {
		case natsort.Less(a.Message, b.Message):
			return -1
		case natsort.Less(b.Message, a.Message):
			return 1
		}
		return 0
	})
}

// addPlaces adds b's places to a's, without repeats, up to
// diag.MaxPlaces.
func addPlaces(a, b []Related) []Related {
	for _, r := range b {
		if len(a) >= diag.MaxPlaces {
			break
		}
		if !slices.Contains(a, r) {
			a = append(a, r)
		}
	}
	return a
}

// maxLineNotes and maxRelated bound what a merged finding carries.
const (
	maxLineNotes = 3
	maxRelated   = 8
)

// placeless is the summary without the finding's device and port names.
func placeless(fd *Finding) string {
	s := fd.Summary
	if fd.Device != "" {
		s = strings.ReplaceAll(s, fd.Device+":"+fd.Port, "")
		s = strings.ReplaceAll(s, fd.Device, "")
	}
	return s
}

// addFlowPaths adds b's per-flow path counts to a's.
func addFlowPaths(a, b []FlowPaths) []FlowPaths {
	for _, fb := range b {
		found := false
		for i := range a {
			if a[i].Flow == fb.Flow {
				a[i].Paths, found = satAdd(a[i].Paths, fb.Paths), true
			}
		}
		if !found {
			a = append(a, fb)
		}
	}
	return a
}

// addRelated adds the related locations of b that a lacks, up to maxRelated.
func addRelated(a, b []Related) []Related {
	for _, r := range b {
		if len(a) >= maxRelated {
			break
		}
		dup := false
		for _, x := range a {
			dup = dup || x == r
		}
		if !dup {
			a = append(a, r)
		}
	}
	return a
}

// foldImplied folds a finding into another rule's finding on the same line
// when that rule implies it (Rule.Implies, transitively): the line is one
// cause, so it is one finding, with the implied ones as notes and the
// highest severity of them all. fs is sorted; so is the result.
func foldImplied(fs []Finding, implies map[string]map[string]bool) []Finding {
	if len(implies) == 0 || len(fs) < 2 {
		return fs
	}
	out := fs[:0:0]
	for i := 0; i < len(fs); {
		j := i + 1
		for j < len(fs) && sameLine(&fs[i], &fs[j]) {
			j++
		}
		group := fs[i:j]
		i = j
		if len(group) == 1 || group[0].Subject == nil {
			out = append(out, group...)
			continue
		}
		folded := make([]bool, len(group))
		for a := range group {
			for b := range group {
				if a != b && !folded[a] && implies[group[a].Rule][group[b].Rule] && !implies[group[b].Rule][group[a].Rule] {
					folded[b] = true
				}
			}
		}
		start := len(out)
		for a := range group {
			if !folded[a] {
				out = append(out, group[a])
			}
		}
		for b := range group {
			if !folded[b] {
				continue
			}
			for a := start; a < len(out); a++ {
				if implies[out[a].Rule][group[b].Rule] {
					m := &out[a]
					m.Implied = append(m.Implied, diag.Implied{Rule: group[b].Rule, Severity: group[b].Severity, Summary: group[b].Summary, Range: group[b].Range()})
					m.Implied = append(m.Implied, group[b].Implied...)
					m.Severity = max(m.Severity, group[b].Severity)
					break
				}
			}
		}
	}
	return out
}

func sameLine(a, b *Finding) bool {
	if a.Subject == nil || b.Subject == nil {
		return false
	}
	return a.Subject.Filename == b.Subject.Filename && a.Subject.Start.Line == b.Subject.Start.Line
}

// impliesClosure is the transitive closure of the registry's Implies.
func impliesClosure(rs []*Rule) map[string]map[string]bool {
	direct := map[string][]string{}
	for _, r := range rs {
		direct[r.ID] = r.Implies
	}
	out := map[string]map[string]bool{}
	for _, r := range rs {
		if len(r.Implies) == 0 {
			continue
		}
		seen := map[string]bool{}
		stack := append([]string(nil), r.Implies...)
		for len(stack) > 0 {
			id := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[id] || id == r.ID {
				continue
			}
			seen[id] = true
			stack = append(stack, direct[id]...)
		}
		out[r.ID] = seen
	}
	return out
}
