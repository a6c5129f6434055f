package lab

import (
	"fmt"
	"net"
	"regexp"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"
)

// Device is one running emulated device.
type Device struct {
	spec DeviceSpec
	addr string
	ln   net.Listener
	wg   sync.WaitGroup

	keyMu  sync.Mutex
	signer ssh.Signer

	// mu guards everything below, including all emulator state.
	mu          sync.Mutex
	emu         emulator
	fault       Fault
	reject      *regexp.Regexp
	configCount int
	conns       map[net.Conn]struct{}
	timers      map[*time.Timer]struct{}
	hist        []string
	closed      bool
}

// deviceEnv is what an emulator may use from its device.
type deviceEnv struct {
	spec DeviceSpec
	// afterFunc runs fn after dur with the device lock held; the returned
	// function cancels it.
	afterFunc func(dur time.Duration, fn func()) (cancel func())
	// now returns the current time (for timestamps in headers).
	now func() time.Time
}

func startDevice(sp DeviceSpec, signer ssh.Signer, port int) (*Device, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", fmt.Sprint(port)))
	if err != nil {
		return nil, fmt.Errorf("listen on 127.0.0.1:%d: %w", port, err)
	}
	d := &Device{
		spec:   sp,
		addr:   ln.Addr().String(),
		ln:     ln,
		signer: signer,
		conns:  map[net.Conn]struct{}{},
		timers: map[*time.Timer]struct{}{},
	}
	env := &deviceEnv{spec: sp, afterFunc: d.afterFunc, now: time.Now}
	emu, err := newEmulator(env)
	if err != nil {
		_ = ln.Close()
		return nil, err
	}
	d.emu = emu
	d.wg.Add(1)
	go d.acceptLoop()
	return d, nil
}

// afterFunc schedules fn under the device lock.
func (d *Device) afterFunc(dur time.Duration, fn func()) func() {
	var t *time.Timer
	t = time.AfterFunc(dur, func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		if _, live := d.timers[t]; !live || d.closed {
			return
		}
		delete(d.timers, t)
		fn()
	})
	d.timers[t] = struct{}{}
	return func() {
		t.Stop()
		delete(d.timers, t)
	}
}

func (d *Device) hostKey() ssh.Signer {
	d.keyMu.Lock()
	defer d.keyMu.Unlock()
	return d.signer
}

func (d *Device) setHostKey(s ssh.Signer) {
	d.keyMu.Lock()
	d.signer = s
	d.keyMu.Unlock()
}

// Name returns the device name.
func (d *Device) Name() string { return d.spec.Name }

// Addr returns "127.0.0.1:port".
func (d *Device) Addr() string { return d.addr }

// HostKey returns the device's current public host key.
func (d *Device) HostKey() ssh.PublicKey { return d.hostKey().PublicKey() }

// RunningConfig returns exactly what the platform's running-config command
// prints (`show running-config`, `show configuration`, `nv config show -o
// commands`, `show runningconfiguration all`), or the host's NIC state dump.
func (d *Device) RunningConfig() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.emu.running()
}

// SetFault replaces the device's fault. An invalid Reject pattern matches
// its literal text; call Fault.Validate first to catch it.
func (d *Device) SetFault(f Fault) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if f.DropAfter < 0 {
		f.DropAfter = 0
	}
	if f.Delay < 0 {
		f.Delay = 0
	}
	d.fault = f
	d.reject = compileReject(f.Reject)
	d.configCount = 0
}

// ClearFault removes any fault.
func (d *Device) ClearFault() { d.SetFault(Fault{}) }

// ConfigureOutOfBand changes the running configuration as another
// administrator would, between a plan and an apply. The lines use the
// platform's configuration syntax (config-mode lines with indentation for
// sub-modes, Junos set statements, nv set/unset commands, SONiC JSON patch
// operations as one JSON document, or host shell commands).
func (d *Device) ConfigureOutOfBand(lines []string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.emu.outOfBand(lines); err != nil {
		return fmt.Errorf("lab: %s: out-of-band change: %w", d.spec.Name, err)
	}
	return nil
}

// ExpireTimers fires every pending confirm timer now (EOS commit timer,
// Junos commit confirmed, NVUE apply --confirm), as if the operator never
// confirmed.
func (d *Device) ExpireTimers() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.emu.expireTimers()
}

// History returns the commands the device has received, oldest first
// (at most the last 10,000).
func (d *Device) History() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.hist...)
}

const maxHistory = 10000

func (d *Device) record(line string) {
	if len(d.hist) >= maxHistory {
		d.hist = append(d.hist[:0], d.hist[len(d.hist)-maxHistory/2:]...)
	}
	d.hist = append(d.hist, line)
}

func (d *Device) close() error {
	d.mu.Lock()
	d.closed = true
	for t := range d.timers {
		t.Stop()
	}
	d.timers = nil
	for c := range d.conns {
		_ = c.Close()
	}
	d.mu.Unlock()
	err := d.ln.Close()
	d.wg.Wait()
	return err
}
