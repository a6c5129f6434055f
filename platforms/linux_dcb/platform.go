// Package linuxdcb is the Linux DCB (iproute2) host NIC platform: everything fabricgen knows about it,
// in one folder.
package linuxdcb

import (
	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms/internal/hostcheck"
	"github.com/fabricgen/fabricgen/platforms/internal/hostemu"
	"github.com/fabricgen/fabricgen/platforms/internal/hostpush"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// name is the platform's name in the intent; the folder refers to itself
// only through it.
const name schema.Platform = "linux_dcb"

// Platform returns everything this folder gives fabricgen.
func Platform() platform.Platform {
	return platform.Platform{
		Name:   name,
		Folder: "linux_dcb",
		Spec:   spec(),
		// Push and lab parts.
		Dialect:       dialect,
		Emulator:      hostemu.New(hostemu.InboxTools),
		RunningConfig: platform.RunningConfig{Ext: "sh", Form: hostemu.RunningConfigForm},
		Transaction:   hostpush.Transaction(),

		// Read-back, data-plane and check parts.
		Collector: hostcheck.Collector{},
		Responder: dataplane.Responder{Exec: hostcheck.Exec},
		LLDP:      hostcheck.LLDP(),

		// Render parts.
		Render: view.Info{
			Ext:           "sh",
			Comment:       "#",
			Docs:          "iproute2 dcb(8), dcb-app(8), dcb-pfc(8), dcb-ets(8) man pages",
			NoRestoration: "",
			HeaderNote:    viewDriverNote,
		},
		View:      viewBuild,
		Templates: Templates(),
		Fidelity:  viewFidelity,

		// Import reads a host script or host state back into intent.
		Import: importConfig,
	}
}
