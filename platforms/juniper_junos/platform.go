// Package juniperjunos is the Juniper Junos platform: everything fabricgen knows about it,
// in one folder.
package juniperjunos

import (
	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms/juniper_junos/emulator"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// name is the platform's name in the intent; the folder refers to itself
// only through it.
const name schema.Platform = "juniper_junos"

// Platform returns everything this folder gives fabricgen.
func Platform() platform.Platform {
	return platform.Platform{
		Name:   name,
		Folder: "juniper_junos",
		Spec:   spec(),
		// Push and lab parts.
		Dialect:       dialect,
		Emulator:      emulator.New,
		RunningConfig: platform.RunningConfig{Ext: "cfg", Form: "show configuration | display set"},
		Transaction:   transaction(),
		ZeroDSCP:      zeroDSCP,

		// Read-back, data-plane and check parts.
		Reader:    read,
		Collector: collector{},
		Import:    importConfig,
		Responder: dataplane.Responder{Show: answerShow},
		LLDP:      lldpRead(),

		// Render parts.
		Render: view.Info{
			Ext:           "set",
			Comment:       "#",
			Docs:          "Junos OS Traffic Management (QFX): classifiers, forwarding-classes, congestion-notification-profile, schedulers",
			NoRestoration: "",
			ReleaseNote:   viewReleaseNote,
		},
		View:      viewBuildJunos,
		Templates: Templates(),
		Fidelity:  viewFidelity,
	}
}
