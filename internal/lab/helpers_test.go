package lab

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

const (
	testUser = "admin"
	testPass = "lab-pw-7f3a"
)

func startLab(t testing.TB, specs ...DeviceSpec) *Lab {
	t.Helper()
	for i := range specs {
		if specs[i].Username == "" {
			specs[i].Username = testUser
		}
		if specs[i].Password == "" && len(specs[i].AuthorizedKeys) == 0 {
			specs[i].Password = testPass
		}
	}
	l, err := Start(context.Background(), specs, Options{Dir: t.TempDir()})
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

// shellClient is a plain x/crypto/ssh interactive session that waits for
// prompts, as an operator (or scrapligo) would.
type shellClient struct {
	t      testing.TB
	client *ssh.Client
	sess   *ssh.Session
	in     io.WriteCloser
	out    chan []byte
	buf    strings.Builder
	prompt *regexp.Regexp
}

// patience bounds one wait in a test: how long a device may take to answer
// on a loaded machine under the race detector. It is derived from the
// test binary's -timeout (a quarter of what is left, at most two minutes),
// so a slow machine waits longer instead of failing, and a hung device
// still fails the test before the binary is killed.
func patience(t testing.TB) time.Duration {
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

func dialSSH(l *Lab, name string) (*ssh.Client, error) {
	hk, err := knownhosts.New(l.KnownHostsPath())
	if err != nil {
		return nil, fmt.Errorf("known_hosts: %w", err)
	}
	cfg := &ssh.ClientConfig{
		User:              testUser,
		Auth:              []ssh.AuthMethod{ssh.Password(testPass)},
		HostKeyCallback:   hk,
		HostKeyAlgorithms: []string{ssh.KeyAlgoED25519},
		Timeout:           2 * time.Minute,
	}
	return ssh.Dial("tcp", l.Addr(name), cfg)
}

func openShell(t testing.TB, l *Lab, name string, prompt string) *shellClient {
	t.Helper()
	cl, err := dialSSH(l, name)
	if err != nil {
		t.Fatalf("dial %s: %v", name, err)
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
	c := &shellClient{t: t, client: cl, sess: sess, in: in, out: make(chan []byte, 64), prompt: regexp.MustCompile(prompt)}
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
	c.wait()
	return c
}

// wait reads until the prompt regexp matches the end of the output and
// returns the output with CRs removed.
func (c *shellClient) wait() string {
	c.t.Helper()
	deadline := time.After(patience(c.t))
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

// run sends a command and returns its output without the echo and prompt.
func (c *shellClient) run(cmd string) string {
	c.t.Helper()
	if _, err := io.WriteString(c.in, cmd+"\n"); err != nil {
		c.t.Fatalf("write %q: %v", cmd, err)
	}
	out := c.wait()
	out = strings.TrimPrefix(out, cmd)
	return strings.TrimPrefix(out, "\n")
}

// stripNXOSHeader drops the clock lines an NX-OS configuration starts
// with.
func stripNXOSHeader(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "!Time:") || strings.HasPrefix(l, "!Running configuration last done") {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// until polls cond until it holds or patience runs out (a poll every
// millisecond: the wait itself is bounded by the test's deadline).
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience(t))
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
