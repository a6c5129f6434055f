package emulator

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/fabricgen/fabricgen/internal/filebundle"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/sshserver"
)

// sshDevice serves an emulator over the lab's SSH server, its methods
// serialised as the lab's device lock does.
type sshDevice struct {
	mu  sync.Mutex
	s   *sm
	cfg *ssh.ServerConfig
}

func (d *sshDevice) Config() *ssh.ServerConfig { return d.cfg }

func (d *sshDevice) Login(t *cli.Term) sshserver.Login {
	d.mu.Lock()
	defer d.mu.Unlock()
	return &sshLogin{d: d, c: d.s.NewSession(t, "admin")}
}

type sshLogin struct {
	d *sshDevice
	c cli.Session
}

func (l *sshLogin) Greeting() string { return l.c.Greeting() + l.c.Prompt() }
func (l *sshLogin) Prompt() string   { return l.c.Prompt() }
func (l *sshLogin) Close()           {}
func (l *sshLogin) Handle(line string) (cli.Reply, bool) {
	l.d.mu.Lock()
	defer l.d.mu.Unlock()
	return l.c.Handle(line), false
}

// TestOverSSH runs the push flow's commands as SSH exec requests, one
// connection, one session per command, as push does: output and exit
// statuses arrive as the real host sends them.
func TestOverSSH(t *testing.T) {
	s, _ := host(t, "")
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(key)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &ssh.ServerConfig{PasswordCallback: func(m ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
		if m.User() == "admin" && string(pw) == "secret" {
			return nil, nil
		}
		return nil, errors.New("denied")
	}}
	cfg.AddHostKey(signer)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := sshserver.Serve(ln, &sshDevice{s: s, cfg: cfg})
	t.Cleanup(func() { _ = srv.Close() })
	client, err := ssh.Dial("tcp", ln.Addr().String(), &ssh.ClientConfig{User: "admin", Auth: []ssh.AuthMethod{ssh.Password("secret")},
		HostKeyCallback: ssh.FixedHostKey(signer.PublicKey())})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Close() })
	exec := func(cmd string) (string, string, int) {
		t.Helper()
		sess, err := client.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		defer sess.Close()
		var out, errOut bytes.Buffer
		sess.Stdout, sess.Stderr = &out, &errOut
		err = sess.Run(cmd)
		var ee *ssh.ExitError
		switch {
		case err == nil:
			return out.String(), errOut.String(), 0
		case errors.As(err, &ee):
			return out.String(), errOut.String(), ee.ExitStatus()
		}
		t.Fatalf("%s: %v", cmd, err)
		return "", "", 0
	}
	o, e, st := exec("base64 -w0 -- /etc/opensm/opensm.conf")
	if st != 1 || !strings.Contains(o+e, "base64: /etc/opensm/opensm.conf: No such file or directory") {
		t.Errorf("base64 of a missing file: %d %q %q", st, o, e)
	}
	tmp, _, st := exec("sudo mktemp -d /etc/opensm/.fabricgen.XXXXXXXXXX")
	tmp = strings.TrimSpace(tmp)
	if st != 0 || !strings.HasPrefix(tmp, "/etc/opensm/.fabricgen.") {
		t.Fatalf("mktemp: %d %q", st, tmp)
	}
	conf := "qos TRUE\nmax_op_vls 3\nqos_ca_sl2vl 0,1,2,3,0,0,0,0,0,0,0,0,0,0,0,0\n"
	enc := base64.StdEncoding.EncodeToString([]byte(conf))
	for _, cmd := range []string{
		fmt.Sprintf("sudo printf '%%s' '%s' > %s/opensm.conf.b64", enc[:10], tmp),
		fmt.Sprintf("sudo printf '%%s' '%s' >> %s/opensm.conf.b64", enc[10:], tmp),
		fmt.Sprintf("sudo base64 -d -- %s/opensm.conf.b64 > %s/opensm.conf", tmp, tmp),
		fmt.Sprintf("sudo opensm -F %s/opensm.conf -c %s/dump.conf", tmp, tmp),
		fmt.Sprintf("sudo mv -f -- %s/opensm.conf /etc/opensm/opensm.conf", tmp),
		fmt.Sprintf("sudo rm -rf -- %s", tmp),
		"sudo pkill -HUP -x opensm",
	} {
		if o, e, st := exec(cmd); st != 0 {
			t.Fatalf("%s: status %d\n%s%s", cmd, st, o, e)
		}
	}
	o, _, st = exec("smpquery -D sl2vl 0")
	if st != 0 || !strings.Contains(o, "ports: in  0, out  0: | 0| 1| 2| 3| 0| 0|") {
		t.Errorf("smpquery after the push: %d\n%s", st, o)
	}
	files, err := filebundle.Decode([]byte(s.Running()))
	if err != nil || len(files) != 1 || string(files[0].Text) != conf {
		t.Errorf("Running after the push: %v %+v", err, files)
	}
}
