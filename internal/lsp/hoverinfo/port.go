package hoverinfo

import (
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/units"
	"github.com/fabricgen/fabricgen/schema"
)

// Port is the Markdown hover for one port: a header line (speed, FEC,
// addressing, its peer and link), then its effective QoS as a table, each
// value with the block and line that set it ("default" when nothing did).
// file is the file the hover is shown in: sources in it say "line N",
// others name their file too.
func Port(p *schema.Port, file string) string {
	if p == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(portHeader(p))
	b.WriteString("\n")
	if p.Description != "" {
		b.WriteString("\ndescription: " + esc(p.Description) + "\n")
	}
	if p.QoS == nil {
		b.WriteString("\nno effective QoS\n")
		return b.String()
	}
	s := portScope(p)
	if pl := policyChain(p); pl != "" {
		b.WriteString("\npolicies: " + pl + "\n")
	}
	var extra []row
	if len(p.ACLIn) > 0 {
		extra = append(extra, row{"ACL in", aclNames(p.ACLIn), s.at(p.ACLInRange, file)})
	}
	if len(p.ACLOut) > 0 {
		extra = append(extra, row{"ACL out", aclNames(p.ACLOut), s.at(p.ACLOutRange, file)})
	}
	b.WriteString("\n")
	writeTable(&b, qosRows(p.QoS, s, file, ibFabric(p)), extra)
	return b.String()
}

// portHeader is the bold port name with speed, FEC, addressing and peer.
func portHeader(p *schema.Port) string {
	var parts []string
	if p.Speed.Set || p.Speed.V > 0 {
		parts = append(parts, units.Speed(p.Speed.V))
	}
	if p.FEC.V != "" {
		parts = append(parts, esc(p.FEC.V)+" FEC")
	}
	switch {
	case p.IP.Set:
		parts = append(parts, "routed "+p.IP.V.String())
	case p.Routed.V:
		parts = append(parts, "routed (unnumbered)")
	}
	if p.Peer != nil {
		peer := "to " + code(portID(p.Peer))
		if p.Link != nil && p.Link.Name != "" {
			peer += " (link " + code(p.Link.Name) + ")"
		}
		parts = append(parts, peer)
	}
	h := "**" + code(portID(p)) + "**"
	if len(parts) > 0 {
		h += " — " + strings.Join(parts, ", ")
	}
	return h
}

// policyChain lists the attached policies, least specific first, marking
// the device's and the port's own. The loader chains fabric, role, device
// and port attachments in that order, leaving out the missing ones, so
// the port's is the last and the device's the one before it.
func policyChain(p *schema.Port) string {
	chain := p.QoS.Policies
	label := make([]string, len(chain))
	i := len(chain) - 1
	if p.Policy != nil && i >= 0 && chain[i] == p.Policy {
		label[i] = " (port)"
		i--
	}
	if p.Device != nil && p.Device.Policy != nil && i >= 0 && chain[i] == p.Device.Policy {
		label[i] = " (device)"
	}
	out := make([]string, len(chain))
	for j, pol := range chain {
		out[j] = code(pol.Name) + label[j]
	}
	return strings.Join(out, " → ")
}

// aclNames are the ACLs' names, comma-separated.
func aclNames(acls []*schema.ACL) string {
	names := make([]string, len(acls))
	for i, a := range acls {
		names[i] = code(a.Name)
	}
	return joinCapped(names, maxListed)
}

// row is one table row: what, its value, where it came from.
type row struct{ what, value, from string }

// writeTable writes rows (then extra) as a three-column Markdown table.
func writeTable(b *strings.Builder, rows, extra []row) {
	b.WriteString("| | value | from |\n|---|---|---|\n")
	for _, r := range append(rows, extra...) {
		b.WriteString("| " + r.what + " | " + r.value + " | " + r.from + " |\n")
	}
}

// effectiveClasses are the classes q's policies realise: those of the
// most specific policy that lists classes (as the loader merges them).
func effectiveClasses(q *schema.PortQoS) []*schema.TrafficClass {
	var cs []*schema.TrafficClass
	for _, pol := range q.Policies {
		if !pol.ClassesRange.IsZero() || len(pol.Classes) > 0 {
			cs = pol.Classes
		}
	}
	return cs
}

// ibFabric reports whether the port's classes are InfiniBand ones
// (identified by a service level, with no priority).
func ibFabric(p *schema.Port) bool {
	if p.QoS == nil {
		return false
	}
	for _, c := range effectiveClasses(p.QoS) {
		if c.SL.Set && !c.Priority.Set {
			return true
		}
	}
	return false
}

// qosRows are the rows of an effective QoS: Ethernet's classification,
// PFC, queues, watchdog and MTU, or InfiniBand's SL→VL per class and MTU.
func qosRows(q *schema.PortQoS, s scope, file string, ib bool) []row {
	if ib {
		return ibRows(q, s, file)
	}
	var rows []row
	trust := "—"
	if q.Trust.Set {
		trust = esc(string(q.Trust.V))
	}
	rows = append(rows, row{"trust", trust, s.from(q.Trust.Src, q.Trust.Set, file)})
	switch q.Trust.V {
	case schema.TrustNone:
		// Nothing is classified: every packet lands in the priority of
		// the code points no class names (the default priority).
		v := defaultDSCP(q)
		rows = append(rows, row{"every packet → priority", strconv.Itoa(v.V) + " (trust none)", s.from(v.Src, v.Set, file)})
	case schema.TrustPCP:
		rows = append(rows, pcpRows(q, s, file)...)
	case schema.TrustBoth:
		rows = append(rows, dscpRows(q, s, file)...)
		rows = append(rows, pcpRows(q, s, file)...)
	default:
		rows = append(rows, dscpRows(q, s, file)...)
	}
	for prio, v := range q.Queue {
		if v.V != prio || q.Lossless.Has(prio) {
			rows = append(rows, row{"priority " + strconv.Itoa(prio) + " → queue", strconv.Itoa(v.V), s.from(v.Src, v.Set, file)})
		}
	}
	pfcSrc := q.PFCSource()
	rows = append(rows, row{"lossless (PFC)", q.Lossless.String(), s.from(pfcSrc, !pfcSrc.IsZero(), file)})
	for qn := range q.Queues {
		if r, ok := queueRow(qn, &q.Queues[qn], s, file); ok {
			rows = append(rows, r)
		}
	}
	rows = append(rows, watchdogRow(q.Watchdog, s, file))
	rows = append(rows, mtuRow(q.MTU, s, file))
	if q.LinkPause.Set {
		v := "off"
		if q.LinkPause.V {
			v = "on"
		}
		rows = append(rows, row{"link pause", v, s.at(q.LinkPause.Src, file)})
	}
	if r, ok := bufferRow(q.Buffer, s, file); ok {
		rows = append(rows, r)
	}
	return rows
}

// defaultDSCP is the priority of the code points no class names.
func defaultDSCP(q *schema.PortQoS) schema.Value[int] {
	named := namedDSCPs(q)
	for ds, v := range q.DSCP {
		if !named[ds] {
			return v
		}
	}
	return schema.Value[int]{}
}

// pcpRows map PCP values to priorities where they differ from identity,
// or say the map is the identity.
func pcpRows(q *schema.PortQoS, s scope, file string) []row {
	var rows []row
	for pcp, v := range q.PCP {
		if v.V != pcp {
			rows = append(rows, row{"PCP " + strconv.Itoa(pcp) + " → priority", strconv.Itoa(v.V), s.from(v.Src, v.Set, file)})
		}
	}
	if len(rows) == 0 {
		rows = append(rows, row{"PCP → priority", "identity", "default"})
	}
	return rows
}

// namedDSCPs are the code points a class of q or a dscp_map names.
func namedDSCPs(q *schema.PortQoS) [64]bool {
	var named [64]bool
	for _, c := range effectiveClasses(q) {
		for _, ds := range c.DSCP {
			if ds >= 0 && ds < 64 {
				named[ds] = true
			}
		}
	}
	for _, pol := range q.Policies {
		for ds := range pol.DSCPMap {
			if ds >= 0 && ds < 64 {
				named[ds] = true
			}
		}
	}
	return named
}

// dscpRows map the DSCPs a class or a dscp_map names to their priority,
// one row per (priority, source) with its code points, then one row for
// every other code point.
func dscpRows(q *schema.PortQoS, s scope, file string) []row {
	named := namedDSCPs(q)
	type key struct {
		prio int
		src  schema.Range
		set  bool
	}
	var order []key
	groups := map[key][]int{}
	other := -1
	for ds, v := range q.DSCP {
		if !named[ds] {
			if other < 0 {
				other = ds
			}
			continue
		}
		k := key{v.V, v.Src, v.Set}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], ds)
	}
	var rows []row
	for i, k := range order {
		if i == maxDSCPRows {
			rows = append(rows, row{"DSCP …", strconv.Itoa(len(order)-i) + " more mappings", ""})
			break
		}
		ds := groups[k]
		label := "DSCP " + ints(ds)
		if len(ds) > 8 {
			label = "DSCP " + ints(ds[:8]) + " and " + strconv.Itoa(len(ds)-8) + " more"
		}
		rows = append(rows, row{label + " → priority", strconv.Itoa(k.prio), s.from(k.src, k.set, file)})
	}
	if other >= 0 {
		v := q.DSCP[other]
		what := "other DSCPs → priority"
		if len(order) == 0 {
			what = "every DSCP → priority"
		}
		rows = append(rows, row{what, strconv.Itoa(v.V), s.from(v.Src, v.Set, file)})
	}
	return rows
}

// queueRow is a queue's ECN and scheduling, when anything sets them.
func queueRow(qn int, qq *schema.QueueQoS, s scope, file string) (row, bool) {
	var vals []string
	var srcs []schema.Range
	if qq.ECN.Set {
		if qq.ECN.V != nil {
			vals = append(vals, "ECN "+code(qq.ECN.V.Name))
		} else {
			vals = append(vals, "ECN off")
		}
		srcs = append(srcs, qq.ECN.Src)
	}
	if qq.Sched.Set || qq.Weight.Set {
		v := esc(string(qq.Sched.V))
		if qq.Weight.Set && qq.Sched.V != schema.SchedStrict {
			v = strings.TrimSpace(v + " " + strconv.Itoa(qq.Weight.V) + " %")
		}
		vals = append(vals, v)
		if qq.Sched.Set {
			srcs = append(srcs, qq.Sched.Src)
		}
		if qq.Weight.Set {
			srcs = append(srcs, qq.Weight.Src)
		}
	}
	if qq.Shaper.Set && qq.Shaper.V > 0 {
		vals = append(vals, "shaper "+units.Speed(qq.Shaper.V))
		srcs = append(srcs, qq.Shaper.Src)
	}
	if len(vals) == 0 {
		return row{}, false
	}
	return row{"queue " + strconv.Itoa(qn), strings.Join(vals, ", "), s.many(srcs, file)}, true
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// watchdogRow is the PFC watchdog: its profile and detection time, off,
// or the default.
func watchdogRow(w schema.Value[*schema.Watchdog], s scope, file string) row {
	switch {
	case !w.Set:
		return row{"PFC watchdog", "—", "default"}
	case w.V == nil:
		return row{"PFC watchdog", "off", s.at(w.Src, file)}
	}
	v := code(w.V.Name)
	if w.V.Detection.Set {
		v += " (" + w.V.Detection.V.String() + ")"
	}
	return row{"PFC watchdog", v, s.at(w.Src, file)}
}

// mtuRow is the effective MTU.
func mtuRow(m schema.Value[int], s scope, file string) row {
	if !m.Set {
		return row{"MTU", "—", "default"}
	}
	return row{"MTU", strconv.Itoa(m.V), s.at(m.Src, file)}
}

// bufferRow lists the buffer settings a policy set, if any.
func bufferRow(bs schema.BufferSpec, s scope, file string) (row, bool) {
	var vals []string
	var srcs []schema.Range
	add := func(name string, v schema.Value[int64]) {
		if !v.Set {
			return
		}
		vals = append(vals, name+" "+units.Size(v.V))
		srcs = append(srcs, v.Src)
	}
	add("headroom", bs.Headroom)
	add("xoff", bs.XOFF)
	add("xon", bs.XON)
	add("ingress lossless pool", bs.IngressLosslessPool)
	add("egress lossy pool", bs.EgressLossyPool)
	if bs.DynamicThreshold.Set {
		vals = append(vals, "dynamic threshold "+strconv.Itoa(bs.DynamicThreshold.V))
		srcs = append(srcs, bs.DynamicThreshold.Src)
	}
	if len(vals) == 0 {
		return row{}, false
	}
	return row{"buffer", strings.Join(vals, ", "), s.many(srcs, file)}, true
}

// ibRows are an InfiniBand port's classes (SL → VL, arbitration) and MTU.
func ibRows(q *schema.PortQoS, s scope, file string) []row {
	var rows []row
	cs := effectiveClasses(q)
	for i, c := range cs {
		if i == maxListed {
			rows = append(rows, row{"class …", strconv.Itoa(len(cs)-i) + " more classes", ""})
			break
		}
		v := "SL " + strconv.Itoa(c.SL.V) + " → VL " + strconv.Itoa(c.VL.V)
		switch {
		case c.Sched.V == schema.SchedStrict:
			v += ", strict"
		case c.Weight.Set:
			v += ", weight " + strconv.Itoa(c.Weight.V) + " %"
		}
		rows = append(rows, row{"class " + code(c.Name), v, s.from(c.SL.Src, c.SL.Set, file)})
	}
	return append(rows, mtuRow(q.MTU, s, file))
}
