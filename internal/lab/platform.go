package lab

import (
	"fmt"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/emulator/cumulus"
	"github.com/fabricgen/fabricgen/internal/lab/emulator/eos"
	"github.com/fabricgen/fabricgen/internal/lab/emulator/host"
	"github.com/fabricgen/fabricgen/internal/lab/emulator/junos"
	"github.com/fabricgen/fabricgen/internal/lab/emulator/nxos"
	"github.com/fabricgen/fabricgen/internal/lab/emulator/sonic"
	"github.com/fabricgen/fabricgen/schema"
)

// emulatorFactory builds the emulator of one device.
type emulatorFactory func(env *cli.Env) (cli.Emulator, error)

// registry maps every platform the lab emulates to its emulator. Adding a
// platform to the lab means adding its row here; TestRegistryComplete fails
// for a platform of schema.Platforms() without one.
type registry map[schema.Platform]emulatorFactory

// emulators returns the lab's registry: one emulator per platform.
func emulators() registry {
	return registry{
		schema.AristaEOS:     eos.New,
		schema.CiscoNXOS:     nxos.New,
		schema.JuniperJunos:  junos.New,
		schema.NvidiaCumulus: cumulus.New,
		schema.SONiC:         sonic.New,
		schema.NvidiaMLNX:    host.New,
		schema.LinuxDCB:      host.New,
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
func newEmulator(env *cli.Env) (cli.Emulator, error) {
	f := emulators()[env.Spec.Platform]
	if f == nil {
		return nil, fmt.Errorf("unknown platform %q: use one of %v", env.Spec.Platform, schema.Platforms())
	}
	// The constructors' errors name the offending line of the running
	// configuration; callers add the device and file.
	return f(env)
}
