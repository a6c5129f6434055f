package lint

import (
	"fmt"
	"strings"
	"time"

	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

func wdgRules() []*Rule {
	return []*Rule{
		{
			ID: "WDG001", Title: "A PFC watchdog guards every lossless switch port", Severity: schema.SevError,
			Rationale: "A NIC stuck sending PAUSE took down Microsoft's whole fabric (ToR → leaf → spine → every server); a switch watchdog drops on a stormed queue and contains it.",
			Reference: "Guo et al. (SIGCOMM 2016), section 4.3; SONiC pfcwd",
			Fix:       "Set pfc_watchdog = pfc_watchdog.NAME in the qos_policy of lossless switch ports.",
			Run:       runWatchdogPresent,
		},
		{
			ID: "WDG002", Title: "PFC watchdog timers are in range", Severity: schema.SevError,
			Rationale: "SONiC accepts detection 100–5000 ms, restoration 100–60000 ms, poll 100–1000 ms, and detection/restoration no shorter than the poll interval; other platforms have similar bounds.",
			Reference: "SONiC sonic-pfcwd.yang and pfcwd/main.py",
			Fix:       "Use timers within the ranges (SONiC default: detection 200ms, restoration 200ms, poll_interval 200ms).",
			Run:       runWatchdogTimers,
		},
		{
			ID: "WDG003", Title: "One PFC watchdog action fabric-wide", Severity: schema.SevWarning,
			Rationale: "Junos applies watchdog recovery globally and requires one action; mixing drop and forward makes a storm's blast radius depend on which port it hits.",
			Reference: "Juniper PFC watchdog guide",
			Fix:       `Use the same action (usually "drop") in every pfc_watchdog profile in use.`,
			Run:       runWatchdogAction,
		},
		{
			ID: "WDG005", Title: "The switch can apply the PFC watchdog's restoration time", Severity: schema.SevInfo,
			Rationale: "A stormed queue stays dropped for the restoration time, then the watchdog gives it back. fabricgen renders an explicit restoration everywhere it can (the intent's, or 200 ms); on a platform or release with no restoration command (Cumulus; NX-OS before 9.3(3)) the queue comes back on the switch's own schedule, which may differ from the rest of the fabric.",
			Reference: "SONiC pfcwd (restoration_time), Junos pfc-watchdog recovery, EOS pause watchdog recovery-time, NX-OS priority-flow-control fixed-restore multiplier (NX-API REST SDK guide 9.3x, from 9.3(3)); Cumulus PFC watchdog",
			Fix:       "Nothing to change in the intent: know that these switches restore on their own schedule; if the switch runs a release that takes a restoration time (NX-OS 9.3(3) or later), set its os_version to that release.",
			Run:       runWatchdogRestoration,
		},
		{
			ID: "WDG004", Title: "Lossless NIC ports have pause-storm prevention", Severity: schema.SevError,
			Rationale: "The storms that took down Microsoft's fabric started at a NIC whose receive path stalled while it kept sending PAUSE; the NIC's own guard (Linux ethtool tunable pfc-prevention-tout, rendered from the watchdog's detection time) stops a stalled NIC from pausing its ToR forever.",
			Reference: "Guo et al. (SIGCOMM 2016), section 4.3; Linux ethtool pfc-prevention-tout",
			Fix:       "Give the NIC ports' qos_policy a pfc_watchdog with a detection time (e.g. 200ms; mlx5 takes 80–8000 ms).",
			Run:       runNICStormPrevention,
		},
	}
}

func runNICStormPrevention(p *Pass) {
	for _, g := range groupQoS(p, func(pt *schema.Port) bool { return isNIC(pt) && pt.Device.TransportOf() != schema.TransportIWARP }) {
		prios := g.qos.Lossless
		if prios == 0 {
			continue
		}
		w := g.qos.Watchdog.V
		if w != nil && w.Detection.Set && w.Detection.V > 0 {
			continue
		}
		src := g.qos.Watchdog.Src
		how := "has no pfc_watchdog, so its NIC gets no pause-storm prevention"
		switch {
		case w != nil:
			src = subjectOr(w.Detection.Src, w.Range)
			how = fmt.Sprintf("uses pfc_watchdog %q without a detection time, so its NIC gets no pause-storm prevention timeout", w.Name)
		case g.qos.Watchdog.Set:
			how = "turns the pfc_watchdog off, so its NIC gets no pause-storm prevention"
		}
		if src.IsZero() {
			src = g.qos.PFCSource()
		}
		reportGroup(p, g, src, fmt.Sprintf("%s enables PFC on priority %s but %s", g.ports[0].ID(), prios, how))
	}
}

// runWatchdogRestoration reports the switches whose platform (or
// release) renders no restoration time
// (templates.PlatformInfo.NoRestorationOn), once per device and watchdog
// profile, at the profile's restoration (or the block when it uses the
// default).
func runWatchdogRestoration(p *Pass) {
	info := map[schema.Platform]templates.PlatformInfo{}
	for _, pi := range templates.Platforms() {
		info[pi.Platform] = pi
	}
	type key struct {
		d *schema.Device
		w *schema.Watchdog
	}
	seen := map[key]bool{}
	for _, d := range p.Fabric.Devices {
		reason := info[d.Platform.V].NoRestorationOn(d)
		if reason == "" {
			continue
		}
		for _, pt := range d.Ports {
			q := pt.QoS
			if q == nil || q.Lossless == 0 || q.Watchdog.V == nil {
				continue
			}
			w := q.Watchdog.V
			if seen[key{d, w}] {
				continue
			}
			seen[key{d, w}] = true
			how := "its restoration"
			if !w.Restoration.Set {
				how = "the default restoration"
			}
			p.Report(Finding{Subject: ptr(subjectOr(w.Restoration.Src, w.Range)), Device: d.Name, Port: pt.Name,
				Summary: fmt.Sprintf("%s (%s) uses pfc_watchdog %q, but %s of %v is not applied: %s", d.Name, d.Platform.V, w.Name, how, w.Restoration.V, reason)})
		}
	}
}

func runWatchdogPresent(p *Pass) {
	for _, g := range groupQoS(p, isSwitch) {
		if g.qos.Lossless == 0 || g.qos.Watchdog.V != nil {
			continue
		}
		src := g.qos.Watchdog.Src
		if src.IsZero() {
			src = g.qos.PFCSource()
		}
		how := "has no pfc_watchdog"
		if g.qos.Watchdog.Set {
			how = "turns the pfc_watchdog off"
		}
		reportGroup(p, g, src, fmt.Sprintf("%s enables PFC on priority %s but %s", g.ports[0].ID(), g.qos.Lossless, how))
	}
}

// watchdogsInUse lists the watchdog profiles some port uses, in fabric order.
func watchdogsInUse(p *Pass) []*schema.Watchdog {
	used := map[*schema.Watchdog]bool{}
	for _, g := range groupQoS(p, nil) {
		if w := g.qos.Watchdog.V; w != nil {
			used[w] = true
		}
	}
	var out []*schema.Watchdog
	for _, w := range p.Fabric.Watchdogs {
		if used[w] {
			out = append(out, w)
		}
	}
	return out
}

func runWatchdogTimers(p *Pass) {
	ms := time.Millisecond
	for _, w := range p.Fabric.Watchdogs {
		// Every problem of one attribute is one finding at its line.
		var problems [3][]string
		vals := [3]schema.Value[time.Duration]{w.Detection, w.Restoration, w.PollInterval}
		names := [3]string{"detection", "restoration", "poll_interval"}
		bounds := [3][2]time.Duration{{100 * ms, 5000 * ms}, {100 * ms, 60000 * ms}, {100 * ms, 1000 * ms}}
		for i, v := range vals {
			if v.Set && (v.V < bounds[i][0] || v.V > bounds[i][1]) {
				problems[i] = append(problems[i], fmt.Sprintf("is outside %v–%v", bounds[i][0], bounds[i][1]))
			}
		}
		for i := 0; i < 2; i++ {
			if vals[i].Set && w.PollInterval.Set && vals[i].V < w.PollInterval.V {
				problems[i] = append(problems[i], fmt.Sprintf("is shorter than poll_interval %v", w.PollInterval.V))
			}
		}
		for i, ps := range problems {
			if len(ps) > 0 {
				p.Report(Finding{Subject: ptr(subjectOr(vals[i].Src, w.Range)), Summary: fmt.Sprintf("pfc_watchdog %q: %s %v %s", w.Name, names[i], vals[i].V, strings.Join(ps, " and "))})
			}
		}
	}
}

// runWatchdogAction reports the profiles whose action differs from the
// action most ports use (schema.Rank: the minority action's profile is
// the line to change, the common action's related).
func runWatchdogAction(p *Pass) {
	ws := watchdogsInUse(p)
	if len(ws) < 2 {
		return
	}
	ports := map[*schema.Watchdog]int{}
	for _, g := range groupQoS(p, nil) {
		if w := g.qos.Watchdog.V; w != nil {
			ports[w] += len(g.ports)
		}
	}
	// Listed last first: a tie keeps the fabric's first profile as the
	// reference.
	sides := make([]schema.Side, 0, len(ws))
	order := make([]*schema.Watchdog, 0, len(ws))
	for i := len(ws) - 1; i >= 0; i-- {
		w := ws[i]
		sides = append(sides, schema.Side{Key: string(w.Action.V), Src: subjectOr(w.Action.Src, w.Range), Holders: ports[w]})
		order = append(order, w)
	}
	ref := order[schema.Reference(sides)]
	byRank := schema.Deviants(sides)
	// Report in fabric order.
	dev := map[*schema.Watchdog]bool{}
	for _, i := range byRank {
		dev[order[i]] = true
	}
	for _, w := range ws {
		if dev[w] {
			p.Report(Finding{Subject: ptr(subjectOr(w.Action.Src, w.Range)),
				Summary: fmt.Sprintf("pfc_watchdog %q acts %q but pfc_watchdog %q, used by most ports, acts %q", w.Name, w.Action.V, ref.Name, ref.Action.V),
				Related: []Related{{Range: subjectOr(ref.Action.Src, ref.Range), Message: "the common action set here"}}})
		}
	}
}
