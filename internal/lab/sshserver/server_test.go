package sshserver

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
)

// echoDevice answers each line with "LINE\n"; "fail" exits 3, "drop"
// drops the connection, "bye" ends the session.
type echoDevice struct {
	key ssh.Signer
	mu  sync.Mutex
	// open counts sessions not yet closed.
	open int
}

func (d *echoDevice) Config() *ssh.ServerConfig {
	cfg := &ssh.ServerConfig{PasswordCallback: func(c ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
		if c.User() == "u" && string(pw) == "p" {
			return nil, nil
		}
		return nil, errors.New("permission denied")
	}}
	cfg.AddHostKey(d.key)
	return cfg
}

func (d *echoDevice) Login(*cli.Term) Login {
	d.mu.Lock()
	d.open++
	d.mu.Unlock()
	return echoLogin{d}
}

type echoLogin struct{ d *echoDevice }

func (echoLogin) Greeting() string { return "hello\n> " }
func (echoLogin) Prompt() string   { return "> " }
func (echoLogin) Handle(line string) (cli.Reply, bool) {
	switch line {
	case "fail":
		return cli.Reply{Out: "failed\n", Status: 3}, false
	case "drop":
		return cli.Reply{}, true
	case "bye":
		return cli.Reply{Out: "bye\n", Exit: true}, false
	}
	return cli.Reply{Out: line + "\n"}, false
}
func (l echoLogin) Close() {
	l.d.mu.Lock()
	l.d.open--
	l.d.mu.Unlock()
}

func serve(t *testing.T) (*Server, *echoDevice, string) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	key, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dev := &echoDevice{key: key}
	return Serve(ln, dev), dev, ln.Addr().String()
}

func dial(t *testing.T, addr, pw string) (*ssh.Client, error) {
	t.Helper()
	return ssh.Dial("tcp", addr, &ssh.ClientConfig{User: "u", Auth: []ssh.AuthMethod{ssh.Password(pw)},
		HostKeyCallback: ssh.InsecureIgnoreHostKey()}) //nolint:gosec // a test server with a fresh key
}

// TestExec runs exec sessions: every line answered in order, the last
// status as exit-status, a dropped connection without an answer.
func TestExec(t *testing.T) {
	srv, dev, addr := serve(t)
	defer func() { _ = srv.Close() }()
	cases := []struct {
		cmd, out string
		status   int
		dropped  bool
	}{
		{"a\nb", "a\nb\n", 0, false},
		{"a\nfail", "a\nfailed\n", 3, false},
		{"bye\nnever", "bye\n", 0, false},
		{"a\ndrop\nb", "", 0, true},
	}
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.cmd, "\n", ";"), func(t *testing.T) {
			cl, err := dial(t, addr, "p")
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = cl.Close() }()
			s, err := cl.NewSession()
			if err != nil {
				t.Fatal(err)
			}
			out, err := s.Output(c.cmd)
			var exit *ssh.ExitError
			switch {
			case c.dropped:
				if err == nil {
					t.Fatalf("the connection was not dropped: %q", out)
				}
				return
			case c.status != 0:
				if !errors.As(err, &exit) || exit.ExitStatus() != c.status {
					t.Fatalf("err = %v, want exit status %d", err, c.status)
				}
			case err != nil:
				t.Fatal(err)
			}
			if string(out) != c.out {
				t.Errorf("output %q, want %q", out, c.out)
			}
		})
	}
	if _, err := dial(t, addr, "wrong"); err == nil {
		t.Error("a wrong password was accepted")
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	dev.mu.Lock()
	defer dev.mu.Unlock()
	if dev.open != 0 {
		t.Errorf("%d sessions were not closed", dev.open)
	}
}

// TestPaginate splits output into pages of n lines.
func TestPaginate(t *testing.T) {
	cases := []struct {
		text string
		n    int
		want []string
	}{
		{"a\nb\nc\n", 2, []string{"a\nb\n", "c\n"}},
		{"a\nb\n", 2, []string{"a\nb\n"}},
		{"a\nb\nc\n", 0, []string{"a\nb\nc\n"}},
		{"a\nb\nc", 2, []string{"a\nb\n", "c"}},
		{"", 2, []string{""}},
	}
	for _, c := range cases {
		got := paginate(c.text, c.n)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("paginate(%q, %d) = %q, want %q", c.text, c.n, got, c.want)
		}
	}
}
