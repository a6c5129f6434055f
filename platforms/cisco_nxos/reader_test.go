package cisconxos

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/qosread/qosreadtest"
)

func FuzzReadQoS(f *testing.F) {
	qosreadtest.Fuzz(f, read, "class-map type qos match-any X\n  match dscp 0-63\npolicy-map type qos P\n  class X\n    set qos-group 3\ninterface Ethernet1/1\n  service-policy type qos input P\n")
}
