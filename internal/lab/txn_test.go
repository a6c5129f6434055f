package lab

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/schema"
)

// Transaction state is device-wide: these tests use two (or three) SSH
// connections, one of which often goes away mid-session, and check what the
// other sees, as push must see another operator's work or its own
// leftovers.

func decodeJSON(t *testing.T, out string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return m
}

// eosSessions returns `show configuration sessions detail | json`.
func eosSessions(t *testing.T, sh *shellClient) map[string]any {
	t.Helper()
	return decodeJSON(t, sh.run("show configuration sessions detail | json"))
}

func eosSessionState(t *testing.T, sh *shellClient, name string) string {
	t.Helper()
	s, _ := eosSessions(t, sh)["sessions"].(map[string]any)[name].(map[string]any)
	if s == nil {
		return ""
	}
	return s["state"].(string)
}

// until polls cond until it holds or patience runs out (a poll every
// millisecond: the wait itself is bounded by the test's deadline).
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience(t))
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestEOSSessionOutlivesClientAndOthersDoNotInterfere(t *testing.T) {
	l := startLab(t, DeviceSpec{Name: "leaf1", Platform: schema.AristaEOS})
	dev := l.Device("leaf1")
	a := openShell(t, l, "leaf1", `leaf1[^\n]*#$`)
	b := openShell(t, l, "leaf1", `leaf1[^\n]*#$`)
	a.run("configure session fg-a")
	a.run("interface Ethernet2")
	a.run("mtu 9214")
	if got := eosSessions(t, b)["sessions"].(map[string]any)["fg-a"].(map[string]any)["instances"].(map[string]any); len(got) != 1 {
		t.Errorf("instances while A is in the session: %v", got)
	}
	_ = a.client.Close()
	until(t, "A's login leaves the session", func() bool {
		s := eosSessions(t, b)["sessions"].(map[string]any)["fg-a"].(map[string]any)
		return len(s["instances"].(map[string]any)) == 0
	})
	if st := eosSessionState(t, b, "fg-a"); st != "pending" {
		t.Fatalf("A's session after A disconnected: %q, want pending", st)
	}
	if diff := b.run("show session-config named fg-a diffs"); !strings.Contains(diff, "+   mtu 9214") {
		t.Errorf("A's work is not visible to B:\n%s", diff)
	}
	if text := b.run("show configuration sessions"); !regexp.MustCompile(`(?m)^  fg-a +pending +admin`).MatchString(text) {
		t.Errorf("text form:\n%s", text)
	}
	b.run("configure session fg-b")
	b.run("interface Ethernet3")
	b.run("description from b")
	b.run("commit")
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
	b.run("configure session fg-a abort")
	if st := eosSessionState(t, b, "fg-a"); st != "" {
		t.Errorf("aborted session still listed as %q", st)
	}
	// A pending session nobody commits times out after 24 hours.
	b.run("configure session fg-c")
	b.run("end")
	dev.fireTimers()
	if st := eosSessionState(t, b, "fg-c"); st != "" {
		t.Errorf("session still %q after 24 hours", st)
	}
}

func TestEOSSameSessionNameFromTwoClients(t *testing.T) {
	l := startLab(t, DeviceSpec{Name: "leaf1", Platform: schema.AristaEOS})
	a := openShell(t, l, "leaf1", `leaf1[^\n]*#$`)
	b := openShell(t, l, "leaf1", `leaf1[^\n]*#$`)
	a.run("configure session shared")
	a.run("interface Ethernet5")
	a.run("description from a")
	b.run("configure session shared")
	if diff := b.run("show session-config diffs"); !strings.Contains(diff, "description from a") {
		t.Errorf("the same name is not the same session:\n%s", diff)
	}
	if ins := eosSessions(t, b)["sessions"].(map[string]any)["shared"].(map[string]any)["instances"].(map[string]any); len(ins) != 2 {
		t.Errorf("two logins in the session, instances: %v", ins)
	}
	b.run("commit")
	if out := a.run("description late"); !strings.Contains(out, "has been committed or aborted by another terminal") {
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
			l := startLab(t, DeviceSpec{Name: "leaf1", Platform: schema.AristaEOS})
			dev := l.Device("leaf1")
			a := openShell(t, l, "leaf1", `leaf1[^\n]*#$`)
			b := openShell(t, l, "leaf1", `leaf1[^\n]*#$`)
			a.run("configure session t1")
			a.run("interface Ethernet4")
			a.run("mtu 9000")
			a.run("commit timer 00:05:00")
			j := eosSessions(t, b)
			s := j["sessions"].(map[string]any)["t1"].(map[string]any)
			if s["state"] != "pendingCommitTimer" || s["commitBy"] == nil || j["commitTimerSessionName"] != "t1" {
				t.Fatalf("pending commit timer as JSON: %v", j)
			}
			if text := b.run("show configuration sessions"); !strings.Contains(text, "Session with pending commit timer: t1") {
				t.Errorf("text form lacks the pending timer:\n%s", text)
			}
			if !strings.Contains(dev.RunningConfig(), "mtu 9000") {
				t.Fatal("commit timer did not apply the change provisionally")
			}
			if c.finish == "" {
				dev.ExpireTimers()
			} else {
				b.run(c.finish)
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

func TestNXOSCheckpointsDeviceWide(t *testing.T) {
	l := startLab(t, DeviceSpec{Name: "leaf1", Platform: schema.CiscoNXOS})
	dev := l.Device("leaf1")
	a := openShell(t, l, "leaf1", `leaf1[^\n]*# $`)
	if out := a.run("checkpoint fg-1 description before the change"); !strings.Contains(out, "Done") {
		t.Fatalf("checkpoint: %q", out)
	}
	_ = a.client.Close()
	b := openShell(t, l, "leaf1", `leaf1[^\n]*# $`)
	b.run("checkpoint")
	sum := b.run("show checkpoint summary")
	want := regexp.MustCompile(`(?s)User Checkpoint Summary\n-{80}\n` +
		`1\) fg-1:\nCreated by admin\nCreated at \w{3}, \d\d:\d\d:\d\d \d\d \w{3} \d{4}\nSize is [\d,]+ bytes\nDescription: before the change\n\n` +
		`2\) user-checkpoint-1:\nCreated by admin\nCreated at [^\n]+\nSize is [\d,]+ bytes\nDescription: None\n`)
	if !want.MatchString(sum) {
		t.Errorf("show checkpoint summary:\n%s", sum)
	}
	if out := b.run("checkpoint fg-1"); !strings.Contains(out, "ERROR: Checkpoint name 'fg-1' is already in use") {
		t.Errorf("second checkpoint of the same name: %q", out)
	}
	before := stripNXOSHeader(dev.RunningConfig())
	b.run("configure terminal")
	b.run("interface Ethernet1/2")
	b.run("mtu 9216")
	b.run("end")
	if out := b.run("rollback running-config checkpoint fg-1"); !strings.Contains(out, "Rollback completed successfully") {
		t.Fatalf("rollback: %q", out)
	}
	if got := stripNXOSHeader(dev.RunningConfig()); got != before {
		t.Errorf("rollback did not restore:\n%s", cli.UnifiedDiff("checkpoint", "now", before, got))
	}
	b.run("no checkpoint fg-1")
	if sum := b.run("show checkpoint summary"); strings.Contains(sum, "fg-1") || !strings.Contains(sum, "1) user-checkpoint-1:") {
		t.Errorf("after no checkpoint:\n%s", sum)
	}
	if out := b.run("no checkpoint fg-1"); !strings.Contains(out, "ERROR:") {
		t.Errorf("no checkpoint of a missing one: %q", out)
	}
}

func TestJunosConfigureExclusiveAgainstOtherUsers(t *testing.T) {
	l := startLab(t, DeviceSpec{Name: "spine1", Platform: schema.JuniperJunos})
	prompt := `admin@spine1[>#] $`
	a := openShell(t, l, "spine1", prompt)
	b := openShell(t, l, "spine1", prompt)
	a.run("configure")
	a.run("set system host-name changed-by-a")
	out := b.run("configure exclusive")
	if !regexp.MustCompile(`Users currently editing the configuration:\n  admin terminal pts/0 \(pid \d+\) on since [^\n]+\n      \[edit\]\nerror: configuration database modified\n`).MatchString(out) {
		t.Errorf("configure exclusive against A's uncommitted change:\n%s", out)
	}
	if p := b.run("show system commit"); strings.Contains(p, "syntax error") {
		t.Errorf("B is not back in operational mode: %q", p)
	}
	_ = a.client.Close()
	until(t, "A's login ends", func() bool { return !strings.Contains(b.run("configure exclusive"), "Users currently") })
	if out := b.run("configure exclusive"); out != "error: configuration database modified\n" {
		t.Errorf("with A gone but its change still in the candidate: %q", out)
	}
	// B clears the shared candidate, then holds the exclusive lock.
	b.run("configure")
	b.run("rollback 0")
	b.run("exit")
	if out := b.run("configure exclusive"); !strings.Contains(out, "Entering configuration mode") {
		t.Fatalf("configure exclusive after the rollback: %q", out)
	}
	c := openShell(t, l, "spine1", prompt)
	if out := c.run("configure exclusive"); !regexp.MustCompile(`^error: configuration database locked by:\n  admin terminal pts/1 \(pid \d+\) on since [^\n]+\n      exclusive \[edit\]\n$`).MatchString(out) {
		t.Errorf("second exclusive: %q", out)
	}
}

func TestJunosShowSystemCommitPendingConfirm(t *testing.T) {
	for _, c := range []struct {
		name    string
		confirm bool
	}{{"confirmed", true}, {"expired", false}} {
		t.Run(c.name, func(t *testing.T) {
			l := startLab(t, DeviceSpec{Name: "spine1", Platform: schema.JuniperJunos})
			dev := l.Device("spine1")
			prompt := `admin@spine1[>#] $`
			a := openShell(t, l, "spine1", prompt)
			b := openShell(t, l, "spine1", prompt)
			a.run("configure exclusive")
			a.run("set interfaces et-0/0/5 mtu 9216")
			a.run(`commit confirmed 5 comment "fabricgen-run-1"`)
			hist := b.run("show system commit")
			if !regexp.MustCompile(`^0   \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC by admin via cli commit confirmed, rollback in 5mins\n    fabricgen-run-1\n    rollback pending\n1   `).MatchString(hist) {
				t.Fatalf("pending commit confirmed:\n%s", hist)
			}
			if c.confirm {
				a.run("commit")
			} else {
				dev.ExpireTimers()
			}
			hist = b.run("show system commit")
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

// nvRevisions returns `nv config revision -o json`.
func nvRevisions(t *testing.T, sh *shellClient) map[string]any {
	t.Helper()
	return decodeJSON(t, sh.run("nv config revision -o json"))
}

func revisionsIn(revs map[string]any, state string) []map[string]any {
	var out []map[string]any
	for _, v := range revs {
		if r := v.(map[string]any); r["state"] == state {
			out = append(out, r)
		}
	}
	return out
}

func TestCumulusPendingRevisionShared(t *testing.T) {
	for _, c := range []struct {
		name, finish, state string
		kept                bool
	}{
		{"confirmed", "nv config apply --confirm-yes", "applied_and_saved", true},
		{"refused", "nv config apply --confirm-no", "confirm_no", false},
		{"expired", "", "confirm_fail", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := startLab(t, DeviceSpec{Name: "leaf4", Platform: schema.NvidiaCumulus})
			dev := l.Device("leaf4")
			prompt := `admin@leaf4:mgmt:~\$ $`
			a := openShell(t, l, "leaf4", prompt)
			b := openShell(t, l, "leaf4", prompt)
			if out := b.run("nv config diff"); out != "" {
				t.Fatalf("diff with nothing pending: %q", out)
			}
			a.run("nv set interface swp7 link mtu 9216")
			_ = a.client.Close()
			if out := b.run("nv config diff"); out != "nv set interface swp7 link mtu 9216\n" {
				t.Errorf("B does not see A's pending change: %q", out)
			}
			if p := revisionsIn(nvRevisions(t, b), "pending"); len(p) != 1 || p[0]["user"] != "admin" {
				t.Errorf("pending revisions: %v", p)
			}
			if out := b.run("nv config apply --confirm-status"); out != "No pending confirmation\n" {
				t.Errorf("confirm-status with none: %q", out)
			}
			if out := b.run("nv config apply -y --confirm 300s"); !strings.Contains(out, "applied [rev_id:") {
				t.Fatalf("apply: %q", out)
			}
			if out := b.run("nv config apply --confirm-status"); !regexp.MustCompile(`^Revision \d+ is waiting for confirmation: (5m0s|4m5\ds) left before the automatic rollback\n$`).MatchString(out) {
				t.Errorf("confirm-status: %q", out)
			}
			if p := revisionsIn(nvRevisions(t, b), "confirm"); len(p) != 1 {
				t.Errorf("revisions in confirm: %v", p)
			}
			if c.finish == "" {
				dev.ExpireTimers()
			} else {
				b.run(c.finish)
			}
			revs := nvRevisions(t, b)
			if len(revisionsIn(revs, "confirm")) != 0 || len(revisionsIn(revs, c.state)) == 0 {
				t.Errorf("after %s: %v", c.name, revs)
			}
			if kept := strings.Contains(dev.RunningConfig(), "swp7 link mtu 9216"); kept != c.kept {
				t.Errorf("change kept = %v", kept)
			}
			if out := b.run("nv config apply --confirm-status"); out != "No pending confirmation\n" {
				t.Errorf("confirm-status after %s: %q", c.name, out)
			}
			if out := b.run("nv config revision"); !strings.HasPrefix(out, "Rev ID  State") {
				t.Errorf("table: %q", out)
			}
		})
	}
}

func TestSONiCCheckpointsAndPrivatePatchDirectory(t *testing.T) {
	l := startLab(t, DeviceSpec{Name: "leaf3", Platform: schema.SONiC})
	dev := l.Device("leaf3")
	prompt := `admin@leaf3:~\$ $`
	a := openShell(t, l, "leaf3", prompt)
	a.run("sudo config checkpoint fg-1")
	_ = a.client.Close()
	b := openShell(t, l, "leaf3", prompt)
	var names []string
	if err := json.Unmarshal([]byte(b.run("config list-checkpoints")), &names); err != nil || len(names) != 1 || names[0] != "fg-1" {
		t.Fatalf("list-checkpoints: %q, %v", names, err)
	}
	d1 := strings.TrimSpace(b.run("mktemp -d"))
	d2 := strings.TrimSpace(b.run("mktemp -d"))
	if !regexp.MustCompile(`^/tmp/tmp\.[A-Za-z0-9]{10}$`).MatchString(d1) || d1 == d2 {
		t.Fatalf("mktemp -d gave %q and %q", d1, d2)
	}
	b.run(`d=$(mktemp -d /tmp/fabricgen.XXXXXX) && printf '%s' '[{"op":"replace","path":"/PORT/Ethernet8/mtu","value":"9000"}]' > "$d/patch.json" && echo "$d" > /tmp/last`)
	d := strings.TrimSpace(b.run("cat /tmp/last"))
	if out := b.run("sudo config apply-patch " + d + "/patch.json"); !strings.Contains(out, "Patch applied successfully") {
		t.Fatalf("apply-patch from the private directory: %q", out)
	}
	if !strings.Contains(dev.RunningConfig(), `"mtu": "9000"`) {
		t.Error("the patch did not apply")
	}
	if out := b.run("printf x > /tmp/nodir/x; echo $?"); !strings.Contains(out, "No such file or directory") {
		t.Errorf("write into a missing directory: %q", out)
	}
	if out := b.run("rm " + d + "; echo $?"); !strings.Contains(out, "Is a directory") {
		t.Errorf("rm of a directory without -r: %q", out)
	}
	b.run("rm -rf " + d)
	if out := b.run("ls " + d + "; cat " + d + "/patch.json; echo $?"); !strings.Contains(out, "No such file or directory") || !strings.HasSuffix(out, "1\n") {
		t.Errorf("directory still there after rm -rf: %q", out)
	}
	b.run("sudo config delete-checkpoint fg-1")
	if out := b.run("config list-checkpoints"); strings.TrimSpace(out) != "[]" {
		t.Errorf("after delete-checkpoint: %q", out)
	}
}

// TestJunosSharedEditsBlockedByExclusive: while one login holds configure
// exclusive, another in plain configure cannot change the candidate.
func TestJunosSharedEditsBlockedByExclusive(t *testing.T) {
	l := startLab(t, DeviceSpec{Name: "spine1", Platform: schema.JuniperJunos})
	prompt := `admin@spine1[>#] $`
	a := openShell(t, l, "spine1", prompt)
	b := openShell(t, l, "spine1", prompt)
	a.run("configure exclusive")
	if out := b.run("configure"); !strings.Contains(out, "Users currently editing the configuration:\n  admin terminal pts/0") || !strings.Contains(out, "exclusive [edit]") {
		t.Errorf("configure next to an exclusive lock: %q", out)
	}
	for _, cmd := range []string{"set system host-name b", "delete system ntp", "rollback 1", "load set terminal"} {
		if out := b.run(cmd); !strings.HasPrefix(out, "error: configuration database locked by:\n  admin terminal pts/0") {
			t.Errorf("%s under another's lock: %q", cmd, out)
		}
	}
	if out := b.run("show | compare"); strings.Contains(out, "error") {
		t.Errorf("show under another's lock: %q", out)
	}
}
