package push

import (
	"fmt"
	"path"
	"path/filepath"
	"sync"
	"time"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// DefaultParallelism is the number of devices worked on at once unless
// Options.Parallelism says otherwise.
const DefaultParallelism = 16

// Options configure plan and apply.
type Options struct {
	// Parallelism bounds the devices in flight (default 16).
	Parallelism int
	// Timeout bounds the SSH handshake and each command on one device.
	Timeout time.Duration
	// MaxOutput bounds the bytes one device may send in answer to one
	// command (0: session.DefaultMaxOutput); a device past it fails.
	MaxOutput int64
	// HostKeys verifies device host keys.
	HostKeys *session.HostKeys
	// Inventory maps device names to "host:port", overriding mgmt_address.
	Inventory map[string]string
	// Users maps device names to the SSH user, overriding the username of
	// the device's credentials (an Ansible inventory's ansible_user).
	Users map[string]string
	// Getenv reads password and passphrase variables (default: none set).
	Getenv func(string) string
	// Prompt asks for a key passphrase when no variable holds it; nil
	// when not interactive.
	Prompt func(msg string) (string, error)
	// Events receives progress; it may be nil. It is called from many
	// goroutines.
	Events func(Event)
	// State is the fabric's state directory (DIR/.fabricgen): backups,
	// in-flight and last-applied records. Plan reads it to report devices
	// an interrupted run left half-changed; Apply writes it. Zero means
	// plan skips that check; Apply needs it.
	State state.Dir
	// NoTakeover refuses a device whose change would remove or replace
	// managed lines fabricgen did not create (brownfield config), naming
	// them, instead of taking them over.
	NoTakeover bool
	// TrustRecords takes an unverified last-applied record (no
	// FABRICGEN_PLAN_KEY, or no signature) at its word as far as the
	// device bears it out (config.VerifiedScope), as --trust-records
	// says: a named object, interface or setting only the record says
	// fabricgen made is removed. Without it such a removal is held back
	// and plan lists it (planfile.Device.Kept). A signed record checked
	// with the key is obeyed either way.
	TrustRecords bool
	// FollowUp are the flags of the invoking command that a command it
	// prints must carry to work as printed (the connection flags:
	// --inventory, --known-hosts, variables, templates), each already
	// shell-quoted; see rollbackCommand.
	FollowUp []string

	// intentDigest is the fabric's digest, for the records Apply writes.
	intentDigest string

	// dialects caches the dialects of one Plan or Apply call (building
	// one compiles its regexps).
	dialects *dialectCache
}

// dialectCache builds each platform's dialect once per call.
type dialectCache struct {
	mu sync.Mutex
	m  map[schema.Platform]*dialect.Dialect
}

// dialect returns the platform's dialect, from the cache when possible;
// a platform push has no transaction for is refused here, before any
// device is contacted.
func (o *Options) dialect(p schema.Platform) (*dialect.Dialect, error) {
	if o.dialects == nil {
		return lookupDialect(p)
	}
	c := o.dialects
	c.mu.Lock()
	defer c.mu.Unlock()
	if d, ok := c.m[p]; ok {
		return d, nil
	}
	d, err := lookupDialect(p)
	if err != nil {
		return nil, err
	}
	c.m[p] = d
	return d, nil
}

// lookupDialect is platforms.Dialect, checked against the transactions table.
func lookupDialect(p schema.Platform) (*dialect.Dialect, error) {
	d, err := platforms.Dialect(p)
	if err != nil {
		return nil, err
	}
	if _, err := transactionFor(d); err != nil {
		return nil, err
	}
	return d, nil
}

// withCache returns a copy of the options with a fresh dialect cache (a
// test's own cache, holding the dialects it instruments, is kept).
func (o Options) withCache() Options {
	if o.dialects == nil {
		o.dialects = &dialectCache{m: map[schema.Platform]*dialect.Dialect{}}
	}
	return o
}

// Event is a progress report for one device.
type Event struct {
	Device string
	// Step is what is happening: "connect", "check", "fetch", "backup",
	// "stage", "commit", "verify", "confirm", "rollback", "done".
	Step string
	// Done is true on the device's last event.
	Done bool
}

func (o *Options) emit(dev, step string, done bool) {
	if o.Events != nil {
		o.Events(Event{Device: dev, Step: step, Done: done})
	}
}

func (o *Options) parallelism() int {
	if o.Parallelism <= 0 {
		return DefaultParallelism
	}
	return o.Parallelism
}

func (o *Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return 30 * time.Second
	}
	return o.Timeout
}

func (o *Options) getenv(k string) string {
	if o.Getenv == nil {
		return ""
	}
	return o.Getenv(k)
}

// address is the device's SSH address: the inventory's, else mgmt_address.
func (o *Options) address(d *schema.Device) string {
	a, _ := o.addressFrom(d)
	return a
}

// addressFrom is the device's SSH address and where it comes from, in
// words for messages.
func (o *Options) addressFrom(d *schema.Device) (string, string) {
	if a, ok := o.Inventory[d.Name]; ok {
		return a, "--inventory"
	}
	if d.MgmtAddress.V == "" {
		return "", "the intent (no mgmt_address and no --inventory entry)"
	}
	return d.MgmtAddress.V, "the intent's mgmt_address"
}

// SelectDevices returns the fabric's devices matching any of the globs
// (all devices when globs is empty), in the fabric's order; a glob
// matching nothing is an error naming it.
func SelectDevices(f *schema.Fabric, globs []string) ([]*schema.Device, error) {
	if len(globs) == 0 {
		return f.Devices, nil
	}
	hit := make([]bool, len(globs))
	var out []*schema.Device
	for _, d := range f.Devices {
		matched := false
		for i, g := range globs {
			ok, err := path.Match(g, d.Name)
			if err != nil {
				return nil, fmt.Errorf("--device %q: %w", g, err)
			}
			if ok {
				hit[i] = true
				matched = true
			}
		}
		if matched {
			out = append(out, d)
		}
	}
	for i, g := range globs {
		if !hit[i] {
			return nil, fmt.Errorf("--device %q matches no device of fabric %s", g, f.Name)
		}
	}
	return out, nil
}

// planCommand is the plan of the fabric in dir, as printed, with the
// invoking command's FollowUp flags: what a report asks to run again.
func (o *Options) planCommand(dir string) string {
	cmd := "fabricgen plan"
	if dir != "" && dir != "." {
		cmd += " " + config.ShellQuote(dir)
	}
	for _, f := range o.FollowUp {
		cmd += " " + f
	}
	return cmd
}

// fabricDir is the fabric directory of the state directory, "" when it
// is not DIR/.fabricgen.
func (o *Options) fabricDir() string {
	if o.State.IsZero() || filepath.Base(o.State.Path) != state.DirName {
		return ""
	}
	return filepath.Dir(o.State.Path)
}

// rollbackCommand is the command restoring device from its backup, to
// run from the directory this command runs in, as printed: fabricgen
// rollback [DIR] DEVICE, DIR the fabric whose state directory holds the
// backup (left out when it is "."), then --backup-dir when backups are
// kept elsewhere, and the invoking command's FollowUp flags.
func (o *Options) rollbackCommand(device string) string {
	cmd := "fabricgen rollback"
	if dir := o.fabricDir(); dir != "" && dir != "." {
		cmd += " " + config.ShellQuote(dir)
	}
	cmd += " " + config.ShellQuote(device)
	if o.State.BackupRoot != "" {
		cmd += " --backup-dir " + config.ShellQuote(o.State.BackupRoot)
	}
	for _, f := range o.FollowUp {
		cmd += " " + f
	}
	return cmd
}
