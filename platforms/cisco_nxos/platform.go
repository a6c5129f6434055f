// Package cisconxos is the Cisco NX-OS platform: everything fabricgen knows about it,
// in one folder.
package cisconxos

import (
	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms/cisco_nxos/emulator"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// name is the platform's name in the intent; the folder refers to itself
// only through it.
const name schema.Platform = "cisco_nxos"

// Platform returns everything this folder gives fabricgen.
func Platform() platform.Platform {
	return platform.Platform{
		Name:   name,
		Folder: "cisco_nxos",
		Spec:   spec(),
		// Push and lab parts.
		Dialect:       dialect,
		Emulator:      emulator.New(textForm),
		RunningConfig: platform.RunningConfig{Ext: "cfg", Form: "show running-config text"},
		Transaction:   transaction(),

		// Read-back, data-plane and check parts.
		Reader:    read,
		Collector: collector{},
		Responder: dataplane.Responder{Show: answerShow},

		// Render parts.
		Render: view.Info{
			Ext:           "cfg",
			Comment:       "!",
			Docs:          "Cisco Nexus 9000 NX-OS Quality of Service Configuration Guide (classification, queuing, network-qos, PFC)",
			NoRestoration: "no Cisco source confirms an NX-OS restore-timer command, so the switch restores on its own default",
		},
		View:      viewBuildNXOS,
		Templates: Templates(),
		Fidelity:  viewFidelity,
	}
}
