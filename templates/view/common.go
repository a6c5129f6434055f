package view

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/schema"
)

// Seconds formats milliseconds as decimal seconds with at most decimals
// fractional digits ("0.2", "1", "0.05"); ok is false when that loses precision.
func Seconds(msec int64, decimals int) (string, bool) {
	scale := int64(1000)
	for i := 0; i < decimals; i++ {
		scale /= 10
	}
	if scale > 1 && msec%scale != 0 {
		return "", false
	}
	s := strconv.FormatFloat(float64(msec)/1000, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s, true
}

// SinglePort returns the one L4 port range of a match, and whether there is at most one.
func SinglePort(rs []PortRangeView) (PortRangeView, bool, bool) {
	switch len(rs) {
	case 0:
		return PortRangeView{}, false, true
	case 1:
		return rs[0], true, true
	}
	return PortRangeView{}, false, false
}

// RuleSrc finds the source range of an ACL rule by sequence number.
func RuleSrc(f *schema.Fabric, acl string, seq int) schema.Range {
	for _, a := range f.ACLs {
		if a.Name != acl {
			continue
		}
		for _, r := range a.Rules {
			if r.Seq == seq {
				return r.Range
			}
		}
	}
	return schema.Range{}
}

// PortQoSOf returns the QoS of the named port of d, or nil.
func PortQoSOf(d *schema.Device, name string) *schema.PortQoS {
	if p := d.Port(name); p != nil {
		return p.QoS
	}
	for _, p := range d.Ports {
		if p.Name == name {
			return p.QoS
		}
	}
	return nil
}

// WatchdogSrc is where the port's watchdog field was set, else where the
// watchdog was attached.
func WatchdogSrc(q *schema.PortQoS, field func(*schema.Watchdog) schema.Range) schema.Range {
	if w := q.Watchdog.V; w != nil {
		if r := field(w); !r.IsZero() {
			return r
		}
	}
	return q.Watchdog.Src
}

// WDDetection is where a watchdog profile sets detection (WDDetection,
// WDRestoration, WDPoll and WDAction are the fields WatchdogSrc and
// WatchdogRefusal take).
func WDDetection(w *schema.Watchdog) schema.Range { return w.Detection.Src }

// WDRestoration is where a watchdog profile sets restoration.
func WDRestoration(w *schema.Watchdog) schema.Range { return w.Restoration.Src }

// WDPoll is where a watchdog profile sets poll_interval.
func WDPoll(w *schema.Watchdog) schema.Range { return w.PollInterval.Src }

// WDAction is where a watchdog profile sets action.
func WDAction(w *schema.Watchdog) schema.Range { return w.Action.Src }

// WatchdogRefusal is the refusal of one value of the PFC watchdog profile
// q's port gets (value, for reason): at the profile's line that sets the
// value (field), the line an operator changes, with the pfc_watchdog
// attachment that brings the profile to the device as related; at the
// attachment when the profile leaves the value at its default. Each
// further field (poll_interval for a detection counted in polls) the
// refusal depends on and the profile sets is related too.
func WatchdogRefusal(d *schema.Device, q *schema.PortQoS, value, reason string, field func(*schema.Watchdog) schema.Range, also ...func(*schema.Watchdog) schema.Range) *UnsupportedError {
	if q == nil {
		return Unsupported(d, value, reason, d.Range)
	}
	ue := Unsupported(d, value, reason, WatchdogSrc(q, field))
	w := q.Watchdog.V
	if w == nil {
		return ue
	}
	for _, f := range also {
		if r := f(w); !r.IsZero() && r != ue.Src {
			ue.Related = append(ue.Related, diag.Related{Range: r, Message: "pfc_watchdog " + w.Name + " sets the value this one is checked against"})
		}
	}
	if at := q.Watchdog.Src; !at.IsZero() && at != ue.Src {
		ue.Related = append(ue.Related, diag.Related{Range: at, Message: "pfc_watchdog " + w.Name + " attached here"})
	}
	return ue
}

// ECNMin is where an ecn_profile sets min_threshold (ECNMin, ECNMax and
// ECNProbability are the fields ECNSrc takes).
func ECNMin(e *schema.ECNProfile) schema.Range { return e.Min.Src }

// ECNMax is where an ecn_profile sets max_threshold.
func ECNMax(e *schema.ECNProfile) schema.Range { return e.Max.Src }

// ECNProbability is where an ecn_profile sets max_probability.
func ECNProbability(e *schema.ECNProfile) schema.Range { return e.Probability.Src }

// ECNSrc is where the ecn_profile of queue qid sets field, on the device's
// first port whose queue has a profile: the line a refusal of that value
// points at. Without one (the value is the profile's default), it is where
// the profile was put on the queue (QueueSrc's QECN).
func ECNSrc(d *schema.Device, qid int, field func(*schema.ECNProfile) schema.Range) schema.Range {
	if qid < 0 || qid > 7 {
		return schema.Range{}
	}
	for _, p := range d.Ports {
		if p.QoS == nil {
			continue
		}
		if e := p.QoS.Queues[qid].ECN.V; e != nil {
			if r := field(e); !r.IsZero() {
				return r
			}
			break
		}
	}
	return QueueSrc(d, qid, QECN)
}

// QueueWeightSrc is where queue qid's DWRR weight was set; for a weight
// left unset (0 on a DWRR queue), where the queue's scheduler was set:
// the value that made the queue weighted without a weight.
func QueueWeightSrc(d *schema.Device, qid int) schema.Range {
	if r := QueueSrc(d, qid, QWeight); !r.IsZero() {
		return r
	}
	return QueueSrc(d, qid, QSched)
}

// BufferSrc is the range of the first buffer value that is set.
func BufferSrc(q *schema.PortQoS) schema.Range {
	b := q.Buffer
	for _, r := range []schema.Range{b.Headroom.Src, b.XOFF.Src, b.XON.Src, b.IngressLosslessPool.Src, b.EgressLossyPool.Src, b.DynamicThreshold.Src} {
		if !r.IsZero() {
			return r
		}
	}
	return schema.Range{}
}

// RejectBuffers fails when the device sets buffer values a platform has no
// syntax for: one refusal per value, at the line that sets it.
func RejectBuffers(d *schema.Device, b Base, reason string) error {
	bv := b.QoS.Buffer
	var sb schema.BufferSpec
	if q := FirstQoS(d); q != nil {
		sb = q.Buffer
	}
	var rej Collector
	for _, v := range []struct {
		set  bool
		what string
		src  schema.Range
	}{
		{bv.HeadroomBytes != 0, "buffer.headroom " + strconv.FormatInt(bv.HeadroomBytes, 10) + " B", sb.Headroom.Src},
		{bv.XOFFBytes != 0, "buffer.xoff " + strconv.FormatInt(bv.XOFFBytes, 10) + " B", sb.XOFF.Src},
		{bv.XONBytes != 0, "buffer.xon " + strconv.FormatInt(bv.XONBytes, 10) + " B", sb.XON.Src},
		{bv.IngressLosslessPoolBytes != 0, "buffer.ingress_lossless_pool " + strconv.FormatInt(bv.IngressLosslessPoolBytes, 10) + " B", sb.IngressLosslessPool.Src},
		{bv.EgressLossyPoolBytes != 0, "buffer.egress_lossy_pool " + strconv.FormatInt(bv.EgressLossyPoolBytes, 10) + " B", sb.EgressLossyPool.Src},
		{bv.DynamicThresholdSet, "buffer.dynamic_threshold " + strconv.Itoa(bv.DynamicThreshold), sb.DynamicThreshold.Src},
	} {
		if v.set {
			rej.Add(Unsupported(d, v.what, reason, v.src))
		}
	}
	return rej.Err()
}

// QShaper is where a queue's shaper was set (QShaper, QWeight and QECN
// are the queue attributes QueueSrc takes).
func QShaper(q *schema.QueueQoS) schema.Range { return q.Shaper.Src }

// QWeight is where a queue's weight was set.
func QWeight(q *schema.QueueQoS) schema.Range { return q.Weight.Src }

// QECN is where a queue's ECN profile was set.
func QECN(q *schema.QueueQoS) schema.Range { return q.ECN.Src }

// QSched is where a queue's scheduler was set.
func QSched(q *schema.QueueQoS) schema.Range { return q.Sched.Src }

// QueueSrc is where the attribute attr of queue q was set, on the device's
// first port that has one: the line a refusal of that value points at.
func QueueSrc(d *schema.Device, q int, attr func(*schema.QueueQoS) schema.Range) schema.Range {
	for _, p := range d.Ports {
		if p.QoS != nil {
			if r := attr(&p.QoS.Queues[q]); !r.IsZero() {
				return r
			}
		}
	}
	return schema.Range{}
}

// FirstQoS returns the QoS of the device's first port that has one.
func FirstQoS(d *schema.Device) *schema.PortQoS {
	for _, p := range d.Ports {
		if p.QoS != nil {
			return p.QoS
		}
	}
	return nil
}

// ClassNames names each priority after the first traffic class (by name)
// that uses it, or "prio<N>" when no class does.
func ClassNames(f *schema.Fabric) [8]string {
	var out [8]string
	for _, c := range f.Classes {
		p := c.Priority.V
		if p >= 0 && p < 8 && out[p] == "" {
			out[p] = c.Name
		}
	}
	for p := range out {
		if out[p] == "" {
			out[p] = "prio" + strconv.Itoa(p)
		}
	}
	return out
}

// SortStrings sorts s in place.
func SortStrings(s []string) { sort.Strings(s) }

// OneMatch checks that an ACL rule fits one access-list entry of an IOS-like
// syntax (EOS, NX-OS): at most one L4 port or range per side and at most
// one DSCP value. It returns the ports (nil: any) and the DSCP (-1: any);
// entry names the platform's entry in the error ("an EOS access-list entry").
func OneMatch(f *schema.Fabric, d *schema.Device, acl string, r RuleView, entry string) (src, dst *PortRangeView, dscp int, err error) {
	where := RuleSrc(f, acl, r.Seq)
	for _, side := range []struct {
		rs   []PortRangeView
		what string
		out  **PortRangeView
	}{{r.SrcPorts, "source", &src}, {r.DstPorts, "destination", &dst}} {
		p, has, ok := SinglePort(side.rs)
		if !ok {
			return nil, nil, -1, Unsupported(d, fmt.Sprintf("acl %s rule %d with %d %s port ranges", acl, r.Seq, len(side.rs), side.what),
				entry+" matches one port or one range; split the rule", where)
		}
		if has {
			*side.out = &p
		}
	}
	switch len(r.DSCP) {
	case 0:
		return src, dst, -1, nil
	case 1:
		return src, dst, r.DSCP[0], nil
	}
	return nil, nil, -1, Unsupported(d, fmt.Sprintf("acl %s rule %d matching %d DSCP values", acl, r.Seq, len(r.DSCP)),
		entry+" matches one DSCP value; split the rule", where)
}

// SubjectOrRange is r, or fallback when r is zero.
func SubjectOrRange(r, fallback schema.Range) schema.Range {
	if r.IsZero() {
		return fallback
	}
	return r
}

// FirstSchedSrc is where the first queue's scheduler was set.
func FirstSchedSrc(q *schema.PortQoS) schema.Range {
	for _, qq := range q.Queues {
		if !qq.Sched.Src.IsZero() {
			return qq.Sched.Src
		}
	}
	return schema.Range{}
}

// RuleInFamily reports whether rule r belongs in an access list of family
// fam ("ipv4" or "ipv6"): a rule of family "any" belongs in both.
func RuleInFamily(r RuleView, fam string) bool {
	return r.Family == fam || (r.Family == "any" && fam == "ipv4") || (r.Family == "any" && fam == "ipv6")
}

// AnyOr is prefix, or "any" when the rule leaves it unset.
func AnyOr(prefix string) string {
	if prefix == "" {
		return "any"
	}
	return prefix
}

// PortACLSrc is where port's ACL binding of direction dir ("in", "out")
// was set.
func PortACLSrc(d *schema.Device, port, dir string) schema.Range {
	for _, p := range d.Ports {
		if p.Name == port {
			if dir == "out" {
				return p.ACLOutRange
			}
			return p.ACLInRange
		}
	}
	return schema.Range{}
}
