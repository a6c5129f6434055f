package lab

import (
	"hash/fnv"
	"time"

	"github.com/fabricgen/fabricgen/schema"
)

// emuSpec is what an emulator knows of its device: the DeviceSpec fields
// without the SSH keys.
type emuSpec struct {
	// Name is the hostname.
	Name string
	// Platform is the emulated platform.
	Platform schema.Platform
	// Username and Password are the device's credentials (the password
	// answers sudo prompts).
	Username, Password string
	// Ports names the interfaces; empty means the platform's default list.
	Ports []string
	// RunningConfig is the configuration at start, empty for factory.
	RunningConfig string
}

// deviceEnv is what an emulator may use from its device.
type deviceEnv struct {
	spec emuSpec
	// afterFunc runs fn after dur with the device lock held; the returned
	// function cancels it.
	afterFunc func(dur time.Duration, fn func()) (cancel func())
	// now returns the current time (for timestamps in headers).
	now func() time.Time
	// executed records the argv of a command a shell ran; it is called
	// with the device lock held.
	executed func(argv []string)
}

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

// mgmtOctet derives a stable last octet for a device's management address.
func mgmtOctet(name string) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(name))
	return int(h.Sum32()%250) + 2
}
