package schema

import (
	"fmt"
	"sort"
	"strconv"
)

// Object names reach configurations inside longer names: on NX-OS a
// traffic class becomes class-map "FG-DSCP-<class>", an ACL that
// re-marks DSCP a policy-map "FABRICGEN-IN-<acl>" and class-maps
// "<acl>-<seq>". The common rule (MaxObjectNameLen) is not enough where
// the platform's limit is shorter than the rendered name, so those names
// are checked at load against the platform that renders them: each
// platform's spec lists its NameLimits (the forms must match its
// renderer; the folder's tests render names at these limits).

// checkRenderedNames refuses names that the platforms of the fabric's
// devices would render longer than they accept, at the object's
// declaration: per platform with name limits (catalog order), the
// fabric's classes on its first device, and each ACL on the first of its
// devices the ACL is attached to.
func (r *resolver) checkRenderedNames() {
	for _, spec := range r.platforms.specs {
		if len(spec.NameLimits) > 0 {
			r.checkPlatformNames(spec)
		}
	}
}

func (r *resolver) checkPlatformNames(spec PlatformSpec) {
	var first *Device
	acls := map[*ACL]*Device{} // ACL → the first device of the platform it is attached to
	for _, d := range r.f.Devices {
		if d.Platform.V != spec.Name {
			continue
		}
		if first == nil {
			first = d
		}
		for _, p := range d.Ports {
			for _, list := range [][]*ACL{p.ACLIn, p.ACLOut} {
				for _, a := range list {
					if _, seen := acls[a]; !seen {
						acls[a] = d
					}
				}
			}
		}
	}
	if first == nil {
		return
	}
	for _, c := range r.f.Classes {
		for _, l := range spec.NameLimits {
			if l.Object == NameOfClass {
				r.checkRendered(c.Range, NameOfClass, c.Name, first, l, -1)
			}
		}
	}
	sorted := make([]*ACL, 0, len(acls))
	for a := range acls {
		sorted = append(sorted, a)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	for _, a := range sorted {
		seq := remarkSeq(a)
		for _, l := range spec.NameLimits {
			if l.Object != NameOfACL || (l.Remarking && seq < 0) {
				continue
			}
			r.checkRendered(a.Range, NameOfACL, a.Name, acls[a], l, seq)
		}
	}
}

// remarkSeq is the largest sequence number of the rules an ACL's
// re-marking renders as classes (every permit rule up to the last one
// that sets DSCP), or -1 when it re-marks nothing.
func remarkSeq(a *ACL) int {
	last := -1
	for i, rule := range a.Rules {
		if rule.SetDSCP.Set && rule.SetDSCP.V >= 0 && rule.Action.V == ActionPermit {
			last = i
		}
	}
	seq := -1
	for _, rule := range a.Rules[:last+1] {
		if rule.Action.V == ActionPermit {
			seq = max(seq, rule.Seq)
		}
	}
	return seq
}

// checkRendered reports the object kind/name declared at rng when it
// renders on d (under limit l, seq the ACL's re-marking sequence) longer
// than the limit.
func (r *resolver) checkRendered(rng Range, kind, name string, d *Device, l NameLimit, seq int) {
	rendered, extra := l.Prefix+name, len(l.Prefix)
	if l.SeqSuffix {
		suffix := "-" + strconv.Itoa(seq)
		rendered, extra = rendered+suffix, extra+len(suffix)
	}
	if len(rendered) <= l.Max {
		return
	}
	r.d.add(&Diagnostic{Severity: SevError, Summary: "Name too long for the platform", Subject: &rng,
		Detail: fmt.Sprintf("%s %q renders on %s (device %s) as %s %q, %d characters; %s allows %s names of at most %d. Shorten the name to at most %d characters.",
			kind, name, d.Platform.V, d.Name, l.What, rendered, len(rendered), d.Platform.V, l.What, l.Max, l.Max-extra)})
}
