package cisconxos

import (
	"fmt"

	"github.com/fabricgen/fabricgen/internal/platform"
)

// zeroDSCP is the seed's core switch as an NX-OS hand edit: an
// ACL-matched class (UDP 4791) in a type qos policy-map that sets DSCP 0
// and keeps RoCE in its qos-group (its queue) on this switch, applied per
// interface as the input qos policy (it replaces fabricgen's). The forms
// are fabricgen's own NX-OS render's (fidelity.md: class-map type qos,
// match access-group name, set dscp, set qos-group, service-policy type
// qos input).
func zeroDSCP(at platform.RoCEAt) []string {
	lines := []string{"ip access-list FG-HAND-ROCE", "  10 permit udp any any eq 4791",
		"class-map type qos match-any FG-HAND-ROCE", "  match access-group name FG-HAND-ROCE",
		"policy-map type qos FG-HAND-ZERO", "  class FG-HAND-ROCE", "    set dscp 0", fmt.Sprintf("    set qos-group %d", at.Queue)}
	for _, port := range at.Ports {
		lines = append(lines, "interface "+port, "  service-policy type qos input FG-HAND-ZERO")
	}
	return lines
}
