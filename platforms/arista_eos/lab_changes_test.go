package aristaeos_test

import (
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	aristaeos "github.com/fabricgen/fabricgen/platforms/arista_eos"
)

// TestEmulatorChanges: the lab emulator decides which lines change the
// device; the read-only forms push uses for plan never do (the lab's
// reject fault and read-only checks rely on it).
func TestEmulatorChanges(t *testing.T) {
	pl := aristaeos.Platform()
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
		{nil, "show running-config", false},
		{nil, "show configuration sessions detail | json", false},
		{nil, "terminal length 0", false},
		{nil, "configure session fg1", false},
		{nil, "configure session fg1 commit", true},
		{nil, "configure session fg1 abort", true},
		{nil, "configure session fg1 commit timer 00:05:00", true},
		{nil, "copy running-config startup-config", true},
		{[]string{"configure"}, "qos map dscp 26 to traffic-class 3", true},
		{[]string{"configure"}, "end", false},
		{[]string{"configure"}, "do show running-config", false},
		{[]string{"configure session x"}, "show session-config diffs", false},
		{[]string{"configure session x"}, "commit timer 00:05:00", true},
		{[]string{"configure session x"}, "rollback clean-config", true},
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
