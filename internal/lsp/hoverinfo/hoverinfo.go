// Package hoverinfo renders what the language server's hover says about a
// device, a port, a block of devices and a reference to a named object:
// the effective QoS with the provenance of every value, and how far a
// policy, class, profile or ACL reaches. It is pure: Markdown from the
// loaded, resolved model (schema.Fabric), deterministic and bounded in
// size whatever the fabric.
package hoverinfo

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/schema"
)

// Output bounds: every list a hover prints is capped.
const (
	// maxGroups is how many port groups Device renders.
	maxGroups = 4
	// maxInstances is how many folded instance ranges Devices prints.
	maxInstances = 16
	// maxDSCPRows bounds the DSCP→priority rows of a port table.
	maxDSCPRows = 8
	// maxACLRules is how many rules of an ACL Reference prints.
	maxACLRules = 10
	// maxListed bounds any other list (names of classes, devices).
	maxListed = 12
	// maxText bounds one escaped free-text value, in runes.
	maxText = 240
)

// esc makes s safe as Markdown text inline: control and invisible
// characters are shown as escapes (diag.EscapeText), a line break cannot
// start a new block, and the characters Markdown or a table give meaning
// to are backslash-escaped.
func esc(s string) string {
	s = diag.EscapeText(s, false)
	if r := []rune(s); len(r) > maxText {
		s = string(r[:maxText]) + "…"
	}
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\', '`', '*', '_', '|', '<', '>', '[', ']', '&', '~':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// code is s as a code span when it holds only characters names are made
// of (letters, digits and _ - . / : @ [ ] " and space-free), else escaped
// text: a code span cannot escape a backtick or a table's pipe.
func code(s string) string {
	if s == "" || len(s) > 300 {
		return esc(s)
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune(`_-./:@[]"`, r):
		default:
			return esc(s)
		}
	}
	return "`" + s + "`"
}

// ref is "kind.name" as code.
func ref(kind, name string) string { return code(kind + "." + name) }

// block is one candidate container of a value's source: a named block's
// declaration (header) range, grown to the end of every range the model
// records inside it. Blocks of one file never overlap, so a source range
// that lies within a block's known extent lies within that block.
type block struct {
	label string // e.g. qos_policy.fabric, as Markdown
	hdr   schema.Range
	end   schema.Pos
}

// newBlock starts a block at its declaration range.
func newBlock(label string, hdr schema.Range) *block {
	return &block{label: label, hdr: hdr, end: hdr.End}
}

// grow extends the block's known extent over r when r is in its file and
// after its header.
func (b *block) grow(r schema.Range) {
	if r.IsZero() || r.Filename != b.hdr.Filename || before(r.Start, b.hdr.Start) {
		return
	}
	if before(b.end, r.End) {
		b.end = r.End
	}
}

// contains reports whether r lies within the block's known extent.
func (b *block) contains(r schema.Range) bool {
	return !r.IsZero() && r.Filename == b.hdr.Filename && !before(r.Start, b.hdr.Start) && !before(b.end, r.End)
}

// before orders positions by line, then column.
func before(a, b schema.Pos) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}

// scope is the set of blocks a port's values can come from.
type scope []*block

// from says where a value came from: the innermost block containing its
// source, its line, and the file's base name when it is not file. A value
// nothing set says "default".
func (s scope) from(v schema.Range, set bool, file string) string {
	if !set || v.IsZero() {
		return "default"
	}
	return s.at(v, file)
}

// at is from for a range known to be set.
func (s scope) at(v schema.Range, file string) string {
	if v.IsZero() {
		return "default"
	}
	var best *block
	for _, b := range s {
		if b.contains(v) && (best == nil || before(best.hdr.Start, b.hdr.Start)) {
			best = b
		}
	}
	where := lineOf(v, file)
	if best == nil {
		return where
	}
	return best.label + ", " + where
}

// many says where several values came from, one entry per block with
// its lines: "`traffic_class.roce`, line 47, 48".
func (s scope) many(rs []schema.Range, file string) string {
	type entry struct {
		label, file string
		lines       []string
	}
	var out []*entry
	for _, r := range rs {
		if r.IsZero() {
			continue
		}
		label := ""
		var best *block
		for _, b := range s {
			if b.contains(r) && (best == nil || before(best.hdr.Start, b.hdr.Start)) {
				best = b
			}
		}
		if best != nil {
			label = best.label
		}
		where := lineOf(r, file)
		prefix, num := where, ""
		if i := strings.LastIndex(where, "line "); i >= 0 {
			prefix, num = where[:i], where[i+len("line "):]
		}
		var e *entry
		for _, x := range out {
			if x.label == label && x.file == prefix {
				e = x
			}
		}
		if e == nil {
			e = &entry{label: label, file: prefix}
			out = append(out, e)
		}
		if num != "" && !contains(e.lines, num) {
			e.lines = append(e.lines, num)
		}
	}
	if len(out) == 0 {
		return "default"
	}
	parts := make([]string, len(out))
	for i, e := range out {
		p := e.file
		if len(e.lines) > 0 {
			p += "line " + strings.Join(e.lines, ", ")
		}
		if e.label != "" {
			p = e.label + ", " + p
		}
		parts[i] = strings.TrimSpace(p)
	}
	return strings.Join(parts, "; ")
}

// lineOf is "line N", with the file's base name when it differs from
// file's, or the command-line variable that set the value.
func lineOf(r schema.Range, file string) string {
	if r.FromCommandLine() {
		return esc(r.Filename)
	}
	l := "line " + strconv.Itoa(int(r.Start.Line))
	if base := filepath.Base(r.Filename); base != filepath.Base(file) {
		l = esc(base) + " " + l
	}
	return l
}

// policyBlock is a policy's candidate block, grown over every value it sets.
func policyBlock(p *schema.QoSPolicy) *block {
	b := newBlock(ref("qos_policy", p.Name), p.Range)
	for _, r := range []schema.Range{p.ClassesRange, p.Trust.Src, p.DefaultPriority.Src, p.PFC.Src,
		p.Watchdog.Src, p.WatchdogOff.Src, p.MTU.Src, p.LinkPause.Src,
		p.Buffer.Headroom.Src, p.Buffer.XOFF.Src, p.Buffer.XON.Src, p.Buffer.IngressLosslessPool.Src,
		p.Buffer.EgressLossyPool.Src, p.Buffer.DynamicThreshold.Src} {
		b.grow(r)
	}
	for _, m := range []map[int]schema.Value[int]{p.DSCPMap, p.QueueMap, p.PCPMap} {
		for _, v := range m {
			b.grow(v.Src)
		}
	}
	for _, q := range p.Queues {
		for _, r := range []schema.Range{q.Range, q.ECN.Src, q.ECNOff.Src, q.Sched.Src, q.Weight.Src, q.Shaper.Src} {
			b.grow(r)
		}
	}
	return b
}

// classBlock is a class's candidate block.
func classBlock(c *schema.TrafficClass) *block {
	b := newBlock(ref("traffic_class", c.Name), c.Range)
	for _, r := range []schema.Range{c.RoleRange, c.DSCPRange, c.Priority.Src, c.Queue.Src, c.Lossless.Src,
		c.ECNRange, c.Sched.Src, c.Weight.Src, c.SL.Src, c.VL.Src} {
		b.grow(r)
	}
	return b
}

// portScope lists the blocks p's values can come from: its attached
// policies and their classes, its device and the port itself.
func portScope(p *schema.Port) scope {
	var s scope
	seen := map[*schema.TrafficClass]bool{}
	if p.QoS != nil {
		for _, pol := range p.QoS.Policies {
			s = append(s, policyBlock(pol))
			for _, c := range pol.Classes {
				if !seen[c] {
					seen[c] = true
					s = append(s, classBlock(c))
				}
			}
		}
		if w := p.QoS.Watchdog.V; w != nil {
			s = append(s, watchdogBlock(w))
		}
	}
	if d := p.Device; d != nil {
		s = append(s, deviceBlock(d))
	}
	pb := newBlock("port "+code(portID(p)), p.Range)
	for _, r := range []schema.Range{p.Speed.Src, p.FEC.Src, p.MTU.Src, p.IP.Src, p.Routed.Src, p.ACLInRange, p.ACLOutRange, p.CableLength.Src} {
		pb.grow(r)
	}
	return append(s, pb)
}

// watchdogBlock is a watchdog profile's candidate block.
func watchdogBlock(w *schema.Watchdog) *block {
	b := newBlock(ref("pfc_watchdog", w.Name), w.Range)
	for _, r := range []schema.Range{w.Detection.Src, w.Restoration.Src, w.PollInterval.Src, w.Action.Src} {
		b.grow(r)
	}
	return b
}

// deviceBlock is a device's candidate block.
func deviceBlock(d *schema.Device) *block {
	b := newBlock("device "+code(d.Name), d.Range)
	for _, r := range []schema.Range{d.Kind.Src, d.Platform.Src, d.MgmtAddress.Src, d.OSVersion.Src, d.Host.Src, d.ASIC.Src, d.Model.Src} {
		b.grow(r)
	}
	if d.RDMA != nil {
		b.grow(d.RDMA.Range)
		for _, r := range []schema.Range{d.RDMA.Transport.Src, d.RDMA.RoCEMode.Src, d.RDMA.PathMTU.Src, d.RDMA.CNPDSCP.Src,
			d.RDMA.CNPPriority.Src, d.RDMA.ToS.Src, d.RDMA.ECN.Src, d.RDMA.SL.Src} {
			b.grow(r)
		}
	}
	return b
}

// portID is "device:port" for a port that may lack its device.
func portID(p *schema.Port) string {
	if p.Device == nil {
		return p.Name
	}
	return p.ID()
}

// joinCapped joins at most max items with ", ", then "and N more".
func joinCapped(items []string, max int) string {
	if len(items) <= max {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:max], ", ") + " and " + strconv.Itoa(len(items)-max) + " more"
}

// ints is the numbers comma-separated.
func ints(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}
