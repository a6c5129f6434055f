package lab

import (
	"fmt"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// RunningConfigFormat is what one platform's saved configuration looks
// like: the file `fabricgen lab up --running-config` reads for a device
// (NAME.Ext) and the form `fabricgen lab show` prints.
type RunningConfigFormat struct {
	Platform schema.Platform
	// Ext is the file extension, without the dot.
	Ext string
	// Form says in words what the file holds.
	Form string
}

// RunningConfigFormats returns every platform's RunningConfigFormat in
// registry order (platforms.All).
func RunningConfigFormats() []RunningConfigFormat {
	var out []RunningConfigFormat
	for _, p := range platforms.NamesNeeding("lab emulator") {
		if pl, ok := emulated(platforms.Needing("lab emulator"), p); ok {
			out = append(out, RunningConfigFormat{p, pl.RunningConfig.Ext, pl.RunningConfig.Form})
		}
	}
	return out
}

// emulated returns the platform p of all when its folder gives the lab
// all it needs (an emulator and the form of its saved configuration).
func emulated(all []platform.Platform, p schema.Platform) (platform.Platform, bool) {
	for _, pl := range all {
		if pl.Name == p {
			ok := pl.Emulator != nil && pl.RunningConfig.Ext != "" && pl.RunningConfig.Form != ""
			return pl, ok
		}
	}
	return platform.Platform{}, false
}

// missingEmulators returns the platforms among want that all gives the
// lab no emulator for, in want's order.
func missingEmulators(all []platform.Platform, want []schema.Platform) []schema.Platform {
	var out []schema.Platform
	for _, p := range want {
		if _, ok := emulated(all, p); !ok {
			out = append(out, p)
		}
	}
	return out
}

// newEmulator returns the emulator for a platform, or an error naming the
// platforms the lab knows.
func newEmulator(env *cli.Env) (cli.Emulator, error) {
	pl, ok := emulated(platforms.Needing("lab emulator"), env.Spec.Platform)
	if !ok {
		return nil, fmt.Errorf("unknown platform %q: use one of %v", env.Spec.Platform, platforms.NamesNeeding("lab emulator"))
	}
	// The constructors' errors name the offending line of the running
	// configuration; callers add the device and file.
	return pl.Emulator(env)
}
