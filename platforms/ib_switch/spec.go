package ibswitch

import (
	"strconv"

	"github.com/fabricgen/fabricgen/schema"
)

// MaxPort is the highest port number of a switch: port numbers are one
// byte in the IBTA's SMP attributes and 255 is reserved, port 0 being the
// switch's management port (IBTA Vol. 1, 14.2.5: PortInfo, "Port number";
// NVIDIA Quantum-2 switches number their external ports 1–64 or 1–129).
const MaxPort = 254

// spec is what the intent language needs of the platform: a switch the
// subnet manager manages, on InfiniBand fabrics only, whose ports are
// named by their number.
func spec() schema.PlatformSpec {
	return schema.PlatformSpec{
		Name:       name,
		Managed:    true,
		LinkLayers: []schema.LinkLayer{schema.LinkInfiniBand},
		Ports:      schema.PortNaming{Check: portNumber, Form: "a port number, 1 to 254 (\"1\", \"17\"), as ibnetdiscover and the subnet manager name switch ports"},
		Text:       schema.TextRule{Why: "nothing is rendered for an InfiniBand switch (the subnet manager configures it), so no character is refused beyond the common rule"},
	}
}

// portNumber reports whether s is a switch port number as written: 1–254,
// decimal, with no sign or leading zero.
func portNumber(s string) bool {
	if s == "" || s[0] == '0' || len(s) > 3 {
		return false
	}
	n, err := strconv.Atoi(s)
	return err == nil && n >= 1 && n <= MaxPort && strconv.Itoa(n) == s
}
