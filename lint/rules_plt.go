package lint

import (
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

// Platform-limit rules: one per platform, PLT001 for the first platform of
// the registry (platforms.All) and so on. Their findings come from templates.Checker,
// the code render runs before it writes a line, so lint and render never
// disagree.

// pltRuleID is the rule of platform number i (0-based) of the registry (platforms.All).
func pltRuleID(i int) string { return fmt.Sprintf("PLT%03d", i+1) }

// IsPlatformRule reports whether id is a platform-limit rule (PLT001 and
// on, one per platform of the registry).
func IsPlatformRule(id string) bool {
	if len(id) != 6 || !strings.HasPrefix(id, "PLT") {
		return false
	}
	for _, c := range id[3:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return id != "PLT000"
}

// PlatformRule is the platform-limit rule of a platform ("PLT001" for the
// registry's first), or "" for a platform the registry does not know and
// for an InfiniBand-only platform: the opensm view refuses nothing per
// device (the IBQ rules judge an InfiniBand fabric's limits).
func PlatformRule(p schema.Platform) string {
	i := 0
	for _, pi := range templates.Platforms() {
		if !pi.Ethernet {
			continue
		}
		if pi.Platform == p {
			return pltRuleID(i)
		}
		i++
	}
	return ""
}

// RefusalFindings turns render's refusals into findings of the platforms'
// PLT rules, grouped as lint groups them (one per platform, line and
// reason, with the number of devices and their blocks, from f, as places),
// so render reports them as lint does: at the line, with the snippet and
// the fix. ues are in device order.
func RefusalFindings(f *schema.Fabric, ues []*templates.UnsupportedError) []Finding {
	type key struct {
		plat   schema.Platform
		src    schema.Range
		reason string
	}
	devs := map[string]*schema.Device{}
	if f != nil {
		for _, d := range f.Devices {
			devs[d.Name] = d
		}
	}
	var agg causeAgg[key]
	counted := map[key]map[string]bool{} // a device counts once per finding
	for _, ue := range ues {
		k := key{ue.Platform, ue.Src, ue.Reason}
		if counted[k][ue.Device] {
			continue
		}
		if counted[k] == nil {
			counted[k] = map[string]bool{}
		}
		counted[k][ue.Device] = true
		d := devs[ue.Device]
		if agg.bump(k, nil, d) {
			continue
		}
		msg := ue.Error()
		if !ue.Src.IsZero() {
			msg = strings.TrimPrefix(msg, ue.Src.String()+": ")
		}
		fd := Finding{Rule: PlatformRule(ue.Platform), Severity: schema.SevError, Subject: ptr(ue.Src), Device: ue.Device, Summary: msg, Related: ue.Related}
		if r := Lookup(fd.Rule); r != nil {
			fd.Fix = r.Fix
		}
		agg.add(k, fd, nil, d)
	}
	out := agg.findings()
	SortFindings(out)
	return out
}

func pltRules() []*Rule {
	var rs []*Rule
	for _, pi := range templates.Platforms() {
		plat := pi.Platform
		id := PlatformRule(plat)
		if id == "" {
			continue // an InfiniBand-only platform: the IBQ rules judge its limits
		}
		rs = append(rs, &Rule{
			ID: id, Title: fmt.Sprintf("Every value is expressible on %s", plat), Severity: schema.SevError,
			Rationale: fmt.Sprintf("Render refuses a device whose platform cannot express an intent value rather than drop it silently; lint reports the same refusal first, at the attribute's line, with the words render would use, so a clean lint means every %s device renders. The checks are the ones the %s view builder makes; the platform's own documentation (%s) says why each is a limit.", plat, plat, pi.Docs),
			Reference: pi.Docs,
			Fix:       fmt.Sprintf("Change the value for the %s devices (the finding says what the platform takes), or attach a different qos_policy to them.", plat),
			Run:       runPlatformLimits(plat),
		})
	}
	return rs
}

func runPlatformLimits(plat schema.Platform) func(p *Pass) {
	return func(p *Pass) {
		for _, f := range p.limits()[plat] {
			p.Report(f)
		}
	}
}

// platformLimits checks every device with templates.Checker, once per
// signature (devices the check answers alike, such as 65,536 NICs with the
// same settings), and groups every refusal of every device by platform,
// line and reason: one cause is one finding, with the number of devices it
// stops.
func platformLimits(f *schema.Fabric) map[schema.Platform][]Finding {
	c := templates.NewChecker()
	sigs := templates.NewSignatures()
	bySig := map[string][]*templates.UnsupportedError{}
	type key struct {
		plat   schema.Platform
		src    schema.Range
		reason string
	}
	aggs := map[schema.Platform]*causeAgg[key]{}
	for _, d := range f.Devices {
		sig := sigs.Of(d)
		ues, ok := bySig[sig]
		if !ok {
			ues = c.Check(f, d)
			bySig[sig] = ues
		}
		if len(ues) == 0 {
			continue
		}
		plat := d.Platform.V
		agg := aggs[plat]
		if agg == nil {
			agg = &causeAgg[key]{}
			aggs[plat] = agg
		}
		counted := map[key]bool{} // a device counts once per finding
		for _, ue := range ues {
			k := key{plat, ue.Src, ue.Reason}
			if counted[k] {
				continue
			}
			counted[k] = true
			if agg.bump(k, nil, d) {
				continue
			}
			msg := ue.Error()
			if !ue.Src.IsZero() {
				msg = strings.TrimPrefix(msg, ue.Src.String()+": ")
			}
			msg = strings.Replace(msg, "device "+ue.Device+" ", "device "+d.Name+" ", 1)
			agg.add(k, Finding{Subject: ptr(subjectOr(ue.Src, d.Range)), Device: d.Name, Summary: msg, Related: ue.Related}, nil, d)
		}
	}
	out := make(map[schema.Platform][]Finding, len(aggs))
	for plat, agg := range aggs {
		out[plat] = agg.findings()
	}
	return out
}
