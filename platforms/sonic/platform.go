// Package sonic is the SONiC (CONFIG_DB) platform: everything fabricgen knows about it,
// in one folder.
package sonic

import (
	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms/sonic/emulator"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// name is the platform's name in the intent; the folder refers to itself
// only through it.
const name schema.Platform = "sonic"

// Platform returns everything this folder gives fabricgen.
func Platform() platform.Platform {
	return platform.Platform{
		Name:   name,
		Folder: "sonic",
		Spec:   spec(),
		// Push and lab parts.
		Dialect:       dialect,
		Emulator:      emulator.New,
		RunningConfig: platform.RunningConfig{Ext: "json", Form: "config_db.json"},
		Transaction:   transaction(),
		ZeroDSCP:      zeroDSCP,

		// Read-back, data-plane and check parts.
		Reader:    read,
		Import:    importConfig,
		Collector: collector{},
		Responder: dataplane.Responder{Exec: answerExec},
		LLDP:      lldpRead(),

		// Render parts.
		Render: view.Info{
			Ext:           "json",
			Comment:       "",
			Docs:          "SONiC CONFIG_DB schema (sonic-buildimage src/sonic-yang-models)",
			NoRestoration: "",
		},
		View:      viewBuildSONiC,
		Templates: Templates(),
		Fidelity:  viewFidelity,
	}
}
