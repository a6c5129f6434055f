package linuxdcb_test

import (
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	linuxdcb "github.com/fabricgen/fabricgen/platforms/linux_dcb"
)

// TestEmulatorChanges: the lab emulator decides which lines change the
// device; the read-only forms push uses for plan never do (the lab's
// reject fault and read-only checks rely on it).
func TestEmulatorChanges(t *testing.T) {
	pl := linuxdcb.Platform()
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
		{nil, "dcb -N app show dev eth0 dscp-prio", false},
		{nil, "[ \"$(dcb -N app show dev eth0 dscp-prio)\" = \"dscp-prio 26:3 \" ] || exit 1", false},
		{nil, "dcb pfc show dev eth0", false},
		{nil, "dcb pfc set dev eth0 prio-pfc all:off 3:on", true},
		{nil, "dcb app replace dev eth0 dscp-prio 26:3", true},
		{nil, "modprobe rdma_cm", true},
		{nil, "sh -c 'dcb ets set dev eth0 tc-bw all:0 0:100'", true},
		{nil, "$CMD show", true},
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
