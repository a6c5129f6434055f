package nvidiamlnx_test

import (
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	nvidiamlnx "github.com/fabricgen/fabricgen/platforms/nvidia_mlnx"
)

// TestEmulatorChanges: the lab emulator decides which lines change the
// device; the read-only forms push uses for plan never do (the lab's
// reject fault and read-only checks rely on it).
func TestEmulatorChanges(t *testing.T) {
	pl := nvidiamlnx.Platform()
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
		{nil, "mlnx_qos -i ens1f0np0", false},
		{nil, "mlnx_qos -i ens1f0np0 --trust dscp", true},
		{nil, "cat /sys/class/net/ens1f0np0/ecn/roce_np/enable/3", false},
		{nil, "echo 1 > /sys/class/net/ens1f0np0/ecn/roce_np/enable/3", true},
		{nil, "echo 1 | tee /sys/class/net/ens1f0np0/ecn/roce_np/enable/3", true},
		{nil, "cma_roce_tos -d mlx5_0", false},
		{nil, "cma_roce_tos -d mlx5_0 -t 106", true},
		{nil, "ib=$(find /sys/class/net/ens1f0np0/device/infiniband -mindepth 1 -maxdepth 1 -printf '%f'); cat /sys/kernel/config/rdma_cm/$ib/ports/1/default_roce_tos", false},
		{nil, "ib=$(find /sys/class/net/ens1f0np0/device/infiniband -printf '%f') && cma_roce_tos -d \"$ib\" -t 106", true},
		{nil, "ip link show dev ens1f0np0", false},
		{nil, "ip -br link show", false},
		{nil, "ip link set dev ens1f0np0 mtu 9000", true},
		{nil, "ethtool -a ens1f0np0", false},
		{nil, "ethtool -A ens1f0np0 rx off tx off || [ $? -eq 78 ]", true},
		{nil, "ethtool --get-tunable ens1f0np0 pfc-prevention-tout", false},
		{nil, "mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config", true},
		{nil, "sudo mlnx_qos -i ens1f0np0 --pfc 0,0,0,1,0,0,0,0", true},
		{nil, "reboot", false},
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
