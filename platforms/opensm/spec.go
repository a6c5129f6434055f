package opensm

import "github.com/fabricgen/fabricgen/schema"

// name is the platform's name in the intent.
const name schema.Platform = "opensm"

// spec is what the intent language needs of the platform: a subnet
// manager host on an InfiniBand fabric, its HCA ports named like Linux
// interfaces (ib0), no release syntax (OpenSM 3.3's files), and no free
// text rendered.
func spec() schema.PlatformSpec {
	return schema.PlatformSpec{
		Name:       name,
		Host:       true,
		Kinds:      []schema.Kind{schema.KindSubnetManager},
		LinkLayers: []schema.LinkLayer{schema.LinkInfiniBand},
		Ports:      schema.HostPorts(),
		Text:       schema.TextRule{Why: "the OpenSM files carry no free text: descriptions are not rendered, and names are the intent's identifiers"},
	}
}
