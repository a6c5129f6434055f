package session_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// heapPeak samples the live heap every 10ms until stop is called and
// returns the largest sample.
func heapPeak() (stop func() uint64) {
	var mu sync.Mutex
	var peak uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			mu.Lock()
			peak = max(peak, m.HeapAlloc)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}

// labTarget starts one lab device and returns a Target for it.
func labTarget(t *testing.T, p schema.Platform, ports ...string) (*lab.Lab, session.Target) {
	t.Helper()
	l, err := lab.Start(context.Background(), []lab.DeviceSpec{{Name: "d1", Platform: p, Username: "admin", Password: "pw", Ports: ports}}, lab.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	hk, err := session.NewHostKeys([]string{l.KnownHostsPath()}, false)
	if err != nil {
		t.Fatal(err)
	}
	dl, err := platforms.Dialect(p)
	if err != nil {
		t.Fatal(err)
	}
	auth, err := session.ResolveAuth("d1", schema.Credentials{Username: val("admin"), PasswordEnv: val("P")}, func(string) string { return "pw" }, nil)
	if err != nil {
		t.Fatal(err)
	}
	return l, session.Target{Name: "d1", Addr: l.Addr("d1"), Dialect: dl, Auth: auth, HostKeys: hk, Timeout: 20 * time.Second}
}

// boundCase is one command a lab device answers without end.
type boundCase struct {
	name      string
	platform  schema.Platform
	ports     []string
	stream    string
	run       func(c *session.Conn) error
	maxOutput int64
	timeout   time.Duration
	want      []string
}

// boundCases are, for every registry platform the lab emulates, the
// commands of each kind its dialect sends: the running config (at 4 MiB,
// at the default limit and at a timeout); with the network driver, the
// login commands, a show and a configuration line; with the generic
// driver, a shell command.
func boundCases(t *testing.T, limit int64) []boundCase {
	t.Helper()
	var out []boundCase
	for _, pl := range platforms.All() {
		if pl.Emulator == nil {
			continue
		}
		d := pl.Dialect()
		var ports []string
		if pl.Spec.Host {
			ports = []string{"eth0"}
		}
		add := func(what, stream string, run func(c *session.Conn) error, maxOutput int64, timeout time.Duration, want ...string) {
			out = append(out, boundCase{pl.Folder + " " + what, pl.Name, ports, stream, run, maxOutput, timeout, want})
		}
		if cmd := d.ShowRunning; cmd != "" {
			running := func(c *session.Conn) error { _, err := c.RunningConfig(); return err }
			add("running config", "^"+regexp.QuoteMeta(cmd), running, limit, time.Minute,
				fmt.Sprintf("d1: %s: the device sent more than 4 MiB in answer to %q", cmd, cmd), "--max-device-output")
			add("running config: the default limit", "^"+regexp.QuoteMeta(cmd), running, 0, 5*time.Minute,
				fmt.Sprintf("the device sent more than 32 MiB in answer to %q", cmd))
			add("running config: time", "^"+regexp.QuoteMeta(cmd), running, 1<<40, 500*time.Millisecond,
				"no end of output after 500ms", fmt.Sprintf("received in answer to %q, and no prompt", cmd))
		}
		if d.Driver == dialect.DriverNetwork {
			// The network driver sends commands at login (paging off):
			// the first one, whatever it is, never ends.
			add("login", ".", nil, limit, time.Minute,
				"open session to", "more than 4 MiB before its prompt")
			const show, line = "show bound-probe", "description bound-probe"
			add("show", "^"+show, func(c *session.Conn) error { _, err := c.Show(show); return err }, limit, time.Minute,
				fmt.Sprintf("more than 4 MiB in answer to %q", show))
			add("configuration line", "^"+line, func(c *session.Conn) error { _, _, err := c.Configure([]string{line}, ""); return err }, limit, time.Minute,
				fmt.Sprintf("more than 4 MiB in answer to %q", line))
		} else {
			const cmd = "echo bound-probe"
			add("shell command", cmd, func(c *session.Conn) error { _, _, _, err := c.Run(cmd); return err }, limit, time.Minute,
				fmt.Sprintf("more than 4 MiB in answer to %q", cmd))
		}
	}
	if len(out) == 0 {
		t.Fatal("no registry platform the lab emulates")
	}
	return out
}

// TestDeviceOutputBounded: a device whose answer never ends (the lab's
// stream fault) fails the command with the limit and the command named,
// once the limit is passed, without the output growing in memory; a
// slow endless answer fails at the timeout, saying the output did not
// end. Each bound fires on its own: the byte cases have a timeout far
// out of reach, the time case a byte limit far out of reach.
func TestDeviceOutputBounded(t *testing.T) {
	const limit = 4 << 20
	cases := boundCases(t, limit)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, tg := labTarget(t, c.platform, c.ports...)
			l.Device("d1").SetFault(lab.Fault{Stream: c.stream})
			tg.MaxOutput, tg.Timeout = c.maxOutput, c.timeout
			if c.run == nil {
				tg.Timeout = 20 * time.Second
			}
			runtime.GC()
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			peak := heapPeak()
			start := time.Now()
			conn, err := session.Open(context.Background(), tg)
			if err == nil {
				err = c.run(conn)
				_ = conn.Close()
			}
			took := time.Since(start)
			grew := int64(peak()) - int64(before.HeapAlloc)
			t.Logf("failed after %s, live heap grew by %d MiB at most: %v", took.Round(time.Millisecond), grew>>20, err)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			if c.maxOutput <= limit {
				want := c.maxOutput
				if want == 0 {
					want = session.DefaultMaxOutput
				}
				if !errors.Is(err, session.ErrOutputLimit) {
					t.Errorf("not ErrOutputLimit: %v", err)
				}
				// scrapligo holds the output in its queue and its read
				// buffer (which grows by doubling): a few copies of the
				// limit, never more.
				if grew > 8*want {
					t.Errorf("the live heap grew by %d MiB for a %d MiB limit", grew>>20, want>>20)
				}
			}
			if took > 30*time.Second {
				t.Errorf("took %s", took)
			}
		})
	}
}

// TestHandshakeReadsBounded: what a server sends before and during the
// SSH handshake is bounded too: an endless version line, endless lines
// before the version, and a server that trickles one byte at a time all
// fail the open within the timeout.
func TestHandshakeReadsBounded(t *testing.T) {
	cases := []struct {
		name  string
		serve func(c net.Conn)
		want  string
	}{
		{"endless version line", func(c net.Conn) {
			b := []byte(strings.Repeat("x", 4096))
			for {
				if _, err := c.Write(b); err != nil {
					return
				}
			}
		}, "version string"},
		{"endless lines before the version", func(c net.Conn) {
			b := []byte(strings.Repeat("not ssh\r\n", 512))
			for {
				if _, err := c.Write(b); err != nil {
					return
				}
			}
		}, "version string"},
		{"one byte a second", func(c net.Conn) {
			for {
				if _, err := c.Write([]byte("x")); err != nil {
					return
				}
				time.Sleep(time.Second)
			}
		}, "did not finish within"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			go func() {
				for {
					conn, err := ln.Accept()
					if err != nil {
						return
					}
					go func() {
						defer conn.Close()
						go func() { _, _ = io.Copy(io.Discard, conn) }()
						c.serve(conn)
					}()
				}
			}()
			dl := cliPlatform(t).Dialect()
			auth, err := session.ResolveAuth("d1", schema.Credentials{Username: val("admin"), PasswordEnv: val("P")}, func(string) string { return "x" }, nil)
			if err != nil {
				t.Fatal(err)
			}
			hk, _ := session.NewHostKeys(nil, true)
			start := time.Now()
			_, err = session.Open(context.Background(), session.Target{Name: "d1", Addr: ln.Addr().String(), Dialect: dl, Auth: auth, HostKeys: hk, Timeout: 2 * time.Second})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("took %s", d)
			}
		})
	}
}
