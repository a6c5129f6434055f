package aristaeos_test

import (
	"strings"
	"testing"
	"time"

	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/driver/opoptions"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// eosSession registers a scrapligo privilege level for a config session,
// the way push drives EOS.
func eosSession(d *network.Driver, name string) {
	d.PrivilegeLevels[name] = &network.PrivilegeLevel{
		Name:         name,
		Pattern:      `(?im)^[\w.\-@()/: ]{1,63}\(config-s-` + name[:min(6, len(name))] + `[\w.\-@/:]{0,32}\)#\s?$`,
		PreviousPriv: "privilege-exec",
		Deescalate:   "end",
		Escalate:     "configure session " + name,
	}
	d.UpdatePrivileges()
}

func TestEOSScrapliConfigAndErrors(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "leaf1", Platform: plat().Name})
	d := labtest.Scrapli(t, l, "leaf1", plat().Dialect().Scrapli)
	mr, err := d.SendConfigs([]string{"interface Ethernet1", "mtu 9214", "tx-queue 3", "bandwidth percent 50", "qos map dscp 26 to traffic-class 3", "bogus line"}, opoptions.WithStopOnFailed())
	if err != nil {
		t.Fatal(err)
	}
	if mr.Failed == nil || !strings.Contains(mr.Responses[len(mr.Responses)-1].Result, "% Invalid input (at token 0: 'bogus')") {
		t.Fatalf("bogus line accepted or wrong error: %+v", mr.Responses[len(mr.Responses)-1])
	}
	r, err := d.SendCommand("show running-config")
	if err != nil {
		t.Fatal(err)
	}
	want := "qos map dscp 26 to traffic-class 3\n!\ninterface Ethernet1\n   mtu 9214\n   !\n   tx-queue 3\n      bandwidth percent 50\n!\n"
	if !strings.Contains(r.Result, want) {
		t.Fatalf("running config lacks\n%s\ngot:\n%s", want, r.Result)
	}
	mr, _ = d.SendConfigs([]string{"interface Ethernet1", "mtu"})
	if mr.Failed == nil || !strings.Contains(mr.Responses[1].Result, "% Incomplete command") {
		t.Errorf("bare mtu: %+v", mr.Responses[1])
	}
}

func TestEOSSessions(t *testing.T) {
	cases := []struct {
		name string
		// finish runs after the session holds "interface Ethernet2 / mtu 9214".
		finish  []string
		applied bool
	}{
		{"commit", []string{"commit"}, true},
		{"abort", []string{"abort"}, false},
		{"timer confirmed", []string{"commit timer 00:10:00", "configure session fg commit"}, true},
		{"timer expired", []string{"commit timer 00:10:00"}, false},
		{"end leaves it pending", []string{"end"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := labtest.Start(t, lab.DeviceSpec{Name: "leaf1", Platform: plat().Name})
			dev := l.Device("leaf1")
			before := dev.RunningConfig()
			sh := labtest.OpenShell(t, l, "leaf1", `leaf1[^\n]*#$`)
			sh.Run("configure session fg")
			sh.Run("interface Ethernet2")
			sh.Run("mtu 9214")
			diff := sh.Run("show session-config diffs")
			if !strings.Contains(diff, " interface Ethernet2\n+   mtu 9214\n") {
				t.Fatalf("session diff:\n%s", diff)
			}
			if dev.RunningConfig() != before {
				t.Fatal("session change visible before commit")
			}
			for _, cmd := range c.finish {
				if out := sh.Run(cmd); strings.Contains(out, "%") {
					t.Fatalf("%s: %s", cmd, out)
				}
			}
			// Expiring the timers must not undo a confirmed change.
			dev.ExpireTimers()
			got := strings.Contains(dev.RunningConfig(), "interface Ethernet2\n   mtu 9214\n")
			if got != c.applied {
				t.Fatalf("applied = %v, want %v:\n%s", got, c.applied, dev.RunningConfig())
			}
			if !c.applied && dev.RunningConfig() != before {
				t.Errorf("config not restored:\n%s", cli.UnifiedDiff("before", "after", before, dev.RunningConfig()))
			}
		})
	}
}

func TestEOSCommitTimerExpiresOnItsOwn(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "leaf1", Platform: plat().Name})
	dev := l.Device("leaf1")
	before := dev.RunningConfig()
	sh := labtest.OpenShell(t, l, "leaf1", `leaf1[^\n]*#$`)
	sh.Run("configure session fg")
	sh.Run("hostname changed")
	sh.Run("commit timer 00:00:01")
	if !strings.Contains(dev.RunningConfig(), "hostname changed") {
		t.Fatal("commit timer did not apply the session")
	}
	deadline := time.Now().Add(labtest.Patience(t))
	for dev.RunningConfig() != before {
		if time.Now().After(deadline) {
			t.Fatal("commit timer did not roll back")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestEOSScrapliSessionPrivilege(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "leaf1", Platform: plat().Name})
	d := labtest.Scrapli(t, l, "leaf1", plat().Dialect().Scrapli)
	eosSession(d, "fabricgen-1")
	mr, err := d.SendConfigs([]string{"interface Ethernet3", "mtu 9000"}, opoptions.WithPrivilegeLevel("fabricgen-1"), opoptions.WithStopOnFailed())
	if err != nil || mr.Failed != nil {
		t.Fatalf("session config: %v %v", err, mr.Failed)
	}
	r, err := d.SendConfig("show session-config diffs", opoptions.WithPrivilegeLevel("fabricgen-1"))
	if err != nil || !strings.Contains(r.Result, "+   mtu 9000") {
		t.Fatalf("diffs: %v\n%s", err, r.Result)
	}
	if _, err := d.SendConfig("commit", opoptions.WithPrivilegeLevel("fabricgen-1")); err != nil {
		t.Fatal(err)
	}
	r, err = d.SendCommand("show running-config | section Ethernet3")
	if err != nil || !strings.Contains(r.Result, "interface Ethernet3\n   mtu 9000") {
		t.Fatalf("after commit: %v\n%s", err, r.Result)
	}
}

// TestEOSPlatformLimits: the values EOS refuses (interface mtu above 9214,
// speed words outside its keyword list, the watchdog action no-drop) get
// EOS's answers; the accepted forms are stored.
func TestEOSPlatformLimits(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "leaf1", Platform: plat().Name})
	d := labtest.Scrapli(t, l, "leaf1", plat().Dialect().Scrapli)
	for _, c := range []struct {
		mode, line, err string // err "" means accepted
	}{
		{"interface Ethernet1", "mtu 9214", ""},
		{"interface Ethernet1", "mtu 68", ""},
		{"interface Ethernet1", "mtu 9216", "% Max MTU for Ethernet1 is 9214"},
		{"interface Ethernet2", "mtu 9215", "% Max MTU for Ethernet2 is 9214"},
		{"interface Ethernet1", "mtu 67", "% Invalid input (at token 1: '67')"},
		{"interface Ethernet1", "speed 400g", ""},
		{"interface Ethernet1", "speed 800g-8", ""},
		{"interface Ethernet1", "speed 100full", ""},
		{"interface Ethernet1", "speed 800g", "% Invalid input (at token 1: '800g')"},
		{"interface Ethernet1", "speed 100m", "% Invalid input (at token 1: '100m')"},
		{"interface Ethernet1", "speed 2.5g", "% Invalid input (at token 1: '2.5g')"},
		{"interface Ethernet1", "priority-flow-control pause watchdog port action notify-only", ""},
		{"interface Ethernet1", "priority-flow-control pause watchdog port action no-drop", "% Unavailable command (not supported on this hardware platform)"},
		{"", "priority-flow-control pause watchdog action drop", ""},
		{"", "priority-flow-control pause watchdog action errdisable", ""},
		{"", "priority-flow-control pause watchdog action no-drop", "% Unavailable command (not supported on this hardware platform)"},
		// An ipv6 access-list takes IPv6 protocol words only.
		{"ipv6 access-list v6", "10 deny ipv6 any 2001:db8::/32", ""},
		{"ipv6 access-list v6", "20 permit icmpv6 any any", ""},
		{"ipv6 access-list v6", "30 permit udp any any eq 4791", ""},
		{"ipv6 access-list v6", "40 deny ip any 2001:db8::/32", "% Invalid input"},
		{"ipv6 access-list v6", "50 permit icmp any any", "% Invalid input"},
		{"ip access-list v4", "10 permit icmp any any", ""},
		{"interface Ethernet1", "ipv6 access-group v6 in", ""},
	} {
		lines := []string{c.line}
		if c.mode != "" {
			lines = []string{c.mode, c.line}
		}
		mr, err := d.SendConfigs(lines)
		if err != nil {
			t.Fatal(err)
		}
		got := mr.Responses[len(mr.Responses)-1].Result
		if c.err == "" && mr.Failed != nil {
			t.Errorf("%q refused: %q", c.line, got)
		}
		// scrapligo's arista_eos failed-when-contains list lacks "% Max
		// MTU", as it would for a real switch: check the text only.
		if c.err != "" && (!strings.Contains(got, c.err) || mr.Failed == nil && !strings.HasPrefix(c.err, "% Max MTU")) {
			t.Errorf("%q: got %q (failed %v), want %q", c.line, got, mr.Failed, c.err)
		}
	}
	r, err := d.SendCommand("show running-config")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"interface Ethernet1\n   mtu 68\n   speed 100full\n", "priority-flow-control pause watchdog action errdisable\n"} {
		if !strings.Contains(r.Result, want) {
			t.Errorf("running config lacks %q:\n%s", want, r.Result)
		}
	}
	for _, bad := range []string{"mtu 92", "no-drop\n", "speed 800g\n"} {
		if strings.Contains(r.Result, bad) {
			t.Errorf("running config holds a refused line (%q):\n%s", bad, r.Result)
		}
	}
	// A configuration file is held to the same range.
	emu, err := plat().Emulator(labtest.Env("leaf9", plat().Name))
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.OutOfBand([]string{"interface Ethernet1", "   mtu 9216"}); err == nil {
		t.Error("out-of-band mtu 9216 accepted")
	}
}
