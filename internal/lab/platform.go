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

// emulatorSpec is one platform's row of the lab's registry: its emulator
// and the form of the configuration it exports and starts from.
type emulatorSpec struct {
	build emulatorFactory
	// ext is the extension of the file lab up --running-config reads and
	// lab show's output is saved as: NAME.ext.
	ext string
	// form says what that file holds, for help texts.
	form string
}

// registry maps every platform the lab emulates to its row. Adding a
// platform to the lab means adding its row here; TestRegistryComplete fails
// for a platform of schema.Platforms() without one.
type registry map[schema.Platform]emulatorSpec

// emulators returns the lab's registry: one emulator per platform.
func emulators() registry {
	return registry{
		schema.AristaEOS:     {eos.New, "cfg", "show running-config text"},
		schema.CiscoNXOS:     {nxos.New, "cfg", "show running-config text"},
		schema.JuniperJunos:  {junos.New, "cfg", "show configuration | display set"},
		schema.NvidiaCumulus: {cumulus.New, "cfg", "nv config show -o commands"},
		schema.SONiC:         {sonic.New, "json", "config_db.json"},
		schema.NvidiaMLNX:    {host.New, "sh", "the commands that give a factory host its NIC state"},
		schema.LinuxDCB:      {host.New, "sh", "the commands that give a factory host its NIC state"},
	}
}

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
// the order of schema.Platforms.
func RunningConfigFormats() []RunningConfigFormat {
	reg := emulators()
	out := make([]RunningConfigFormat, 0, len(reg))
	for _, p := range schema.Platforms() {
		if e, ok := reg[p]; ok {
			out = append(out, RunningConfigFormat{p, e.ext, e.form})
		}
	}
	return out
}

// missing returns the platforms among want that r has no emulator for, in
// want's order.
func (r registry) missing(want []schema.Platform) []schema.Platform {
	var out []schema.Platform
	for _, p := range want {
		if e := r[p]; e.build == nil || e.ext == "" || e.form == "" {
			out = append(out, p)
		}
	}
	return out
}

// newEmulator returns the emulator for a platform, or an error naming the
// platforms the lab knows.
func newEmulator(env *cli.Env) (cli.Emulator, error) {
	f := emulators()[env.Spec.Platform].build
	if f == nil {
		return nil, fmt.Errorf("unknown platform %q: use one of %v", env.Spec.Platform, schema.Platforms())
	}
	// The constructors' errors name the offending line of the running
	// configuration; callers add the device and file.
	return f(env)
}
