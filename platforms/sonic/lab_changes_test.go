package sonic_test

import (
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/platforms/sonic"
)

// TestEmulatorChanges: the lab emulator decides which lines change the
// device; the read-only forms push uses for plan never do (the lab's
// reject fault and read-only checks rely on it).
func TestEmulatorChanges(t *testing.T) {
	pl := sonic.Platform()
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
		{nil, "show runningconfiguration all", false},
		{nil, "sonic-cfggen -d --print-data", false},
		{nil, "sonic-db-cli CONFIG_DB HGET 'PORT|Ethernet0' mtu", false},
		{nil, "sonic-db-cli CONFIG_DB HGETALL 'PORT|Ethernet0'", false},
		{nil, "sudo sonic-db-cli CONFIG_DB HSET 'PORT|Ethernet0' mtu 9000", true},
		{nil, "config list-checkpoints", false},
		{nil, "d=$(mktemp -d) && printf '%s' '[]' > $d/p.json", false},
		{nil, "sudo config apply-patch --dry-run /tmp/p.json", false},
		{nil, "sudo config apply-patch /tmp/p.json", true},
		{nil, "sudo config checkpoint fg-1", true},
		{nil, "sudo config delete-checkpoint fg-1", true},
		{nil, "rm -rf /tmp/tmp.x", false},
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
