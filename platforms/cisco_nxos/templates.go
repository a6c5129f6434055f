package cisconxos

import (
	"embed"
	"io/fs"
)

// viewTemplates holds the platform's templates: device.tmpl and the
// sub-templates its view builder runs.
//
//go:embed templates
var viewTemplates embed.FS

// Templates returns the platform's embedded templates (templates/*.tmpl
// of this folder) as a file system whose root holds device.tmpl.
func Templates() fs.FS {
	sub, err := fs.Sub(viewTemplates, "templates")
	if err != nil { // "templates" is a valid path: fs.Sub cannot fail
		return viewTemplates
	}
	return sub
}

// viewFidelity is the platform's fidelity rows: every line shape its
// templates emit, with its public source and status (fidelity.md).
//
//go:embed fidelity.md
var viewFidelity string
