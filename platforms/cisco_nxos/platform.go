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
			Docs:          "Cisco Nexus 9000 NX-OS Quality of Service Configuration Guide (classification, queuing, network-qos, PFC)",
			NoRestoration: "NX-OS before 9.3(3) has no PFC watchdog fixed-restore multiplier (Cisco's NX-API REST SDK guide 9.3x adds it in 9.3(3)), so the switch restores on its own schedule",
			// From 9.3(3) the render sets it (viewNXOSRestores).
			RendersRestoration: viewNXOSRestores,
		},
		View:      viewBuildNXOS,
		Templates: Templates(),
		Fidelity:  viewFidelity,
	}
}
