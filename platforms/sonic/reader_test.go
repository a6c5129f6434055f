package sonic

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/qosread/qosreadtest"
)

func FuzzReadQoS(f *testing.F) {
	qosreadtest.Fuzz(f, read, `{"DSCP_TO_TC_MAP":{"M":{"26":"3"}},"PORT_QOS_MAP":{"Ethernet0":{"dscp_to_tc_map":"M","pfc_enable":"3"}}}`)
}
