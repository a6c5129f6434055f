// Package labtest gives the tests of a platform folder (platforms/<name>/,
// external test packages) what internal/lab's own tests use to drive a lab
// device: a started lab, an interactive SSH shell that waits for prompts,
// a scrapligo driver, and an emulator built without a lab. A test that is
// about one vendor's behaviour lives in its folder and names its platform
// through the folder (aristaeos.Platform()).
package labtest

import (
	"context"
	"fmt"
	"io"
	"net"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/driver/options"
	"github.com/scrapli/scrapligo/platform"
	"github.com/scrapli/scrapligo/transport"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/schema"
)

// The lab user the helpers log in as, and its password.
const (
	User     = "admin"
	Password = "lab-pw-7f3a"
)

// Start starts a lab of specs (User and Password where a spec sets no
// credentials) in a temporary directory, closed when the test ends.
func Start(t testing.TB, specs ...lab.DeviceSpec) *lab.Lab {
	t.Helper()
	for i := range specs {
		if specs[i].Username == "" {
			specs[i].Username = User
		}
		if specs[i].Password == "" && len(specs[i].AuthorizedKeys) == 0 {
			specs[i].Password = Password
		}
	}
	l, err := lab.Start(context.Background(), specs, lab.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := l.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return l
}

// Env is the environment of an emulator of platform p built without a
// lab: timers never fire on their own.
func Env(name string, p schema.Platform) *cli.Env {
	return &cli.Env{Spec: cli.Spec{Name: name, Platform: p, Username: User, Password: Password},
		AfterFunc: func(time.Duration, func()) func() { return func() {} }, Now: time.Now}
}

// Patience bounds one wait in a test: a quarter of what is left of the
// test binary's -timeout, at most two minutes.
func Patience(t testing.TB) time.Duration {
	const most = 2 * time.Minute
	tt, ok := t.(interface{ Deadline() (time.Time, bool) })
	if !ok {
		return most
	}
	dl, ok := tt.Deadline()
	if !ok {
		return most
	}
	return min(most, max(time.Second, time.Until(dl)/4))
}

// Shell is a plain interactive SSH session on a lab device that waits for
// prompts, as an operator would.
type Shell struct {
	t      testing.TB
	client *ssh.Client
	in     io.WriteCloser
	out    chan []byte
	buf    strings.Builder
	prompt *regexp.Regexp
}

// Dial opens an SSH client on device name of l as User, checking the
// lab's host key.
func Dial(l *lab.Lab, name string) (*ssh.Client, error) {
	hk, err := knownhosts.New(l.KnownHostsPath())
	if err != nil {
		return nil, fmt.Errorf("known_hosts: %w", err)
	}
	cfg := &ssh.ClientConfig{
		User:              User,
		Auth:              []ssh.AuthMethod{ssh.Password(Password)},
		HostKeyCallback:   hk,
		HostKeyAlgorithms: []string{ssh.KeyAlgoED25519},
		Timeout:           2 * time.Minute,
	}
	c, err := ssh.Dial("tcp", l.Addr(name), cfg)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", name, err)
	}
	return c, nil
}

// OpenShell opens a shell on device name of l and waits for its first
// prompt (a regexp matching the end of the output).
func OpenShell(t testing.TB, l *lab.Lab, name, prompt string) *Shell {
	t.Helper()
	cl, err := Dial(l, name)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := cl.NewSession()
	if err != nil {
		t.Fatalf("session: %v", err)
	}
	in, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outp, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm", 1000, 200, ssh.TerminalModes{ssh.ECHO: 1}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	c := &Shell{t: t, client: cl, in: in, out: make(chan []byte, 64), prompt: regexp.MustCompile(prompt)}
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := outp.Read(b)
			if n > 0 {
				c.out <- append([]byte(nil), b[:n]...)
			}
			if err != nil {
				close(c.out)
				return
			}
		}
	}()
	t.Cleanup(func() { _ = cl.Close() })
	c.Wait()
	return c
}

// Wait reads until the prompt matches the end of the output and returns
// the output before the prompt, with CRs removed.
func (c *Shell) Wait() string {
	c.t.Helper()
	deadline := time.After(Patience(c.t))
	for {
		s := strings.ReplaceAll(c.buf.String(), "\r", "")
		if loc := c.prompt.FindStringIndex(s); loc != nil && loc[1] == len(s) {
			c.buf.Reset()
			return s[:loc[0]]
		}
		select {
		case b, ok := <-c.out:
			if !ok {
				c.t.Fatalf("connection closed; output so far: %q", s)
			}
			c.buf.Write(b)
		case <-deadline:
			c.t.Fatalf("no prompt %q; output so far: %q", c.prompt, s)
		}
	}
}

// Run sends a command and returns its output without the echo and prompt.
func (c *Shell) Run(cmd string) string {
	c.t.Helper()
	c.Send(cmd)
	out := c.Wait()
	out = strings.TrimPrefix(out, cmd)
	return strings.TrimPrefix(out, "\n")
}

// Send sends a command without waiting for the prompt.
func (c *Shell) Send(cmd string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, cmd+"\n"); err != nil {
		c.t.Fatalf("write %q: %v", cmd, err)
	}
}

// Closed reports whether the server closed the connection in time.
func (c *Shell) Closed() bool {
	deadline := time.After(Patience(c.t))
	for {
		select {
		case _, ok := <-c.out:
			if !ok {
				return true
			}
		case <-deadline:
			return false
		}
	}
}

// Scrapli opens a scrapligo network driver with the built-in platform
// definition scrapliName (the dialect's Scrapli) on device name of l, with
// strict host-key checking; it is closed when the test ends.
func Scrapli(t testing.TB, l *lab.Lab, name, scrapliName string) *network.Driver {
	t.Helper()
	host, portS, _ := net.SplitHostPort(l.Addr(name))
	port, _ := strconv.Atoi(portS)
	pl, err := platform.NewPlatform(scrapliName, host,
		options.WithTransportType(transport.StandardTransport),
		options.WithPort(port),
		options.WithAuthUsername(User),
		options.WithAuthPassword(Password),
		options.WithAuthSecondary(Password),
		options.WithSSHKnownHostsFile(l.KnownHostsPath()),
		options.WithStandardTransportHostKeyAlgorithms([]string{ssh.KeyAlgoED25519}),
		options.WithTimeoutSocket(Patience(t)),
		options.WithTimeoutOps(Patience(t)),
	)
	if err != nil {
		t.Fatalf("platform: %v", err)
	}
	d, err := pl.GetNetworkDriver()
	if err != nil {
		t.Fatalf("driver: %v", err)
	}
	if err := d.Open(); err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// SetPrompt makes the shell wait for prompt (a regexp matching the end of
// the output) from now on: a mode with a prompt of its own.
func (c *Shell) SetPrompt(prompt string) { c.prompt = regexp.MustCompile(prompt) }

// Write sends raw bytes (a control character) without waiting.
func (c *Shell) Write(b []byte) (int, error) {
	n, err := c.in.Write(b)
	if err != nil {
		return n, fmt.Errorf("write: %w", err)
	}
	return n, nil
}

// Close closes the SSH connection (a client going away mid-session).
func (c *Shell) Close() error {
	if err := c.client.Close(); err != nil {
		return fmt.Errorf("close: %w", err)
	}
	return nil
}
