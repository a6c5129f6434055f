package cli

import (
	"hash/fnv"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/schema"
)

// Spec is what an emulator knows of its device: the DeviceSpec fields
// without the SSH keys.
type Spec struct {
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
	// Driver and InboxDriver describe a host's NICs (see lab.DeviceSpec).
	Driver      string
	InboxDriver bool
	// ASIC, HWSKU, Release and BufferModel describe a switch (see
	// lab.DeviceSpec); empty for the emulator's default.
	ASIC, HWSKU, Release, BufferModel string
}

// Env is what an emulator may use from its device.
type Env struct {
	Spec Spec
	// AfterFunc runs fn after dur with the device lock held; the returned
	// function cancels it.
	AfterFunc func(dur time.Duration, fn func()) (cancel func())
	// Now returns the current time (for timestamps in headers).
	Now func() time.Time
	// Executed records the argv of a command a shell ran; it is called
	// with the device lock held.
	Executed func(argv []string)
	// DataPlane is the device's window on the lab's data plane (counters,
	// optics, queue pairs), for the read-only commands fabricgen check
	// runs; nil when the device has none.
	DataPlane *dataplane.DeviceView
}

// Emulator is the platform state of one device. Every method is called
// with the device lock held.
type Emulator interface {
	// Running returns what the platform's running-config command prints.
	Running() string
	// Export returns the configuration in the form DeviceSpec.RunningConfig
	// takes.
	Export() string
	// NewSession starts a CLI session for a logged-in user.
	NewSession(t *Term, user string) Session
	// OutOfBand applies configuration as another administrator would.
	OutOfBand(lines []string) error
	// ExpireTimers fires pending confirm timers now.
	ExpireTimers()
}

// MgmtOctet derives a stable last octet for a device's management address.
func MgmtOctet(name string) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(name))
	return int(h.Sum32()%250) + 2
}
