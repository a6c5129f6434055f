package nvidiacumulus

import (
	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms/internal/lldp"
)

// lldpCommand reads the switch's LLDP neighbours from lldpd, which
// Cumulus Linux 5.x runs for LLDP (Cumulus Linux 5.x User Guide, "Link
// Layer Discovery Protocol": "The lldpd daemon implements the IEEE802.1AB
// LLDP standard", with `sudo lldpctl` / lldpcli(8) as its Linux commands).
// NVUE's `nv show interface lldp` documents only a table, not a JSON
// shape, while lldpd's `-f json` shape is lldpd's own (parsed in
// platforms/internal/lldp), so import reads lldpd directly.
const lldpCommand = "sudo " + lldp.Command

func lldpRead() platform.LLDP { return platform.LLDP{Command: lldpCommand, Parse: lldp.ParseLLDPD} }

// answerLLDP answers lldpctl -f json (sudo is the shell's) from the
// intent's links.
func answerLLDP(v *dataplane.DeviceView, argv []string) (string, string, int, bool) {
	return lldp.ExecLLDPD(v, argv)
}
