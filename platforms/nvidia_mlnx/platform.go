// Package nvidiamlnx is the NVIDIA MLNX_OFED host NIC platform: everything fabricgen knows about it,
// in one folder.
package nvidiamlnx

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
const name schema.Platform = "nvidia_mlnx"

// Platform returns everything this folder gives fabricgen.
func Platform() platform.Platform {
	return platform.Platform{
		Name:   name,
		Folder: "nvidia_mlnx",
		Spec:   spec(),
		// Push and lab parts.
		Dialect:       dialect,
		Emulator:      hostemu.New(hostemu.NvidiaTools),
		RunningConfig: platform.RunningConfig{Ext: "sh", Form: hostemu.RunningConfigForm},
		Transaction:   hostpush.Transaction(),

		// Read-back, data-plane and check parts.
		Collector: hostcheck.Collector{DCQCN: true},
		Responder: dataplane.Responder{Exec: hostcheck.Exec},
		LLDP:      hostcheck.LLDP(),

		// Render parts.
		Render: view.Info{
			Ext:           "sh",
			Comment:       "#",
			Docs:          "NVIDIA MLNX_OFED user manual (mlnx_qos, ECN sysfs), mlnx-tools cma_roce_tos",
			NoRestoration: "",
		},
		View:      viewBuild,
		Templates: Templates(),
		Fidelity:  viewFidelity,

		// Import reads a host script or host state back into intent.
		Import: importConfig,
	}
}
