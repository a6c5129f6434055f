// Package collect reads the live state of each device for fabricgen
// check: one collector per platform (a registry keyed by schema.Platform,
// with a test that fails for a platform without one), each running only
// read-only commands with structured output where the platform has it,
// over the SSH sessions, credentials, inventory and known_hosts plan uses.
// Parsers take the command output as text and fill a check.Device;
// every parser has a fuzz target.
package collect

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// Runner runs one read-only command on a device and returns its output;
// a command the device refuses is an error.
type Runner interface {
	Run(cmd string) (string, error)
}

// Collector reads one device of its platform.
type Collector interface {
	// Commands lists what Collect may run on the device (for docs and
	// the read-only test), with IF for a port and DEV for an RDMA device.
	Commands() []string
	// Collect reads the device into a snapshot device.
	Collect(r Runner, dev *schema.Device) (*check.Device, error)
}

// collectors is the registry: one collector per platform.
func collectors() map[schema.Platform]Collector {
	return map[schema.Platform]Collector{
		schema.AristaEOS:     eosCollector{},
		schema.CiscoNXOS:     nxosCollector{},
		schema.JuniperJunos:  junosCollector{},
		schema.NvidiaCumulus: cumulusCollector{},
		schema.SONiC:         sonicCollector{},
		schema.NvidiaMLNX:    hostCollector{},
		schema.LinuxDCB:      hostCollector{},
	}
}

// Lookup returns the platform's collector.
func Lookup(p schema.Platform) (Collector, error) {
	c := collectors()[p]
	if c == nil {
		return nil, fmt.Errorf("platform %q: fabricgen check has no collector for it", p)
	}
	return c, nil
}

// Options configure a collection.
type Options struct {
	// Parallelism bounds the devices read at once (default 16).
	Parallelism int
	// Timeout bounds the handshake and each command (default 30 s).
	Timeout time.Duration
	// MaxOutput bounds the bytes one device may send in answer to one
	// command (0: session.DefaultMaxOutput): check reads through the same
	// bounded session as plan and apply.
	MaxOutput int64
	HostKeys  *session.HostKeys
	// Inventory maps device names to "host:port", overriding mgmt_address.
	Inventory map[string]string
	// Getenv reads password and passphrase variables.
	Getenv func(string) string
	// Prompt asks for a key passphrase; nil when not interactive.
	Prompt func(string) (string, error)
	// Now is the clock snapshots are timed with (default time.Now; a
	// lab's clock for a lab).
	Now func() time.Time
	// Clock names Now's clock in the snapshot.
	Clock check.Clock
	// Sessions, when set, keeps each device's session open from one
	// snapshot to the next (a check logs in once per device, not once
	// per reading); nil opens and closes a session per reading.
	Sessions *Sessions
}

// Sessions holds one open session per device between snapshots. It is
// safe for concurrent use; Close ends every session it holds.
type Sessions struct {
	ctx   context.Context
	mu    sync.Mutex
	conns map[string]*session.Conn
}

// NewSessions returns an empty pool whose sessions end with ctx.
func NewSessions(ctx context.Context) *Sessions {
	return &Sessions{ctx: ctx, conns: map[string]*session.Conn{}}
}

// take removes and returns the device's open session, or nil.
func (s *Sessions) take(name string) *session.Conn {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.conns[name]
	delete(s.conns, name)
	if c != nil && !c.Alive() {
		_ = c.Close()
		return nil
	}
	return c
}

// put keeps a session for the next snapshot (it closes it without a pool).
func (s *Sessions) put(name string, c *session.Conn) {
	if s == nil {
		_ = c.Close()
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.conns[name]; old != nil {
		_ = old.Close()
	}
	s.conns[name] = c
}

// Close ends every session the pool holds.
func (s *Sessions) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for n, c := range s.conns {
		_ = c.Close()
		delete(s.conns, n)
	}
	return nil
}

func (o *Options) now() time.Time {
	if o.Now == nil {
		return time.Now()
	}
	return o.Now()
}

// Snapshot reads every device once, in parallel. A device that cannot be
// read gets Error set; the error return is for a cancelled context only.
func Snapshot(ctx context.Context, devs []*schema.Device, opts Options) (*check.Snapshot, error) {
	if opts.Clock == "" {
		opts.Clock = check.ClockWall
	}
	s := &check.Snapshot{Taken: opts.now(), Clock: opts.Clock, Devices: make([]*check.Device, len(devs))}
	g, gctx := errgroup.WithContext(ctx)
	par := opts.Parallelism
	if par <= 0 {
		par = 16
	}
	g.SetLimit(par)
	// One dialect per platform for the whole snapshot: building one
	// compiles its patterns.
	dialects := map[schema.Platform]*dialect.Dialect{}
	for _, d := range devs {
		if _, ok := dialects[d.Platform.V]; !ok {
			dl, err := platforms.Dialect(d.Platform.V)
			if err == nil {
				dialects[d.Platform.V] = dl
			}
		}
	}
	for i, d := range devs {
		g.Go(func() error {
			s.Devices[i] = readDevice(gctx, d, dialects[d.Platform.V], &opts)
			return nil
		})
	}
	_ = g.Wait()
	if err := ctx.Err(); err != nil {
		return s, fmt.Errorf("check interrupted: %w", err)
	}
	s.Sort()
	return s, nil
}

// readDevice runs the device's collector on its kept session (opts.Sessions)
// or a new one. A kept session that fails is replaced once: the device
// may have ended it while idle between the readings.
func readDevice(ctx context.Context, d *schema.Device, dl *dialect.Dialect, opts *Options) *check.Device {
	out := &check.Device{Name: d.Name, Platform: d.Platform.V, Taken: opts.now()}
	fail := func(err error) *check.Device {
		out.Error = err.Error()
		return out
	}
	c, err := Lookup(d.Platform.V)
	if err != nil {
		return fail(err)
	}
	if dl == nil {
		if dl, err = platforms.Dialect(d.Platform.V); err != nil {
			return fail(err)
		}
	}
	sessCtx := ctx
	if opts.Sessions != nil {
		// A kept session outlives this snapshot's group context.
		sessCtx = opts.Sessions.ctx
	}
	conn := opts.Sessions.take(d.Name)
	for attempt := 0; ; attempt++ {
		kept := conn != nil
		if !kept {
			if conn, err = connect(sessCtx, d, dl, opts); err != nil {
				return fail(err)
			}
		}
		out.Taken = opts.now()
		got, err := c.Collect(&connRunner{conn: conn, shell: dl.Driver == dialect.DriverGeneric}, d)
		if err != nil {
			_ = conn.Close()
			conn = nil
			if kept && attempt == 0 && ctx.Err() == nil {
				continue
			}
			return fail(err)
		}
		opts.Sessions.put(d.Name, conn)
		got.Name, got.Platform, got.Taken = d.Name, d.Platform.V, out.Taken
		return got
	}
}

// connect resolves the device's credentials and opens a session, as plan does.
func connect(ctx context.Context, d *schema.Device, dl *dialect.Dialect, opts *Options) (*session.Conn, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	auth, err := session.ResolveAuth(d.Name, d.Credentials, getenv, opts.Prompt)
	if err != nil {
		return nil, err
	}
	if opts.HostKeys == nil {
		return nil, fmt.Errorf("%s: no host key policy: pass --known-hosts FILE or --insecure-ignore-host-key", d.Name)
	}
	addr, ok := opts.Inventory[d.Name]
	if !ok {
		addr = d.MgmtAddress.V
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	conn, err := session.Open(ctx, session.Target{Name: d.Name, Addr: addr, Dialect: dl, Auth: auth, HostKeys: opts.HostKeys, Timeout: timeout, Getenv: getenv,
		MaxOutput: opts.MaxOutput, TrailingPrompt: true})
	if err != nil {
		msg := err.Error()
		for _, s := range auth.Secrets() {
			msg = strings.ReplaceAll(msg, s, "<redacted>")
		}
		return nil, errors.New(msg)
	}
	return conn, nil
}

// connRunner runs commands on a session: Show on a network CLI, a shell
// command with its exit status on a Linux shell.
type connRunner struct {
	conn  *session.Conn
	shell bool
}

func (r *connRunner) Run(cmd string) (string, error) {
	if !r.shell {
		return r.conn.Show(cmd)
	}
	out, status, _, err := r.conn.Run(cmd)
	if err != nil {
		return "", err
	}
	if status != 0 {
		return "", fmt.Errorf("%q exited with status %d: %s", cmd, status, firstLine(out))
	}
	return out, nil
}

// RunStatus runs a shell command and returns its output and exit status.
func (r *connRunner) RunStatus(cmd string) (string, int, error) {
	out, status, _, err := r.conn.Run(cmd)
	return out, status, err
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// linkedPorts are the device's intent ports on a link, in natural order.
func linkedPorts(d *schema.Device) []*schema.Port {
	var out []*schema.Port
	for _, p := range d.Ports {
		if p.Link != nil {
			out = append(out, p)
		}
	}
	return out
}

// newDevice starts a snapshot device with the ports the intent links.
func newDevice(d *schema.Device) *check.Device {
	out := &check.Device{Sources: map[string]string{}}
	for _, p := range linkedPorts(d) {
		out.Ports = append(out.Ports, &check.Port{Name: p.Name, Counters: map[string]uint64{}, Gauges: map[string]float64{}})
	}
	return out
}

// missing records metric families the platform does not expose.
func missing(d *check.Device, fams ...string) {
	d.Missing = append(d.Missing, fams...)
	sort.Strings(d.Missing)
}

// source records the command a family was read with.
func source(d *check.Device, cmd string, fams ...string) {
	for _, f := range fams {
		d.Sources[f] = cmd
	}
}

// portTemplate is a per-port command with IF in place of the port.
func portTemplate(cmd, port string) string {
	f := strings.Fields(cmd)
	for i, w := range f {
		if w == port {
			f[i] = "IF"
		}
	}
	return strings.Join(f, " ")
}

// portSource records the command a family of one port was read with,
// for platforms that read each port with its own command; the device
// keeps the command with IF (and DEV) in place of the port.
func portSource(d *check.Device, p *check.Port, cmd, template string, fams ...string) {
	if p.Sources == nil {
		p.Sources = map[string]string{}
	}
	for _, f := range fams {
		p.Sources[f] = cmd
		d.Sources[f] = template
	}
}
