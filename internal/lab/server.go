package lab

import (
	"bytes"
	"errors"
	"net"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
)

func (d *Device) acceptLoop() {
	defer d.wg.Done()
	for {
		nc, err := d.ln.Accept()
		if err != nil {
			return
		}
		d.mu.Lock()
		if d.closed {
			d.mu.Unlock()
			_ = nc.Close()
			return
		}
		d.conns[nc] = struct{}{}
		d.mu.Unlock()
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			d.handleConn(nc)
			d.mu.Lock()
			delete(d.conns, nc)
			d.mu.Unlock()
			_ = nc.Close()
		}()
	}
}

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

func (d *Device) handleConn(nc net.Conn) {
	_ = nc.SetDeadline(time.Now().Add(30 * time.Second))
	sconn, chans, reqs, err := ssh.NewServerConn(nc, d.serverConfig())
	if err != nil {
		return
	}
	_ = nc.SetDeadline(time.Time{})
	defer func() { _ = sconn.Close() }()
	go ssh.DiscardRequests(reqs)
	for nch := range chans {
		if nch.ChannelType() != "session" {
			_ = nch.Reject(ssh.UnknownChannelType, "only session channels are supported")
			continue
		}
		ch, creqs, err := nch.Accept()
		if err != nil {
			return
		}
		go d.handleSession(nc, ch, creqs)
	}
}

// sessionStart is how a session channel asked to run: an interactive
// shell (with the PTY rows) or one exec command.
type sessionStart struct {
	shell bool
	rows  int
	cmd   string
}

func (d *Device) handleSession(nc net.Conn, ch ssh.Channel, reqs <-chan *ssh.Request) {
	defer func() { _ = ch.Close() }()
	start := make(chan sessionStart, 1)
	go func() {
		rows, started := 0, false
		for req := range reqs {
			switch req.Type {
			case "pty-req":
				var p struct {
					Term                 string
					Cols, Rows, PxW, PxH uint32
					Modes                string
				}
				if ssh.Unmarshal(req.Payload, &p) != nil {
					_ = req.Reply(false, nil)
					continue
				}
				rows = int(p.Rows)
				_ = req.Reply(true, nil)
			case "shell":
				if started {
					_ = req.Reply(false, nil)
					continue
				}
				started = true
				_ = req.Reply(true, nil)
				start <- sessionStart{shell: true, rows: rows}
			case "exec":
				var p struct{ Command string }
				if started || ssh.Unmarshal(req.Payload, &p) != nil {
					_ = req.Reply(false, nil)
					continue
				}
				started = true
				_ = req.Reply(true, nil)
				start <- sessionStart{cmd: p.Command}
			case "env", "window-change":
				_ = req.Reply(true, nil)
			default:
				_ = req.Reply(false, nil)
			}
		}
		if !started {
			close(start)
		}
	}()
	st, ok := <-start
	if !ok {
		return
	}
	status := 0
	if st.shell {
		status = d.serveShell(nc, ch, st.rows)
	} else {
		status = d.serveExec(nc, ch, st.cmd)
	}
	_, _ = ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{uint32(status)}))
}

// serveExec runs one command without a PTY, as `ssh host CMD` does.
func (d *Device) serveExec(nc net.Conn, ch ssh.Channel, cmd string) int {
	t := &cli.Term{Length: 0, Width: 32767}
	d.mu.Lock()
	s := d.emu.NewSession(t, d.spec.Username)
	d.mu.Unlock()
	status := 0
	for _, line := range strings.Split(cmd, "\n") {
		r, drop := d.dispatch(s, line)
		if drop {
			_ = nc.Close()
			return 255
		}
		_, _ = ch.Write([]byte(r.Out))
		status = r.Status
		if r.Exit {
			break
		}
	}
	d.mu.Lock()
	s.Disconnect()
	d.mu.Unlock()
	return status
}

// dispatch runs one line with the fault rules; drop reports that the
// connection must be dropped now, without an answer. Reject refuses only a
// line the emulator says would change the device. A delayed answer goes
// out at once when the fault changes or the device closes.
func (d *Device) dispatch(s cli.Session, line string) (cli.Reply, bool) {
	d.mu.Lock()
	delay := d.fault.Delay
	changed := d.faultCh
	trimmed := strings.TrimSpace(line)
	if trimmed != "" {
		d.record(trimmed)
	}
	var r cli.Reply
	if d.reject != nil && trimmed != "" && d.reject.MatchString(trimmed) && s.Changes(line) {
		r = s.Reject(trimmed)
	} else {
		r = s.Handle(line)
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
