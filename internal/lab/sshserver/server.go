// Package sshserver serves one emulated device over SSH: it accepts
// connections, authenticates them with the device's configuration, and
// runs "shell" sessions (a terminal with line editing, ^C, ^D and a pager)
// and "exec" sessions (one command per line, no PTY) against the device's
// CLI, answering pty-req, env and window-change and sending exit-status.
//
// The device decides everything else through Device and Login: the
// credentials and host key, the CLI, its locking and its faults.
package sshserver

import (
	"net"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
)

// Device is what the server serves.
type Device interface {
	// Config returns the SSH configuration (auth, host key) for a new
	// connection.
	Config() *ssh.ServerConfig
	// Login starts a CLI session on terminal t.
	Login(t *cli.Term) Login
}

// Login is one CLI session of a device; the device serialises its methods
// and applies its faults.
type Login interface {
	// Greeting returns the banner and the first prompt.
	Greeting() string
	// Prompt returns the current prompt.
	Prompt() string
	// Handle runs one input line; drop reports that the connection must
	// close now, without an answer.
	Handle(line string) (r cli.Reply, drop bool)
	// Close ends the session, however the connection ended.
	Close()
}

// Server accepts SSH connections for one device until Close.
type Server struct {
	ln  net.Listener
	dev Device
	wg  sync.WaitGroup

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
}

// Serve starts serving dev on ln in the background.
func Serve(ln net.Listener, dev Device) *Server {
	s := &Server{ln: ln, dev: dev, conns: map[net.Conn]struct{}{}}
	s.wg.Add(1)
	go s.acceptLoop()
	return s
}

// Close stops accepting, closes every connection and waits for their
// sessions to end; it returns the listener's Close error.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	for c := range s.conns {
		_ = c.Close()
	}
	s.mu.Unlock()
	err := s.ln.Close()
	s.wg.Wait()
	return err
}

// acceptLoop accepts connections and serves each in its own goroutine.
func (s *Server) acceptLoop() {
	defer s.wg.Done()
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			_ = nc.Close()
			return
		}
		s.conns[nc] = struct{}{}
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.handleConn(nc)
			s.mu.Lock()
			delete(s.conns, nc)
			s.mu.Unlock()
			_ = nc.Close()
		}()
	}
}

func (s *Server) handleConn(nc net.Conn) {
	_ = nc.SetDeadline(time.Now().Add(30 * time.Second))
	sconn, chans, reqs, err := ssh.NewServerConn(nc, s.dev.Config())
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
		go s.handleSession(nc, ch, creqs)
	}
}

// sessionStart is how a session channel asked to run: an interactive
// shell (with the PTY rows) or one exec command.
type sessionStart struct {
	shell bool
	rows  int
	cmd   string
}

func (s *Server) handleSession(nc net.Conn, ch ssh.Channel, reqs <-chan *ssh.Request) {
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
		status = s.serveShell(nc, ch, st.rows)
	} else {
		status = s.serveExec(nc, ch, st.cmd)
	}
	_, _ = ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{uint32(status)}))
}

// serveExec runs one command without a PTY, as `ssh host CMD` does.
func (s *Server) serveExec(nc net.Conn, ch ssh.Channel, cmd string) int {
	l := s.dev.Login(&cli.Term{Length: 0, Width: 32767})
	end := endOnce(l)
	defer end()
	status := 0
	for _, line := range strings.Split(cmd, "\n") {
		r, drop := l.Handle(line)
		if drop {
			end()
			_ = nc.Close()
			return 255
		}
		if r.Endless != nil {
			stream(ch, r.Out, r.Endless, false)
			continue
		}
		_, _ = ch.Write([]byte(r.Out))
		status = r.Status
		if r.Exit {
			break
		}
	}
	return status
}

// endOnce returns a function that ends l's session the first time it is
// called. A dropped connection ends the session before the socket is
// closed, as the device's own session process would be gone by the time
// the client sees the connection end: what it held (a Junos exclusive
// lock, an uncommitted private candidate) is released by then, so a test
// that acts "after the drop" does not race the lab's cleanup.
func endOnce(l Login) func() {
	var once sync.Once
	return func() { once.Do(l.Close) }
}
