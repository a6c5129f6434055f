package opensm

import (
	"io/fs"

	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// Platform returns what this folder gives fabricgen so far: the intent
// spec and the render parts (several files per SM host, view.Info Files).
// Push, lab and read-back parts come later (issue 26).
func Platform() platform.Platform {
	return platform.Platform{
		Name:   name,
		Folder: "opensm",
		Spec:   spec(),
		Render: view.Info{
			Ext:     "conf",
			Comment: "#",
			Docs:    "linux-rdma/opensm doc/QoS_management_in_OpenSM.txt, doc/partition-config.txt, opensm(8), opensm/osm_subnet.c option table",
			Files:   Files(),
		},
		View:      viewBuild,
		Templates: Templates(),
		Fidelity:  fidelity,
	}
}

// viewBuild is the platform's view builder: the same view for every SM
// host (Build), whatever d is.
func viewBuild(f *schema.Fabric, _ *schema.Device, _ view.Base) (any, error) {
	return Build(f)
}

// Templates returns the embedded templates with device.tmpl (opensm.conf)
// at the root.
func Templates() fs.FS {
	sub, err := fs.Sub(templateFS, "templates")
	if err != nil { // "templates" is a valid path: fs.Sub cannot fail
		return templateFS
	}
	return sub
}
