package opensm

import (
	"io/fs"

	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms/opensm/emulator"

	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// Platform returns what this folder gives fabricgen: the intent spec, the
// render parts (several files per SM host, view.Info Files, installed in
// ConfigDir), the push dialect and file-swap transaction, and the lab's
// OpenSM host. fabricgen check does not read an InfiniBand fabric: the
// read-back parts are Ethernet's.
func Platform() platform.Platform {
	return platform.Platform{
		Name:        name,
		Folder:      "opensm",
		Spec:        spec(),
		Dialect:     dialect,
		Transaction: transaction(),
		Emulator:    emulator.New,

		RunningConfig: platform.RunningConfig{
			Ext:  "files",
			Form: "the files under " + ConfigDir + " as a fabricgen file bundle (`fabricgen lab show` prints one)",
		},
		Render: view.Info{
			Ext:     "conf",
			Comment: "#",
			Docs:    "linux-rdma/opensm doc/QoS_management_in_OpenSM.txt, doc/partition-config.txt, opensm(8), opensm/osm_subnet.c option table",
			Files:   Files(),
			Dir:     ConfigDir,
		},
		View:      viewBuild,
		Templates: Templates(),
		Fidelity:  fidelity,
	}
}

// viewBuild is the platform's view builder: the same view for every SM
// host (Build) but for the host's own election priority (sm_priority),
// which may differ between a master and its standbys.
func viewBuild(f *schema.Fabric, d *schema.Device, _ view.Base) (any, error) {
	v, err := Build(f)
	if err != nil || d == nil {
		return v, err
	}
	v.Priority, v.PrioritySet = 0, false
	if d.SM != nil && d.SM.Priority.Set {
		v.Priority, v.PrioritySet = d.SM.Priority.V, true
	}
	return v, nil
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
