package nvidiamlnx_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
	nvidiamlnx "github.com/fabricgen/fabricgen/platforms/nvidia_mlnx"
)

const mlnxShow = `DCBX mode: OS controlled
Priority trust state: dscp
dscp2prio mapping:
	prio:0 dscp:07,06,05,04,03,02,01,00,
	prio:3 dscp:31,30,29,28,27,26,25,24,
Cable len: 7
PFC configuration:
	priority    0   1   2   3   4   5   6   7
	enabled     0   0   0   1   0   0   0   0
	buffer      0   0   0   1   0   0   0   0
tc: 0 ratelimit: unlimited, tsa: ets, bw: 50%
	 priority:  0
tc: 3 ratelimit: unlimited, tsa: ets, bw: 50%
	 priority:  3
tc: 6 ratelimit: unlimited, tsa: strict
	 priority:  6
`

// TestConfigHostFactsFromMlnxQos: push reads mlnx_qos and the APP table back
// into the facts the script sets, and changes only what differs.
func TestConfigHostFactsFromMlnxQos(t *testing.T) {
	script := "set -eu\nmlnx_qos -i ens1f0np0 --trust dscp\nmlnx_qos -i ens1f0np0 --dscp2prio set,26,3\nmlnx_qos -i ens1f0np0 --pfc 0,0,0,1,0,0,0,0\nmlnx_qos -i ens1f0np0 --dscp2prio set,48,6\n"
	// The DSCP table is read from the APP table, which has the explicit
	// entries only: 26 is there, 48 is not (mlnx_qos's own table shows
	// every DSCP, defaults included).
	state := config.HostState([]string{"mlnx_qos -i ens1f0np0", "dcb -N app show dev ens1f0np0 dscp-prio"}, []string{mlnxShow, "dscp-prio 26:3\n"})
	d := nvidiamlnx.Platform().Dialect()
	cmp, err := config.Compare("nic", state, script, d)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"mlnx_qos -i ens1f0np0 --dscp2prio set,48,6"}
	if got := cmp.Changes.Commands(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("changes %q, want %q", got, want)
	}
	if !strings.Contains(cmp.Diff.Text, "-ens1f0np0 dscp2prio 48 = <unset>\n+ens1f0np0 dscp2prio 48 = 6\n") {
		t.Errorf("diff:\n%s", cmp.Diff.Text)
	}
}
