package juniperjunos_test

import (
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	juniperjunos "github.com/fabricgen/fabricgen/platforms/juniper_junos"
)

// TestEmulatorChanges: the lab emulator decides which lines change the
// device; the read-only forms push uses for plan never do (the lab's
// reject fault and read-only checks rely on it).
func TestEmulatorChanges(t *testing.T) {
	pl := juniperjunos.Platform()
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
		{nil, "show configuration | display set | no-more", false},
		{nil, "show system commit", false},
		{nil, "configure exclusive", false},
		{nil, "set cli screen-length 0", false},
		{[]string{"configure private"}, "set interfaces et-0/0/1 mtu 9216", true},
		{[]string{"configure private"}, "show | compare", false},
		{[]string{"configure private"}, "commit check", true},
		{[]string{"configure private"}, "rollback 1", true},
		{[]string{"configure private"}, "run show system commit", false},
		{[]string{"configure private", "load set terminal"}, "set system host-name x", true},
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
