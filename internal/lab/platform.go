package lab

import (
	"fmt"

	"github.com/fabricgen/fabricgen/schema"
)

// emulatorFactory builds the emulator of one device.
type emulatorFactory func(env *deviceEnv) (emulator, error)

// registry maps every platform the lab emulates to its emulator. Adding a
// platform to the lab means adding its row here; TestRegistryComplete fails
// for a platform of schema.Platforms() without one.
type registry map[schema.Platform]emulatorFactory

// factory adapts a concrete constructor to an emulatorFactory, so a failed
// constructor yields a nil interface rather than a typed nil.
func factory[E emulator](newE func(env *deviceEnv) (E, error)) emulatorFactory {
	return func(env *deviceEnv) (emulator, error) {
		e, err := newE(env)
		if err != nil {
			return nil, err
		}
		return e, nil
	}
}

// emulators returns the lab's registry: one emulator per platform.
func emulators() registry {
	return registry{
		schema.AristaEOS:     factory(newEOS),
		schema.CiscoNXOS:     factory(newNXOS),
		schema.JuniperJunos:  factory(newJunos),
		schema.NvidiaCumulus: factory(newCumulus),
		schema.SONiC:         factory(newSONiC),
		schema.NvidiaMLNX:    factory(newHost),
		schema.LinuxDCB:      factory(newHost),
	}
}

// missing returns the platforms among want that r has no emulator for, in
// want's order.
func (r registry) missing(want []schema.Platform) []schema.Platform {
	var out []schema.Platform
	for _, p := range want {
		if r[p] == nil {
			out = append(out, p)
		}
	}
	return out
}

// newEmulator returns the emulator for a platform, or an error naming the
// platforms the lab knows.
func newEmulator(env *deviceEnv) (emulator, error) {
	f := emulators()[env.spec.Platform]
	if f == nil {
		return nil, fmt.Errorf("unknown platform %q: use one of %v", env.spec.Platform, schema.Platforms())
	}
	// The constructors' errors name the offending line of the running
	// configuration; callers add the device and file.
	return f(env)
}
