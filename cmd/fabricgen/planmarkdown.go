package main

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/internal/graph"
	"github.com/fabricgen/fabricgen/internal/natsort"
	"github.com/fabricgen/fabricgen/push"
	"github.com/fabricgen/fabricgen/push/planfile"
)

// DefaultMarkdownLimit is plan --markdown's default size limit: under
// GitHub's 65,536-character comment limit, with room for a bot's header.
const DefaultMarkdownLimit = 60000

// minMarkdownLimit is the smallest --markdown-limit: the heading, the
// summary and the pointer to the full plan always fit.
const minMarkdownLimit = 2000

// maxFindingDiagrams caps the hop-path diagrams of a Markdown plan.
const maxFindingDiagrams = 5

// planMarkdown writes a plan as a pull-request comment: changed devices
// only, a summary table first, devices with identical changes grouped,
// one collapsed diff per group, and never more than Limit bytes (so never
// more characters either).
type planMarkdown struct {
	// Limit is the size limit in bytes.
	Limit int
	// PlanFile is the -out file holding the full plan, "" when none.
	PlanFile string
	// Dir is the fabric directory as given, for the command that saves
	// the full plan.
	Dir string
	// Findings are the lint findings that did not block the plan; those
	// with a hop trace get a Mermaid diagram.
	Findings diag.Diagnostics
	// FollowUp are the plan's own flags (shell-quoted), which the command
	// that saves the full plan needs again.
	FollowUp []string
}

// planGroup is changed devices with the same platform and the same change.
type planGroup struct {
	platform string
	devices  []*planfile.Device
	// body is the diff without its ---/+++ header (which names the
	// device), or a host's setting lines; hostView tells which.
	body     string
	hostView bool
	takeover []string
}

// groupPlan groups the plan's changed devices by platform and change,
// devices in natural order, groups by their first device.
func groupPlan(p *planfile.Plan) []*planGroup {
	byKey := map[string]*planGroup{}
	var groups []*planGroup
	devs := append([]*planfile.Device(nil), p.Devices...)
	sortDevices(devs)
	for _, d := range devs {
		if d.Status != planfile.StatusChange {
			continue
		}
		g := &planGroup{platform: d.Platform, takeover: d.Takeover}
		g.body, g.hostView = changeBody(d)
		key := changeKey(d, g.body)
		if old, ok := byKey[key]; ok {
			old.devices = append(old.devices, d)
			continue
		}
		g.devices = []*planfile.Device{d}
		byKey[key] = g
		groups = append(groups, g)
	}
	return groups
}

// changeBody is what a changing device's change is, without its name: the
// diff without its header, or a host's setting lines (host true).
func changeBody(d *planfile.Device) (body string, host bool) {
	if push.IsHost(d.Platform) {
		return push.HostSettingText(d.Diff.Text), true
	}
	return diffBody(d.Diff.Text), false
}

// changeKey is equal for devices with the same platform, change and
// takeover, which plans show once.
func changeKey(d *planfile.Device, body string) string {
	return d.Platform + "\x00" + body + "\x00" + strings.Join(d.Takeover, "\x00")
}

// sortDevices sorts plan devices by name in natural order.
func sortDevices(devs []*planfile.Device) {
	names := make([]string, len(devs))
	idx := map[string]*planfile.Device{}
	for i, d := range devs {
		names[i] = d.Name
		idx[d.Name] = d
	}
	natsort.Sort(names)
	for i, n := range names {
		devs[i] = idx[n]
	}
}

// diffBody drops a unified diff's "---"/"+++" header lines, which name
// the device, so that equal changes on different devices compare equal.
func diffBody(text string) string {
	lines := strings.SplitAfter(text, "\n")
	i := 0
	for i < len(lines) && i < 2 && (strings.HasPrefix(lines[i], "--- ") || strings.HasPrefix(lines[i], "+++ ")) {
		i++
	}
	return strings.Join(lines[i:], "")
}

// names is the group's device names folded into ranges.
func (g *planGroup) names() []string {
	ns := make([]string, len(g.devices))
	for i, d := range g.devices {
		ns[i] = d.Name
	}
	return ns
}

// size is "+12 -3 lines", or "74 settings" for a host.
func (g *planGroup) size() string {
	if g.hostView {
		return hostCount(g.devices[0].Diff.Text)
	}
	return fmt.Sprintf("+%d -%d lines", g.devices[0].Diff.Added, g.devices[0].Diff.Removed)
}

// mdBuf is a Markdown document under construction with a size limit.
type mdBuf struct {
	b     strings.Builder
	limit int
	// reserve is kept free for the truncation note.
	reserve int
}

// add appends s when it fits and reports whether it did.
func (m *mdBuf) add(s string) bool {
	if m.b.Len()+len(s)+m.reserve > m.limit {
		return false
	}
	m.b.WriteString(s)
	return true
}

// room is how many bytes may still be added.
func (m *mdBuf) room() int { return m.limit - m.reserve - m.b.Len() }

// write renders the plan.
func (o planMarkdown) write(w io.Writer, p *planfile.Plan, skipped []string) error {
	if o.Limit < minMarkdownLimit {
		return fmt.Errorf("--markdown-limit %d: give at least %d", o.Limit, minMarkdownLimit)
	}
	groups := groupPlan(p)
	sum := p.Summary()
	m := &mdBuf{limit: o.Limit}
	m.reserve = len(o.truncated(sum.Change, sum.Change))
	m.b.WriteString("### fabricgen plan: " + mdCode(clip(p.Fabric, 200)) + "\n\n")
	m.b.WriteString("**" + mdSummary(sum) + "**\n\n")
	shown := 0
	done := func() error {
		if shown < sum.Change {
			m.reserve = 0
			m.b.WriteString(o.truncated(shown, sum.Change))
		}
		_, err := io.WriteString(w, m.b.String())
		return err
	}
	if len(groups) > 0 {
		m.b.WriteString("| devices | platform | change (each) |\n|---|---|---|\n")
		for _, g := range groups {
			row := fmt.Sprintf("| %s | %s | %s |\n", rangesMD(g.names(), 6), mdText(g.platform), g.size())
			if !m.add(row) {
				return done()
			}
		}
		m.add("\n")
	}
	if !o.writeErrors(m, p) || !writeKept(m, p) || !o.writeTail(m, sum, skipped) || !o.writeFindings(m) {
		return done()
	}
	for _, g := range groups {
		if !m.add(groupDetails(g, g.body)) {
			o.writeCut(m, g)
			return done()
		}
		shown += len(g.devices)
	}
	return done()
}

// writeErrors lists the devices that could not be planned.
func (o planMarkdown) writeErrors(m *mdBuf, p *planfile.Plan) bool {
	var errs []*planfile.Device
	for _, d := range p.Devices {
		if d.Status == planfile.StatusError {
			errs = append(errs, d)
		}
	}
	if len(errs) == 0 {
		return true
	}
	sortDevices(errs)
	if !m.add("**Could not be planned:**\n\n| device | platform | error |\n|---|---|---|\n") {
		return false
	}
	for _, d := range errs {
		if !m.add(fmt.Sprintf("| %s | %s | %s |\n", mdCode(d.Name), mdText(d.Platform), mdText(clip(d.Error, 500)))) {
			return false
		}
	}
	return m.add("\n")
}

// writeKept lists, per device, the removals held back because only an
// unsigned last-applied record justified them (planfile.Device.Kept).
func writeKept(m *mdBuf, p *planfile.Plan) bool {
	for _, d := range p.Devices {
		for _, k := range d.Kept {
			if !m.add(fmt.Sprintf("- %s: %s\n", mdCode(d.Name), mdText(clip(k, 1000)))) {
				return false
			}
		}
	}
	return true
}

// writeTail counts the unchanged devices and names the ones not planned.
func (o planMarkdown) writeTail(m *mdBuf, sum planfile.Summary, skipped []string) bool {
	if sum.Unchanged > 0 && !m.add(fmt.Sprintf("%d device(s) unchanged.\n", sum.Unchanged)) {
		return false
	}
	if len(skipped) > 0 {
		if !m.add(fmt.Sprintf("Not planned (plan supports only some platforms): %s\n", mdText(clip(strings.Join(skipped, ", "), 1000)))) {
			return false
		}
	}
	return m.add("\n")
}

// writeFindings lists the lint findings that did not block the plan, each
// hop path as a Mermaid diagram with the bad hop marked.
func (o planMarkdown) writeFindings(m *mdBuf) bool {
	if len(o.Findings) == 0 {
		return true
	}
	if !m.add(fmt.Sprintf("<details><summary>Lint: %d finding(s) that do not block the plan</summary>\n\n", len(o.Findings))) {
		return false
	}
	diagrams := 0
	for _, f := range o.Findings {
		item := fmt.Sprintf("- **%s** %s: %s\n", f.Severity, mdText(f.Rule), mdText(clip(f.Summary, 500)))
		if len(f.Trace) > 0 && diagrams < maxFindingDiagrams {
			item += "\n" + graph.Fence(graph.HopPath(f.Trace, findingPort(f))) + "\n"
			diagrams++
		}
		if !m.add(item) {
			return false
		}
	}
	return m.add("\n</details>\n\n")
}

// findingPort is "device:port" of a finding's representative place.
func findingPort(f *diag.Diagnostic) string {
	if f.Device == "" || f.Port == "" {
		return ""
	}
	return f.Device + ":" + f.Port
}

// groupDetails is one group's collapsed change.
func groupDetails(g *planGroup, body string) string {
	var b strings.Builder
	n := len(g.devices)
	label := rangesMD(g.names(), 6)
	b.WriteString("<details><summary>" + label)
	switch {
	case n > 1 && (strings.Contains(label, ", <code>") || strings.Contains(label, " more")):
		// Several ranges: say how many devices they hold together.
		fmt.Fprintf(&b, ": same change on %d devices", n)
	case n > 1:
		b.WriteString(": same change")
	}
	fmt.Fprintf(&b, " (%s, %s)</summary>\n\n", mdText(g.platform), g.size())
	if len(g.takeover) > 0 {
		fmt.Fprintf(&b, "Takes over %d line(s) fabricgen did not create, e.g. %s\n\n", len(g.takeover), mdCode(clip(g.takeover[0], 200)))
	}
	lang := "diff"
	if g.hostView {
		lang = "text"
		b.WriteString("One line per setting that changes (`setting: old -> new`):\n\n")
	}
	body = termText(body) // a fence shows its text as is: no raw controls
	fence := codeFence(body)
	b.WriteString(fence + lang + "\n" + body)
	if body != "" && !strings.HasSuffix(body, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(fence + "\n</details>\n\n")
	return b.String()
}

// writeCut adds as much of a group's change as fits, whole lines, with a
// note saying how many lines are left out; nothing when not even the
// frame fits.
func (o planMarkdown) writeCut(m *mdBuf, g *planGroup) {
	lines := strings.SplitAfter(g.body, "\n")
	frame := groupDetails(g, "") + "… and 9999999 more lines: see the full plan\n"
	if m.room() < len(frame) {
		return
	}
	budget := m.room() - len(frame)
	var b strings.Builder
	kept := 0
	for _, l := range lines {
		if b.Len()+len(l) > budget {
			break
		}
		b.WriteString(l)
		kept++
	}
	if kept == 0 {
		return
	}
	rest := 0
	for _, l := range lines[kept:] {
		if l != "" {
			rest++
		}
	}
	body := b.String()
	if rest > 0 {
		body += fmt.Sprintf("… and %d more lines: see the full plan\n", rest)
	}
	m.add(groupDetails(g, body))
}

// truncated is the note ending a plan cut at the limit.
func (o planMarkdown) truncated(shown, total int) string {
	save := "fabricgen plan " + clip(o.Dir, 200)
	for _, f := range o.FollowUp {
		save += " " + clip(f, 200)
	}
	where := "save the full plan with " + mdCode(save+" -out plan.json") + " and read it with `fabricgen show plan.json`"
	if o.PlanFile != "" {
		where = "the full plan is in " + mdCode(clip(o.PlanFile, 200)) + ": read it with " + mdCode("fabricgen show "+clip(o.PlanFile, 200))
	}
	return fmt.Sprintf("\n---\n**This comment stops at its %d-character limit** (`--markdown-limit`): it shows the changes of %d of %d changed device(s); %s.\n",
		o.Limit, shown, total, where)
}

// mdSummary is "3 to change, 29 unchanged; +41 -12 lines" in ASCII.
func mdSummary(s planfile.Summary) string {
	line := fmt.Sprintf("%d to change, %d unchanged", s.Change, s.Unchanged)
	if s.Errors > 0 {
		line += fmt.Sprintf(", %d failed", s.Errors)
	}
	return line + fmt.Sprintf("; +%d -%d lines", s.Added, s.Removed)
}

// rangesMD renders names as code ranges ("leaf1–leaf32, spine2"), at
// most limit ranges, then "and N more"; names that are every combination
// of their numbers as one pattern ("leaf[0001–0064]-nic[01, 03]").
func rangesMD(names []string, limit int) string {
	rs := natsort.Ranges(names)
	if len(rs) > 2 {
		if p, ok := natsort.Pattern(names); ok {
			return fmt.Sprintf("%s (%d)", mdCode(p), len(names))
		}
	}
	var parts []string
	for i, r := range rs {
		if i == limit {
			parts = append(parts, fmt.Sprintf("and %d more", len(rs)-limit))
			break
		}
		switch {
		case r.N > 1 && r.Step > 1:
			parts = append(parts, fmt.Sprintf("%s–%s (%d, every %s)", mdCode(r.First), mdCode(r.Last), r.N, ordinalSuffix(r.Step)))
		case r.N > 1:
			parts = append(parts, fmt.Sprintf("%s–%s (%d)", mdCode(r.First), mdCode(r.Last), r.N))
		default:
			parts = append(parts, mdCode(r.First))
		}
	}
	return strings.Join(parts, ", ")
}

// ordinalSuffix is 2nd, 3rd, 11th.
func ordinalSuffix(n int) string {
	r := natsort.Range{First: "a", Last: "b", N: 2, Step: n}.String()
	return strings.TrimSuffix(strings.TrimPrefix(r, "a–b (every "), ")")
}

// mdCode is s in an HTML code element, escaped for Markdown, HTML and
// table cells.
func mdCode(s string) string { return "<code>" + mdText(s) + "</code>" }

// mdText escapes s for Markdown text, inline HTML and table cells: every
// character that Markdown or HTML could read as syntax becomes a numeric
// entity; line breaks become spaces.
func mdText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || unicode.Is(unicode.Cf, r):
			// Controls and invisible format characters (bidi
			// overrides) as entities: a terminal showing the Markdown
			// would act on them.
			fmt.Fprintf(&b, "&#%d;", r)
		case strings.ContainsRune("&<>\"'|`*_[]\\~#!{}", r):
			fmt.Fprintf(&b, "&#%d;", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// clip shortens s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// codeFence is a backtick fence longer than any backtick run in body.
func codeFence(body string) string {
	longest, run := 0, 0
	for i := 0; i < len(body); i++ {
		if body[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}
