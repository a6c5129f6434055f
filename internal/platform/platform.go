// Package platform defines what one platform folder (platforms/<name>/)
// gives the rest of fabricgen: one Platform value holding every part the
// layers need (push dialect, lab emulator, running-config reader, check
// collector, data-plane answers, ...). The layers define the small types
// of those parts; this package gathers them; package platforms lists the
// values, one line per platform, and every layer loops over that list.
package platform

import (
	"sort"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/schema"
)

// Platform is everything fabricgen knows about one platform, as its folder
// gives it. A field left empty is a missing part: Missing names it.
type Platform struct {
	// Name is the platform's name in the intent (a device's platform).
	Name schema.Platform
	// Folder is the platform's folder under platforms/ (its name), so a
	// completeness error can say where the missing part belongs.
	Folder string

	// Push and lab parts (dialect, emulator) go below this line.

	// Dialect builds the platform's push dialect (a fresh value each
	// call, so a caller may keep or change it): how push opens a
	// session, reads, diffs and applies (dialect.go).
	Dialect func() *dialect.Dialect
	// Emulator builds the lab's emulator of one of the platform's
	// devices (emulator/).
	Emulator func(env *cli.Env) (cli.Emulator, error)
	// RunningConfig is the form of the configuration the lab exports
	// and starts from (lab show, lab up --running-config).
	RunningConfig RunningConfig

	// Read-back, data-plane and check parts (reader, responder,
	// collector) go below this line.

	// Render parts (templates, view builder, fidelity rows) go below
	// this line.
}

// RunningConfig is what one platform's saved configuration looks like:
// the file `fabricgen lab up --running-config` reads for a device
// (NAME.Ext) and the form `fabricgen lab show` prints.
type RunningConfig struct {
	// Ext is the file extension, without the dot.
	Ext string
	// Form says in words what the file holds, for help texts.
	Form string
}

// Part is one piece a platform folder provides, and how to tell it is
// there.
type Part struct {
	// Name is the part in messages ("push dialect", "lab emulator").
	Name string
	// File is where the part lives in the folder ("dialect.go").
	File string
	// Present reports whether p has the part.
	Present func(p Platform) bool
}

// Parts lists every part a platform folder must provide, in a stable order.
func Parts() []Part {
	parts := []Part{
		{Name: "name", File: "platform.go", Present: func(p Platform) bool { return p.Name != "" && p.Folder != "" }},
		// Push and lab parts.
		{Name: "push dialect", File: "dialect.go", Present: func(p Platform) bool { return p.Dialect != nil }},
		{Name: "lab emulator", File: "emulator/", Present: func(p Platform) bool { return p.Emulator != nil }},
		{Name: "running-config file form", File: "platform.go", Present: func(p Platform) bool {
			return p.RunningConfig.Ext != "" && p.RunningConfig.Form != ""
		}},

		// Read-back, data-plane and check parts.

		// Render parts.
	}
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].Name < parts[j].Name })
	return parts
}

// Missing returns the parts p lacks, each as "platforms/<folder>: no
// <part> (<file>)", in a stable order; nil when the folder is complete.
func (p Platform) Missing() []string {
	var out []string
	for _, part := range Parts() {
		if !part.Present(p) {
			out = append(out, "platforms/"+p.Folder+": no "+part.Name+" ("+part.File+")")
		}
	}
	return out
}
