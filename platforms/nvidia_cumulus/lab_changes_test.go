package nvidiacumulus_test

import (
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	nvidiacumulus "github.com/fabricgen/fabricgen/platforms/nvidia_cumulus"
)

// TestEmulatorChanges: the lab emulator decides which lines change the
// device; the read-only forms push uses for plan never do (the lab's
// reject fault and read-only checks rely on it).
func TestEmulatorChanges(t *testing.T) {
	pl := nvidiacumulus.Platform()
	var ports []string
	if pl.Spec.Host {
		ports = []string{"eth0"}
	}
	cases := []struct {
		// pre runs first (to enter a mode).
		pre    []string
		line   string
		change bool
	}{
		{nil, "nv config show -o commands", false},
		{nil, "nv config diff", false},
		{nil, "nv show system", false},
		{nil, "nv config revision -o json", false},
		{nil, "nv config apply --confirm-status", false},
		{nil, "nv set interface swp1 link mtu 9216", true},
		{nil, "nv config apply -y --confirm 300s", true},
		{nil, "nv config apply --confirm-yes", true},
		{nil, "printf '%s' x > /tmp/x && cat /tmp/x", false},
		{nil, "echo $(nv set system timezone UTC)", true},
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			env := &cli.Env{Spec: cli.Spec{Name: "d1", Platform: pl.Name, Username: "admin", Password: "lab-pw", Ports: ports},
				AfterFunc: func(time.Duration, func()) func() { return func() {} }, Now: time.Now}
			emu, err := pl.Emulator(env)
			if err != nil {
				t.Fatal(err)
			}
			s := emu.NewSession(&cli.Term{}, "admin")
			for _, p := range c.pre {
				if r := s.Handle(p); r.Status != 0 {
					t.Fatalf("%s: %q", p, r.Out)
				}
			}
			if got := s.Changes(c.line); got != c.change {
				t.Errorf("changes(%q) = %v, want %v", c.line, got, c.change)
			}
		})
	}
}
