// Package aristaeos is the Arista EOS platform: everything fabricgen knows about it,
// in one folder.
package aristaeos

import (
	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms/arista_eos/emulator"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// name is the platform's name in the intent; the folder refers to itself
// only through it.
const name schema.Platform = "arista_eos"

// Platform returns everything this folder gives fabricgen.
func Platform() platform.Platform {
	return platform.Platform{
		Name:   name,
		Folder: "arista_eos",
		Spec:   spec(),
		// Push and lab parts.
		Dialect:       dialect,
		Emulator:      emulator.New(textForm),
		RunningConfig: platform.RunningConfig{Ext: "cfg", Form: "show running-config text"},
		Transaction:   transaction(),
		ZeroDSCP:      zeroDSCP,

		// Read-back, data-plane and check parts.
		Reader:    read,
		Import:    importConfig,
		Collector: collector{},
		Responder: dataplane.Responder{Show: answerShow},
		LLDP:      lldpRead(),

		// Render parts.
		Render: view.Info{
			Ext:           "cfg",
			Comment:       "!",
			Docs:          "Arista EOS User Manual (QoS, PFC, ACL chapters); AVD eos_cli_config_gen output",
			NoRestoration: "",
		},
		View:      viewBuildEOS,
		Templates: Templates(),
		Fidelity:  viewFidelity,
	}
}
