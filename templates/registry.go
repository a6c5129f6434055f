package templates

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"

	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// PlatformInfo describes how one platform's files are named and commented.
type PlatformInfo struct {
	// Platform is the platform name.
	Platform schema.Platform
	// Ext is the file extension without the dot ("cfg", "json", "sh", ...).
	Ext string
	// Comment is the line-comment marker ("!", "#"), or "" when the format has none.
	Comment string
	// Docs names the vendor documentation the embedded templates follow.
	Docs string
	// NoRestoration says why the platform's render cannot set the PFC
	// watchdog restoration time ("" when it renders one; lint's WDG005
	// reports the switches it applies to, see NoRestorationOn).
	NoRestoration string
	// RendersRestoration, when set, reports whether the render sets the
	// restoration time on a device (view.Info.RendersRestoration).
	RendersRestoration func(d *schema.Device) bool
}

// NoRestorationOn says why the render of d cannot set the PFC watchdog
// restoration time, or "" when it sets one.
func (pi PlatformInfo) NoRestorationOn(d *schema.Device) string {
	if pi.RendersRestoration != nil && pi.RendersRestoration(d) {
		return ""
	}
	return pi.NoRestoration
}

// platformSpec is what the engine takes from one platform folder: its
// render info, view builder and embedded templates.
type platformSpec struct {
	PlatformInfo
	info      view.Info
	build     view.Builder
	templates fs.FS
}

// specOf turns a platform folder's render parts into the engine's entry.
func specOf(p platform.Platform) platformSpec {
	return platformSpec{
		PlatformInfo: PlatformInfo{Platform: p.Name, Ext: p.Render.Ext, Comment: p.Render.Comment, Docs: p.Render.Docs, NoRestoration: p.Render.NoRestoration,
			RendersRestoration: p.Render.RendersRestoration},
		info:      p.Render,
		build:     p.View,
		templates: p.Templates,
	}
}

// rendered returns the platforms that render (every platform but a
// managed switch: platforms.Needing("templates")), in registry order.
func rendered() []platform.Platform { return platforms.Needing("templates") }

// renderedNames returns the names of the rendered platforms.
func renderedNames() []schema.Platform {
	var out []schema.Platform
	for _, p := range rendered() {
		out = append(out, p.Name)
	}
	return out
}

// registry is every rendering platform folder's render parts (rendered),
// by platform name.
func registry() map[schema.Platform]platformSpec {
	all := rendered()
	reg := make(map[schema.Platform]platformSpec, len(all))
	for _, p := range all {
		reg[p.Name] = specOf(p)
	}
	return reg
}

// Platforms returns the rendering details of every platform in the stable
// order of platforms.List.
func Platforms() []PlatformInfo {
	reg := registry()
	out := make([]PlatformInfo, 0, len(reg))
	for _, p := range renderedNames() {
		out = append(out, reg[p].PlatformInfo)
	}
	return out
}

// checkRegistry reports every platform of names (the registry's,
// platforms.List) that lacks an engine entry (or its builder, file
// extension, own name or templates with the entry template), and every
// engine entry of a platform names does not hold. The error names them
// all.
func checkRegistry(names []schema.Platform, reg map[schema.Platform]platformSpec) error {
	var errs []error
	known := make(map[schema.Platform]bool, len(names))
	for _, p := range names {
		known[p] = true
		spec, ok := reg[p]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("platform %s has no line in platforms/platforms.go", p))
			continue
		case spec.build == nil:
			errs = append(errs, fmt.Errorf("platform %s: its folder lacks a view builder", p))
		case spec.Ext == "":
			errs = append(errs, fmt.Errorf("platform %s: its folder lacks a file extension", p))
		case spec.Platform != p:
			errs = append(errs, fmt.Errorf("platform %s: its folder's render info names %s, not its own name", p, spec.Platform))
		}
		if spec.templates == nil {
			errs = append(errs, fmt.Errorf("platform %s has no templates", p))
		} else if _, err := fs.Stat(spec.templates, entry); err != nil {
			errs = append(errs, fmt.Errorf("platform %s has no %s among its templates: %w", p, entry, err))
		}
	}
	for p := range reg {
		if !known[p] {
			errs = append(errs, fmt.Errorf("registry entry %s is no platform of the registry (platforms.All)", p))
		}
	}
	sort.Slice(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return errors.Join(errs...)
}
