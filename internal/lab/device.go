package lab

import (
	"fmt"
	"net"
	"regexp"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/internal/lab/sshserver"
	"github.com/fabricgen/fabricgen/platforms"
)

// Device is one running emulated device.
type Device struct {
	spec DeviceSpec
	addr string
	srv  *sshserver.Server

	keyMu  sync.Mutex
	signer ssh.Signer

	// mu guards everything below, including all emulator state.
	mu          sync.Mutex
	emu         cli.Emulator
	fault       Fault
	reject      *regexp.Regexp
	stream      *regexp.Regexp
	configCount int
	timers      map[*time.Timer]func()
	hist        []string
	executed    [][]string
	// faultCh is closed (and replaced) whenever the fault changes, so a
	// delayed answer ends at once when its fault is cleared.
	faultCh chan struct{}
	// done is closed when the device closes.
	done   chan struct{}
	closed bool
	// dp is the lab's data plane; the device gives it its configuration
	// whenever a command may have changed it.
	dp *dataplane.Model
	// hooks run once, before the line that first matches them is handled.
	hooks []*hook
}

// hook is an event armed with Device.Before.
type hook struct {
	re  *regexp.Regexp
	act Happening
	// err is what the event returned, for Wait.
	err  error
	done chan struct{}
}

// Happening is something that happens on a device at a chosen instant,
// armed with Device.Before: another administrator's change (OutOfBand, in
// ConfigureOutOfBand's form) and/or the device's confirm timers running
// out (ExpireTimers), in that order, and/or the device turning slow
// (Delay).
type Happening struct {
	OutOfBand    []string
	ExpireTimers bool
	// Delay, when positive, becomes the device's answer delay from this
	// line on (Fault.Delay), as a device that turns slow mid-change.
	Delay time.Duration
}

// Armed is a Happening armed with Device.Before.
type Armed struct{ h *hook }

// Wait waits until the happening ran (or the timeout passed) and returns
// its error: an out-of-band change the device refused (a Junos exclusive
// lock, say) is that error.
func (a Armed) Wait(timeout time.Duration) error {
	select {
	case <-a.h.done:
		return a.h.err
	case <-time.After(timeout):
		return fmt.Errorf("lab: the line matching %q never came within %s", a.h.re, timeout)
	}
}

// Done is closed once the happening ran.
func (a Armed) Done() <-chan struct{} { return a.h.done }

// Ran reports whether the happening ran.
func (a Armed) Ran() bool {
	select {
	case <-a.h.done:
		return true
	default:
		return false
	}
}

// Before arms a happening: right before the device handles the next line
// (from any login) matching the regular expression pattern, as typed and
// trimmed, the happening runs under the device lock — exactly between the
// line's arrival and its effect, as on a slow device whose timer fires or
// whose other administrator commits while that command is in flight. It
// runs once.
func (d *Device) Before(pattern string, h Happening) (Armed, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return Armed{}, fmt.Errorf("lab: Before: %q: %w", pattern, err)
	}
	k := &hook{re: re, act: h, done: make(chan struct{})}
	d.mu.Lock()
	d.hooks = append(d.hooks, k)
	d.mu.Unlock()
	return Armed{k}, nil
}

// runHooks runs the armed happenings the line matches; d.mu is held.
func (d *Device) runHooks(line string) {
	kept := d.hooks[:0]
	for _, k := range d.hooks {
		if !k.re.MatchString(line) {
			kept = append(kept, k)
			continue
		}
		if len(k.act.OutOfBand) > 0 {
			if err := d.emu.OutOfBand(k.act.OutOfBand); err != nil {
				k.err = fmt.Errorf("lab: %s: out-of-band change: %w", d.spec.Name, err)
			}
		}
		if k.act.ExpireTimers {
			d.emu.ExpireTimers()
		}
		if k.act.Delay > 0 {
			d.fault.Delay = k.act.Delay
		}
		d.pushConfig()
		close(k.done)
	}
	d.hooks = kept
}

// specOf is the part of a DeviceSpec an emulator sees.
func specOf(sp DeviceSpec) cli.Spec {
	return cli.Spec{Name: sp.Name, Platform: sp.Platform, Username: sp.Username, Password: sp.Password,
		Ports: sp.Ports, RunningConfig: sp.RunningConfig, Driver: sp.Driver, InboxDriver: sp.InboxDriver,
		ASIC: sp.ASIC, HWSKU: sp.HWSKU, Release: sp.Release, BufferModel: sp.BufferModel}
}

func startDevice(sp DeviceSpec, signer ssh.Signer, port int, dp *dataplane.Model) (*Device, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", fmt.Sprint(port)))
	if err != nil {
		return nil, fmt.Errorf("listen on 127.0.0.1:%d: %w", port, err)
	}
	d := &Device{
		spec:    sp,
		addr:    ln.Addr().String(),
		signer:  signer,
		timers:  map[*time.Timer]func(){},
		faultCh: make(chan struct{}),
		done:    make(chan struct{}),
		dp:      dp,
	}
	env := &cli.Env{Spec: specOf(sp), AfterFunc: d.afterFunc, Now: time.Now, Executed: d.recordExecuted, DataPlane: dp.View(sp.Name)}
	emu, err := newEmulator(env)
	if err != nil {
		_ = ln.Close()
		return nil, err
	}
	d.emu = emu
	d.pushConfig()
	d.srv = sshserver.Serve(ln, served{d})
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
		d.pushConfig()
	})
	d.timers[t] = fn
	return func() {
		t.Stop()
		delete(d.timers, t)
	}
}

// FireTimers runs every pending timer of the device now, as if all the
// time had passed: the tests of a platform folder use it for the 24-hour
// EOS session timeout and the confirm timers.
func (d *Device) FireTimers() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for len(d.timers) > 0 {
		for t, fn := range d.timers {
			t.Stop()
			delete(d.timers, t)
			fn()
			d.pushConfig()
			break
		}
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
	return d.emu.Running()
}

// Export returns the device's configuration in the form
// DeviceSpec.RunningConfig and `fabricgen lab up --running-config` read and
// `fabricgen lab show` prints: RunningConfig for the switches except Junos,
// whose form is `show configuration | display set`, and for hosts the
// shell commands that give a factory host this NIC state.
func (d *Device) Export() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.emu.Export()
}

// SetFault replaces the device's fault; DropAfter counts from now. An
// answer being delayed by the old fault is sent at once. An invalid Reject
// pattern matches its literal text; call Fault.Validate first to catch it.
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
	if d.dp != nil {
		// Checked by CheckFault; an unfit fault is left out here.
		_ = d.dp.SetFaults(d.spec.Name, f.Data)
	}
	d.reject = compileReject(f.Reject)
	d.stream = compileReject(f.Stream)
	d.configCount = 0
	close(d.faultCh)
	d.faultCh = make(chan struct{})
}

// Fault returns the device's fault now: DropAfter is what is left of the
// count (0 once the drop has happened).
func (d *Device) Fault() Fault {
	d.mu.Lock()
	defer d.mu.Unlock()
	f := d.fault
	if f.DropAfter > 0 {
		f.DropAfter -= d.configCount
	}
	return f
}

// CheckFault reports whether the fault's data-plane part fits the device
// (ports it has, host or switch faults on the right kind of device),
// without changing anything.
func (d *Device) CheckFault(f Fault) error {
	if err := f.Validate(); err != nil {
		return err
	}
	if d.dp != nil {
		if err := d.dp.CheckFaults(d.spec.Name, f.Data); err != nil {
			return fmt.Errorf("fault: %w", err)
		}
		return nil
	}
	probe := dataplane.New(nil, nil)
	probe.AddDevice(d.spec.Name, dataPlatform(d.spec.Platform), d.portNames())
	if err := probe.SetFaults(d.spec.Name, f.Data); err != nil {
		return fmt.Errorf("fault: %w", err)
	}
	return nil
}

// portNames are the ports the data plane knows for the device.
func (d *Device) portNames() []string {
	if d.dp != nil {
		return d.dp.PortNames(d.spec.Name)
	}
	return d.spec.Ports
}

// ClearCounters zeroes the device's data-plane counters, as `clear
// counters` or a restart would.
func (d *Device) ClearCounters() {
	if d.dp != nil {
		d.dp.ClearCounters(d.spec.Name)
	}
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
	defer d.pushConfig()
	if err := d.emu.OutOfBand(lines); err != nil {
		return fmt.Errorf("lab: %s: out-of-band change: %w", d.spec.Name, err)
	}
	return nil
}

// pushConfig gives the data plane the device's configuration as it is
// now: Export for switches, the NIC state dump for hosts; d.mu is held.
func (d *Device) pushConfig() {
	if d.dp == nil || d.emu == nil {
		return
	}
	if platforms.IsHost(d.spec.Platform) {
		d.dp.SetConfig(d.spec.Name, d.emu.Running())
		return
	}
	d.dp.SetConfig(d.spec.Name, d.emu.Export())
}

// ExpireTimers fires every pending confirm timer now (EOS commit timer,
// Junos commit confirmed, NVUE apply --confirm), as if the operator never
// confirmed.
func (d *Device) ExpireTimers() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.emu.ExpireTimers()
	d.pushConfig()
}

// History returns the commands the device has received, oldest first
// (at most the last 10,000).
func (d *Device) History() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.hist...)
}

const maxHistory = 10000

// Executed returns the simple commands the device's shells ran (hosts,
// Cumulus and SONiC), oldest first, at most the last 10,000: each is its
// argv after expansion, quoted as a shell would need it to run it again
// (an argument with blanks or shell characters in single quotes). Commands
// inside $(...), backticks, eval, sh -c and under sudo, env or xargs are
// there too, and so are commands the device does not know (answered
// "command not found", status 127): a test proves that no injected command
// ran by finding it absent.
func (d *Device) Executed() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]string, len(d.executed))
	for i, argv := range d.executed {
		out[i] = quoteArgv(argv)
	}
	return out
}

// ExecutedArgv is Executed as argument vectors, unquoted.
func (d *Device) ExecutedArgv() [][]string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([][]string, len(d.executed))
	for i, argv := range d.executed {
		out[i] = append([]string(nil), argv...)
	}
	return out
}

// recordExecuted is deviceEnv.executed; the device lock is held.
func (d *Device) recordExecuted(argv []string) {
	if len(d.executed) >= maxHistory {
		d.executed = append(d.executed[:0], d.executed[len(d.executed)-maxHistory/2:]...)
	}
	d.executed = append(d.executed, argv)
}

// quoteArgv prints an argv the way a shell would need it typed.
func quoteArgv(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		parts[i] = shellQuote(a)
	}
	return strings.Join(parts, " ")
}

// shellQuote single-quotes a word that holds anything but letters, digits
// and -_./:=,@%+.
func shellQuote(w string) string {
	if w == "" {
		return "''"
	}
	plain := true
	for _, r := range w {
		if !plainRune(r) {
			plain = false
			break
		}
	}
	if plain {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// plainRune reports whether r needs no quoting in a shell word.
func plainRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,@%+", r)
}

func (d *Device) record(line string) {
	if len(d.hist) >= maxHistory {
		d.hist = append(d.hist[:0], d.hist[len(d.hist)-maxHistory/2:]...)
	}
	d.hist = append(d.hist, line)
}

func (d *Device) close() error {
	d.mu.Lock()
	if !d.closed {
		close(d.done)
	}
	d.closed = true
	for t := range d.timers {
		t.Stop()
	}
	d.timers = nil
	d.mu.Unlock()
	return d.srv.Close()
}

// confirmer is an emulator whose commits can wait for confirmation.
type confirmer interface {
	// PendingConfirm reports whether a commit waits for its confirm
	// timer.
	PendingConfirm() bool
}

// PendingConfirm reports whether a commit waits for its confirm timer on
// the device (EOS commit timer, Junos commit confirmed, NVUE apply
// --confirm); always false on platforms without one.
func (d *Device) PendingConfirm() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	c, ok := d.emu.(confirmer)
	return ok && c.PendingConfirm()
}

// Shell runs one line on the device in-process, as an SSH login would
// run it (a new session, the device's faults, its history), and returns
// the output and exit status: the lab's side of a runner that reads a
// host without SSH (check --local against the lab). Output that never
// ends (the stream fault) is an error.
func (d *Device) Shell(line string) (string, int, error) {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return "", 0, fmt.Errorf("%s: the lab device is closed", d.spec.Name)
	}
	s := d.emu.NewSession(&cli.Term{}, d.spec.Username)
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		s.Disconnect()
		d.mu.Unlock()
	}()
	r, _ := d.dispatch(s, line)
	if r.Endless != nil {
		return "", 0, fmt.Errorf("%s: %q: the output never ends", d.spec.Name, line)
	}
	return r.Out, r.Status, nil
}
