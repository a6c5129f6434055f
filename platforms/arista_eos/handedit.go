package aristaeos

import (
	"fmt"

	"github.com/fabricgen/fabricgen/internal/platform"
)

// zeroDSCP is the seed's core switch as an EOS hand edit: an ACL-matched
// class (UDP 4791) in a QoS policy-map that sets DSCP 0 and keeps RoCE in
// its traffic class on this switch, applied per interface as the input
// QoS policy (it replaces fabricgen's). The forms are fabricgen's own EOS
// render's (fidelity.md: policy-map type quality-of-service, set dscp,
// set traffic-class, service-policy type qos input).
func zeroDSCP(at platform.RoCEAt) []string {
	lines := []string{"ip access-list FG-HAND-ROCE", "   10 permit udp any any eq 4791",
		"class-map type qos match-any FG-HAND-ROCE", "   match ip access-group FG-HAND-ROCE",
		"policy-map type quality-of-service FG-HAND-ZERO", "   class FG-HAND-ROCE", "      set dscp 0", fmt.Sprintf("      set traffic-class %d", at.Priority)}
	for _, port := range at.Ports {
		lines = append(lines, "interface "+port, "   service-policy type qos input FG-HAND-ZERO")
	}
	return lines
}
