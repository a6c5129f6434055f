package lab

import (
	"bufio"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shortDir returns a temporary directory with a path short enough for a// unix socket.// TestControlFaultClearedDuringCommand: a fault cleared through the socket// (as `fabricgen lab fault DEV clear` does) releases a command the delay// holds, over SSH.// TestControlExpireTimers: the expire-timers op rolls back a commit// waiting on its timer, as the device would when nobody confirms, and says// whether the configuration changed.
func shortDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "lab")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(d) })
	return d
}

func TestControlSocket(t *testing.T) {
	l := startLab(t, DeviceSpec{Name: "leaf1", Platform: anySwitch(t)}, DeviceSpec{Name: "gpu01", Platform: anyHost(t)})
	ctx := context.Background()
	path := filepath.Join(shortDir(t), ControlSocket)
	srv, err := l.ServeControl(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode: %v %v", fi, err)
	}
	c, err := DialControl(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cases := []struct {
		req     ControlRequest
		fault   string
		wantErr string
	}{
		{ControlRequest{Op: "ping"}, "", ""},
		{ControlRequest{Op: "fault", Device: "leaf1", Set: []string{"reject=^qos"}}, "reject=^qos", ""},
		{ControlRequest{Op: "fault", Device: "leaf1", Set: []string{"delay=2s", "drop-after=4"}}, "drop-after=4 reject=^qos delay=2s", ""},
		{ControlRequest{Op: "fault", Device: "leaf1", Clear: true, Set: []string{"delay=1s"}}, "delay=1s", ""},
		{ControlRequest{Op: "fault", Device: "leaf1", Clear: true}, "none", ""},
		{ControlRequest{Op: "fault", Device: "leaf1", Set: []string{"speed=fast"}}, "", `unknown key "speed"`},
		{ControlRequest{Op: "fault", Device: "leaf1"}, "", "without settings"},
		{ControlRequest{Op: "fault", Device: "leaf9", Set: []string{"delay=1s"}}, "", `no device "leaf9" in this lab: use one of leaf1, gpu01`},
		{ControlRequest{Op: "reboot"}, "", `unknown op "reboot"`},
	}
	for _, cs := range cases {
		rep, err := c.Do(ctx, cs.req)
		if cs.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), cs.wantErr) {
				t.Errorf("%+v: error %v, want %q", cs.req, err, cs.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%+v: %v", cs.req, err)
			continue
		}
		if rep.Fault != cs.fault {
			t.Errorf("%+v: fault %q, want %q", cs.req, rep.Fault, cs.fault)
		}
	}
	rep, err := c.Do(ctx, ControlRequest{Op: "show", Device: "gpu01"})
	if err != nil || rep.Output != l.Device("gpu01").Export() {
		t.Errorf("show: %v %q", err, rep.Output)
	}
	rep, err = c.Do(ctx, ControlRequest{Op: "devices"})
	if err != nil || len(rep.Devices) != 2 || rep.Devices[1].Platform != string(anyHost(t)) || rep.Devices[0].Addr != l.Addr("leaf1") {
		t.Errorf("devices: %v %+v", err, rep.Devices)
	}

	// Malformed and oversized requests, on a raw connection.
	raw, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	br := bufio.NewReader(raw)
	for _, bad := range []string{`{"op": "fault", "device": `, `not json`, `{"op":"ping","sudo":true}`} {
		if _, err := raw.Write([]byte(bad + "\n")); err != nil {
			t.Fatal(err)
		}
		line, err := br.ReadString('\n')
		if err != nil || !strings.Contains(line, "malformed request") {
			t.Errorf("%s: %q %v", bad, line, err)
		}
	}
	if _, err := raw.Write([]byte(`{"op":"ping"}` + "\n")); err != nil {
		t.Fatal(err)
	}
	if line, _ := br.ReadString('\n'); !strings.Contains(line, `"ok":true`) {
		t.Errorf("the connection did not survive a malformed request: %q", line)
	}
	go func() { _, _ = raw.Write([]byte(strings.Repeat("x", maxControlLine+10) + "\n")) }()
	if line, _ := br.ReadString('\n'); !strings.Contains(line, "longer than") {
		t.Errorf("oversized request: %q", line)
	}
	if _, err := br.ReadString('\n'); err == nil {
		t.Error("the connection stays open after an oversized request")
	}

	// A second lab on the same directory is refused.
	if _, err := l.ServeControl(ctx, path); err == nil || !strings.Contains(err.Error(), "another lab is running") {
		t.Errorf("second ServeControl: %v", err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket left after Close: %v", err)
	}
	if _, err := DialControl(ctx, path); !errors.Is(err, ErrNoLab) || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("dial after Close: %v", err)
	}
}

func TestControlSocketStaleAndBadPaths(t *testing.T) {
	l := startLab(t, DeviceSpec{Name: "leaf1", Platform: anySwitch(t)})
	ctx := context.Background()
	dir := shortDir(t)
	// A socket left by a killed lab: nobody answers.
	stale := filepath.Join(dir, ControlSocket)
	ln, err := net.Listen("unix", stale)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	_ = ln.Close()
	if _, err := DialControl(ctx, stale); !errors.Is(err, ErrNoLab) || !strings.Contains(err.Error(), "nothing answers") {
		t.Errorf("dial a stale socket: %v", err)
	}
	srv, err := l.ServeControl(ctx, stale)
	if err != nil {
		t.Fatalf("a stale socket was not replaced: %v", err)
	}
	_ = srv.Close()
	regular := filepath.Join(dir, "file.sock")
	if err := os.WriteFile(regular, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := l.ServeControl(ctx, regular); err == nil || !strings.Contains(err.Error(), "is not a socket") {
		t.Errorf("regular file: %v", err)
	}
	long := filepath.Join(dir, strings.Repeat("d", 120), ControlSocket)
	if _, err := l.ServeControl(ctx, long); err == nil || !strings.Contains(err.Error(), "shorter lab directory") {
		t.Errorf("long path: %v", err)
	}
	// Cancelling the context stops the server and removes the socket.
	cctx, cancel := context.WithCancel(ctx)
	if _, err := l.ServeControl(cctx, stale); err != nil {
		t.Fatal(err)
	}
	cancel()
	until(t, "the socket goes with the context", func() bool {
		_, err := os.Stat(stale)
		return errors.Is(err, os.ErrNotExist)
	})
}
