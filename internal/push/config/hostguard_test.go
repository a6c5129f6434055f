package config

import (
	"strings"
	"testing"
)

// TestHostScriptGuards: the read-back guard after dcb app replace is
// skipped (push reads facts back itself), the rdma_cm setup lines are
// setup actions, the ethtool -A guard keeps its facts, and each dcb app
// selector is read the way its keys print.
func TestHostScriptGuards(t *testing.T) {
	script := `set -eu
ethtool -A eth0 rx off tx off || [ $? -eq 78 ]
dcb app replace dev eth0 dscp-prio 26:3 48:6
[ "$(dcb -N app show dev eth0 dscp-prio)" = "dscp-prio 26:3 48:6 " ] || { echo "eth0: dcb app dscp-prio did not take" >&2; exit 1; }
dcb apptrust set dev eth1 order pcp
dcb app replace dev eth1 pcp-prio 0nd:0 0de:0 3nd:3 3de:3
[ "$(dcb app show dev eth1 pcp-prio)" = "pcp-prio 0nd:0 3nd:3 0de:0 3de:3 " ] || { echo "eth1: dcb app pcp-prio did not take" >&2; exit 1; }
modprobe rdma_cm
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
mkdir -p /sys/kernel/config/rdma_cm/mlx5_0
echo 106 > /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos
`
	actions, err := ParseHostScript(script)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range actions {
		got = append(got, a.Read+" <- "+a.Line)
	}
	want := []string{
		"ethtool -a eth0 <- ethtool -A eth0 rx off tx off || [ $? -eq 78 ]",
		"dcb -N app show dev eth0 dscp-prio <- dcb app replace dev eth0 dscp-prio 26:3 48:6",
		"dcb apptrust show dev eth1 <- dcb apptrust set dev eth1 order pcp",
		"dcb app show dev eth1 pcp-prio <- dcb app replace dev eth1 pcp-prio 0nd:0 0de:0 3nd:3 3de:3",
		" <- modprobe rdma_cm",
		" <- mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config",
		" <- mkdir -p /sys/kernel/config/rdma_cm/mlx5_0",
		"cat /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos <- echo 106 > /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("actions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if f := actions[0].Facts; len(f) != 2 || f[0].Value != "off" {
		t.Errorf("ethtool facts %v", f)
	}
	// dcb app show output, trailing space and all, gives the facts back.
	state := HostState([]string{"dcb -N app show dev eth0 dscp-prio", "dcb app show dev eth1 pcp-prio"},
		[]string{"dscp-prio 26:3 48:6 \n", "pcp-prio 0nd:0 3nd:3 0de:0 3de:3 \n"})
	facts := HostFacts(actions, state)
	for id, v := range map[string]string{"eth0 app dscp-prio 26": "3", "eth0 app dscp-prio 48": "6", "eth1 app pcp-prio 3de": "3"} {
		if facts[id] != v {
			t.Errorf("%s = %q, want %q", id, facts[id], v)
		}
	}
	for _, bad := range []string{
		"dcb app replace dev eth0 dscp-prio 26:3 pcp-prio 0nd:0",
		"mlnx_qos -i eth0 --trust dscp || [ $? -eq 78 ]",
		`[ "$(rm -rf /)" = "" ] || true`,
	} {
		if _, err := ParseHostScript(bad + "\n"); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
