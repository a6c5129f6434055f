package platforms

import (
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/schema"
)

// Catalog returns what the intent language needs of every platform, in
// the registry's order: the catalog schema.Load takes in
// Options.Platforms. The loader knows no platform of its own, so a
// platform added to All is one the intent may name.
func Catalog() []schema.PlatformSpec {
	all := All()
	out := make([]schema.PlatformSpec, 0, len(all))
	for _, p := range all {
		out = append(out, p.Spec)
	}
	return out
}

// List returns every platform's name in the registry's order.
func List() []schema.Platform {
	all := All()
	out := make([]schema.Platform, 0, len(all))
	for _, p := range all {
		out = append(out, p.Name)
	}
	return out
}

// IsHost reports whether platform p configures a host NIC rather than a
// switch (false for a platform no folder has). For engines that hold a
// platform's name only; a loaded device records it (Device.HostPlatform).
func IsHost(p schema.Platform) bool {
	pl, ok := Get(p)
	return ok && pl.Spec.Host
}

// Needing returns the platforms that must have the part named part
// (internal/platform.Parts: "push dialect", "view builder", …), in the
// registry's order: the loops of a layer run over these, so a managed
// InfiniBand switch is not asked for a push dialect.
func Needing(part string) []platform.Platform {
	var pt platform.Part
	for _, p := range platform.Parts() {
		if p.Name == part {
			pt = p
		}
	}
	if pt.Name == "" {
		panic("platforms.Needing: no part " + part)
	}
	var out []platform.Platform
	for _, p := range All() {
		if pt.AppliesTo(p.Spec) {
			out = append(out, p)
		}
	}
	return out
}

// NamesNeeding returns the names of the platforms Needing(part) returns.
func NamesNeeding(part string) []schema.Platform {
	var out []schema.Platform
	for _, p := range Needing(part) {
		out = append(out, p.Name)
	}
	return out
}
