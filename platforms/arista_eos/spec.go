package aristaeos

import (
	"regexp"

	"github.com/fabricgen/fabricgen/schema"
)

// releaseRe is the EOS release syntax: MAJOR.MINOR[.PATCH][.N][TRAIN].
var releaseRe = regexp.MustCompile(`^(\d{1,2})\.(\d{1,3})(?:\.(\d{1,3}))?(?:\.(\d{1,3}))?([A-Z]{1,2})?$`)

// spec is what the intent language needs of the platform. Port names
// follow the running configuration: "Ethernet1", "Ethernet49/1".
func spec() schema.PlatformSpec {
	return schema.PlatformSpec{
		Name: name,
		Ports: schema.PortNaming{
			Check: func(s string) bool { return schema.SlashNumbers(s, "Ethernet", 1, 3) },
			Form:  `EthernetN, EthernetN/M or EthernetN/M/K (e.g. "Ethernet1", "Ethernet49/1")`,
		},
		Text: schema.TextRule{Refuse: schema.CLIRefuse, Why: schema.CLIWhy},
		Release: &schema.ReleaseForm{Re: releaseRe, Groups: []int{1, 2, 3, 4},
			Form: "MAJOR.MINOR[.PATCH][TRAIN]", Example: `"4.30.1F"`, Default: "4.30.0F"},
	}
}
