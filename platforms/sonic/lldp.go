package sonic

import (
	"strings"

	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms/internal/lldp"
)

// lldpCommand reads the switch's LLDP neighbours from lldpd in SONiC's lldp
// container (SONiC's LLDP is lldpd in the "lldp" docker, configured by
// lldpmgrd; sonic-utilities' `show lldp neighbors` and `show lldp table`
// run lldpctl in that container). The JSON form is lldpd's own (parsed in
// platforms/internal/lldp), where `show lldp table` is a text table.
// A SONiC neighbour sends its port alias as a locally assigned port ID
// and its description as the port description.
const lldpCommand = "docker exec lldp " + lldp.Command

func lldpRead() platform.LLDP { return platform.LLDP{Command: lldpCommand, Parse: lldp.ParseLLDPD} }

// answerLLDP answers lldpCommand from the intent's links.
func answerLLDP(v *dataplane.DeviceView, argv []string) (string, string, int, bool) {
	if len(argv) < 3 || strings.Join(argv[:3], " ") != "docker exec lldp" {
		return "", "", 0, false
	}
	return lldp.ExecLLDPD(v, argv[3:])
}
