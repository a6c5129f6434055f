package sonic

import (
	"regexp"

	"github.com/fabricgen/fabricgen/schema"
)

// ASICs are the SONiC ASIC families (the asic_type SONiC's own templates
// branch on), in the order the documentation lists them.
var ASICs = []string{"mellanox", "broadcom", "barefoot", "marvell", "cisco-8000"}

// releaseRe is the SONiC release syntax: YYYYMM[.N], the release branch.
var releaseRe = regexp.MustCompile(`^(20\d{2}(?:0[1-9]|1[0-2]))(?:\.(\d{1,3}))?$`)

// spec is what the intent language needs of the platform. Port names are
// the CONFIG_DB PORT keys: "Ethernet0", "Ethernet8". No character is
// refused beyond the common rule: the text is a JSON string value in
// CONFIG_DB, which the renderer escapes.
func spec() schema.PlatformSpec {
	return schema.PlatformSpec{
		Name: name,
		Ports: schema.PortNaming{
			Check: func(s string) bool { return schema.SlashNumbers(s, "Ethernet", 1, 1) },
			Form:  `EthernetN, the CONFIG_DB PORT key (e.g. "Ethernet0", "Ethernet8")`,
		},
		Text: schema.TextRule{Why: "CONFIG_DB holds it as a JSON string, which the renderer escapes"},
		Release: &schema.ReleaseForm{Re: releaseRe, Groups: []int{1, 2},
			Form: "YYYYMM[.N] (the release branch)", Example: `"202311"`, Default: "202311"},
		Attrs: schema.DeviceAttrs{ASICs: ASICs,
			ASICWhy: "SONiC's own QoS templates differ by ASIC (the PFC priority to priority-group map exists only on mellanox and barefoot)."},
	}
}
