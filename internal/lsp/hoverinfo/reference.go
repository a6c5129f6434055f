package hoverinfo

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fabricgen/fabricgen/internal/units"
	"github.com/fabricgen/fabricgen/schema"
)

// Reference is the hover for a reference to a named object, kind being
// qos_policy, traffic_class, ecn_profile, pfc_watchdog, acl, role, subnet
// or partition: its summary, then how far it reaches (ports and devices,
// computed in one pass over the ports; a partition lists its members).
// ok is false when no such object is declared.
func Reference(f *schema.Fabric, kind, name string) (md string, ok bool) {
	if f == nil {
		return "", false
	}
	var b strings.Builder
	b.WriteString("**" + ref(kind, name) + "**")
	switch kind {
	case "qos_policy":
		p := findPolicy(f, name)
		if p == nil {
			return "", false
		}
		b.WriteString(" — QoS policy\n\n")
		policySummary(&b, p, f.InfiniBand())
		r := reach(f, func(q *schema.PortQoS) bool { return hasPolicy(q, p) }, nil)
		b.WriteString("\n" + r.say("attached to") + "\n")
	case "traffic_class":
		c := f.Class(name)
		if c == nil {
			c = findClass(f, name)
		}
		if c == nil {
			return "", false
		}
		b.WriteString(" — traffic class\n\n")
		classSummary(&b, c, f.InfiniBand())
		r := reach(f, func(q *schema.PortQoS) bool { return hasClass(q, c) }, nil)
		b.WriteString("\n" + r.say("in the effective QoS of") + "\n")
	case "ecn_profile":
		e := findECN(f, name)
		if e == nil {
			return "", false
		}
		b.WriteString(" — ECN profile\n\n")
		ecnSummary(&b, e)
		r := reach(f, func(q *schema.PortQoS) bool { return hasECN(q, e) }, nil)
		b.WriteString("\n" + r.say("marks on a queue of") + "\n")
	case "pfc_watchdog":
		w := findWatchdog(f, name)
		if w == nil {
			return "", false
		}
		b.WriteString(" — PFC watchdog\n\n")
		watchdogSummary(&b, w)
		r := reach(f, func(q *schema.PortQoS) bool { return q.Watchdog.V == w }, nil)
		b.WriteString("\n" + r.say("watches") + "\n")
	case "acl":
		a := findACL(f, name)
		if a == nil {
			return "", false
		}
		b.WriteString(" — ACL\n\n")
		aclSummary(&b, a)
		r := reach(f, nil, func(_ *schema.Device, p *schema.Port) bool { return hasACL(p.ACLIn, a) || hasACL(p.ACLOut, a) })
		b.WriteString("\n" + r.say("bound to") + "\n")
	case "role":
		k := schema.Kind(name)
		known := false
		for _, kk := range schema.Kinds() {
			known = known || kk == k
		}
		if !known {
			return "", false
		}
		b.WriteString(" — the devices of kind " + esc(name) + "\n\n")
		if p := f.RolePolicies[k]; p != nil {
			b.WriteString("policy: " + ref("qos_policy", p.Name) + "\n\n")
		} else {
			b.WriteString("no policy attached at this role\n\n")
		}
		r := reach(f, nil, func(d *schema.Device, _ *schema.Port) bool { return d.Kind.V == k })
		b.WriteString(r.say("has") + "\n")
	case "subnet":
		s := findSubnet(f, name)
		if s == nil {
			return "", false
		}
		b.WriteString(" — subnet\n\n")
		subnetSummary(&b, s)
		r := reach(f, nil, func(_ *schema.Device, p *schema.Port) bool {
			return p.IP.Set && s.Prefix.Set && s.Prefix.V.Contains(p.IP.V.Addr())
		})
		b.WriteString("\n" + r.say("addresses") + "\n")
	case "partition":
		p := findPartition(f, name)
		if p == nil {
			return "", false
		}
		b.WriteString(" — InfiniBand partition\n\n")
		partitionSummary(&b, p)
	default:
		return "", false
	}
	return b.String(), true
}

func findPartition(f *schema.Fabric, n string) *schema.Partition {
	for _, p := range f.Partitions {
		if p.Name == n {
			return p
		}
	}
	return nil
}

// partitionSummary gives a partition's P_Key, IPoIB group and members.
func partitionSummary(b *strings.Builder, p *schema.Partition) {
	if p.PKey.Set || p.Default.V {
		bullet(b, "P_Key", fmt.Sprintf("0x%04x", p.PKey.V), p.PKey.Src)
	}
	if p.Default.V {
		bullet(b, "default", "yes", p.Default.Src)
	}
	if p.IPoIB.Set {
		bullet(b, "IPoIB", onOff(p.IPoIB.V), p.IPoIB.Src)
	}
	if p.MTU.Set {
		bullet(b, "MTU", strconv.Itoa(p.MTU.V), p.MTU.Src)
	}
	if p.SL.Set {
		bullet(b, "SL", strconv.Itoa(p.SL.V), p.SL.Src)
	}
	members := func(what string, ds []*schema.Device, r schema.Range) {
		if len(ds) == 0 {
			return
		}
		names := make([]string, len(ds))
		for i, d := range ds {
			names[i] = d.Name
		}
		bullet(b, what, strconv.Itoa(len(ds))+": "+foldNames(names, 6), r)
	}
	mem := "members"
	if p.Membership.Set {
		mem += " (" + esc(string(p.Membership.V)) + ")"
	}
	members(mem, p.Members, p.MembersRange)
	members("full members", p.FullMembers, p.FullMembersRange)
}

func findPolicy(f *schema.Fabric, n string) *schema.QoSPolicy {
	for _, p := range f.Policies {
		if p.Name == n {
			return p
		}
	}
	return nil
}

func findClass(f *schema.Fabric, n string) *schema.TrafficClass {
	for _, c := range f.Classes {
		if c.Name == n {
			return c
		}
	}
	return nil
}

func findECN(f *schema.Fabric, n string) *schema.ECNProfile {
	for _, e := range f.ECNProfiles {
		if e.Name == n {
			return e
		}
	}
	return nil
}

func findWatchdog(f *schema.Fabric, n string) *schema.Watchdog {
	for _, w := range f.Watchdogs {
		if w.Name == n {
			return w
		}
	}
	return nil
}

func findACL(f *schema.Fabric, n string) *schema.ACL {
	for _, a := range f.ACLs {
		if a.Name == n {
			return a
		}
	}
	return nil
}

func findSubnet(f *schema.Fabric, n string) *schema.Subnet {
	for _, s := range f.Subnets {
		if s.Name == n {
			return s
		}
	}
	return nil
}

func hasPolicy(q *schema.PortQoS, p *schema.QoSPolicy) bool {
	for _, x := range q.Policies {
		if x == p {
			return true
		}
	}
	return false
}

func hasClass(q *schema.PortQoS, c *schema.TrafficClass) bool {
	for _, x := range effectiveClasses(q) {
		if x == c {
			return true
		}
	}
	return false
}

func hasECN(q *schema.PortQoS, e *schema.ECNProfile) bool {
	for i := range q.Queues {
		if q.Queues[i].ECN.V == e {
			return true
		}
	}
	return false
}

func hasACL(list []*schema.ACL, a *schema.ACL) bool {
	for _, x := range list {
		if x == a {
			return true
		}
	}
	return false
}

// reachResult counts the ports and devices an object reaches, and folds
// the devices' names (fabric order) as it goes.
type reachResult struct {
	ports, devices int
	names          folder
}

// reach makes one pass over the fabric's ports: byQoS is asked once per
// distinct PortQoS (ports share them), byPort once per port.
func reach(f *schema.Fabric, byQoS func(*schema.PortQoS) bool, byPort func(*schema.Device, *schema.Port) bool) reachResult {
	var r reachResult
	memo := map[*schema.PortQoS]bool{}
	for _, d := range f.Devices {
		n := 0
		for _, p := range d.Ports {
			var hit bool
			if byQoS != nil {
				if p.QoS == nil {
					continue
				}
				v, ok := memo[p.QoS]
				if !ok {
					v = byQoS(p.QoS)
					memo[p.QoS] = v
				}
				hit = v
			} else {
				hit = byPort(d, p)
			}
			if hit {
				n++
			}
		}
		if n > 0 {
			r.ports += n
			r.devices++
			r.names.add(d.Name)
		}
	}
	return r
}

// say is "<verb> N ports on M devices (leaf1–leaf4, spine1–spine2)".
func (r reachResult) say(verb string) string {
	if r.ports == 0 {
		return verb + " no port"
	}
	s := verb + " " + plural(r.ports, "port") + " on " + plural(r.devices, "device")
	return s + " (" + strings.Join(r.names.items(6), ", ") + ")"
}

// line is " (file.fab.hcl:N)" for a set value (its file's base name and
// line), or "".
func line(r schema.Range) string {
	if r.IsZero() || r.Start.Line == 0 {
		return ""
	}
	if r.FromCommandLine() {
		return " (" + esc(r.Filename) + ")"
	}
	return " (" + esc(filepath.Base(r.Filename)) + ":" + strconv.Itoa(int(r.Start.Line)) + ")"
}

// bullet writes "- what: value (line N)".
func bullet(b *strings.Builder, what, value string, src schema.Range) {
	b.WriteString("- " + what + ": " + value + line(src) + "\n")
}

// policySummary lists what a policy sets.
func policySummary(b *strings.Builder, p *schema.QoSPolicy, ib bool) {
	if len(p.Classes) > 0 || !p.ClassesRange.IsZero() {
		names := make([]string, len(p.Classes))
		for i, c := range p.Classes {
			names[i] = code(c.Name)
		}
		bullet(b, "classes", joinCapped(names, maxListed), p.ClassesRange)
	}
	if !ib {
		if p.Trust.Set {
			bullet(b, "trust", esc(string(p.Trust.V)), p.Trust.Src)
		}
		if p.DefaultPriority.Set {
			bullet(b, "default priority", strconv.Itoa(p.DefaultPriority.V), p.DefaultPriority.Src)
		}
		if len(p.DSCPMap) > 0 {
			bullet(b, "DSCP map", mapText(p.DSCPMap, "→"), schema.Range{})
		}
		if len(p.QueueMap) > 0 {
			bullet(b, "priority → queue", mapText(p.QueueMap, "→"), schema.Range{})
		}
		if len(p.PCPMap) > 0 {
			bullet(b, "PCP map", mapText(p.PCPMap, "→"), schema.Range{})
		}
		switch {
		case p.PFC.Set:
			bullet(b, "PFC priorities", p.PFC.V.String(), p.PFC.Src)
		default:
			var ps schema.PrioSet
			for _, c := range p.Classes {
				if c.Priority.Set && c.Lossless.V {
					ps = ps.With(c.Priority.V)
				}
			}
			if ps != 0 {
				bullet(b, "PFC priorities", ps.String()+" (from the classes)", schema.Range{})
			}
		}
		switch {
		case p.WatchdogOff.V:
			bullet(b, "PFC watchdog", "off", p.WatchdogOff.Src)
		case p.Watchdog.V != nil:
			bullet(b, "PFC watchdog", code(p.Watchdog.V.Name), p.Watchdog.Src)
		}
		for qn := 0; qn < 8; qn++ {
			qs := p.Queues[qn]
			if qs == nil {
				continue
			}
			var v []string
			if qs.ECNOff.V {
				v = append(v, "ECN off")
			} else if qs.ECN.V != nil {
				v = append(v, "ECN "+code(qs.ECN.V.Name))
			}
			if qs.Sched.Set {
				v = append(v, esc(string(qs.Sched.V)))
			}
			if qs.Weight.Set {
				v = append(v, strconv.Itoa(qs.Weight.V)+" %")
			}
			if qs.Shaper.Set && qs.Shaper.V > 0 {
				v = append(v, "shaper "+units.Speed(qs.Shaper.V))
			}
			bullet(b, "queue "+strconv.Itoa(qn), strings.Join(v, ", "), qs.Range)
		}
		if p.LinkPause.Set {
			bullet(b, "link pause", onOff(p.LinkPause.V), p.LinkPause.Src)
		}
	}
	if p.MTU.Set {
		bullet(b, "MTU", strconv.Itoa(p.MTU.V), p.MTU.Src)
	}
}

// mapText is "26→3, 48→6" in key order, at most maxListed entries.
func mapText(m map[int]schema.Value[int], arrow string) string {
	var items []string
	for k := 0; k < 64; k++ {
		if v, ok := m[k]; ok {
			items = append(items, strconv.Itoa(k)+arrow+strconv.Itoa(v.V))
		}
	}
	return joinCapped(items, maxListed)
}

func onOff(v bool) string {
	if v {
		return "on"
	}
	return "off"
}

// classSummary lists a class's identity and treatment: DSCP, priority,
// queue, PFC and ECN on Ethernet; SL and VL on InfiniBand.
func classSummary(b *strings.Builder, c *schema.TrafficClass, ib bool) {
	if c.Role != "" {
		bullet(b, "role", esc(string(c.Role)), c.RoleRange)
	}
	if ib {
		if c.SL.Set {
			bullet(b, "SL", strconv.Itoa(c.SL.V), c.SL.Src)
		}
		vl := strconv.Itoa(c.VL.V)
		if !c.VL.Set {
			vl += " (its SL)"
		}
		bullet(b, "VL", vl, c.VL.Src)
	} else {
		if len(c.DSCP) > 0 {
			d := c.DSCP
			s := ints(d)
			if len(d) > 16 {
				s = ints(d[:16]) + " and " + strconv.Itoa(len(d)-16) + " more"
			}
			bullet(b, "DSCP", s, c.DSCPRange)
		}
		if c.Priority.Set {
			bullet(b, "priority", strconv.Itoa(c.Priority.V), c.Priority.Src)
		}
		if c.Queue.Set {
			bullet(b, "queue", strconv.Itoa(c.Queue.V), c.Queue.Src)
		}
		if c.Lossless.Set {
			bullet(b, "lossless", onOff(c.Lossless.V), c.Lossless.Src)
		}
		if c.ECN != nil {
			bullet(b, "ECN", code(c.ECN.Name), c.ECNRange)
		}
	}
	if c.Sched.Set {
		bullet(b, "scheduler", esc(string(c.Sched.V)), c.Sched.Src)
	}
	if c.Weight.Set {
		bullet(b, "weight", strconv.Itoa(c.Weight.V)+" %", c.Weight.Src)
	}
}

// ecnSummary gives a profile's curve and mode.
func ecnSummary(b *strings.Builder, e *schema.ECNProfile) {
	if e.Min.Set || e.Max.Set {
		bullet(b, "thresholds", units.Size(e.Min.V)+" – "+units.Size(e.Max.V), e.Min.Src)
	}
	if e.MinFill.Set || e.MaxFill.Set {
		bullet(b, "fill levels", strconv.Itoa(e.MinFill.V)+" – "+strconv.Itoa(e.MaxFill.V)+" %", e.MinFill.Src)
	}
	if e.Probability.Set {
		bullet(b, "max probability", strconv.Itoa(e.Probability.V)+" %", e.Probability.Src)
	}
	mode := "ecn (mark)"
	if e.Mark.Set && !e.Mark.V {
		mode = "drop (WRED)"
	}
	bullet(b, "mode", mode, e.Mark.Src)
}

// watchdogSummary gives detection, restoration, poll interval and action.
func watchdogSummary(b *strings.Builder, w *schema.Watchdog) {
	dur := func(what string, v schema.Value[time.Duration]) {
		if v.Set {
			bullet(b, what, v.V.String(), v.Src)
		} else {
			b.WriteString("- " + what + ": default\n")
		}
	}
	dur("detection", w.Detection)
	dur("restoration", w.Restoration)
	dur("poll interval", w.PollInterval)
	if w.Action.Set {
		bullet(b, "action", esc(string(w.Action.V)), w.Action.Src)
	} else {
		b.WriteString("- action: default\n")
	}
}

// aclSummary lists the rules, one a line, at most maxACLRules.
func aclSummary(b *strings.Builder, a *schema.ACL) {
	for i, r := range a.Rules {
		if i == maxACLRules {
			b.WriteString("- … and " + strconv.Itoa(len(a.Rules)-i) + " more rules\n")
			break
		}
		b.WriteString("- " + strconv.Itoa(r.Seq) + " " + ruleText(r) + line(r.Range) + "\n")
	}
}

// ruleText is a rule as one line: action, matches, re-marking, policer.
func ruleText(r *schema.ACLRule) string {
	parts := []string{esc(string(r.Action.V))}
	if r.Protocol.Set {
		parts = append(parts, esc(r.Protocol.V))
	}
	if r.SrcPrefix.Set {
		parts = append(parts, "from "+r.SrcPrefix.V.String())
	}
	if r.DstPrefix.Set {
		parts = append(parts, "to "+r.DstPrefix.V.String())
	}
	ports := func(what string, v schema.Value[[]schema.PortRange]) {
		if !v.Set || len(v.V) == 0 {
			return
		}
		var s []string
		for i, pr := range v.V {
			if i == 4 {
				s = append(s, "…")
				break
			}
			if pr.From == pr.To {
				s = append(s, strconv.Itoa(pr.From))
			} else {
				s = append(s, strconv.Itoa(pr.From)+"–"+strconv.Itoa(pr.To))
			}
		}
		parts = append(parts, what+" "+strings.Join(s, ","))
	}
	ports("src port", r.SrcPorts)
	ports("dst port", r.DstPorts)
	if r.DSCP.Set && len(r.DSCP.V) > 0 {
		d := r.DSCP.V
		if len(d) > 8 {
			parts = append(parts, "dscp "+ints(d[:8])+" …")
		} else {
			parts = append(parts, "dscp "+ints(d))
		}
	}
	if r.SetDSCP.Set && r.SetDSCP.V >= 0 {
		parts = append(parts, "set dscp "+strconv.Itoa(r.SetDSCP.V))
	}
	if r.Police.Set && r.Police.V > 0 {
		parts = append(parts, "police "+units.Speed(r.Police.V))
	}
	return strings.Join(parts, " ")
}

// subnetSummary gives a subnet's prefix, gateway and ACL requirement.
func subnetSummary(b *strings.Builder, s *schema.Subnet) {
	if s.Prefix.Set {
		bullet(b, "prefix", s.Prefix.V.String(), s.Prefix.Src)
	}
	if s.Gateway != nil {
		b.WriteString("- gateway: " + code(s.Gateway.Name) + "\n")
	}
	if s.RequireRoCEACL.Set {
		bullet(b, "require RoCE ACL", onOff(s.RequireRoCEACL.V), s.RequireRoCEACL.Src)
	}
}
