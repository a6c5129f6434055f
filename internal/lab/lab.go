// Package lab runs emulated network devices and RoCE hosts that speak each
// platform's CLI over real SSH on 127.0.0.1. Tests, benchmarks and
// `fabricgen demo` drive them with the same client code that talks to real
// boxes: one listener per device, an ed25519 host key per device, a
// known_hosts file for all of them, password and public-key auth, and a
// per-platform CLI emulator with modes, running config, transactions and
// fault injection.
package lab

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// DeviceSpec describes one emulated device.
type DeviceSpec struct {
	// Name is the device name; it becomes the hostname in the prompt.
	Name string
	// Platform selects the CLI emulator.
	Platform schema.Platform
	// Username and Password are the SSH credentials the device accepts.
	Username, Password string
	// AuthorizedKeys are public keys accepted for Username (optional).
	AuthorizedKeys []ssh.PublicKey
	// Ports names the interfaces the device has (switch ports or host
	// netdevs). Empty means the platform's default port list; a switch
	// accepts configuration for any well-formed interface name either way,
	// and a host with no Ports creates a netdev on first use.
	Ports []string
	// RunningConfig, when not empty, is the device's configuration at
	// start instead of the factory one, in the form Device.Export prints
	// (the platform folder's RunningConfig: running-config text, set
	// statements, CONFIG_DB JSON, or shell commands replayed on the
	// factory host; fabricgen platforms lists them). Statements
	// the lab does not know are kept verbatim and printed back where they
	// were. CRLF line endings are accepted; at most MaxRunningConfig bytes.
	RunningConfig string
	// Driver is a host's NIC kernel driver: mlx5_core (the default), ice
	// or bnxt_en (the hosts whose spec takes a driver). It decides the optional capabilities of the
	// emulated NICs: pfc-prevention-tout is mlx5's, the fw-lldp-agent
	// private flag ice's.
	Driver string
	// InboxDriver makes an MLNX_OFED host run the kernel's own mlx5
	// driver with mlnx-tools installed: mlnx_qos and cma_roce_tos work, the
	// MLNX_OFED ECN sysfs (ecn/roce_np, ecn/roce_rp) does not exist.
	InboxDriver bool
	// ASIC, HWSKU, Release and BufferModel describe a switch as the
	// intent gives them (asic, hwsku, os_version, the effective
	// buffer_model), for an emulator whose factory state depends on them
	// (SONiC's DEVICE_METADATA and buffer tables). Empty: the
	// emulator's default.
	ASIC, HWSKU, Release, BufferModel string
}

// SpecOf is the lab device of an intent device: its name, platform, NIC
// driver and, for a switch, the identity its emulator's factory state
// follows (asic, hwsku, release, effective buffer model). The caller adds
// credentials, ports and a running config.
func SpecOf(d *schema.Device) DeviceSpec {
	return DeviceSpec{Name: d.Name, Platform: d.Platform.V, Driver: d.Driver.V,
		ASIC: d.ASIC.V, HWSKU: d.HWSKU.V, Release: d.OSVersion.V.String(), BufferModel: d.BufferModel.V}
}

// MaxRunningConfig is the largest DeviceSpec.RunningConfig the lab takes.
const MaxRunningConfig = 16 << 20

// Options configures a lab.
type Options struct {
	// Dir receives the host keys (one <name>.key per device, reused when
	// present) and the known_hosts file. Required.
	Dir string
	// BasePort, when non-zero, gives device i the port BasePort+i (in the
	// order of the specs); zero picks free ports.
	BasePort int
	// Fabric, when set, is the intent whose links and NICs the data plane
	// sends traffic over (see internal/lab/dataplane); without it every
	// device still answers the data-plane commands, with ports that are up
	// and counters that stay at zero.
	Fabric *schema.Fabric
	// Clock is the data plane's clock (a new one when nil).
	Clock *dataplane.Clock
}

// Lab is a set of running emulated devices.
type Lab struct {
	dir        string
	knownHosts string
	devices    map[string]*Device
	order      []string
	dp         *dataplane.Model

	mu     sync.Mutex
	closed bool
}

// Start starts one SSH listener per spec on 127.0.0.1 and writes the host
// keys and a known_hosts file into opts.Dir. The devices serve until Close
// or until ctx is cancelled.
func Start(ctx context.Context, specs []DeviceSpec, opts Options) (*Lab, error) {
	if opts.Dir == "" {
		return nil, errors.New("lab: Options.Dir is empty: give a directory for host keys and known_hosts")
	}
	if len(specs) == 0 {
		return nil, errors.New("lab: no devices: give at least one DeviceSpec")
	}
	if err := os.MkdirAll(opts.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("lab: create %s: %w", opts.Dir, err)
	}
	l := &Lab{
		dir:        opts.Dir,
		knownHosts: filepath.Join(opts.Dir, "known_hosts"),
		devices:    make(map[string]*Device, len(specs)),
		dp:         dataplane.New(opts.Fabric, opts.Clock),
	}
	for i, sp := range specs {
		if err := validateSpec(sp); err != nil {
			_ = l.Close()
			return nil, fmt.Errorf("lab: device %d: %w", i, err)
		}
		if _, dup := l.devices[sp.Name]; dup {
			_ = l.Close()
			return nil, fmt.Errorf("lab: device %q is listed twice: device names must be unique", sp.Name)
		}
		signer, err := loadOrCreateHostKey(filepath.Join(opts.Dir, sp.Name+".key"))
		if err != nil {
			_ = l.Close()
			return nil, fmt.Errorf("lab: device %s: %w", sp.Name, err)
		}
		port := 0
		if opts.BasePort != 0 {
			port = opts.BasePort + i
		}
		sp.RunningConfig = normalizeText(sp.RunningConfig)
		l.dp.AddDevice(sp.Name, dataPlatform(sp.Platform), sp.Ports)
		d, err := startDevice(sp, signer, port, l.dp)
		if err != nil {
			_ = l.Close()
			if sp.RunningConfig != "" {
				return nil, fmt.Errorf("lab: device %s: running config: %w", sp.Name, err)
			}
			return nil, fmt.Errorf("lab: device %s: %w", sp.Name, err)
		}
		l.devices[sp.Name] = d
		l.order = append(l.order, sp.Name)
	}
	if err := l.writeKnownHosts(); err != nil {
		_ = l.Close()
		return nil, err
	}
	go func() {
		<-ctx.Done()
		_ = l.Close()
	}()
	return l, nil
}

func validateSpec(sp DeviceSpec) error {
	if sp.Name == "" {
		return errors.New("empty Name: every device needs a name")
	}
	if !validHostname(sp.Name) {
		return fmt.Errorf("name %q is not a valid hostname: use letters, digits, '-', '_' and '.' (at most 63)", sp.Name)
	}
	known := false
	for _, p := range platforms.NamesNeeding("lab emulator") {
		known = known || p == sp.Platform
	}
	if !known {
		names := make([]string, 0, 7)
		for _, p := range platforms.NamesNeeding("lab emulator") {
			names = append(names, string(p))
		}
		return fmt.Errorf("device %s: unknown platform %q: use one of %s", sp.Name, sp.Platform, strings.Join(names, ", "))
	}
	if sp.Username == "" {
		return fmt.Errorf("device %s: empty Username", sp.Name)
	}
	if sp.Password == "" && len(sp.AuthorizedKeys) == 0 {
		return fmt.Errorf("device %s: no Password and no AuthorizedKeys: give at least one way to log in", sp.Name)
	}
	if len(sp.RunningConfig) > MaxRunningConfig {
		return fmt.Errorf("device %s: RunningConfig is %d bytes, more than the %d the lab takes: trim the configuration", sp.Name, len(sp.RunningConfig), MaxRunningConfig)
	}
	return nil
}

// normalizeText turns CRLF and lone CR line ends into LF and drops a
// UTF-8 byte-order mark, as a configuration copied from Windows has them.
func normalizeText(s string) string {
	s = strings.TrimPrefix(s, "\ufeff")
	if !strings.Contains(s, "\r") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

func validHostname(s string) bool {
	if len(s) > 63 {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
		default:
			return false
		}
	}
	return true
}

// writeKnownHosts writes one line per device in spec order.
func (l *Lab) writeKnownHosts() error {
	var b strings.Builder
	for _, name := range l.order {
		d := l.devices[name]
		b.WriteString(knownhosts.Line([]string{knownhosts.Normalize(d.addr)}, d.hostKey().PublicKey()))
		b.WriteByte('\n')
	}
	if err := readlimit.WriteFile(l.knownHosts, []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("lab: write known_hosts: %w", err)
	}
	return nil
}

// Addr returns the device's "127.0.0.1:port", or "" for an unknown name.
func (l *Lab) Addr(name string) string {
	if d := l.devices[name]; d != nil {
		return d.addr
	}
	return ""
}

// DataPlane returns the lab's data plane.
func (l *Lab) DataPlane() *dataplane.Model { return l.dp }

// Clock returns the data plane's clock: counters move only when it is
// advanced.
func (l *Lab) Clock() *dataplane.Clock { return l.dp.Clock() }

// KnownHostsPath returns the known_hosts file holding every device's
// original host key.
func (l *Lab) KnownHostsPath() string { return l.knownHosts }

// Device returns the named device, or nil.
func (l *Lab) Device(name string) *Device { return l.devices[name] }

// Names returns the device names in the order they were given.
func (l *Lab) Names() []string { return append([]string(nil), l.order...) }

// RotateHostKey gives the device a fresh host key without updating
// known_hosts, so that clients see a changed key.
func (l *Lab) RotateHostKey(name string) error {
	d := l.devices[name]
	if d == nil {
		return fmt.Errorf("lab: rotate host key: no device %q", name)
	}
	signer, err := newHostKey()
	if err != nil {
		return fmt.Errorf("lab: rotate host key of %s: %w", name, err)
	}
	d.setHostKey(signer)
	return nil
}

// Close stops every listener and drops every connection.
func (l *Lab) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	l.mu.Unlock()
	var errs []error
	for _, name := range l.order {
		if err := l.devices[name].close(); err != nil && !errors.Is(err, net.ErrClosed) {
			errs = append(errs, fmt.Errorf("lab: close %s: %w", name, err))
		}
	}
	return errors.Join(errs...)
}

// RunningConfigFile names the file `fabricgen lab up --running-config`
// reads for a device: NAME.EXT with the platform's extension in the lab's
// platform folder (RunningConfigFormats), or NAME.cfg for a platform the lab does
// not emulate (Start refuses it with the platforms it knows).
func RunningConfigFile(name string, p schema.Platform) string {
	if pl, ok := emulated(platforms.Needing("lab emulator"), p); ok {
		return name + "." + pl.RunningConfig.Ext
	}
	return name + ".cfg"
}

// CheckRunningConfig loads sp.RunningConfig as Start would, without
// starting the device, and returns what Start would report about it.
func CheckRunningConfig(sp DeviceSpec) error {
	if len(sp.RunningConfig) > MaxRunningConfig {
		return fmt.Errorf("%d bytes is more than the %d the lab takes: trim the configuration", len(sp.RunningConfig), MaxRunningConfig)
	}
	sp.RunningConfig = normalizeText(sp.RunningConfig)
	env := &cli.Env{Spec: specOf(sp), Now: time.Now, AfterFunc: func(time.Duration, func()) func() { return func() {} }}
	_, err := newEmulator(env)
	return err
}
