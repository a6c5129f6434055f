package lab

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The control socket lets another process change a running lab: `fabricgen
// lab up` serves it in its directory, `fabricgen lab fault` and `fabricgen
// lab show` talk to it. The protocol is line-delimited JSON on a unix
// socket (mode 0600): one ControlRequest per line, one ControlReply per
// line, in order, any number per connection.

// ControlSocket is the name of the control socket in a lab's directory.
const ControlSocket = "control.sock"

// maxControlLine bounds one request line.
const maxControlLine = 1 << 20

// maxClockAdvance bounds one clock advance.
const maxClockAdvance = 24 * time.Hour

// maxSocketPath is the longest path a unix socket address takes on Linux.
const maxSocketPath = 107

// ControlRequest is one control request.
type ControlRequest struct {
	// Op is "fault" (change a device's fault), "show" (its configuration
	// in the form Device.Export prints), "configure" (change it out of
	// band), "expire-timers" (fire the
	// device's pending confirm timers now, Device.ExpireTimers), "clock"
	// (read or advance the data plane's clock), "devices" (list them) or
	// "ping".
	Op string `json:"op"`
	// Device names the device for fault and show.
	Device string `json:"device,omitempty"`
	// Set holds KEY=VALUE fault settings (Fault.Set), applied on top of
	// the device's current fault.
	Set []string `json:"set,omitempty"`
	// Clear removes the device's fault first.
	Clear bool `json:"clear,omitempty"`
	// Advance, for the clock op, moves the lab clock forward by this
	// duration ("10s"); empty only reads it.
	Advance string `json:"advance,omitempty"`
	// Lines, for the configure op, change the device's configuration as
	// another administrator would (Device.ConfigureOutOfBand).
	Lines []string `json:"lines,omitempty"`
}

// ControlReply answers one ControlRequest.
type ControlReply struct {
	// OK is false when the request failed; Error says why.
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
	// Fault is the device's fault after a fault request (Fault.String).
	Fault string `json:"fault,omitempty"`
	// Output is the configuration a show request asked for, or what an
	// expire-timers request did.
	Output string `json:"output,omitempty"`
	// Devices lists the lab's devices for a devices request.
	Devices []ControlDevice `json:"devices,omitempty"`
	// Clock is the lab clock after a clock request: the time since the
	// lab started on it ("1m10s"), and as a wall time (RFC 3339, from
	// dataplane.Epoch) for snapshots.
	Clock     string `json:"clock,omitempty"`
	ClockTime string `json:"clock_time,omitempty"`
}

// ControlDevice describes one device of a running lab.
type ControlDevice struct {
	// Name, Platform and Addr (127.0.0.1:port) identify the device;
	// Fault is its fault now (Fault.String).
	Name     string `json:"name"`
	Platform string `json:"platform"`
	Addr     string `json:"addr"`
	Fault    string `json:"fault"`
}

// ControlServer serves a lab's control socket.
type ControlServer struct {
	lab  *Lab
	path string
	ln   *net.UnixListener

	// op serialises requests, so two clients merging faults do not race.
	op sync.Mutex

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup

	closeOnce sync.Once
	closeErr  error
}

// ServeControl listens on the unix socket path (mode 0600) and answers
// control requests until ctx ends or Close is called; Close removes the
// socket. A socket file nobody answers on (left by a lab that was killed)
// is replaced; one a live lab answers on is an error, as is any other file
// at path.
func (l *Lab) ServeControl(ctx context.Context, path string) (*ControlServer, error) {
	if len(path) > maxSocketPath {
		return nil, fmt.Errorf("lab: control socket %s is %d bytes long, more than the %d a unix socket takes: use a shorter lab directory", path, len(path), maxSocketPath)
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, fmt.Errorf("lab: %s exists and is not a socket: remove it or use another lab directory", path)
		}
		var d net.Dialer
		dctx, cancel := context.WithTimeout(ctx, time.Second)
		c, derr := d.DialContext(dctx, "unix", path)
		cancel()
		if derr == nil {
			_ = c.Close()
			return nil, fmt.Errorf("lab: another lab is running in %s (it answers on %s): stop it first or use another lab directory", filepath.Dir(path), path)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("lab: remove the stale control socket %s: %w", path, err)
		}
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("lab: listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("lab: restrict %s to its owner: %w", path, err)
	}
	s := &ControlServer{lab: l, path: path, ln: ln, conns: map[net.Conn]struct{}{}}
	s.wg.Add(1)
	go s.accept()
	stop := context.AfterFunc(ctx, func() { _ = s.Close() })
	go func() {
		s.wg.Wait()
		stop()
	}()
	return s, nil
}

// Path returns the socket's path.
func (s *ControlServer) Path() string { return s.path }

// Close stops serving, drops the connections and removes the socket. A
// Close that runs while another is in progress (the context's) returns
// when the socket is gone, not before.
func (s *ControlServer) Close() error {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		for c := range s.conns {
			_ = c.Close()
		}
		s.mu.Unlock()
		err := s.ln.Close()
		if errors.Is(err, net.ErrClosed) {
			err = nil
		}
		if rerr := os.Remove(s.path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) && err == nil {
			err = rerr
		}
		s.closeErr = err
	})
	return s.closeErr
}

func (s *ControlServer) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			_ = c.Close()
			return
		}
		s.conns[c] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.wg.Done()
			s.serve(c)
			s.mu.Lock()
			delete(s.conns, c)
			s.mu.Unlock()
			_ = c.Close()
		}()
	}
}

// serve answers the requests of one connection; a line longer than
// maxControlLine is answered with an error and ends the connection.
func (s *ControlServer) serve(c net.Conn) {
	r := bufio.NewReaderSize(c, 64<<10)
	enc := json.NewEncoder(c)
	for {
		line, err := readLine(r, maxControlLine)
		if errors.Is(err, errLineTooLong) {
			_ = enc.Encode(ControlReply{Error: fmt.Sprintf("request longer than %d bytes: send one JSON object per line", maxControlLine)})
			return
		}
		if err != nil {
			return
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if err := enc.Encode(s.handle(line)); err != nil {
			return
		}
	}
}

var errLineTooLong = errors.New("line too long")

// readLine reads one line of at most limit bytes (without the newline).
func readLine(r *bufio.Reader, limit int) (string, error) {
	var b strings.Builder
	for {
		chunk, err := r.ReadSlice('\n')
		if b.Len()+len(chunk) > limit+1 {
			return "", errLineTooLong
		}
		b.Write(chunk)
		switch {
		case err == nil:
			return strings.TrimSuffix(b.String(), "\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && b.Len() > 0:
			return b.String(), nil
		default:
			return "", err
		}
	}
}

// handle answers one request line.
func (s *ControlServer) handle(line string) ControlReply {
	var req ControlRequest
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return ControlReply{Error: fmt.Sprintf("malformed request: %v: send {\"op\":\"fault\"|\"show\"|\"expire-timers\"|\"configure\"|\"clock\"|\"devices\"|\"ping\", ...} on one line", err)}
	}
	s.op.Lock()
	defer s.op.Unlock()
	l := s.lab
	device := func() (*Device, *ControlReply) {
		d := l.Device(req.Device)
		if d == nil {
			return nil, &ControlReply{Error: fmt.Sprintf("no device %q in this lab: use one of %s", req.Device, strings.Join(l.Names(), ", "))}
		}
		return d, nil
	}
	switch req.Op {
	case "ping":
		return ControlReply{OK: true}
	case "configure":
		d, bad := device()
		if bad != nil {
			return *bad
		}
		if len(req.Lines) == 0 {
			return ControlReply{Error: "configure request without lines"}
		}
		if err := d.ConfigureOutOfBand(req.Lines); err != nil {
			return ControlReply{Error: err.Error()}
		}
		return ControlReply{OK: true, Output: fmt.Sprintf("%d line(s) applied out of band", len(req.Lines))}
	case "clock":
		c := l.Clock()
		if req.Advance != "" {
			d, err := time.ParseDuration(req.Advance)
			if err != nil || d <= 0 || d > maxClockAdvance {
				return ControlReply{Error: fmt.Sprintf("advance %q: give a duration from 1ns to %s, such as 10s", req.Advance, maxClockAdvance)}
			}
			c.Advance(d)
		}
		return ControlReply{OK: true, Clock: c.Now().String(), ClockTime: c.Time().Format(time.RFC3339Nano)}
	case "devices":
		var out []ControlDevice
		for _, n := range l.Names() {
			d := l.Device(n)
			out = append(out, ControlDevice{Name: n, Platform: string(d.spec.Platform), Addr: d.addr, Fault: d.Fault().String()})
		}
		return ControlReply{OK: true, Devices: out}
	case "show":
		d, bad := device()
		if bad != nil {
			return *bad
		}
		return ControlReply{OK: true, Output: d.Export()}
	case "expire-timers":
		d, bad := device()
		if bad != nil {
			return *bad
		}
		// As if the operator never confirmed: an EOS commit timer, a
		// Junos commit confirmed or an NVUE apply --confirm waiting
		// now rolls back to the configuration from before it.
		was := d.Export()
		d.ExpireTimers()
		if d.Export() == was {
			return ControlReply{OK: true, Output: "no change: no confirm timer was pending, or the commit it guarded changed nothing"}
		}
		return ControlReply{OK: true, Output: "a confirm timer fired: the configuration is back to what it was before the unconfirmed commit"}
	case "fault":
		d, bad := device()
		if bad != nil {
			return *bad
		}
		if !req.Clear && len(req.Set) == 0 {
			return ControlReply{Error: "fault request without settings: give set [KEY=VALUE...] or clear"}
		}
		f := d.Fault()
		if req.Clear {
			f = Fault{}
		}
		for _, kv := range req.Set {
			if err := f.Set(kv); err != nil {
				return ControlReply{Error: err.Error()}
			}
		}
		if err := d.CheckFault(f); err != nil {
			return ControlReply{Error: err.Error()}
		}
		d.SetFault(f)
		return ControlReply{OK: true, Fault: d.Fault().String()}
	}
	return ControlReply{Error: fmt.Sprintf("unknown op %q: use fault, show, expire-timers, configure, clock, devices or ping", req.Op)}
}

// ControlClient talks to a running lab's control socket.
type ControlClient struct {
	path string
	conn net.Conn
	r    *bufio.Reader
	mu   sync.Mutex
}

// ErrNoLab is returned (wrapped) by DialControl when no lab serves the
// socket.
var ErrNoLab = errors.New("no lab is running")

// DialControl connects to the control socket at path.
func DialControl(ctx context.Context, path string) (*ControlClient, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		switch {
		case errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOENT):
			return nil, fmt.Errorf("%w in %s: %s does not exist (start one with fabricgen lab up --dir %s)", ErrNoLab, filepath.Dir(path), path, filepath.Dir(path))
		case errors.Is(err, syscall.ECONNREFUSED):
			return nil, fmt.Errorf("%w in %s: nothing answers on %s (a lab that was killed left it; start one with fabricgen lab up --dir %s)", ErrNoLab, filepath.Dir(path), path, filepath.Dir(path))
		}
		return nil, fmt.Errorf("connect to the lab's control socket %s: %w", path, err)
	}
	return &ControlClient{path: path, conn: c, r: bufio.NewReaderSize(c, 64<<10)}, nil
}

// Do sends one request and returns the lab's reply; a reply with OK false
// becomes an error holding the lab's message.
func (c *ControlClient) Do(ctx context.Context, req ControlRequest) (ControlReply, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	stop := context.AfterFunc(ctx, func() { _ = c.conn.SetDeadline(time.Now()) })
	defer stop()
	b, err := json.Marshal(req)
	if err != nil {
		return ControlReply{}, fmt.Errorf("encode control request: %w", err)
	}
	if _, err := c.conn.Write(append(b, '\n')); err != nil {
		return ControlReply{}, fmt.Errorf("send to the lab on %s: %w", c.path, err)
	}
	var rep ControlReply
	if err := json.NewDecoder(c.r).Decode(&rep); err != nil {
		if ctx.Err() != nil {
			return ControlReply{}, fmt.Errorf("the lab on %s did not answer: %w", c.path, ctx.Err())
		}
		return ControlReply{}, fmt.Errorf("read the lab's answer on %s: %w", c.path, err)
	}
	if !rep.OK {
		return rep, errors.New(rep.Error)
	}
	return rep, nil
}

// Close closes the connection.
func (c *ControlClient) Close() error { return c.conn.Close() }
