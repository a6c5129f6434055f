package nvidiacumulus

import (
	"github.com/fabricgen/fabricgen/internal/platform"
)

// zeroDSCP is the seed's core switch as a Cumulus Linux hand edit: an
// NVUE ACL whose rule matches UDP 4791 and sets DSCP 0, bound inbound to
// each port. The forms are fabricgen's own Cumulus render's (fidelity.md:
// nv set acl ACL type ipv4, match ip protocol udp, match ip udp dest-port,
// action set dscp, nv set interface IF acl ACL inbound); the emulator
// applies them (nv config apply) as another administrator would.
func zeroDSCP(at platform.RoCEAt) []string {
	lines := []string{"nv set acl FG-HAND-ZERO type ipv4",
		"nv set acl FG-HAND-ZERO rule 10 match ip protocol udp",
		"nv set acl FG-HAND-ZERO rule 10 match ip udp dest-port 4791",
		"nv set acl FG-HAND-ZERO rule 10 action set dscp 0"}
	for _, port := range at.Ports {
		lines = append(lines, "nv set interface "+port+" acl FG-HAND-ZERO inbound")
	}
	return lines
}
