package check

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/internal/units"
	"github.com/fabricgen/fabricgen/schema"
)

// linkedPorts are the device's intent ports that are on a link.
func linkedPorts(r reading) []*schema.Port {
	var out []*schema.Port
	for _, p := range r.dev.Ports {
		if p.Link != nil && p.Peer != nil {
			out = append(out, p)
		}
	}
	return out
}

// isUp reports whether the port reads as up (unknown counts as up: the
// optics rules then judge it as a live link).
func isUp(r reading, port string) bool {
	pp := r.after.Port(port)
	return pp == nil || pp.Oper == "" || pp.Oper == "up"
}

// lanes returns the lane indexes of an indexed gauge family, sorted.
func lanes(r reading, port, family string) []int {
	pp := r.after.Port(port)
	if pp == nil {
		return nil
	}
	var out []int
	for k := range pp.Gauges {
		if f, i := SplitKey(k); f == family && i >= 0 {
			out = append(out, i)
		}
	}
	sort.Ints(out)
	return out
}

// hasOptics reports whether a link end has DDM readings of family for
// the optics rules to judge. A passive copper end (the device reports a
// copper cable, or the intent's media is dac or backplane) has none and
// is left alone: there are no optics. An optical end without readings,
// on a platform that does expose the family, is noted for the rule's
// "not evaluated" info (no module, a module without DDM, or a reading
// the device left out) rather than passed.
func (p *Pass) hasOptics(r reading, port *schema.Port, family string) bool {
	pp := r.after.Port(port.Name)
	if pp != nil {
		for k := range pp.Gauges {
			if f, _ := SplitKey(k); f == family {
				return true
			}
		}
	}
	if (pp != nil && pp.Copper) || copperMedia(media(port.Link)) || !r.after.Exposes(family) {
		return false
	}
	p.unjudged = append(p.unjudged, port.ID())
	return false
}

// unjudgedFinding is the rule's info for optical link ends without
// readings, or nothing.
func (p *Pass) unjudgedFinding() []Finding {
	if len(p.unjudged) == 0 {
		return nil
	}
	names := p.unjudged
	list := strings.Join(names, ", ")
	if len(names) > 4 {
		list = strings.Join(names[:4], ", ") + fmt.Sprintf(" and %d more", len(names)-4)
	}
	dev, port, _ := strings.Cut(names[0], ":")
	return []Finding{{Rule: p.Rule.ID, Severity: schema.SevInfo, Device: dev, Port: port, Count: len(names),
		Summary: fmt.Sprintf("%s not evaluated on %d optical link end(s) (%s): the device reports no optics diagnostics there (no module, a module without DDM, or a passive copper cable the intent does not call dac)", p.Rule.ID, len(names), list),
		Fix:     "Check the module in the port (the platform's transceiver command); set media = \"dac\" on the link in the intent if it is a copper cable."}}
}

// noLight is the receive power below which a lane is dark.
const noLight = -30.0

// dirtyFix is the seed document's repair for a dirty connector.
const dirtyFix = "Clean the fibre connector end faces on both ends with a fibre cleaning pen, reseat the optical module, and read the DDM again: receive power should be back near its siblings (a few dB below the peer's transmit power) and the error counters should stop rising; replace the module or the patch cord if it is not."

func physicalRules() []*Rule {
	return []*Rule{
		{ID: "CHK001", Layer: Physical, Title: "Optic receive power is within the module's thresholds",
			Severity: schema.SevError, Needs: []string{RxPower, RxPowerLoAlarm}, Scope: AllDevices, Reach: HostReach,
			Thresholds: "warning below the module's low-warning threshold; error below its low-alarm threshold plus a 2 dB margin, or a dark lane (below -30 dBm) on a link that is up. Copper ends (media dac or backplane, or a device that reports a copper cable) have no optics and are not judged; an optical end without readings is reported as not evaluated",
			Rationale:  "A link that is up is not a healthy link: receive power near the receiver's sensitivity still negotiates full speed while bit errors, retransmits and lost RDMA bandwidth pile up. Judging against the module's own DDM thresholds, with a margin above the alarm level, catches the optic before the errors start.",
			Reference:  "SFF-8636 / CMIS digital diagnostics (DDM) alarm and warning thresholds; Arista ANTA VerifyInterfacesOpticsReceivePower (failure_margin 2 dB)",
			Fix:        "Inspect and clean the connector on this end and the peer's, check the patch cord and the peer's transmit power; replace the module if the power stays low.",
			Run:        checkRxPower},
		{ID: "CHK002", Layer: Physical, Title: "Optic transmit power is within the module's thresholds",
			Severity: schema.SevError, Needs: []string{TxPower, TxPowerLoAlarm}, Scope: AllDevices, Reach: HostReach,
			Thresholds: "warning outside the module's low/high-warning thresholds, error outside its alarm thresholds",
			Rationale:  "A weak laser starves the peer's receiver; the fault is at this end even though the errors show at the other.",
			Reference:  "SFF-8636 / CMIS digital diagnostics (DDM) transmit power thresholds",
			Fix:        "Replace the optical module: its laser is outside its own specification.",
			Run:        checkTxPower},
		{ID: "CHK003", Layer: Physical, Title: "Optic temperature stays below 70 °C and the module's alarm",
			Severity: schema.SevWarning, Needs: []string{Temperature}, Scope: AllDevices, Reach: HostReach,
			Thresholds: "warning at the module's high-warning threshold or 70 °C, whichever is lower; error at its high-alarm threshold",
			Rationale:  "Hot optics drift out of specification and fail; the usual limit for a healthy module is below 70 °C.",
			Reference:  "Optical module DDM temperature thresholds (SFF-8636, CMIS); RDMA physical-layer health guidance: module temperature < 70 °C; Arista ANTA VerifyInterfacesOpticsTemperature",
			Fix:        "Check the switch's airflow (fans, blanking panels, hot-aisle containment) and the module's seating; replace a module that stays hot.",
			Run:        checkTemperature},
		{ID: "CHK004", Layer: Physical, Title: "Optic supply voltage is within 5 % of 3.3 V",
			Severity: schema.SevWarning, Needs: []string{Voltage}, Scope: AllDevices, Reach: HostReach,
			Thresholds: "warning outside the module's voltage warning thresholds, or outside 3.3 V ± 5 % (3.135–3.465 V) when it gives none",
			Rationale:  "A module supply outside its tolerance points at a failing module or port power stage before the link fails.",
			Reference:  "SFF-8636 / CMIS Vcc monitor and thresholds; RDMA physical-layer health guidance: voltage deviation < 5 %",
			Fix:        "Move the module to another port to tell the module from the port; replace the faulty part.",
			Run:        checkVoltage},
		{ID: "CHK005", Layer: Physical, Title: "No uncorrectable FEC codewords",
			Severity: schema.SevError, Needs: []string{FECUncorrected}, Scope: AllDevices, Reach: HostReach,
			Thresholds: "any increase over the window at either end; one finding per link",
			Rationale:  "An uncorrectable codeword is a lost frame: on a lossless fabric it is an RDMA retransmit (go-back-N), and the post-FEC error ratio target of an Ethernet link (below 1e-12) is gone.",
			Reference:  "IEEE 802.3 clause 91/119 RS-FEC; Arista ANTA VerifyInterfacesBER (fail_on_uncorrected_codewords)",
			Fix:        "Clean or replace the optic and cable of this link; check the FEC mode agrees on both ends.",
			Run:        checkFECUncorrected},
		{ID: "CHK006", Layer: Physical, Title: "Pre-FEC bit error ratio is low",
			Severity: schema.SevWarning, Needs: []string{PreFECBER}, Scope: AllDevices, Reach: HostReach,
			Thresholds: "warning above 1e-7, error at 2.4e-4 (the RS(544,514) correction limit); one finding per link",
			Rationale:  "The pre-FEC error ratio shows a link degrading long before FEC gives up.",
			Reference:  "IEEE 802.3 clause 119 (RS(544,514)); Arista ANTA VerifyInterfacesBER (max_ber_threshold 1e-7)",
			Fix:        "Clean the connectors, reseat the module, replace the cable or optic if the ratio stays high.",
			Run:        checkPreFECBER},
		{ID: "CHK007", Layer: Physical, Title: "CRC and receive errors do not rise",
			Severity: schema.SevWarning, Needs: []string{FCSErrors}, Scope: AllDevices, Reach: HostReach,
			Thresholds: "any increase over the window at either end; one finding per link (copper links get copper advice)",
			Rationale:  "Rising rx_errors with the link still up is how a dirty connector showed itself in the field: the storage cluster fell from 90 to 30 Gbit/s while the link stayed at 100G.",
			Reference:  "Arista ANTA VerifyInterfaceErrors (threshold 0); mlx5 ethtool counters rx_crc_errors_phy, rx_symbol_err_phy (Linux kernel mlx5 counters documentation)",
			Fix:        "Read the optics of both ends (fabricgen check shows them); clean the connectors and reseat the module, or replace the cable.",
			Run:        checkFCS},
		{ID: "CHK008", Layer: Physical, Title: "Links do not flap",
			Severity: schema.SevWarning, Needs: []string{LinkFlaps}, Scope: AllDevices, Reach: HostReach,
			Thresholds: "warning for any link-down event in the window, error at 3 or more; one finding per link",
			Rationale:  "A flapping link resets PFC state, drops in-flight RDMA and moves ECMP; marginal links that flap repeat.",
			Reference:  "Arista ANTA VerifyInterfacesCounterDetails (link status changes); Meta, Proactive Link Management in AI Networks (@Scale 2024)",
			Fix:        "Check the optic and cable of this link (DDM, errors) and both ends' logs; replace the marginal part.",
			Run:        checkFlaps},
		{ID: "CHK009", Layer: Physical, Title: "Links are up at the intent's speed, on all lanes",
			Severity: schema.SevError, Needs: []string{Oper}, Scope: AllDevices, Reach: HostReach,
			Thresholds: "operational speed equal to the link's speed in the intent; both ends on the same number of lanes",
			Rationale:  "The negotiated rate must equal the expected one: a 400G link that came up at 200G halves every path through it while lint and every config diff stay clean.",
			Reference:  "RDMA physical-layer health guidance: negotiated speed equal to the expected speed; IEEE 802.3 auto-negotiation and link training",
			Fix:        "Check the optic type and cable (a lane down, a breakout or a module of the wrong speed), set the speed on both ends, and reseat or replace the module.",
			Run:        checkSpeed},
		{ID: "CHK010", Layer: Physical, Title: "No dirty-optic pattern: low receive power with rising errors on a link that is up",
			Severity: schema.SevError, Needs: []string{RxPower, FCSErrors}, Scope: AllDevices, Reach: HostReach,
			Thresholds: "receive power below the module's low-warning threshold (or more than 6 dB below the peer's transmit power) and CRC/FEC errors rising on the same end, with the link up; the end's CRC, FEC and BER findings (CHK005-CHK007) are this one. Not judged on copper links; on an active optical cable the fix is a new cable",
			Rationale:  "The field case: receive power at -18 dBm against a -20 dBm sensitivity, rx_errors growing, the link still at 100G, RDMA bandwidth from 90 to 30 Gbit/s. Cleaning the connector and reseating the module brought -8 dBm and 95 Gbit/s back. Corruption is per link and stable over time, so it is one finding on the link, with both ends' readings.",
			Reference:  "CorrOpt (Zhuo et al., SIGCOMM 2017): packet corruption is per link and fixed by cleaning or replacing; RDMA physical-layer health guidance (the DDM inspection case)",
			Fix:        dirtyFix,
			Run:        checkDirtyOptic},
	}
}

func checkRxPower(p *Pass) {
	for _, r := range p.Readings() {
		for _, port := range linkedPorts(r) {
			if !p.hasOptics(r, port, RxPower) || !isUp(r, port.Name) || p.dirtyPort(r, port) {
				continue
			}
			alarm, okA := gauge(r, port.Name, RxPowerLoAlarm)
			warn, okW := gauge(r, port.Name, RxPowerLoWarn)
			if !okA {
				continue
			}
			worst, wl := math.Inf(1), -1
			for _, l := range lanes(r, port.Name, RxPower) {
				v, _ := gauge(r, port.Name, Key(RxPower, l))
				if v < worst {
					worst, wl = v, l
				}
			}
			if wl < 0 {
				continue
			}
			sev, limit := schema.Severity(0), ""
			switch {
			case worst <= noLight:
				sev, limit = schema.SevError, fmt.Sprintf("no light (< %.0f dBm) on a link that is up", noLight)
			case worst < alarm+p.T.RxMarginDB:
				sev, limit = schema.SevError, fmt.Sprintf("< %s dBm: low alarm %s dBm + %s dB margin", diag.FormatValue(alarm+p.T.RxMarginDB), diag.FormatValue(alarm), diag.FormatValue(p.T.RxMarginDB))
			case okW && worst < warn:
				sev, limit = schema.SevWarning, fmt.Sprintf("< low warning %s dBm", diag.FormatValue(warn))
			}
			if sev == 0 {
				continue
			}
			p.Report(Finding{Severity: sev, Subject: linkRange(port.Link, port), Device: r.dev.Name, Port: port.Name,
				Summary:  fmt.Sprintf("%s receives %.1f dBm on lane %d (%s) on link %s", port.ID(), worst, wl, limit, linkName(port.Link)),
				Evidence: []diag.Evidence{gaugeEvidence(r, port.Name, Key(RxPower, wl), worst, "dBm", limit)}})
		}
	}
}

func checkTxPower(p *Pass) {
	for _, r := range p.Readings() {
		for _, port := range linkedPorts(r) {
			if !p.hasOptics(r, port, TxPower) || !isUp(r, port.Name) {
				continue
			}
			la, okLA := gauge(r, port.Name, TxPowerLoAlarm)
			lw, okLW := gauge(r, port.Name, TxPowerLoWarn)
			hw, okHW := gauge(r, port.Name, TxPowerHiWarn)
			ha, okHA := gauge(r, port.Name, TxPowerHiAlarm)
			if !okLA {
				continue
			}
			for _, l := range lanes(r, port.Name, TxPower) {
				v, _ := gauge(r, port.Name, Key(TxPower, l))
				sev, limit := schema.Severity(0), ""
				switch {
				case v < la:
					sev, limit = schema.SevError, fmt.Sprintf("< low alarm %s dBm", diag.FormatValue(la))
				case okHA && v > ha:
					sev, limit = schema.SevError, fmt.Sprintf("> high alarm %s dBm", diag.FormatValue(ha))
				case okLW && v < lw:
					sev, limit = schema.SevWarning, fmt.Sprintf("< low warning %s dBm", diag.FormatValue(lw))
				case okHW && v > hw:
					sev, limit = schema.SevWarning, fmt.Sprintf("> high warning %s dBm", diag.FormatValue(hw))
				}
				if sev == 0 {
					continue
				}
				p.Report(Finding{Severity: sev, Subject: linkRange(port.Link, port), Device: r.dev.Name, Port: port.Name,
					Summary:  fmt.Sprintf("%s transmits %.1f dBm on lane %d (%s): the peer %s receives from a weak laser", port.ID(), v, l, limit, port.Peer.ID()),
					Evidence: []diag.Evidence{gaugeEvidence(r, port.Name, Key(TxPower, l), v, "dBm", limit)}})
				break
			}
		}
	}
}

func checkTemperature(p *Pass) {
	for _, r := range p.Readings() {
		for _, port := range linkedPorts(r) {
			if !p.hasOptics(r, port, Temperature) {
				continue
			}
			v, _ := gauge(r, port.Name, Temperature)
			warn := p.T.MaxTemperatureC
			if hw, ok := gauge(r, port.Name, TempHiWarn); ok && hw < warn {
				warn = hw
			}
			sev, limit := schema.Severity(0), ""
			if ha, ok := gauge(r, port.Name, TempHiAlarm); ok && v >= ha {
				sev, limit = schema.SevError, fmt.Sprintf(">= high alarm %s °C", diag.FormatValue(ha))
			} else if v >= warn {
				sev, limit = schema.SevWarning, fmt.Sprintf(">= %s °C", diag.FormatValue(warn))
			}
			if sev == 0 {
				continue
			}
			p.Report(Finding{Severity: sev, Subject: port.Range.Ptr(), Device: r.dev.Name, Port: port.Name,
				Summary:  fmt.Sprintf("the optic in %s runs at %.1f °C (%s)", port.ID(), v, limit),
				Evidence: []diag.Evidence{gaugeEvidence(r, port.Name, Temperature, v, "°C", limit)}})
		}
	}
}

func checkVoltage(p *Pass) {
	for _, r := range p.Readings() {
		for _, port := range linkedPorts(r) {
			if !p.hasOptics(r, port, Voltage) {
				continue
			}
			v, _ := gauge(r, port.Name, Voltage)
			lo, hi := 3.3*(1-p.T.VoltageTolerance), 3.3*(1+p.T.VoltageTolerance)
			if lw, ok := gauge(r, port.Name, VoltLoWarn); ok {
				lo = lw
			}
			if hw, ok := gauge(r, port.Name, VoltHiWarn); ok {
				hi = hw
			}
			if v >= lo && v <= hi {
				continue
			}
			limit := fmt.Sprintf("outside %s–%s V", diag.FormatValue(lo), diag.FormatValue(hi))
			p.Report(Finding{Subject: port.Range.Ptr(), Device: r.dev.Name, Port: port.Name,
				Summary:  fmt.Sprintf("the optic in %s is supplied %.3f V (%s)", port.ID(), v, limit),
				Evidence: []diag.Evidence{gaugeEvidence(r, port.Name, Voltage, v, "V", limit)}})
		}
	}
}

// endHit is one link end's measurement for a rule.
type endHit struct {
	r     reading
	port  *schema.Port
	value float64
	sev   schema.Severity
	ev    diag.Evidence
}

// linkHits groups per-end measurements by link, in the order the links
// were first seen: one cause on a link (a cable, a pair of optics) is one
// finding, whichever end counts it.
type linkHits struct {
	order []*schema.Link
	by    map[*schema.Link][]endHit
}

func (h *linkHits) add(e endHit) {
	if h.by == nil {
		h.by = map[*schema.Link][]endHit{}
	}
	l := e.port.Link
	if h.by[l] == nil {
		h.order = append(h.order, l)
	}
	h.by[l] = append(h.by[l], e)
}

// report emits one finding per link: the end with the larger value
// stands for the link, the other is a related place, and both ends'
// evidence is kept. noun says what was measured ("CRC (FCS) errors rose
// by"), value prints one end's measurement, tail ends the sentence.
func (h *linkHits) report(p *Pass, noun string, value func(e endHit) string, tail string) {
	for _, l := range h.order {
		hits := h.by[l]
		sort.SliceStable(hits, func(i, j int) bool { return hits[i].value > hits[j].value })
		w := hits[0]
		sev := w.sev
		var ev []diag.Evidence
		var related []diag.Related
		for _, e := range hits {
			sev = max(sev, e.sev)
			ev = append(ev, e.ev)
		}
		summary := fmt.Sprintf("%s: %s %s%s on link %s", w.port.ID(), noun, value(w), tail, linkName(l))
		if len(hits) > 1 {
			o := hits[1]
			summary = fmt.Sprintf("link %s, both ends: %s %s at %s and %s at %s%s", linkName(l), noun, value(w), w.port.ID(), value(o), o.port.ID(), tail)
			related = append(related, diag.Related{Range: o.port.Range, Message: "the other end: " + noun + " " + value(o)})
		}
		p.Report(Finding{Severity: sev, Subject: linkRange(l, w.port), Device: w.r.dev.Name, Port: w.port.Name, Related: related,
			Summary: summary, Evidence: ev, Fix: p.mediaFix(l)})
	}
}

// media is the link's media in the intent ("" when not given).
func media(l *schema.Link) string {
	if l == nil {
		return ""
	}
	return l.Media.V
}

// copperMedia reports whether a media is passive copper.
func copperMedia(m string) bool { return m == "dac" || m == "backplane" }

// copperFix and aocFix replace the optics advice on links that have no
// connector to clean.
const (
	copperFix = "Reseat the copper cable at both ends (a DAC has no optics and no connector to clean), check it is not bent tighter than its radius and that its length suits the speed, and replace the cable if the errors continue."
	aocFix    = "Replace the active optical cable: its optics are sealed into the cable, so there is no connector to clean or module to reseat apart from the cable ends themselves."
)

// mediaFix is the rule's fix for the link's media: the rule's own for
// fibre (or an unknown media), the copper or AOC advice otherwise.
func (p *Pass) mediaFix(l *schema.Link) string {
	switch m := media(l); {
	case copperMedia(m):
		return copperFix
	case m == "aoc":
		return aocFix
	}
	return p.Rule.Fix
}

// risingCounter reports, per link, an increase of family at either end.
func risingCounter(p *Pass, family, what string, skipDirty bool, sev func(d float64) schema.Severity) {
	var hits linkHits
	for _, r := range p.Readings() {
		for _, port := range linkedPorts(r) {
			if skipDirty && p.dirtyPort(r, port) {
				continue
			}
			d, ok := p.delta(r, port.Name, family)
			if !ok || d <= 0 {
				continue
			}
			s := sev(d)
			if s == 0 {
				continue
			}
			hits.add(endHit{r: r, port: port, value: d, sev: s, ev: p.evidence(r, port.Name, family, d, "", "> 0")})
		}
	}
	window := ""
	for _, r := range p.Readings() {
		window = " in " + r.window().String()
		break
	}
	hits.report(p, what+" rose by", func(e endHit) string { return diag.FormatValue(e.value) }, window)
}

func checkFECUncorrected(p *Pass) {
	risingCounter(p, FECUncorrected, "uncorrectable FEC codewords", true, func(float64) schema.Severity { return p.Rule.Severity })
}

func checkFCS(p *Pass) {
	risingCounter(p, FCSErrors, "CRC (FCS) errors", true, func(float64) schema.Severity { return p.Rule.Severity })
}

func checkFlaps(p *Pass) {
	risingCounter(p, LinkFlaps, "link-down events", false, func(d float64) schema.Severity {
		if d >= p.T.FlapsError {
			return schema.SevError
		}
		return schema.SevWarning
	})
}

func checkPreFECBER(p *Pass) {
	var hits linkHits
	for _, r := range p.Readings() {
		for _, port := range linkedPorts(r) {
			if p.dirtyPort(r, port) {
				continue
			}
			v, ok := gauge(r, port.Name, PreFECBER)
			ev := gaugeEvidence(r, port.Name, PreFECBER, v, "", "")
			// Over the window where the platform counts bits.
			if cb, okC := p.delta(r, port.Name, FECCorrectedBits); okC {
				if bits, okB := p.delta(r, port.Name, RxBits); okB && bits > 0 {
					v, ok = cb/bits, true
					ev = p.evidence(r, port.Name, FECCorrectedBits, cb, "bits", "")
					ev.Metric, ev.Value = PreFECBER, v
				}
			}
			if !ok || !isUp(r, port.Name) {
				continue
			}
			sev, limit := schema.Severity(0), ""
			switch {
			case v >= p.T.PreFECBERError:
				sev, limit = schema.SevError, ">= "+diag.FormatValue(p.T.PreFECBERError)+" (RS-FEC correction limit)"
			case v > p.T.PreFECBERWarn:
				sev, limit = schema.SevWarning, "> "+diag.FormatValue(p.T.PreFECBERWarn)
			}
			if sev == 0 {
				continue
			}
			ev.Threshold = limit
			hits.add(endHit{r: r, port: port, value: v, sev: sev, ev: ev})
		}
	}
	hits.report(p, "pre-FEC bit error ratio", func(e endHit) string {
		return fmt.Sprintf("%s (%s)", diag.FormatValue(e.value), e.ev.Threshold)
	}, "")
}

// intentSpeed is the link's speed in the intent (bit/s, 0 unknown).
func intentSpeed(port *schema.Port) int64 {
	if port.Link != nil && port.Link.Speed.V > 0 {
		return port.Link.Speed.V
	}
	return port.Speed.V
}

func checkSpeed(p *Pass) {
	seen := map[*schema.Link]bool{}
	for _, r := range p.Readings() {
		for _, port := range linkedPorts(r) {
			pp := r.after.Port(port.Name)
			if pp == nil || !r.after.Exposes(Oper) {
				continue
			}
			src := r.after.PortSource(port.Name, Oper)
			switch {
			case pp.Oper == "down":
				p.Report(Finding{Subject: linkRange(port.Link, port), Device: r.dev.Name, Port: port.Name,
					Summary:  fmt.Sprintf("%s is down, but the intent has link %s", port.ID(), linkName(port.Link)),
					Evidence: []diag.Evidence{{Device: r.dev.Name, Port: port.Name, Metric: "oper", Value: 0, Reading: "down", Intent: "up (link " + linkName(port.Link) + ")", Source: src}}})
				continue
			case pp.Speed > 0 && intentSpeed(port) > 0 && pp.Speed != intentSpeed(port):
				if seen[port.Link] {
					continue
				}
				seen[port.Link] = true
				p.Report(Finding{Subject: linkRange(port.Link, port), Device: r.dev.Name, Port: port.Name,
					Summary: fmt.Sprintf("%s runs at %s, but the intent says %s for link %s", port.ID(), units.Speed(pp.Speed), units.Speed(intentSpeed(port)), linkName(port.Link)),
					Evidence: []diag.Evidence{{Device: r.dev.Name, Port: port.Name, Metric: "speed_bps", Value: float64(pp.Speed), Unit: "bit/s",
						Reading: units.Speed(pp.Speed), Intent: units.Speed(intentSpeed(port)), Source: src}}})
				continue
			}
			if seen[port.Link] {
				continue
			}
			seen[port.Link] = true
			pr, ok := p.reading(port.Peer.Device.Name)
			if !ok {
				continue
			}
			peer := pr.after.Port(port.Peer.Name)
			if peer != nil && pp.Lanes > 0 && peer.Lanes > 0 && pp.Lanes != peer.Lanes {
				p.Report(Finding{Subject: linkRange(port.Link, port), Device: r.dev.Name, Port: port.Name,
					Summary: fmt.Sprintf("link %s runs on %d lanes at %s and %d at %s: a lane is down or the ends disagree", linkName(port.Link), pp.Lanes, port.ID(), peer.Lanes, port.Peer.ID()),
					Evidence: []diag.Evidence{{Device: r.dev.Name, Port: port.Name, Metric: "lanes", Value: float64(pp.Lanes), Source: src},
						{Device: pr.dev.Name, Port: peer.Name, Metric: "lanes", Value: float64(peer.Lanes), Source: pr.after.PortSource(peer.Name, Oper)}}})
			}
		}
	}
}

// dirtyPort reports whether CHK010's pattern holds on this end of a link:
// up, receive power low, errors rising.
func (p *Pass) dirtyPort(r reading, port *schema.Port) bool {
	k := r.dev.Name + "\x00" + port.Name
	if v, ok := p.topo.dirty[k]; ok {
		return v
	}
	v := p.dirtyEvidence(r, port) != nil
	p.topo.dirty[k] = v
	return v
}

// dirtyEvidence is the evidence of the dirty-optic pattern on one end, or nil.
func (p *Pass) dirtyEvidence(r reading, port *schema.Port) []diag.Evidence {
	if !isUp(r, port.Name) {
		return nil
	}
	worst, wl := math.Inf(1), -1
	for _, l := range lanes(r, port.Name, RxPower) {
		v, _ := gauge(r, port.Name, Key(RxPower, l))
		if v < worst {
			worst, wl = v, l
		}
	}
	if wl < 0 || worst <= noLight {
		return nil
	}
	low := false
	limit := ""
	if w, ok := gauge(r, port.Name, RxPowerLoWarn); ok && worst < w {
		low, limit = true, fmt.Sprintf("< low warning %s dBm", diag.FormatValue(w))
	}
	if pr, ok := p.reading(port.Peer.Device.Name); ok && !low {
		if tx, ok := gauge(pr, port.Peer.Name, Key(TxPower, wl)); ok && tx-worst > 6 {
			low, limit = true, fmt.Sprintf("%.1f dB below the peer's transmit power %.1f dBm", tx-worst, tx)
		}
	}
	if !low {
		return nil
	}
	ev := []diag.Evidence{gaugeEvidence(r, port.Name, Key(RxPower, wl), worst, "dBm", limit)}
	rising := false
	for _, fam := range []string{FCSErrors, FECUncorrected} {
		if d, ok := p.delta(r, port.Name, fam); ok && d > 0 {
			rising = true
			ev = append(ev, p.evidence(r, port.Name, fam, d, "", "rising"))
		}
	}
	if !rising {
		return nil
	}
	if v, ok := gauge(r, port.Name, PreFECBER); ok {
		ev = append(ev, gaugeEvidence(r, port.Name, PreFECBER, v, "", ""))
	}
	return ev
}

func checkDirtyOptic(p *Pass) {
	for _, l := range p.topo.links {
		var ev []diag.Evidence
		var ends []string
		var first *schema.Port
		for _, port := range []*schema.Port{l.A, l.B} {
			r, ok := p.reading(port.Device.Name)
			if !ok || !p.hasOptics(r, port, RxPower) {
				continue
			}
			if e := p.dirtyEvidence(r, port); e != nil {
				ev = append(ev, e...)
				ends = append(ends, port.ID())
				if first == nil {
					first = port
				}
				if pr, ok := p.reading(port.Peer.Device.Name); ok {
					for _, ln := range lanes(pr, port.Peer.Name, TxPower) {
						if tx, ok := gauge(pr, port.Peer.Name, Key(TxPower, ln)); ok {
							ev = append(ev, gaugeEvidence(pr, port.Peer.Name, Key(TxPower, ln), tx, "dBm", "peer's transmit power"))
							break
						}
					}
				}
			}
		}
		if first == nil {
			continue
		}
		r, _ := p.reading(first.Device.Name)
		speed := ""
		if pp := r.after.Port(first.Name); pp != nil && pp.Speed > 0 {
			speed = " at " + units.Speed(pp.Speed)
		}
		rx := ev[0].Value
		cause, fix := "a dirty connector or a failing optic", dirtyFix
		if media(l) == "aoc" {
			cause, fix = "a failing active optical cable", aocFix
		}
		p.Report(Finding{Subject: linkRange(l, first), Device: first.Device.Name, Port: first.Name,
			Trace:    []diag.Step{{Port: l.A.ID()}, {Port: l.B.ID()}},
			Summary:  fmt.Sprintf("link %s is up%s, but %s receives %.1f dBm (%s) while its CRC errors rise: %s", linkName(l), speed, strings.Join(ends, " and "), rx, ev[0].Threshold, cause),
			Evidence: ev, Fix: fix})
	}
}
