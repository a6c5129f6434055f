package hostcheck

import (
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms/internal/lldp"
)

// LLDP is how import reads a host's LLDP neighbours: lldpd's `lldpctl -f
// json` (lldpcli(8)), the LLDP agent NVIDIA's host guides and the Linux
// distributions ship; the lab answers it from the intent's links (Exec).
func LLDP() platform.LLDP {
	return platform.LLDP{Command: lldp.Command, Parse: lldp.ParseLLDPD}
}
