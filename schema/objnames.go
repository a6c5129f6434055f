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
// are checked at load against the platform that renders them. The forms
// below must match the renderers (platforms/cisco_nxos/view.go, templates/view/view.go); a test in
// templates renders names at these limits and checks what comes out.

// NX-OS name limits, from the CLI's own help (recorded in Batfish's
// NX-OS grammar, CiscoNxos_common.g4): class-map and policy-map names of
// type qos, queuing and network-qos are 1–40 characters, IP access-list
// names 1–64.
const (
	NXOSClassMapNameLen  = 40
	NXOSPolicyMapNameLen = 40
	NXOSACLNameLen       = 64
)

// Prefixes the NX-OS renderer puts before intent names.
const (
	nxosClassPrefix     = "FG-DSCP-" // the longest of FG-DSCP- and FG-COS-
	nxosACLPolicyPrefix = "FABRICGEN-IN-"
)

// checkRenderedNames refuses names that the platforms of the fabric's
// devices would render longer than they accept, at the object's
// declaration.
func (r *resolver) checkRenderedNames() {
	var nxos *Device
	acls := map[*ACL]*Device{} // ACL → the first NX-OS device it is attached to
	for _, d := range r.f.Devices {
		if d.Platform.V != CiscoNXOS {
			continue
		}
		if nxos == nil {
			nxos = d
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
	if nxos == nil {
		return
	}
	for _, c := range r.f.Classes {
		r.checkRendered(c.Range, "traffic_class", c.Name, nxos, "class-map", nxosClassPrefix+c.Name, NXOSClassMapNameLen, len(nxosClassPrefix))
	}
	sorted := make([]*ACL, 0, len(acls))
	for a := range acls {
		sorted = append(sorted, a)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	for _, a := range sorted {
		d := acls[a]
		r.checkRendered(a.Range, "acl", a.Name, d, "access-list", a.Name, NXOSACLNameLen, 0)
		seq := remarkSeq(a)
		if seq < 0 {
			continue
		}
		r.checkRendered(a.Range, "acl", a.Name, d, "policy-map", nxosACLPolicyPrefix+a.Name, NXOSPolicyMapNameLen, len(nxosACLPolicyPrefix))
		suffix := "-" + strconv.Itoa(seq)
		r.checkRendered(a.Range, "acl", a.Name, d, "class-map", a.Name+suffix, NXOSClassMapNameLen, len(suffix))
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
// renders on d as a what named rendered, longer than limit; extra is
// what the renderer adds to the name.
func (r *resolver) checkRendered(rng Range, kind, name string, d *Device, what, rendered string, limit, extra int) {
	if len(rendered) <= limit {
		return
	}
	r.d.add(&Diagnostic{Severity: SevError, Summary: "Name too long for the platform", Subject: &rng,
		Detail: fmt.Sprintf("%s %q renders on %s (device %s) as %s %q, %d characters; %s allows %s names of at most %d. Shorten the name to at most %d characters.",
			kind, name, d.Platform.V, d.Name, what, rendered, len(rendered), d.Platform.V, what, limit, limit-extra)})
}
