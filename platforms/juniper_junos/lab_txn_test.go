package juniperjunos_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(labtest.Patience(t))
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestJunosConfigureExclusiveAgainstOtherUsers(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "spine1", Platform: plat().Name})
	prompt := `admin@spine1[>#] $`
	a := labtest.OpenShell(t, l, "spine1", prompt)
	b := labtest.OpenShell(t, l, "spine1", prompt)
	a.Run("configure")
	a.Run("set system host-name changed-by-a")
	out := b.Run("configure exclusive")
	if !regexp.MustCompile(`Users currently editing the configuration:\n  admin terminal pts/0 \(pid \d+\) on since [^\n]+\n      \[edit\]\nerror: configuration database modified\n`).MatchString(out) {
		t.Errorf("configure exclusive against A's uncommitted change:\n%s", out)
	}
	if p := b.Run("show system commit"); strings.Contains(p, "syntax error") {
		t.Errorf("B is not back in operational mode: %q", p)
	}
	_ = a.Close()
	until(t, "A's login ends", func() bool { return !strings.Contains(b.Run("configure exclusive"), "Users currently") })
	if out := b.Run("configure exclusive"); out != "error: configuration database modified\n" {
		t.Errorf("with A gone but its change still in the candidate: %q", out)
	}
	// B clears the shared candidate, then holds the exclusive lock.
	b.Run("configure")
	b.Run("rollback 0")
	b.Run("exit")
	if out := b.Run("configure exclusive"); !strings.Contains(out, "Entering configuration mode") {
		t.Fatalf("configure exclusive after the rollback: %q", out)
	}
	c := labtest.OpenShell(t, l, "spine1", prompt)
	if out := c.Run("configure exclusive"); !regexp.MustCompile(`^error: configuration database locked by:\n  admin terminal pts/1 \(pid \d+\) on since [^\n]+\n      exclusive \[edit\]\n$`).MatchString(out) {
		t.Errorf("second exclusive: %q", out)
	}
}

func TestJunosShowSystemCommitPendingConfirm(t *testing.T) {
	for _, c := range []struct {
		name    string
		confirm bool
	}{{"confirmed", true}, {"expired", false}} {
		t.Run(c.name, func(t *testing.T) {
			l := labtest.Start(t, lab.DeviceSpec{Name: "spine1", Platform: plat().Name})
			dev := l.Device("spine1")
			prompt := `admin@spine1[>#] $`
			a := labtest.OpenShell(t, l, "spine1", prompt)
			b := labtest.OpenShell(t, l, "spine1", prompt)
			a.Run("configure exclusive")
			a.Run("set interfaces et-0/0/5 mtu 9216")
			a.Run(`commit confirmed 5 comment "fabricgen-run-1"`)
			hist := b.Run("show system commit")
			if !regexp.MustCompile(`^0   \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC by admin via cli commit confirmed, rollback in 5mins\n    fabricgen-run-1\n    rollback pending\n1   `).MatchString(hist) {
				t.Fatalf("pending commit confirmed:\n%s", hist)
			}
			if c.confirm {
				a.Run("commit")
			} else {
				dev.ExpireTimers()
			}
			hist = b.Run("show system commit")
			if strings.Contains(hist, "rollback pending") {
				t.Errorf("still pending after %s:\n%s", c.name, hist)
			}
			if !strings.Contains(hist, "commit confirmed, rollback in 5mins\n    fabricgen-run-1\n") {
				t.Errorf("the commit confirmed entry is gone:\n%s", hist)
			}
			kept := strings.Contains(dev.RunningConfig(), "mtu 9216")
			if kept != c.confirm {
				t.Errorf("change kept = %v after %s", kept, c.name)
			}
			if !c.confirm && !strings.HasPrefix(hist, "0   ") || !c.confirm && !strings.Contains(strings.SplitN(hist, "\n", 2)[0], "by root via other") {
				t.Errorf("the automatic rollback is not the newest commit:\n%s", hist)
			}
		})
	}
}

func TestJunosSharedEditsBlockedByExclusive(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "spine1", Platform: plat().Name})
	prompt := `admin@spine1[>#] $`
	a := labtest.OpenShell(t, l, "spine1", prompt)
	b := labtest.OpenShell(t, l, "spine1", prompt)
	a.Run("configure exclusive")
	if out := b.Run("configure"); !strings.Contains(out, "Users currently editing the configuration:\n  admin terminal pts/0") || !strings.Contains(out, "exclusive [edit]") {
		t.Errorf("configure next to an exclusive lock: %q", out)
	}
	for _, cmd := range []string{"set system host-name b", "delete system ntp", "rollback 1", "load set terminal"} {
		if out := b.Run(cmd); !strings.HasPrefix(out, "error: configuration database locked by:\n  admin terminal pts/0") {
			t.Errorf("%s under another's lock: %q", cmd, out)
		}
	}
	if out := b.Run("show | compare"); strings.Contains(out, "error") {
		t.Errorf("show under another's lock: %q", out)
	}
}
