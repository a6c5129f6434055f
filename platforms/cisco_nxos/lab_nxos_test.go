package cisconxos_test

import (
	"strings"
	"testing"

	"github.com/scrapli/scrapligo/driver/opoptions"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

func TestNXOSCheckpointRollback(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "spine1", Platform: plat().Name})
	d := labtest.Scrapli(t, l, "spine1", plat().Dialect().Scrapli)
	before := l.Device("spine1").RunningConfig()
	if r, err := d.SendCommand("checkpoint fg1"); err != nil || r.Failed != nil {
		t.Fatalf("checkpoint: %v %v", err, r.Failed)
	}
	mr, err := d.SendConfigs([]string{"class-map type qos match-any ROCE", "match dscp 26", "interface Ethernet1/1", "mtu 9216", "priority-flow-control mode on"}, opoptions.WithStopOnFailed())
	if err != nil || mr.Failed != nil {
		t.Fatalf("config: %v %v", err, mr.Failed)
	}
	r, err := d.SendCommand("show diff rollback-patch checkpoint fg1 running-config")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"class-map type qos match-any ROCE\n  match dscp 26", "interface Ethernet1/1\n  mtu 9216"} {
		if !strings.Contains(r.Result, want) {
			t.Errorf("rollback patch lacks %q:\n%s", want, r.Result)
		}
	}
	mr, err = d.SendConfigs([]string{"bogus command"})
	if err != nil || mr.Failed == nil {
		t.Fatalf("bogus accepted: %v", err)
	}
	if r, err = d.SendCommand("rollback running-config checkpoint fg1"); err != nil || r.Failed != nil {
		t.Fatalf("rollback: %v %v", err, r.Failed)
	}
	if got := stripNXOSHeader(l.Device("spine1").RunningConfig()); got != stripNXOSHeader(before) {
		t.Fatalf("rollback did not restore:\n%s", cli.UnifiedDiff("before", "after", stripNXOSHeader(before), got))
	}
}

func stripNXOSHeader(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "!Time:") || strings.HasPrefix(l, "!Running configuration last done") {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// TestNXOSIPv6ACLWords: an NX-OS ipv6 access-list says "ipv6" for any
// protocol and "icmp" for ICMPv6; the IPv4 word "ip" is refused there, and
// an interface takes one routed ACL per direction and family.
func TestNXOSIPv6ACLWords(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "spine1", Platform: plat().Name})
	d := labtest.Scrapli(t, l, "spine1", plat().Dialect().Scrapli)
	for _, c := range []struct {
		mode, line string
		ok         bool
	}{
		{"ipv6 access-list v6", "10 deny ipv6 any 2001:db8::/32", true},
		{"ipv6 access-list v6", "20 permit icmp any any", true},
		{"ipv6 access-list v6", "30 deny ip any 2001:db8::/32", false},
		{"ip access-list v4", "10 permit ip any any", true},
		{"interface Ethernet1/1", "ip access-group v4 in", true},
		{"interface Ethernet1/1", "ip access-group v4 out", true},
		{"interface Ethernet1/1", "ipv6 traffic-filter v6 out", true},
	} {
		mr, err := d.SendConfigs([]string{c.mode, c.line})
		if err != nil {
			t.Fatal(err)
		}
		if (mr.Failed == nil) != c.ok {
			t.Errorf("%s / %q: failed %v, want accepted %v: %q", c.mode, c.line, mr.Failed, c.ok, mr.Responses[len(mr.Responses)-1].Result)
		}
	}
	run := l.Device("spine1").RunningConfig()
	for _, want := range []string{"ipv6 access-list v6\n  10 deny ipv6 any 2001:db8::/32\n  20 permit icmp any any\n", "  ip access-group v4 in\n  ip access-group v4 out\n"} {
		if !strings.Contains(run, want) {
			t.Errorf("running config lacks %q:\n%s", want, run)
		}
	}
	if strings.Contains(run, "30 deny ip any") {
		t.Errorf("running config holds the refused entry:\n%s", run)
	}
}

// TestNXOSFixedRestoreLine: the lab takes the switch-wide "priority-flow-control
// fixed-restore multiplier N" (9.3(3) and later), shows it in the running
// configuration, replaces it when N changes, and the reader reads it back as
// N × the 100 ms watch-dog interval.
func TestNXOSFixedRestoreLine(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "spine1", Platform: plat().Name})
	d := labtest.Scrapli(t, l, "spine1", plat().Dialect().Scrapli)
	for _, c := range []struct {
		lines  []string
		show   string // the line the running config must hold, "" for none
		wantMS int
	}{
		{[]string{"priority-flow-control watch-dog-interval on", "priority-flow-control fixed-restore multiplier 3"}, "priority-flow-control fixed-restore multiplier 3", 300},
		{[]string{"priority-flow-control fixed-restore multiplier 5"}, "priority-flow-control fixed-restore multiplier 5", 500},
		{[]string{"no priority-flow-control fixed-restore multiplier 5"}, "", 0},
	} {
		mr, err := d.SendConfigs(c.lines, opoptions.WithStopOnFailed())
		if err != nil || mr.Failed != nil {
			t.Fatalf("%q: %v %v", c.lines, err, mr.Failed)
		}
		run := l.Device("spine1").RunningConfig()
		if n := strings.Count(run, "\npriority-flow-control fixed-restore multiplier "); c.show == "" && n != 0 || c.show != "" && (n != 1 || !strings.Contains(run, "\n"+c.show+"\n")) {
			t.Errorf("after %q: want %q once in the running config (found %d fixed-restore lines):\n%s", c.lines, c.show, n, run)
		}
		rd, err := plat().Reader(run)
		if err != nil {
			t.Fatal(err)
		}
		if got := rd.Default.WatchdogRestoreMS; got != c.wantMS {
			t.Errorf("after %q: read restore %d ms, want %d", c.lines, got, c.wantMS)
		}
	}
}
