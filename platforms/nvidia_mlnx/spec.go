package nvidiamlnx

import (
	"github.com/fabricgen/fabricgen/platforms/internal/hostspec"
	"github.com/fabricgen/fabricgen/schema"
)

// spec is what the intent language needs of the platform: a host, with
// Linux port names and the shell's free-text rule. ConnectX HCAs run
// either link layer (a RoCE NIC on Ethernet, an HCA with IPoIB ports ib0…
// on InfiniBand).
func spec() schema.PlatformSpec {
	s := hostspec.Spec(name)
	s.LinkLayers = []schema.LinkLayer{schema.LinkEthernet, schema.LinkInfiniBand}
	return s
}
