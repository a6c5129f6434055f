package templates

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// seconds formats milliseconds as decimal seconds with at most decimals
// fractional digits ("0.2", "1", "0.05"); ok is false when that loses precision.
func seconds(msec int64, decimals int) (string, bool) {
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

// singlePort returns the one L4 port range of a match, and whether there is at most one.
func singlePort(rs []PortRangeView) (PortRangeView, bool, bool) {
	switch len(rs) {
	case 0:
		return PortRangeView{}, false, true
	case 1:
		return rs[0], true, true
	}
	return PortRangeView{}, false, false
}

// ruleSrc finds the source range of an ACL rule by sequence number.
func ruleSrc(f *schema.Fabric, acl string, seq int) schema.Range {
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

// portQoS returns the QoS of the named port of d, or nil.
func portQoS(d *schema.Device, name string) *schema.PortQoS {
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

// bufferSrc is the range of the first buffer value that is set.
func bufferSrc(q *schema.PortQoS) schema.Range {
	b := q.Buffer
	for _, r := range []schema.Range{b.Headroom.Src, b.XOFF.Src, b.XON.Src, b.IngressLosslessPool.Src, b.EgressLossyPool.Src, b.DynamicThreshold.Src} {
		if !r.IsZero() {
			return r
		}
	}
	return schema.Range{}
}

// rejectBuffers fails when the device sets buffer values a platform has no
// syntax for: one refusal per value, at the line that sets it.
func rejectBuffers(d *schema.Device, b Base, reason string) error {
	bv := b.QoS.Buffer
	var sb schema.BufferSpec
	if q := firstQoS(d); q != nil {
		sb = q.Buffer
	}
	var rej refusals
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
			rej.add(unsupported(d, v.what, reason, v.src))
		}
	}
	return rej.err()
}

// Queue attributes, for queueSrc.
func qShaper(q *schema.QueueQoS) schema.Range { return q.Shaper.Src }
func qWeight(q *schema.QueueQoS) schema.Range { return q.Weight.Src }
func qECN(q *schema.QueueQoS) schema.Range    { return q.ECN.Src }

// queueSrc is where the attribute attr of queue q was set, on the device's
// first port that has one: the line a refusal of that value points at.
func queueSrc(d *schema.Device, q int, attr func(*schema.QueueQoS) schema.Range) schema.Range {
	for _, p := range d.Ports {
		if p.QoS != nil {
			if r := attr(&p.QoS.Queues[q]); !r.IsZero() {
				return r
			}
		}
	}
	return schema.Range{}
}

// firstQoS returns the QoS of the device's first port that has one.
func firstQoS(d *schema.Device) *schema.PortQoS {
	for _, p := range d.Ports {
		if p.QoS != nil {
			return p.QoS
		}
	}
	return nil
}

// classNames names each priority after the first traffic class (by name)
// that uses it, or "prio<N>" when no class does.
func classNames(f *schema.Fabric) [8]string {
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

func sortStrings(s []string) { sort.Strings(s) }

// oneMatch checks that an ACL rule fits one access-list entry of an IOS-like
// syntax (EOS, NX-OS): at most one L4 port or range per side and at most
// one DSCP value. It returns the ports (nil: any) and the DSCP (-1: any);
// entry names the platform's entry in the error ("an EOS access-list entry").
func oneMatch(f *schema.Fabric, d *schema.Device, acl string, r RuleView, entry string) (src, dst *PortRangeView, dscp int, err error) {
	where := ruleSrc(f, acl, r.Seq)
	for _, side := range []struct {
		rs   []PortRangeView
		what string
		out  **PortRangeView
	}{{r.SrcPorts, "source", &src}, {r.DstPorts, "destination", &dst}} {
		p, has, ok := singlePort(side.rs)
		if !ok {
			return nil, nil, -1, unsupported(d, fmt.Sprintf("acl %s rule %d with %d %s port ranges", acl, r.Seq, len(side.rs), side.what),
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
	return nil, nil, -1, unsupported(d, fmt.Sprintf("acl %s rule %d matching %d DSCP values", acl, r.Seq, len(r.DSCP)),
		entry+" matches one DSCP value; split the rule", where)
}

// subjectOrRange is r, or fallback when r is zero.
func subjectOrRange(r, fallback schema.Range) schema.Range {
	if r.IsZero() {
		return fallback
	}
	return r
}

// firstSchedSrc is where the first queue's scheduler was set.
func firstSchedSrc(q *schema.PortQoS) schema.Range {
	for _, qq := range q.Queues {
		if !qq.Sched.Src.IsZero() {
			return qq.Sched.Src
		}
	}
	return schema.Range{}
}
