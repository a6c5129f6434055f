package check

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/schema"
)

// Options configure an evaluation.
type Options struct {
	// Thresholds overrides the defaults (DefaultThresholds) where set.
	Thresholds Thresholds
	// Only runs these rule IDs (all when empty).
	Only []string
}

// Pass is a rule's window on one evaluation: the intent, the two
// snapshots, the deltas between them, and Report.
type Pass struct {
	Fabric *schema.Fabric
	// Before and After are the snapshots; After is the newer.
	Before, After *Snapshot
	Rule          *Rule
	T             Thresholds
	topo          *topology
	resets        map[string]bool
	report        func(Finding)
	// unjudged are optical link ends without the readings the rule needs.
	unjudged []string
}

// Report records a finding; Rule, Severity and Fix default from the rule.
func (p *Pass) Report(f Finding) {
	if f.Rule == "" {
		f.Rule = p.Rule.ID
	}
	if f.Severity == 0 {
		f.Severity = p.Rule.Severity
	}
	if f.Fix == "" {
		f.Fix = p.Rule.Fix
	}
	if f.Count == 0 {
		f.Count = 1
	}
	p.report(f)
}

// reading is one device's two readings.
type reading struct {
	dev           *schema.Device
	before, after *Device
}

// window is the time between the device's two readings.
func (r reading) window() time.Duration {
	if r.before == nil || r.after == nil {
		return 0
	}
	return r.after.Taken.Sub(r.before.Taken)
}

// Readings returns every intent device read in both snapshots without an
// error, in intent order.
func (p *Pass) Readings() []reading {
	var out []reading
	for _, d := range p.Fabric.Devices {
		a := p.After.Device(d.Name)
		if a == nil || a.Error != "" {
			continue
		}
		r := reading{dev: d, after: a}
		if b := p.Before.Device(d.Name); b != nil && b.Error == "" {
			r.before = b
		}
		out = append(out, r)
	}
	return out
}

// reading returns one device's readings (ok false when it was not read).
func (p *Pass) reading(name string) (reading, bool) {
	d := p.Fabric.Device(name)
	a := p.After.Device(name)
	if d == nil || a == nil || a.Error != "" {
		return reading{}, false
	}
	r := reading{dev: d, after: a}
	if b := p.Before.Device(name); b != nil && b.Error == "" {
		r.before = b
	}
	return r, true
}

// delta is a counter's increase over the device's window: ok is false
// when either reading lacks it or it was reset.
func (p *Pass) delta(r reading, port, key string) (float64, bool) {
	if r.before == nil {
		return 0, false
	}
	a, b := r.after.Port(port), r.before.Port(port)
	if a == nil || b == nil {
		return 0, false
	}
	va, okA := a.Counters[key]
	vb, okB := b.Counters[key]
	if !okA || !okB || va < vb || p.resets[r.dev.Name+"\x00"+port+"\x00"+key] {
		return 0, false
	}
	return float64(va - vb), true
}

// gauge is a gauge's value in the newer reading.
func gauge(r reading, port, key string) (float64, bool) {
	pp := r.after.Port(port)
	if pp == nil {
		return 0, false
	}
	v, ok := pp.Gauges[key]
	return v, ok
}

// evidence builds one piece of evidence for a counter's increase.
func (p *Pass) evidence(r reading, port, key string, value float64, unit, threshold string) diag.Evidence {
	fam, _ := SplitKey(key)
	return diag.Evidence{Device: r.dev.Name, Port: port, Metric: key, Value: value, Unit: unit, Threshold: threshold,
		Window: r.window(), Source: r.after.PortSource(port, fam)}
}

// gaugeEvidence builds one piece of evidence for a gauge.
func gaugeEvidence(r reading, port, key string, value float64, unit, threshold string) diag.Evidence {
	fam, _ := SplitKey(key)
	return diag.Evidence{Device: r.dev.Name, Port: port, Metric: key, Value: value, Unit: unit, Threshold: threshold,
		Source: r.after.PortSource(port, fam)}
}

// Evaluate judges the change from before to after against the intent and
// returns the findings, sorted. Counter resets and signals a platform
// does not expose are info findings. An error means the snapshots cannot
// be compared (no window).
func Evaluate(f *schema.Fabric, before, after *Snapshot, opts Options) ([]Finding, error) {
	if before == nil || after == nil {
		return nil, errors.New("check needs two snapshots")
	}
	if !after.Taken.After(before.Taken) {
		return nil, fmt.Errorf("the second snapshot (%s) is not later than the first (%s): nothing to measure over", after.Taken.Format(time.RFC3339), before.Taken.Format(time.RFC3339))
	}
	before.Sort()
	after.Sort()
	only := map[string]bool{}
	for _, id := range opts.Only {
		r := Lookup(id)
		if r == nil {
			return nil, fmt.Errorf("no check rule %q: fabricgen explain lists them", id)
		}
		only[r.ID] = true
	}
	t := DefaultThresholds().merge(opts.Thresholds)
	topo := newTopology(f)
	var out []Finding
	resets := findResets(f, before, after, &out)
	for _, r := range Rules() {
		if len(only) > 0 && !only[r.ID] {
			continue
		}
		p := &Pass{Fabric: f, Before: before, After: after, Rule: r, T: t, topo: topo, resets: resets}
		var found []Finding
		p.report = func(fd Finding) { found = append(found, fd) }
		r.Run(p)
		out = append(out, found...)
		out = append(out, p.unjudgedFinding()...)
		out = append(out, notEvaluated(p)...)
	}
	sortFindings(out)
	return out, nil
}

// sortFindings orders by severity (errors first), rule, device, port and summary.
func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := &fs[i], &fs[j]
		switch {
		case a.Severity != b.Severity:
			return a.Severity > b.Severity
		case a.Rule != b.Rule:
			return a.Rule < b.Rule
		case a.Device != b.Device:
			return schema.NaturalLess(a.Device, b.Device)
		case a.Port != b.Port:
			return schema.NaturalLess(a.Port, b.Port)
		}
		return a.Summary < b.Summary
	})
}

// resetRule is the rule counter resets are reported under.
const resetRule = "CHK021"

// findResets reports every counter that went down between the snapshots
// (cleared by someone, or the device restarted) as one info finding per
// device, and returns the set so the rules skip those counters.
func findResets(f *schema.Fabric, before, after *Snapshot, out *[]Finding) map[string]bool {
	resets := map[string]bool{}
	for _, d := range f.Devices {
		a, b := after.Device(d.Name), before.Device(d.Name)
		if a == nil || b == nil || a.Error != "" || b.Error != "" {
			continue
		}
		var names []string
		var ev []diag.Evidence
		for _, pa := range a.Ports {
			pb := b.Port(pa.Name)
			if pb == nil {
				continue
			}
			keys := make([]string, 0, len(pa.Counters))
			for k := range pa.Counters {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if vb, ok := pb.Counters[k]; ok && pa.Counters[k] < vb {
					resets[d.Name+"\x00"+pa.Name+"\x00"+k] = true
					names = append(names, pa.Name+" "+k)
					if len(ev) < 5 {
						fam, _ := SplitKey(k)
						ev = append(ev, diag.Evidence{Device: d.Name, Port: pa.Name, Metric: k, Value: float64(pa.Counters[k]),
							Threshold: fmt.Sprintf("was %d in the first snapshot", vb), Window: a.Taken.Sub(b.Taken), Source: a.PortSource(pa.Name, fam)})
					}
				}
			}
		}
		if len(names) == 0 {
			continue
		}
		more := ""
		if len(names) > 3 {
			more = fmt.Sprintf(" and %d more", len(names)-3)
			names = names[:3]
		}
		*out = append(*out, Finding{Rule: resetRule, Severity: schema.SevInfo, Device: d.Name, Subject: d.Range.Ptr(), Count: 1,
			Summary:  fmt.Sprintf("%s: counters went down between the snapshots (%s%s): they were cleared or the device restarted; those counters are not evaluated this time", d.Name, strings.Join(names, ", "), more),
			Evidence: ev, Fix: "Nothing to fix if someone cleared them; run fabricgen check again for a clean window."})
	}
	return resets
}

// notEvaluated is one info finding per platform whose devices (in the
// rule's scope) do not expose a metric family the rule needs.
func notEvaluated(p *Pass) []Finding {
	type key struct {
		platform schema.Platform
		family   string
	}
	devs := map[key][]string{}
	var order []key
	for _, r := range p.Readings() {
		host := r.dev.HostPlatform
		if (p.Rule.Scope == SwitchesOnly && host) || (p.Rule.Scope == HostsOnly && !host) {
			continue
		}
		for _, fam := range p.Rule.Needs {
			if r.after.Exposes(fam) {
				continue
			}
			k := key{r.dev.Platform.V, fam}
			if devs[k] == nil {
				order = append(order, k)
			}
			devs[k] = append(devs[k], r.dev.Name)
		}
	}
	var out []Finding
	for _, k := range order {
		names := devs[k]
		list := strings.Join(names, ", ")
		if len(names) > 4 {
			list = strings.Join(names[:4], ", ") + fmt.Sprintf(" and %d more", len(names)-4)
		}
		out = append(out, Finding{Rule: p.Rule.ID, Severity: schema.SevInfo, Device: names[0], Count: len(names),
			Summary: fmt.Sprintf("%s not evaluated on %s (%s): the platform does not expose %s in what fabricgen reads", p.Rule.ID, k.platform, list, k.family),
			Fix:     "Nothing to fix on the fabric; docs/check.md lists what each platform exposes."})
	}
	return out
}
