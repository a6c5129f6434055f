package linuxdcb_test

import (
	"context"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestRunningConfigErrors: a saved configuration the lab device cannot
// start from (lab up --running-config) is refused, naming the device and
// the line.
func TestRunningConfigErrors(t *testing.T) {
	cases := []struct {
		text string
		want string
	}{
		{"reboot\n", "status 127"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			l, err := lab.Start(context.Background(), []lab.DeviceSpec{{Name: "d1", Platform: plat().Name, Username: labtest.User, Password: labtest.Password, RunningConfig: c.text}}, lab.Options{Dir: t.TempDir()})
			if err == nil {
				_ = l.Close()
				t.Fatalf("Start succeeded, want an error containing %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "d1") {
				t.Errorf("error %q does not name the device and %q", err, c.want)
			}
		})
	}
}
