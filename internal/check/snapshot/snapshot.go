// Package snapshot is fabricgen check's engine: it reads every device with
// its platform's collector, as the platform registry (package platforms)
// gives it, over the SSH sessions, credentials, inventory and known_hosts
// plan uses. The collectors live in their platform folders; the kit they
// share (Runner, Collector, helpers) is internal/check/collect.
package snapshot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/internal/check/collect"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// Lookup returns the platform's collector from the registry.
func Lookup(p schema.Platform) (collect.Collector, error) {
	pl, ok := platforms.Get(p)
	if !ok || pl.Collector == nil {
		return nil, fmt.Errorf("platform %q: fabricgen check has no collector for it", p)
	}
	return pl.Collector, nil
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
	// Users maps device names to the SSH user, overriding the username of
	// the device's credentials (an Ansible inventory's ansible_user).
	Users map[string]string
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
	// Runner, when set, gives the runner each device's collector reads
	// it with instead of an SSH session (check --local: a LocalRunner on
	// this host); credentials, host keys, inventory and Sessions are then
	// not used.
	Runner func(*schema.Device) (collect.Runner, error)
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

// now is the snapshot clock's time.
func (o *Options) now() time.Time {
	if o.Now == nil {
		return time.Now()
	}
	return o.Now()
}

// Take reads every device once, in parallel, each with its platform's
// collector from the registry. A device that cannot be read gets Error
// set; the error return is for a cancelled context only.
func Take(ctx context.Context, devs []*schema.Device, opts Options) (*check.Snapshot, error) {
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
	if opts.Runner != nil {
		r, err := opts.Runner(d)
		if err != nil {
			return fail(err)
		}
		out.Taken = opts.now()
		got, err := c.Collect(r, d)
		if err != nil {
			return fail(err)
		}
		got.Name, got.Platform, got.Taken = d.Name, d.Platform.V, out.Taken
		return got
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
	auth, err := session.ResolveAuth(d.Name, session.WithUser(d.Credentials, opts.Users[d.Name]), getenv, opts.Prompt)
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
