package push

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/platforms"
)

// TestRollbackKeepsAnotherAdminsChange (issue 10): another administrator
// changes the device while fabricgen's change fails and is undone. A
// platform rollback that reverts everything since a checkpoint (NX-OS
// rollback running-config checkpoint, SONiC config rollback) erased their
// change and reported "the device was rolled back and matches its
// backup"; Junos rollback 1 and NVUE --confirm-no must undo only our
// commit, and an EOS session aborted while its commit timer waits puts
// back the config from before the commit. Now fabricgen re-reads the
// device first: when lines it does not
// manage differ from the backup it restores only its own sections and
// keeps theirs (NX-OS, SONiC, and Junos after their commit confirmed
// ours), and it never undoes a commit that is not its own (NVUE: someone
// confirmed ours and applied theirs with a confirm timer).
//
// The cases are per transaction (the other administrator's lines are in
// the syntax of the platforms that have it): each runs on every platform
// of the registry with that transaction.
func TestRollbackKeepsAnotherAdminsChange(t *testing.T) {
	type step struct {
		at string
		do func(dev *lab.Device) error
	}
	oob := func(lines ...string) func(dev *lab.Device) error {
		return func(dev *lab.Device) error { return dev.ConfigureOutOfBand(lines) }
	}
	tests := []struct {
		txn   dialect.Transaction
		fault lab.Fault
		// rejectOwn: the fault rejects the platform's reject line.
		rejectOwn bool
		steps     []step
		marker    string
		want      Status
		says      []string
	}{
		// EOS: while fabricgen verifies its commit (the commit timer
		// pending), someone adds a logging host and removes one of
		// fabricgen's lines; aborting the session would put back the
		// whole config from before the commit.
		{txn: dialect.TxnSession,
			steps:  []step{{"verify", oob("logging host 192.0.2.99", "no qos map dscp 26 to traffic-class 3")}},
			marker: "logging host 192.0.2.99", want: StatusRolledBack,
			says: []string{"+logging host 192.0.2.99", "abort would have erased", "their change is kept"}},
		// The change is refused half way; while fabricgen rolls back,
		// someone adds a logging server.
		{txn: dialect.TxnCheckpoint, rejectOwn: true,
			steps:  []step{{"rollback", oob("logging server 192.0.2.99")}},
			marker: "logging server 192.0.2.99", want: StatusRolledBack,
			says: []string{"+logging server 192.0.2.99", "rollback running-config checkpoint", "their change is kept"}},
		{txn: dialect.TxnGCU, rejectOwn: true,
			steps:  []step{{"rollback", oob(`[{"op":"add","path":"/NTP_SERVER/192.0.2.124","value":{}}]`)}},
			marker: `"192.0.2.124"`, want: StatusRolledBack,
			says: []string{"NTP_SERVER|192.0.2.124", "sudo config rollback", "their change is kept"}},
		// The connection drops right after commit confirmed (the
		// exclusive lock goes with it); someone commits an NTP server,
		// which confirms our commit too.
		{txn: dialect.TxnCommitConfirmed,
			steps: []step{{"commit", func(dev *lab.Device) error { dev.SetFault(lab.Fault{DropAfter: 1}); return nil }},
				{"rollback", oob("set system ntp server 192.0.2.124")}},
			marker: "192.0.2.124", want: StatusRolledBack,
			says: []string{"confirmed by another commit", "ntp server 192.0.2.124", "their change is kept"}},
		// While fabricgen verifies, someone confirms our apply and
		// applies their own with a confirm timer, unsetting one of our
		// lines: --confirm-no would roll back theirs.
		{txn: dialect.TxnNVUE,
			steps: []step{{"verify", oob("nv config apply --confirm-yes", "nv set system timezone Europe/Paris",
				"nv unset qos pfc default-global switch-priority 3", "nv config apply --confirm 600s -y")}},
			marker: "Europe/Paris", want: StatusFailed,
			says: []string{"not ours", "confirmed by someone else", "fabricgen rollback $device"}},
	}
	cases := platformCases(t)
	for _, tc := range tests {
		n := 0
		for _, pc := range cases {
			if pc.dialect().Transaction != tc.txn {
				continue
			}
			n++
			t.Run(string(pc.dev.platform), func(t *testing.T) {
				if tc.rejectOwn {
					tc.fault = lab.Fault{Reject: pc.reject}
				}
				says := make([]string, len(tc.says))
				for i, s := range tc.says {
					says[i] = strings.ReplaceAll(s, "$device", pc.dev.name)
				}
				tc.says = says
				r := newRig(t, pc.dev)
				dev := r.lab.Device(pc.dev.name)
				dl, _ := platforms.Dialect(pc.dev.platform)
				before, err := fetchDirect(r, pc.dev.name, dl, pc.dev.rendered)
				if err != nil {
					t.Fatal(err)
				}
				p := r.plan()
				dev.SetFault(tc.fault)
				opts := r.applyOpts()
				done := map[string]*sync.Once{}
				for _, s := range tc.steps {
					done[s.at] = &sync.Once{}
				}
				opts.Events = func(e Event) {
					for _, s := range tc.steps {
						if s.at == e.Step {
							done[s.at].Do(func() {
								if err := s.do(dev); err != nil {
									t.Errorf("another administrator at %s: %v", s.at, err)
								}
							})
						}
					}
				}
				res, err := Apply(context.Background(), p, r.f, r.inputs, opts)
				dev.ClearFault()
				if err != nil {
					t.Fatal(err)
				}
				got := res[0]
				t.Logf("%s: %s | restore: %s", got.Status, got.Reason, got.Restore)
				if !strings.Contains(dev.RunningConfig(), tc.marker) {
					t.Fatalf("the other administrator's change (%s) was lost", tc.marker)
				}
				if got.Status != tc.want {
					t.Fatalf("status %s, want %s", got.Status, tc.want)
				}
				for _, s := range tc.says {
					if !strings.Contains(got.Reason+" "+got.Restore, s) {
						t.Errorf("the result does not say %q", s)
					}
				}
				if got.Status != StatusRolledBack {
					return
				}
				now, err := fetchDirect(r, pc.dev.name, dl, pc.dev.rendered)
				if err != nil {
					t.Fatal(err)
				}
				cmp, err := config.CompareRestore(pc.dev.name, now, before, pc.dev.rendered, dl)
				if err != nil {
					t.Fatal(err)
				}
				if !cmp.Changes.Empty() {
					t.Errorf("the managed sections differ from the backup:\n%s", cmp.Diff.Text)
				}
				if rec, _ := r.opts.State.InFlight(pc.dev.name); rec != nil {
					t.Error("a rolled-back device kept its in-flight record")
				}
			})
		}
		if n == 0 {
			t.Errorf("no platform of the registry has transaction %s", tc.txn)
		}
	}
}

// TestOutOfBandChangeDuringVerify: another administrator changes the
// device while fabricgen verifies its change, on every platform. Switches:
// verify compares the whole config with the one before, so a change to
// lines fabricgen does not manage is kept and reported; Junos (exclusive
// lock) and NVUE (an apply waits for confirmation) refuse the other
// administrator's commit, and their NVUE lines stay pending. Hosts: a
// setting fabricgen's change does not touch that changes meanwhile is
// theirs: the verify fails (the setting differs from the render), and the
// restore sets back only fabricgen's settings and keeps theirs (before,
// it set theirs back to the backup too and reported "matches its
// backup").
var reHostMTU = regexp.MustCompile(`(?m)^ip link set dev (\S+) mtu (\d+)`)

func TestOutOfBandChangeDuringVerify(t *testing.T) {
	type want struct {
		oob    []string
		oobErr string // the device refuses their change with this
		status Status
		says   string
		marker string // in the running config (switches) after apply
	}
	// Per transaction, in the syntax of the platforms that have it;
	// $port is a host's first port.
	cases := map[dialect.Transaction]want{
		dialect.TxnSession:         {oob: []string{"logging host 192.0.2.99"}, status: StatusApplied, says: "does not manage changed during the apply", marker: "logging host 192.0.2.99"},
		dialect.TxnCheckpoint:      {oob: []string{"logging server 192.0.2.99"}, status: StatusApplied, says: "does not manage changed during the apply", marker: "logging server 192.0.2.99"},
		dialect.TxnCommitConfirmed: {oob: []string{"set system ntp server 192.0.2.124"}, oobErr: "locked", status: StatusApplied},
		dialect.TxnNVUE:            {oob: []string{"nv set system timezone Europe/Paris"}, oobErr: "apply failed", status: StatusApplied},
		dialect.TxnGCU:             {oob: []string{`[{"op":"add","path":"/NTP_SERVER/192.0.2.124","value":{}}]`}, status: StatusApplied, says: "NTP_SERVER|192.0.2.124", marker: `"192.0.2.124"`},
		dialect.TxnHost:            {oob: []string{"ethtool -A $port rx $rx"}, status: StatusRolledBack, says: "$port pause rx = $rx"},
	}
	for _, pc := range platformCases(t) {
		w, ok := cases[pc.dialect().Transaction]
		if !ok {
			t.Fatalf("no case for %s's transaction %s", pc.dev.platform, pc.dialect().Transaction)
		}
		var mtuLine, mtuChanged string
		if pc.pl.Spec.Host {
			// Our change is the first port's MTU; theirs, the port's
			// pause rx the other way (a setting the script sets and
			// our change does not touch).
			m := reHostMTU.FindAllStringSubmatch(pc.dev.rendered, -1)
			if len(m) == 0 {
				t.Fatalf("%s: the render sets no port's MTU", pc.dev.platform)
			}
			pm := regexp.MustCompile(`(?m)^ethtool -A ` + regexp.QuoteMeta(m[0][1]) + ` rx (on|off)`).FindStringSubmatch(pc.dev.rendered)
			if pm == nil {
				t.Fatalf("%s: the render sets no pause on %s", pc.dev.platform, m[0][1])
			}
			rx := map[string]string{"on": "off", "off": "on"}[pm[1]]
			mtu, err := strconv.Atoi(m[0][2])
			if err != nil {
				t.Fatal(err)
			}
			mtuLine, mtuChanged = m[0][0], strings.TrimSuffix(m[0][0], m[0][2])+strconv.Itoa(mtu-100)
			expand := strings.NewReplacer("$port", m[0][1], "$rx", rx).Replace
			w.oob = []string{expand(w.oob[0])}
			w.says = expand(w.says)
		}
		t.Run(string(pc.dev.platform), func(t *testing.T) {
			r := newRig(t, pc.dev)
			dev := r.lab.Device(pc.dev.name)
			dl, _ := platforms.Dialect(pc.dev.platform)
			if dl.Host {
				// Hosts: the intent applied, then only the MTU changes.
				if res := r.apply(r.plan(), t.TempDir()); res[0].Status != StatusApplied {
					t.Fatalf("first apply: %s (%s)", res[0].Status, res[0].Reason)
				}
				changed := strings.Replace(pc.dev.rendered, mtuLine, mtuChanged, 1)
				r.inputs[0].Rendered = []byte(changed)
			}
			before, err := fetchDirect(r, pc.dev.name, dl, string(r.inputs[0].Rendered))
			if err != nil {
				t.Fatal(err)
			}
			p := r.plan()
			opts := r.applyOpts()
			var once sync.Once
			var oobErr error
			opts.Events = func(e Event) {
				if e.Step == "verify" {
					once.Do(func() { oobErr = dev.ConfigureOutOfBand(w.oob) })
				}
			}
			res, err := Apply(context.Background(), p, r.f, r.inputs, opts)
			if err != nil {
				t.Fatal(err)
			}
			got := res[0]
			t.Logf("%s: %s (their change: %v)", got.Status, got.Reason, oobErr)
			switch {
			case w.oobErr == "" && oobErr != nil:
				t.Fatalf("the other administrator's change failed: %v", oobErr)
			case w.oobErr != "" && (oobErr == nil || !strings.Contains(oobErr.Error(), w.oobErr)):
				t.Fatalf("the device accepted a change it must refuse while fabricgen's waits (%v), want %q", oobErr, w.oobErr)
			}
			if got.Status != w.status || !strings.Contains(got.Reason, w.says) {
				t.Fatalf("%s (%s), want %s saying %q", got.Status, got.Reason, w.status, w.says)
			}
			if w.marker != "" && !strings.Contains(dev.RunningConfig(), w.marker) {
				t.Errorf("the other administrator's change (%s) was lost", w.marker)
			}
			switch {
			case dl.Transaction == dialect.TxnNVUE:
				// Their line stays staged in the pending revision.
				d := r.f.Device(pc.dev.name)
				conn, err := connect(context.Background(), d, dl, r.opts.address(d), &r.opts)
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				if out, _, _, err := conn.Run("nv config diff"); err != nil || !strings.Contains(out, "Europe/Paris") {
					t.Errorf("their staged line is gone from the pending revision: %q %v", out, err)
				}
			case dl.Host:
				now, err := fetchDirect(r, pc.dev.name, dl, string(r.inputs[0].Rendered))
				if err != nil {
					t.Fatal(err)
				}
				keep := []string{w.says}
				if ok, err := config.HostSameExcept(string(r.inputs[0].Rendered), now, before, keep); err != nil || !ok {
					t.Errorf("the host's other settings are not back to the backup (%v)", err)
				}
				if others, _ := config.HostOthers(string(r.inputs[0].Rendered), nil, before, now); len(others) != 1 || others[0] != keep[0] {
					t.Errorf("their setting is not kept: %q", others)
				}
			}
		})
	}
}

// TestEOSSaysTheCommitTimerIsPending: the connection drops right after
// commit timer and the device cannot be reached again to abort: the
// result says the device runs the change and reverts it by itself at a
// given time unless confirmed (before, it said only that the rollback
// could not be checked).
func TestEOSSaysTheCommitTimerIsPending(t *testing.T) {
	for _, pc := range casesWhere(t, "a config-session platform", func(pc platformCase) bool {
		return pc.dialect().Transaction == dialect.TxnSession
	}) {
		t.Run(string(pc.dev.platform), func(t *testing.T) { eosSaysTheCommitTimerIsPending(t, pc) })
	}
}

func eosSaysTheCommitTimerIsPending(t *testing.T, pc platformCase) {
	r := newRig(t, pc.dev)
	dev := r.lab.Device(pc.dev.name)
	p := r.plan()
	opts := r.applyOpts()
	opts.Timeout = time.Second
	var atCommit, atRollback sync.Once
	opts.Events = func(e Event) {
		switch e.Step {
		case "commit":
			atCommit.Do(func() { dev.SetFault(lab.Fault{DropAfter: 1}) })
		case "rollback":
			atRollback.Do(func() { dev.SetFault(lab.Fault{Delay: 3 * time.Second}) })
		}
	}
	res, err := Apply(context.Background(), p, r.f, r.inputs, opts)
	dev.ClearFault()
	if err != nil {
		t.Fatal(err)
	}
	got := res[0]
	t.Logf("%s: %s | restore: %s", got.Status, got.Reason, got.Restore)
	if got.Status != StatusFailed {
		t.Fatalf("status %s, want failed", got.Status)
	}
	for _, s := range []string{"the commit timer is pending", "reverts it by itself at", "unless it is confirmed"} {
		if !strings.Contains(got.Reason, s) {
			t.Errorf("the result does not say %q", s)
		}
	}
	if !strings.HasPrefix(got.Restore, "configure session fabricgen-") || !strings.HasSuffix(got.Restore, " abort") {
		t.Errorf("restore %q, want the session's abort", got.Restore)
	}
}
