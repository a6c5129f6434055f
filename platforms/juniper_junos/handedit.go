package juniperjunos

import (
	"github.com/fabricgen/fabricgen/internal/platform"
)

// zeroDSCP is the seed's core switch as a Junos hand edit: a DSCP rewrite
// rule that gives RoCE's forwarding class code point 000000 as it leaves,
// bound to each port's unit 0 (Junos class of service, rewrite-rules dscp:
// [edit class-of-service rewrite-rules dscp NAME forwarding-class FC
// loss-priority low code-point BITS] and [edit class-of-service interfaces
// IF unit N rewrite-rules dscp NAME], QFX from Junos 11.1). RoCE keeps its
// queue on this switch and reaches the next hop with DSCP 0.
func zeroDSCP(at platform.RoCEAt) []string {
	lines := []string{"set class-of-service rewrite-rules dscp FG-HAND-ZERO forwarding-class " + at.Class + " loss-priority low code-point 000000"}
	for _, port := range at.Ports {
		lines = append(lines, "set class-of-service interfaces "+port+" unit 0 rewrite-rules dscp FG-HAND-ZERO")
	}
	return lines
}
