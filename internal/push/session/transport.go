package session

import (
	"github.com/fabricgen/fabricgen/internal/units"

	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/scrapli/scrapligo/transport"
	"golang.org/x/crypto/ssh"
)

// ErrConnectionLost is returned by reads after the device closed the
// connection while an operation was in flight.
var ErrConnectionLost = errors.New("connection to the device was lost")

// ErrOutputLimit is returned for a device that sent more than
// Target.MaxOutput bytes in answer to one command (or before its login
// prompt): the session is closed at once, so the output never grows
// past the limit in memory.
var ErrOutputLimit = errors.New("too much output from the device")

// DefaultMaxOutput bounds what a device may send in answer to one
// command: 32 MiB, twice the largest running config the lab takes and 30
// times the largest config fabricgen renders for examples/scale (a
// 2,048-port EOS spine, 1.04 MiB). See docs/push.md, "Bounded reads".
const DefaultMaxOutput = 32 << 20

// sshTransport is a scrapligo transport over golang.org/x/crypto/ssh that
// takes a complete ssh.ClientConfig. scrapligo's own standard transport
// cannot use an SSH agent or a passphrase-protected key, and its socket
// timeout does not bound the SSH handshake; this one bounds TCP connect,
// handshake and shell start with one deadline.
type sshTransport struct {
	config    *ssh.ClientConfig
	handshake time.Duration

	mu      sync.Mutex
	conn    net.Conn
	client  *ssh.Client
	session *ssh.Session
	stdout  io.Reader
	stdin   io.WriteCloser
	closed  atomic.Bool
	lost    atomic.Bool

	// maxOutput bounds the bytes read between two answers' ends
	// (endAnswer); read counts them, since counts those of the answer
	// in flight (from beginAnswer), and label names what the device is
	// answering. overflow holds the error once the limit was passed.
	maxOutput int64
	read      atomic.Int64
	since     atomic.Int64
	label     atomic.Pointer[string]
	overflow  atomic.Pointer[error]
}

// loginLabel is what a device answers before the first command.
const loginLabel = "the login (banner, first prompt, turning paging off)"

// beginAnswer names what the device answers from now on. The bytes
// already read since the last answer ended (unasked-for output) count
// against this answer's limit too.
func (t *sshTransport) beginAnswer(label string) {
	t.label.Store(&label)
	t.since.Store(0)
}

// endAnswer starts a new count: the answer was complete.
func (t *sshTransport) endAnswer() {
	t.read.Store(0)
	t.since.Store(0)
}

// answered is how many bytes arrived since beginAnswer.
func (t *sshTransport) answered() int64 { return t.since.Load() }

// what names the command being answered.
func (t *sshTransport) what() string {
	if l := t.label.Load(); l != nil {
		return *l
	}
	return loginLabel
}

// overflowErr is the error of a passed output limit, or nil.
func (t *sshTransport) overflowErr() error {
	if e := t.overflow.Load(); e != nil {
		return *e
	}
	return nil
}

var _ transport.Implementation = (*sshTransport)(nil)

// Open dials, handshakes, requests a PTY and starts a shell, all within the
// handshake deadline.
func (t *sshTransport) Open(a *transport.Args) error {
	addr := net.JoinHostPort(a.Host, strconv.Itoa(a.Port))
	deadline := time.Now().Add(t.handshake)
	conn, err := net.DialTimeout("tcp", addr, t.handshake)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", addr, err)
	}
	if err := conn.SetDeadline(deadline); err != nil {
		_ = conn.Close()
		return fmt.Errorf("set deadline on %s: %w", addr, err)
	}
	cc, chans, reqs, err := ssh.NewClientConn(conn, addr, t.config)
	if err != nil {
		_ = conn.Close()
		if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
			return fmt.Errorf("ssh handshake with %s did not finish within %s", addr, t.handshake)
		}
		// The user is named: an inventory's ansible_user or a credentials
		// block can be the wrong one, and the library's message does not say.
		return fmt.Errorf("ssh handshake with %s as user %q: %w", addr, t.config.User, err)
	}
	client := ssh.NewClient(cc, chans, reqs)
	sess, err := client.NewSession()
	if err != nil {
		_ = client.Close()
		return fmt.Errorf("open ssh session on %s: %w", addr, err)
	}
	stdin, err := sess.StdinPipe()
	if err != nil {
		_ = client.Close()
		return fmt.Errorf("ssh stdin on %s: %w", addr, err)
	}
	stdout, err := sess.StdoutPipe()
	if err != nil {
		_ = client.Close()
		return fmt.Errorf("ssh stdout on %s: %w", addr, err)
	}
	modes := ssh.TerminalModes{ssh.ECHO: 1, ssh.TTY_OP_ISPEED: 115200, ssh.TTY_OP_OSPEED: 115200}
	if err := sess.RequestPty("xterm", a.TermHeight, a.TermWidth, modes); err != nil {
		_ = client.Close()
		return fmt.Errorf("ssh pty on %s: %w", addr, err)
	}
	if err := sess.Shell(); err != nil {
		_ = client.Close()
		return fmt.Errorf("ssh shell on %s: %w", addr, err)
	}
	if err := conn.SetDeadline(time.Time{}); err != nil {
		_ = client.Close()
		return fmt.Errorf("clear deadline on %s: %w", addr, err)
	}
	t.mu.Lock()
	t.conn, t.client, t.session, t.stdin, t.stdout = conn, client, sess, stdin, stdout
	t.mu.Unlock()
	return nil
}

// Close closes the session and the connection; it is safe to call more
// than once and from another goroutine (context cancellation does).
func (t *sshTransport) Close() error {
	if t.closed.Swap(true) {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.session != nil {
		_ = t.session.Close()
	}
	if t.client != nil {
		return t.client.Close()
	}
	return nil
}

// IsAlive reports whether the transport is open.
func (t *sshTransport) IsAlive() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.session != nil && !t.closed.Load() && !t.lost.Load()
}

// Read reads up to n bytes. After our own Close it returns io.EOF, which
// stops scrapligo's read loop quietly; when the device drops the
// connection it returns ErrConnectionLost, which scrapligo hands to the
// operation in flight instead of letting it wait for its timeout.
func (t *sshTransport) Read(n int) ([]byte, error) {
	t.mu.Lock()
	r := t.stdout
	t.mu.Unlock()
	if r == nil || t.closed.Load() {
		return nil, io.EOF
	}
	b := make([]byte, n)
	got, err := r.Read(b)
	if got > 0 {
		t.since.Add(int64(got))
		if total := t.read.Add(int64(got)); t.maxOutput > 0 && total > t.maxOutput {
			what := t.what()
			var e error
			if what == loginLabel {
				e = fmt.Errorf("the device sent more than %s before its prompt (%s): %w", units.Size(t.maxOutput), what, ErrOutputLimit)
			} else {
				e = fmt.Errorf("the device sent more than %s in answer to %q, the limit of one answer (--max-device-output; a longer output is cut off, not kept): %w", units.Size(t.maxOutput), what, ErrOutputLimit)
			}
			t.overflow.CompareAndSwap(nil, &e)
			_ = t.Close()
			return nil, io.EOF
		}
	}
	if err != nil {
		if t.closed.Load() {
			return nil, io.EOF
		}
		t.lost.Store(true)
		return b[:got], ErrConnectionLost
	}
	return b[:got], nil
}

// Write sends b to the shell.
func (t *sshTransport) Write(b []byte) error {
	t.mu.Lock()
	w := t.stdin
	t.mu.Unlock()
	if w == nil {
		return ErrConnectionLost
	}
	if _, err := w.Write(b); err != nil {
		t.lost.Store(true)
		return fmt.Errorf("%w: %w", ErrConnectionLost, err)
	}
	return nil
}
