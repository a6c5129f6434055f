package lab

import "github.com/fabricgen/fabricgen/schema"

// The platforms named in this package's tests. Every other test here
// loops over the registry (platforms.All) or picks a platform by property;
// these names remain for the lab's brownfield corpus (testdata/brownfield/<platform>.*), the removal-semantics table and the stream fault test: a shared
// corpus, not a platform folder's own fixture, so those tests do not yet
// cover a platform added by scripts/newplatform. This file is the one
// place that lists them.
const (
	aristaEOS     schema.Platform = "arista_eos"
	ciscoNXOS     schema.Platform = "cisco_nxos"
	juniperJunos  schema.Platform = "juniper_junos"
	nvidiaCumulus schema.Platform = "nvidia_cumulus"
	sonicOS       schema.Platform = "sonic"
	nvidiaMLNX    schema.Platform = "nvidia_mlnx"
	linuxDCB      schema.Platform = "linux_dcb"
)
