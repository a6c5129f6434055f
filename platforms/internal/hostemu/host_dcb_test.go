package hostemu

import (
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/shell"
	"github.com/fabricgen/fabricgen/schema"
)

// testHost is a linux_dcb host (inbox tools) with one port, eth0.
func testHost(t *testing.T, p schema.Platform) *host {
	t.Helper()
	env := &cli.Env{Spec: cli.Spec{Name: "h", Platform: p, Ports: []string{"eth0"}}, Now: time.Now,
		AfterFunc: func(time.Duration, func()) func() { return func() {} }}
	h, err := newHost(env, InboxTools)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestHostMlx5DCB: the linux_dcb host is mlx5 without apptrust; dcb app
// replace exits 0 even when the driver refuses, which only a read-back
// check catches.
func TestHostMlx5DCB(t *testing.T) {
	h := testHost(t, schema.Platform("linux_dcb"))
	sh := h.shell()
	for _, c := range []struct {
		line, out string
		status    int
	}{
		{"dcb apptrust set dev eth0 order dscp", "Error when attempting to set attribute: Unknown error 161\n", 1},
		{"dcb app replace dev eth0 pcp-prio 0:0", "Invalid mapping 0\n", 0},
		{"dcb app add dev eth0 pcp-prio 0:0", "Invalid mapping 0\n", 1},
		{"dcb app replace dev eth0 pcp-prio 0nd:0 0de:0", "Error when attempting to set attribute: Unknown error 234\nCould not add new APP entries\n", 0},
		{"dcb app show dev eth0 pcp-prio", "", 0},
		{"dcb app replace dev eth0 dscp-prio 26:3 48:6", "", 0},
		{"dcb -N app show dev eth0 dscp-prio", "dscp-prio 26:3 48:6 \n", 0},
		{"dcb app show dev eth0", "dscp-prio AF31:3 CS6:6 \n", 0},
		// mlx5 drops the old entry itself, so dcb's own delete fails
		// (ENOENT) and is reported, but the table is right and the
		// status is 0.
		{"dcb app replace dev eth0 dscp-prio 26:4", "Error when attempting to set attribute: Unknown error 254\nCould not remove replaced APP entries\n", 0},
		{"dcb -N app show dev eth0 dscp-prio", "dscp-prio 26:4 48:6 \n", 0},
		{`[ "$(dcb -N app show dev eth0 dscp-prio)" = "dscp-prio 26:4 48:6 " ] || { echo "eth0: dcb app dscp-prio did not take" >&2; exit 1; }`, "", 0},
		{"dcb app del dev eth0 dscp-prio 26:3", "Error when attempting to set attribute: Unknown error 254\n", 1},
		{"dcb -n ns1 app show dev eth0", "dcb: network namespaces are not emulated by the lab\n", 1},
		{"ethtool --set-tunable eth0 pfc-prevention-tout 50", "Cannot set tunable pfc-prevention-tout: Invalid argument\n", 1},
		{"ethtool --set-tunable eth0 pfc-prevention-tout 80", "", 0},
	} {
		got := sh.Exec(c.line)
		if got != c.out || sh.Status != c.status {
			t.Errorf("%s:\n got %q, status %d\nwant %q, status %d", c.line, got, sh.Status, c.out, c.status)
		}
	}
	if n := h.nics["eth0"]; n.trust != "dscp" {
		t.Errorf("trust %s after DSCP app entries, want dscp", n.trust)
	}
	// A failed replace leaves the table as it was; the guard stops the script.
	sh = h.shell()
	out := sh.Exec(`set -eu; dcb app replace dev eth0 pcp-prio 3nd:3 3de:3; [ "$(dcb app show dev eth0 pcp-prio)" = "pcp-prio 3nd:3 3de:3 " ] || { echo "eth0: dcb app pcp-prio did not take" >&2; exit 1; }; echo not reached`)
	if !strings.Contains(out, "eth0: dcb app pcp-prio did not take") || strings.Contains(out, "not reached") || sh.Status != 1 {
		t.Errorf("guard did not stop the script: %q, status %d", out, sh.Status)
	}
}

// TestHostConfigfs: rdma_cm configfs writes need the module loaded and
// configfs mounted; the linux_dcb script's setup lines provide both.
func TestHostConfigfs(t *testing.T) {
	h := testHost(t, schema.Platform("linux_dcb"))
	h.configfs = false
	sh := h.shell()
	if out := sh.Exec("mkdir -p /sys/kernel/config/rdma_cm/mlx5_0"); sh.Status != 1 || !strings.Contains(out, "No such file or directory") {
		t.Fatalf("mkdir without rdma_cm: %q, status %d", out, sh.Status)
	}
	for _, c := range []struct {
		line, out string
		status    int
	}{
		{"mountpoint /sys/kernel/config", "/sys/kernel/config is not a mountpoint\n", 32},
		{"modprobe rdma_cm", "", 0},
		{"modprobe bogus", "modprobe: FATAL: Module bogus not found in directory /lib/modules/5.15.0-105-generic\n", 1},
		{"mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config", "", 0},
		{"mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config", "", 0},
		{"mount -t configfs none /sys/kernel/config", "mount: /sys/kernel/config: none already mounted on /sys/kernel/config.\n", 32},
		{"mkdir -p /sys/kernel/config/rdma_cm/mlx5_0", "", 0},
		{"echo 106 > /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos", "", 0},
		{"cat /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos", "106\n", 0},
	} {
		got := sh.Exec(c.line)
		if got != c.out || sh.Status != c.status {
			t.Errorf("%s:\n got %q, status %d\nwant %q, status %d", c.line, got, sh.Status, c.out, c.status)
		}
	}
	if run := h.Running(); !strings.Contains(run, "module rdma_cm loaded\nconfigfs mounted\n") {
		t.Errorf("running state:\n%s", run)
	}
}

// TestShellTestAndErrexit: test / [ and set -e as bash has them; the
// command after the last && or || of a list is not exempt from set -e.
func TestShellTestAndErrexit(t *testing.T) {
	status := 78
	run := func(argv []string, _ string) (string, string, int) {
		if argv[0] == "pause" {
			return "", "no pause parameters changed, aborting\n", status
		}
		return "", "bash: " + argv[0] + ": command not found\n", 127
	}
	nowrite := func(string, string, bool) string { return "Permission denied" }
	none := func(string) (string, bool) { return "", false }
	for _, c := range []struct {
		line, out string
		status    int
	}{
		{`[ a = a ]`, "", 0},
		{`[ "a b" != "a b" ]`, "", 1},
		{`test -n ""`, "", 1},
		{`[ -z "" ] && echo empty`, "empty\n", 0},
		{`[ 3 -lt 10 ]`, "", 0},
		{`[ ! 3 -lt 10 ]`, "", 1},
		{`[ x -eq 1 ]`, "bash: [: x: integer expression expected\n", 2},
		{`[ a = a`, "bash: [: missing `]'\n", 2},
		{`[ a b c d e ]`, "bash: [: too many arguments\n", 2},
		{`set -e; pause || [ $? -eq 78 ]; echo on`, "no pause parameters changed, aborting\non\n", 0},
		{`set -e; true && false; echo not reached`, "", 1},
		{`set -e; false && true; echo reached`, "reached\n", 0},
		{`set -e; false || false; echo not reached`, "", 1},
	} {
		sh := shell.NewShell(run, nowrite, none)
		if got := sh.Exec(c.line); got != c.out || sh.Status != c.status {
			t.Errorf("%s:\n got %q, status %d\nwant %q, status %d", c.line, got, sh.Status, c.out, c.status)
		}
	}
	status = 79 // ethtool: "Cannot set device pause parameters"
	sh := shell.NewShell(run, nowrite, none)
	if out := sh.Exec(`set -e; pause || [ $? -eq 78 ]; echo not reached`); strings.Contains(out, "not reached") || sh.Status != 1 {
		t.Errorf("status 79 passed the ethtool guard: %q, status %d", out, sh.Status)
	}
}
