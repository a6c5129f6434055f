package lab

import (
	"strings"
	"testing"

	"github.com/scrapli/scrapligo/driver/opoptions"

	"github.com/fabricgen/fabricgen/schema"
)

func TestJunosCommitFlows(t *testing.T) {
	cases := []struct {
		name    string
		finish  []string
		expire  bool
		applied bool
	}{
		{"commit", []string{"commit"}, false, true},
		{"confirmed then commit", []string{"commit confirmed 5", "commit"}, false, true},
		{"confirmed expires", []string{"commit confirmed 5"}, true, false},
		{"exit discards", []string{"exit"}, false, false},
		{"rollback 0 discards", []string{"rollback 0", "commit"}, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := startLab(t, DeviceSpec{Name: "spine1", Platform: schema.JuniperJunos})
			dev := l.Device("spine1")
			before := dev.RunningConfig()
			sh := openShell(t, l, "spine1", `admin@spine1[>#] $`)
			sh.run("configure private")
			sh.run("set interfaces et-0/0/1 mtu 9216")
			sh.run("set class-of-service forwarding-classes class NO-LOSS queue-num 3 no-loss")
			cmp := sh.run("show | compare")
			for _, want := range []string{"[edit interfaces et-0/0/1]\n+   mtu 9216;", "[edit]\n+   class-of-service {\n+       forwarding-classes {\n+           class NO-LOSS queue-num 3 no-loss;\n+       }\n+   }\n"} {
				if !strings.Contains(cmp, want) {
					t.Errorf("show | compare lacks %q:\n%s", want, cmp)
				}
			}
			for _, cmd := range c.finish {
				sh.run(cmd)
			}
			if c.expire {
				dev.ExpireTimers()
			}
			got := strings.Contains(dev.RunningConfig(), "mtu 9216;")
			if got != c.applied {
				t.Fatalf("applied = %v, want %v:\n%s", got, c.applied, dev.RunningConfig())
			}
			if !c.applied && stripJunosHeader(dev.RunningConfig()) != stripJunosHeader(before) {
				t.Errorf("not restored:\n%s", unifiedDiff("before", "after", before, dev.RunningConfig()))
			}
		})
	}
}

func stripJunosHeader(s string) string {
	_, rest, _ := strings.Cut(s, "version 23.4R1.9;\n")
	return rest
}

func TestJunosLoadSetAndErrors(t *testing.T) {
	l := startLab(t, DeviceSpec{Name: "spine1", Platform: schema.JuniperJunos})
	sh := openShell(t, l, "spine1", `admin@spine1[>#] $`)
	sh.run("configure private")
	sh.prompt = regexpMust(`\]\n$`)
	sh.run("load set terminal")
	sh.prompt = regexpMust(`admin@spine1# $`)
	sh.send("set class-of-service schedulers S-ROCE transmit-rate percent 50")
	sh.send("set bogus thing")
	if _, err := sh.in.Write([]byte{4}); err != nil {
		t.Fatal(err)
	}
	out := sh.wait()
	if !strings.Contains(out, "load complete (1 errors)") || !strings.Contains(out, "syntax error: set bogus thing") {
		t.Errorf("load output:\n%s", out)
	}
	if got := sh.run("set frobnicate 1"); !strings.Contains(got, "syntax error.") {
		t.Errorf("bad set: %q", got)
	}
	sh.run("commit")
	set := sh.run("run show configuration | display set")
	if !strings.Contains(set, "set class-of-service schedulers S-ROCE transmit-rate percent 50\n") {
		t.Errorf("display set:\n%s", set)
	}
	if got := sh.run("run frobnicate"); !strings.Contains(got, "unknown command.") {
		t.Errorf("unknown op command: %q", got)
	}
}

func TestJunosScrapli(t *testing.T) {
	l := startLab(t, DeviceSpec{Name: "spine1", Platform: schema.JuniperJunos})
	d := scrapli(t, l, "spine1", schema.JuniperJunos)
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
