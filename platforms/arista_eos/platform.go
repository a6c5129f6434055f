// Package aristaeos is the Arista EOS platform: everything fabricgen knows about it,
// in one folder.
package aristaeos

import (
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms/arista_eos/emulator"
	"github.com/fabricgen/fabricgen/schema"
)

// name is the platform's name in the intent; the folder refers to itself
// only through it.
const name = schema.AristaEOS

// Platform returns everything this folder gives fabricgen.
func Platform() platform.Platform {
	return platform.Platform{
		Name:   name,
		Folder: "arista_eos",
		// Push and lab parts.
		Dialect:       dialect,
		Emulator:      emulator.New,
		RunningConfig: platform.RunningConfig{Ext: "cfg", Form: "show running-config text"},

		// Read-back, data-plane and check parts.

		// Render parts.
	}
}
