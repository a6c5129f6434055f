package nvidiacumulus

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/qosread/qosreadtest"
)

func FuzzReadQoS(f *testing.F) {
	qosreadtest.Fuzz(f, read, "nv set qos mapping default-global dscp 26 switch-priority 3\nnv set acl a rule 1 action set dscp 46\n")
}
