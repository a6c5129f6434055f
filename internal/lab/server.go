package lab

import (
	"bytes"
	"errors"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/sshserver"
)

// served is a Device as the SSH server sees it.
type served struct{ d *Device }

// Config returns the device's SSH configuration: its credentials and its
// current host key.
func (s served) Config() *ssh.ServerConfig { return s.d.serverConfig() }

// Login starts a CLI session for the device's user on terminal t.
func (s served) Login(t *cli.Term) sshserver.Login {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	return &login{d: s.d, s: s.d.emu.NewSession(t, s.d.spec.Username)}
}

// login is one CLI session, run under the device lock and its faults.
type login struct {
	d *Device
	s cli.Session
}

// Greeting returns the session's banner and first prompt.
func (l *login) Greeting() string {
	l.d.mu.Lock()
	defer l.d.mu.Unlock()
	return l.s.Greeting() + l.s.Prompt()
}

// Prompt returns the session's current prompt.
func (l *login) Prompt() string {
	l.d.mu.Lock()
	defer l.d.mu.Unlock()
	return l.s.Prompt()
}

// Handle runs one line under the device's faults.
func (l *login) Handle(line string) (cli.Reply, bool) { return l.d.dispatch(l.s, line) }

// Close ends the session.
func (l *login) Close() {
	l.d.mu.Lock()
	defer l.d.mu.Unlock()
	l.s.Disconnect()
}

// serverConfig returns the SSH server configuration: password and
// public-key auth for the device's user, and its current host key.
func (d *Device) serverConfig() *ssh.ServerConfig {
	sp := d.spec
	cfg := &ssh.ServerConfig{
		PasswordCallback: func(c ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
			if sp.Password != "" && c.User() == sp.Username && string(pw) == sp.Password {
				return nil, nil
			}
			return nil, errors.New("permission denied")
		},
		PublicKeyCallback: func(c ssh.ConnMetadata, k ssh.PublicKey) (*ssh.Permissions, error) {
			if c.User() == sp.Username {
				for _, ak := range sp.AuthorizedKeys {
					if bytes.Equal(ak.Marshal(), k.Marshal()) {
						return nil, nil
					}
				}
			}
			return nil, errors.New("permission denied")
		},
		ServerVersion: "SSH-2.0-fabricgen-lab",
	}
	cfg.AddHostKey(d.hostKey())
	return cfg
}

// streamChunk is what the stream fault writes at a time.
var streamChunk = strings.Repeat(StreamLine, 512)

// dispatch runs one line with the fault rules; drop reports that the
// connection must be dropped now, without an answer. Reject refuses only a
// line the emulator says would change the device. A delayed answer goes
// out at once when the fault changes or the device closes.
func (d *Device) dispatch(s cli.Session, line string) (cli.Reply, bool) {
	d.mu.Lock()
	trimmed := strings.TrimSpace(line)
	if trimmed != "" {
		d.record(trimmed)
		if len(d.hooks) > 0 {
			d.runHooks(trimmed)
		}
	}
	delay := d.fault.Delay
	changed := d.faultCh
	var r cli.Reply
	if d.stream != nil && trimmed != "" && d.stream.MatchString(trimmed) {
		// Output that never ends, until the fault changes.
		d.mu.Unlock()
		return cli.Reply{Out: streamChunk, Endless: changed}, false
	}
	if d.reject != nil && trimmed != "" && d.reject.MatchString(trimmed) && s.Changes(line) {
		r = s.Reject(trimmed)
	} else {
		r = s.Handle(line)
	}
	if r.Config {
		d.pushConfig()
	}
	drop := false
	if r.Config && d.fault.DropAfter > 0 {
		d.configCount++
		if d.configCount >= d.fault.DropAfter {
			d.fault.DropAfter = 0
			d.configCount = 0
			drop = true
		}
	}
	d.mu.Unlock()
	if delay > 0 && !drop {
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-changed:
		case <-d.done:
		}
		t.Stop()
	}
	return r, drop
}
