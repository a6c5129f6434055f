package juniperjunos_test

import (
	"context"
	"strings"
	"testing"

	"github.com/scrapli/scrapligo/driver/opoptions"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

func TestJunosCommitFlows(t *testing.T) {
	cases := []struct {
		name    string
		enter   string
		finish  []string
		applied bool
		errText string
	}{
		{"commit", "configure private", []string{"commit"}, true, ""},
		{"confirmed then commit", "configure exclusive", []string{"commit confirmed 5", "commit"}, true, ""},
		{"confirmed then commit check", "configure exclusive", []string{"commit confirmed 5", "commit check"}, true, ""},
		{"confirmed expires", "configure exclusive", []string{"commit confirmed 5"}, false, ""},
		{"confirmed refused in private", "configure private", []string{"commit confirmed 5"}, false, "not supported in configure private mode"},
		{"exit discards", "configure private", []string{"exit"}, false, ""},
		{"exclusive exit discards", "configure exclusive", []string{"exit"}, false, ""},
		{"rollback 0 discards", "configure", []string{"rollback 0", "commit"}, false, ""},
		{"shared commit", "configure", []string{"commit"}, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := labtest.Start(t, lab.DeviceSpec{Name: "spine1", Platform: plat().Name})
			dev := l.Device("spine1")
			before := dev.RunningConfig()
			sh := labtest.OpenShell(t, l, "spine1", `admin@spine1[>#] $`)
			sh.Run(c.enter)
			sh.Run("set interfaces et-0/0/1 mtu 9216")
			sh.Run("set class-of-service forwarding-classes class NO-LOSS queue-num 3 no-loss")
			cmp := sh.Run("show | compare")
			for _, want := range []string{"[edit interfaces et-0/0/1]\n+   mtu 9216;", "[edit]\n+   class-of-service {\n+       forwarding-classes {\n+           class NO-LOSS queue-num 3 no-loss;\n+       }\n+   }\n"} {
				if !strings.Contains(cmp, want) {
					t.Errorf("show | compare lacks %q:\n%s", want, cmp)
				}
			}
			var out string
			for _, cmd := range c.finish {
				out += sh.Run(cmd)
			}
			if c.errText != "" && !strings.Contains(out, c.errText) {
				t.Errorf("output %q lacks %q", out, c.errText)
			}
			// Expiring the timers must not undo a confirmed commit.
			dev.ExpireTimers()
			got := strings.Contains(dev.RunningConfig(), "mtu 9216;")
			if got != c.applied {
				t.Fatalf("applied = %v, want %v:\n%s", got, c.applied, dev.RunningConfig())
			}
			if !c.applied && stripJunosHeader(dev.RunningConfig()) != stripJunosHeader(before) {
				t.Errorf("not restored:\n%s", cli.UnifiedDiff("before", "after", before, dev.RunningConfig()))
			}
		})
	}
}

func stripJunosHeader(s string) string {
	_, rest, _ := strings.Cut(s, "version 23.4R1.9;\n")
	return rest
}

func TestJunosLoadSetAndErrors(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "spine1", Platform: plat().Name})
	sh := labtest.OpenShell(t, l, "spine1", `admin@spine1[>#] $`)
	sh.Run("configure private")
	sh.SetPrompt(`\]\n$`)
	sh.Run("load set terminal")
	sh.SetPrompt(`admin@spine1# $`)
	sh.Send("set class-of-service schedulers S-ROCE transmit-rate percent 50")
	sh.Send("set bogus thing")
	if _, err := sh.Write([]byte{4}); err != nil {
		t.Fatal(err)
	}
	out := sh.Wait()
	if !strings.Contains(out, "load complete (1 errors)") || !strings.Contains(out, "syntax error: set bogus thing") {
		t.Errorf("load output:\n%s", out)
	}
	if got := sh.Run("set frobnicate 1"); !strings.Contains(got, "syntax error.") {
		t.Errorf("bad set: %q", got)
	}
	sh.Run("commit")
	set := sh.Run("run show configuration | display set")
	if !strings.Contains(set, "set class-of-service schedulers S-ROCE transmit-rate percent 50\n") {
		t.Errorf("display set:\n%s", set)
	}
	if got := sh.Run("run frobnicate"); !strings.Contains(got, "unknown command.") {
		t.Errorf("unknown op command: %q", got)
	}
}

func TestJunosScrapli(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "spine1", Platform: plat().Name})
	d := labtest.Scrapli(t, l, "spine1", plat().Dialect().Scrapli)
	mr, err := d.SendConfigs([]string{"set interfaces et-0/0/2 mtu 9216", "commit"}, opoptions.WithPrivilegeLevel("configuration-private"), opoptions.WithStopOnFailed())
	if err != nil {
		t.Fatalf("configs: %v", err)
	}
	if mr.Failed != nil {
		t.Fatalf("configs failed: %v", mr.Failed)
	}
	r, err := d.SendCommand("show configuration | display set")
	if err != nil || !strings.Contains(r.Result, "set interfaces et-0/0/2 mtu 9216") {
		t.Fatalf("display set: %v\n%s", err, r.Result)
	}
	mr, _ = d.SendConfigs([]string{"set nonsense here"}, opoptions.WithPrivilegeLevel("configuration-private"))
	if mr.Failed == nil {
		t.Error("scrapligo did not flag the syntax error")
	}
}

func TestJunosLocksAndSharedCandidate(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "spine1", Platform: plat().Name})
	a := labtest.OpenShell(t, l, "spine1", `admin@spine1[>#] $`)
	b := labtest.OpenShell(t, l, "spine1", `admin@spine1[>#] $`)
	a.Run("configure exclusive")
	if out := b.Run("configure private"); !strings.Contains(out, "configuration database locked") {
		t.Errorf("second exclusive/private entry: %q", out)
	}
	a.Run("exit")
	b.Run("configure")
	b.Run("set interfaces et-0/0/3 mtu 9000")
	b.Run("exit")
	if out := a.Run("configure private"); !strings.Contains(out, "shared configuration database modified") {
		t.Errorf("private with a modified shared candidate: %q", out)
	}
	a.Run("configure")
	if out := a.Run("show | compare"); !strings.Contains(out, "+   mtu 9000;") {
		t.Errorf("shared candidate lost its change: %q", out)
	}
}

// TestJunosOutOfBandCommit: another administrator's change is a commit as
// the CLI makes it: refused while a session holds the configuration
// exclusively, and, once the lock is gone, it confirms a commit confirmed
// still waiting (any commit does), so the device keeps both.
func TestJunosOutOfBandCommit(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "spine1", Platform: plat().Name})
	dev := l.Device("spine1")
	a := labtest.OpenShell(t, l, "spine1", `admin@spine1[>#] $`)
	a.Run("configure exclusive")
	a.Run("set interfaces et-0/0/3 mtu 9000")
	a.Run("commit confirmed 5")
	if err := dev.ConfigureOutOfBand([]string{"set system ntp server 192.0.2.124"}); err == nil || !strings.Contains(err.Error(), "locked") {
		t.Fatalf("a commit while another session holds the exclusive lock: %v, want refused", err)
	}
	a.Run("exit")
	if err := dev.ConfigureOutOfBand([]string{"set system ntp server 192.0.2.124"}); err != nil {
		t.Fatal(err)
	}
	out := a.Run("show system commit")
	if strings.Contains(out, "rollback pending") {
		t.Errorf("the other commit did not confirm the pending one:\n%s", out)
	}
	dev.ExpireTimers()
	cfg := dev.RunningConfig()
	if !strings.Contains(cfg, "mtu 9000") || !strings.Contains(cfg, "192.0.2.124") {
		t.Errorf("the device lost a commit:\n%s", cfg)
	}
}

// TestStartRefusesOtherPortNames: a Junos lab device takes Junos interface
// names only.
func TestStartRefusesOtherPortNames(t *testing.T) {
	specs := []lab.DeviceSpec{{Name: "a", Platform: plat().Name, Username: "u", Password: "p", Ports: []string{"swp1"}}}
	l, err := lab.Start(context.Background(), specs, lab.Options{Dir: t.TempDir()})
	if err == nil {
		_ = l.Close()
		t.Fatal("Start succeeded, want the port name refused")
	}
	if !strings.Contains(err.Error(), "not a Junos interface name") {
		t.Errorf("error %q does not say the port is not a Junos interface name", err)
	}
}
