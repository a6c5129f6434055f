// Package cisconxos is the Cisco NX-OS platform: everything fabricgen knows about it,
// in one folder.
package cisconxos

import (
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms/cisco_nxos/emulator"
	"github.com/fabricgen/fabricgen/schema"
)

// name is the platform's name in the intent; the folder refers to itself
// only through it.
const name = schema.CiscoNXOS

// Platform returns everything this folder gives fabricgen.
func Platform() platform.Platform {
	return platform.Platform{
		Name:   name,
		Folder: "cisco_nxos",
		// Push and lab parts.
		Dialect:       dialect,
		Emulator:      emulator.New,
		RunningConfig: platform.RunningConfig{Ext: "cfg", Form: "show running-config text"},

		// Read-back, data-plane and check parts.

		// Render parts.
	}
}
