package sonic

import (
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/platform"
)

// zeroDSCP is the seed's core switch as a SONiC hand edit: a
// TC_TO_DSCP_MAP that gives RoCE's traffic class DSCP 0, bound to each
// port as its PORT_QOS_MAP tc_to_dscp_map (orchagent's qosorch programs
// it as SAI_PORT_ATTR_QOS_TC_AND_COLOR_TO_DSCP_MAP, an egress rewrite),
// as one JSON Patch (RFC 6902) of CONFIG_DB, the form `config
// apply-patch` takes. The patch adds the TC_TO_DSCP_MAP table whole
// (fabricgen renders none; a JSON Patch cannot add a member to a table
// that is not there). RoCE keeps its queue on this switch and reaches
// the next hop with DSCP 0.
func zeroDSCP(at platform.RoCEAt) []string {
	ops := []string{`{"op": "add", "path": "/TC_TO_DSCP_MAP", "value": {"FG_HAND_ZERO": {` + strconv.Quote(strconv.Itoa(at.Priority)) + `: "0"}}}`}
	for _, port := range at.Ports {
		ops = append(ops, `{"op": "add", "path": `+strconv.Quote("/PORT_QOS_MAP/"+port+"/tc_to_dscp_map")+`, "value": "FG_HAND_ZERO"}`)
	}
	return []string{"[" + strings.Join(ops, ", ") + "]"}
}
