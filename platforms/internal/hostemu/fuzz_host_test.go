package hostemu

import (
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/shell"
	"github.com/fabricgen/fabricgen/schema"
)

func FuzzShell(f *testing.F) {
	for _, s := range []string{
		`command -v mlnx_qos >/dev/null || { echo "x" >&2; exit 1; }`,
		`ib=$(find /sys/class/net/eth0/device/infiniband -mindepth 1 -maxdepth 1 -printf '%f'); echo "$ib"`,
		`echo 1 > /sys/class/net/eth0/ecn/roce_np/enable/3 && cat /sys/class/net/eth0/ecn/roce_np/enable/3`,
		`set -eu; false; echo no`, `a | b || c && d ; e`, `echo '${x}' "$?" ${y}`,
		`ethtool -A eth0 rx off tx off || [ $? -eq 78 ]`,
		`[ "$(dcb -N app show dev eth0 dscp-prio)" = "dscp-prio 26:3 " ] || { echo "eth0: dcb app dscp-prio did not take" >&2; exit 1; }`,
		`modprobe rdma_cm; mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config`,
		`test ! -n "$x" -a`, `[ ! ]`, `[ 1 -ge ]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		env := &cli.Env{Spec: cli.Spec{Name: "h", Platform: schema.Platform("nvidia_mlnx")}, Now: time.Now,
			AfterFunc: func(time.Duration, func()) func() { return func() {} }}
		h, err := newHost(env, NvidiaTools)
		if err != nil {
			t.Fatal(err)
		}
		_ = shell.Changes(line, hostChanges, func(string) bool { return false })
		_ = h.shell().Exec(line)
	})
}
