package lab

import (
	"fmt"
	"hash/fnv"

	"github.com/fabricgen/fabricgen/schema"
)

// emulator is the platform state of one device. Every method is called
// with the device lock held.
type emulator interface {
	// running returns what the platform's running-config command prints.
	running() string
	// export returns the configuration in the form DeviceSpec.RunningConfig
	// takes.
	export() string
	// newSession starts a CLI session for a logged-in user.
	newSession(t *term, user string) cliSession
	// outOfBand applies configuration as another administrator would.
	outOfBand(lines []string) error
	// expireTimers fires pending confirm timers now.
	expireTimers()
}

// newEmulator returns the emulator for a platform, or an error naming the
// platforms the lab knows.
func newEmulator(env *deviceEnv) (emulator, error) {
	switch env.spec.Platform {
	case schema.AristaEOS:
		return newEOS(env)
	case schema.CiscoNXOS:
		return newNXOS(env)
	case schema.JuniperJunos:
		return newJunos(env)
	case schema.NvidiaCumulus:
		return newCumulus(env)
	case schema.SONiC:
		return newSONiC(env)
	case schema.NvidiaMLNX, schema.LinuxDCB:
		return newHost(env)
	}
	return nil, fmt.Errorf("unknown platform %q: use one of %v", env.spec.Platform, schema.Platforms())
}

// mgmtOctet derives a stable last octet for a device's management address.
func mgmtOctet(name string) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(name))
	return int(h.Sum32()%250) + 2
}
