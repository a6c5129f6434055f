package nvidiacumulus_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

func TestCumulusRevisions(t *testing.T) {
	cases := []struct {
		name    string
		finish  []string
		applied bool
	}{
		{"apply", []string{"nv config apply -y"}, true},
		{"confirm then confirmed", []string{"nv config apply --confirm 60s -y", "nv config confirm"}, true},
		{"confirm yes option", []string{"nv config apply --confirm 60s -y", "nv config apply --confirm-yes"}, true},
		{"confirm expires", []string{"nv config apply --confirm 60s -y"}, false},
		{"detach", []string{"nv config detach"}, false},
		{"apply then revert to startup", []string{"nv config apply -y", "nv config apply 1 -y"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := labtest.Start(t, lab.DeviceSpec{Name: "leaf4", Platform: plat().Name})
			dev := l.Device("leaf4")
			before := dev.RunningConfig()
			sh := labtest.OpenShell(t, l, "leaf4", `admin@leaf4:mgmt:~\$ $`)
			for _, cmd := range []string{"nv set interface swp1 link mtu 9216", "nv set qos pfc default-global switch-priority 3"} {
				if out := sh.Run(cmd); out != "" {
					t.Fatalf("%s: %s", cmd, out)
				}
			}
			diff := sh.Run("nv config diff")
			if diff != "nv set interface swp1 link mtu 9216\nnv set qos pfc default-global switch-priority 3\n" {
				t.Errorf("nv config diff:\n%s", diff)
			}
			for _, cmd := range c.finish {
				sh.Run(cmd)
			}
			// Expiring the timers must not undo a confirmed change.
			dev.ExpireTimers()
			got := strings.Contains(dev.RunningConfig(), "nv set interface swp1 link mtu 9216\n")
			if got != c.applied {
				t.Fatalf("applied = %v, want %v:\n%s", got, c.applied, dev.RunningConfig())
			}
			if !c.applied && dev.RunningConfig() != before {
				t.Errorf("not restored:\n%s", cli.UnifiedDiff("before", "after", before, dev.RunningConfig()))
			}
		})
	}
}

func TestCumulusErrors(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "leaf4", Platform: plat().Name})
	sh := labtest.OpenShell(t, l, "leaf4", `:~\$ $`)
	cases := []struct{ cmd, want string }{
		{"nv set interface swp1 link mtu 99999", "Error: Invalid value for mtu"},
		{"nv set frobnicate 1", "Error: Invalid Command"},
		{"nv set interface swp1 link mtu 9000; echo $?", "0\n"},
		{"nv set interface swp1 link mtu 9216 && nv config apply -y", "applied [rev_id: 2]"},
		{"nv config show -o commands | cat", "nv set interface swp1 link mtu 9216\n"},
		{"frob", "command not found"},
		// ACL match tree of Cumulus Linux 5.7 and later
		{"nv set acl m rule 10 match ip dest-port 4791", "Error: Invalid Command: 'dest-port' is not valid under match ip"},
		{"nv set acl m rule 10 match ipv6 dscp 26", "Error: Invalid Command: 'ipv6' is not a valid match type"},
		{"nv set acl m rule 10 match ip udp dest-port 4791; echo $?", "0\n"},
		{"nv set acl m rule 10 match ip tcp source-port 99999", "Error: Invalid value for source-port"},
		{"nv set qos egress-scheduler default-global traffic-class 0 bw-percent 0", "Error: Invalid value for bw-percent: '0' is not in the range 1..100"},
		{"nv set qos traffic-pool default-lossless memory-percent 50; echo $?", "0\n"},
		{"nv set qos traffic-pool default-lossy memory-percent 101", "Error: Invalid value for memory-percent"},
	}
	for _, c := range cases {
		if got := sh.Run(c.cmd); !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.cmd, got, c.want)
		}
	}
	// scalar replacement: one mtu per interface
	if n := strings.Count(l.Device("leaf4").RunningConfig(), "swp1 link mtu"); n != 1 {
		t.Errorf("%d mtu statements for swp1, want 1", n)
	}
}

func TestCumulusScrapli(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "leaf4", Platform: plat().Name})
	d := labtest.Scrapli(t, l, "leaf4", "cumulus_linux")
	r, err := d.SendCommand("nv set interface swp2 link mtu 9216")
	if err != nil || r.Failed != nil {
		t.Fatalf("nv set: %v %v", err, r.Failed)
	}
	r, err = d.SendCommand("nv config apply -y")
	if err != nil || !strings.Contains(r.Result, "applied [rev_id: 2]") {
		t.Fatalf("apply: %v %q", err, r.Result)
	}
	r, err = d.SendCommand("nv frobnicate")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Result, "Error: Invalid Command") {
		t.Errorf("bad nv command: %q", r.Result)
	}
}
