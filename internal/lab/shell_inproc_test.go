package lab

import (
	"strings"
	"testing"
)

// TestDeviceShell: Device.Shell runs a line in a lab host's shell
// in-process, with its exit status and history, as a login would; output
// that never ends (the stream fault) and a closed lab are errors, not a
// hang.
func TestDeviceShell(t *testing.T) {
	l := startLab(t, DeviceSpec{Name: "gpu01", Platform: anyHost(t), Ports: []string{"eth0"}})
	d := l.Device("gpu01")
	cases := []struct {
		line   string
		out    string
		status int
	}{
		{"echo hello", "hello\n", 0},
		{"ethtool -S eth0", "", 0},
		{"ethtool -S nosuch0", "", 1},
		{"false", "", 1},
	}
	for _, c := range cases {
		out, st, err := d.Shell(c.line)
		if err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		if st != c.status || c.out != "" && out != c.out {
			t.Errorf("%s: %q status %d, want %q status %d", c.line, out, st, c.out, c.status)
		}
	}
	if h := strings.Join(d.History(), "\n"); !strings.Contains(h, "echo hello") {
		t.Errorf("history lacks the line:\n%s", h)
	}
	d.SetFault(Fault{Stream: "^ethtool"})
	if _, _, err := d.Shell("ethtool -m eth0"); err == nil || !strings.Contains(err.Error(), "never ends") {
		t.Errorf("stream fault: %v", err)
	}
	d.ClearFault()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.Shell("echo hi"); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("closed lab: %v", err)
	}
}
