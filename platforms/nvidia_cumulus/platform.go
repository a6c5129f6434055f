// Package nvidiacumulus is the NVIDIA Cumulus Linux (NVUE) platform: everything fabricgen knows about it,
// in one folder.
package nvidiacumulus

import (
	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms/nvidia_cumulus/emulator"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// name is the platform's name in the intent; the folder refers to itself
// only through it.
const name schema.Platform = "nvidia_cumulus"

// Platform returns everything this folder gives fabricgen.
func Platform() platform.Platform {
	return platform.Platform{
		Name:   name,
		Folder: "nvidia_cumulus",
		Spec:   spec(),
		// Push and lab parts.
		Dialect:       dialect,
		Emulator:      emulator.New,
		RunningConfig: platform.RunningConfig{Ext: "cfg", Form: "nv config show -o commands"},
		Transaction:   transaction(),
		ZeroDSCP:      zeroDSCP,

		// Read-back, data-plane and check parts.
		Reader:    read,
		Collector: collector{},
		Responder: dataplane.Responder{Exec: answerExec},
		LLDP:      lldpRead(),

		// Render parts.
		Render: view.Info{
			Ext:           "nvue",
			Comment:       "#",
			Docs:          "NVIDIA Cumulus Linux 5.7 and later user guides (Quality of Service, RoCE, ACLs) and NVUE command reference",
			NoRestoration: "the Cumulus PFC watchdog has no restoration time; it restores a queue when the storm ends",
		},
		View:      viewBuildCumulus,
		Templates: Templates(),
		Fidelity:  viewFidelity,

		// Import reads nv set lines and NVUE YAML back into intent.
		Import: importConfig,
	}
}
