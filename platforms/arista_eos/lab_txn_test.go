package aristaeos_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

func decodeJSON(t *testing.T, out string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return m
}

func eosSessions(t *testing.T, sh *labtest.Shell) map[string]any {
	t.Helper()
	return decodeJSON(t, sh.Run("show configuration sessions detail | json"))
}

func eosSessionState(t *testing.T, sh *labtest.Shell, name string) string {
	t.Helper()
	s, _ := eosSessions(t, sh)["sessions"].(map[string]any)[name].(map[string]any)
	if s == nil {
		return ""
	}
	return s["state"].(string)
}

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

func TestEOSSessionOutlivesClientAndOthersDoNotInterfere(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "leaf1", Platform: plat().Name})
	dev := l.Device("leaf1")
	a := labtest.OpenShell(t, l, "leaf1", `leaf1[^\n]*#$`)
	b := labtest.OpenShell(t, l, "leaf1", `leaf1[^\n]*#$`)
	a.Run("configure session fg-a")
	a.Run("interface Ethernet2")
	a.Run("mtu 9214")
	if got := eosSessions(t, b)["sessions"].(map[string]any)["fg-a"].(map[string]any)["instances"].(map[string]any); len(got) != 1 {
		t.Errorf("instances while A is in the session: %v", got)
	}
	_ = a.Close()
	until(t, "A's login leaves the session", func() bool {
		s := eosSessions(t, b)["sessions"].(map[string]any)["fg-a"].(map[string]any)
		return len(s["instances"].(map[string]any)) == 0
	})
	if st := eosSessionState(t, b, "fg-a"); st != "pending" {
		t.Fatalf("A's session after A disconnected: %q, want pending", st)
	}
	if diff := b.Run("show session-config named fg-a diffs"); !strings.Contains(diff, "+   mtu 9214") {
		t.Errorf("A's work is not visible to B:\n%s", diff)
	}
	if text := b.Run("show configuration sessions"); !regexp.MustCompile(`(?m)^  fg-a +pending +admin`).MatchString(text) {
		t.Errorf("text form:\n%s", text)
	}
	b.Run("configure session fg-b")
	b.Run("interface Ethernet3")
	b.Run("description from b")
	b.Run("commit")
	run := dev.RunningConfig()
	if !strings.Contains(run, "description from b") || strings.Contains(run, "mtu 9214") {
		t.Errorf("B's commit carried A's session or lost B's change:\n%s", run)
	}
	if st := eosSessionState(t, b, "fg-a"); st != "pending" {
		t.Errorf("A's session after B committed: %q", st)
	}
	if st := eosSessionState(t, b, "fg-b"); st != "completed" {
		t.Errorf("B's session: %q, want completed", st)
	}
	b.Run("configure session fg-a abort")
	if st := eosSessionState(t, b, "fg-a"); st != "" {
		t.Errorf("aborted session still listed as %q", st)
	}
	// A pending session nobody commits times out after 24 hours.
	b.Run("configure session fg-c")
	b.Run("end")
	dev.FireTimers()
	if st := eosSessionState(t, b, "fg-c"); st != "" {
		t.Errorf("session still %q after 24 hours", st)
	}
}

func TestEOSSameSessionNameFromTwoClients(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "leaf1", Platform: plat().Name})
	a := labtest.OpenShell(t, l, "leaf1", `leaf1[^\n]*#$`)
	b := labtest.OpenShell(t, l, "leaf1", `leaf1[^\n]*#$`)
	a.Run("configure session shared")
	a.Run("interface Ethernet5")
	a.Run("description from a")
	b.Run("configure session shared")
	if diff := b.Run("show session-config diffs"); !strings.Contains(diff, "description from a") {
		t.Errorf("the same name is not the same session:\n%s", diff)
	}
	if ins := eosSessions(t, b)["sessions"].(map[string]any)["shared"].(map[string]any)["instances"].(map[string]any); len(ins) != 2 {
		t.Errorf("two logins in the session, instances: %v", ins)
	}
	b.Run("commit")
	if out := a.Run("description late"); !strings.Contains(out, "has been committed or aborted by another terminal") {
		t.Errorf("A typing into a session B committed: %q", out)
	}
	if !strings.Contains(l.Device("leaf1").RunningConfig(), "description from a") {
		t.Error("B's commit of the shared session lost A's line")
	}
}

func TestEOSCommitTimerStates(t *testing.T) {
	cases := []struct {
		name string
		// finish runs on the second connection (nil: the timer expires).
		finish    string
		kept      bool
		wantState string
	}{
		{"confirmed", "configure session t1 commit", true, "completed"},
		{"aborted", "configure session t1 abort", false, ""},
		{"expired", "", false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := labtest.Start(t, lab.DeviceSpec{Name: "leaf1", Platform: plat().Name})
			dev := l.Device("leaf1")
			a := labtest.OpenShell(t, l, "leaf1", `leaf1[^\n]*#$`)
			b := labtest.OpenShell(t, l, "leaf1", `leaf1[^\n]*#$`)
			a.Run("configure session t1")
			a.Run("interface Ethernet4")
			a.Run("mtu 9000")
			a.Run("commit timer 00:05:00")
			j := eosSessions(t, b)
			s := j["sessions"].(map[string]any)["t1"].(map[string]any)
			if s["state"] != "pendingCommitTimer" || s["commitBy"] == nil || j["commitTimerSessionName"] != "t1" {
				t.Fatalf("pending commit timer as JSON: %v", j)
			}
			if text := b.Run("show configuration sessions"); !strings.Contains(text, "Session with pending commit timer: t1") {
				t.Errorf("text form lacks the pending timer:\n%s", text)
			}
			if !strings.Contains(dev.RunningConfig(), "mtu 9000") {
				t.Fatal("commit timer did not apply the change provisionally")
			}
			if c.finish == "" {
				dev.ExpireTimers()
			} else {
				b.Run(c.finish)
			}
			if got := eosSessionState(t, b, "t1"); got != c.wantState {
				t.Errorf("state after %s: %q, want %q", c.name, got, c.wantState)
			}
			if kept := strings.Contains(dev.RunningConfig(), "mtu 9000"); kept != c.kept {
				t.Errorf("change kept = %v, want %v", kept, c.kept)
			}
			if j := eosSessions(t, b); j["commitTimerSessionName"] != nil {
				t.Errorf("commit timer still reported: %v", j)
			}
		})
	}
}
