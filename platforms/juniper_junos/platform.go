// Package juniperjunos is the Juniper Junos platform: everything fabricgen knows about it,
// in one folder.
package juniperjunos

import (
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms/juniper_junos/emulator"
	"github.com/fabricgen/fabricgen/schema"
)

// name is the platform's name in the intent; the folder refers to itself
// only through it.
const name = schema.JuniperJunos

// Platform returns everything this folder gives fabricgen.
func Platform() platform.Platform {
	return platform.Platform{
		Name:   name,
		Folder: "juniper_junos",
		// Push and lab parts.
		Dialect:       dialect,
		Emulator:      emulator.New,
		RunningConfig: platform.RunningConfig{Ext: "cfg", Form: "show configuration | display set"},

		// Read-back, data-plane and check parts.

		// Render parts.
	}
}
