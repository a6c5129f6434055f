package push

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
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
func TestRollbackKeepsAnotherAdminsChange(t *testing.T) {
	pcs := map[schema.Platform]platformCase{}
	for _, pc := range platformCases(t) {
		pcs[pc.dev.platform] = pc
	}
	type step struct {
		at string
		do func(dev *lab.Device) error
	}
	oob := func(lines ...string) func(dev *lab.Device) error {
		return func(dev *lab.Device) error { return dev.ConfigureOutOfBand(lines) }
	}
	tests := []struct {
		platform schema.Platform
		fault    lab.Fault
		steps    []step
		marker   string
		want     Status
		says     []string
	}{
		// EOS: while fabricgen verifies its commit (the commit timer
		// pending), someone adds a logging host and removes one of
		// fabricgen's lines; aborting the session would put back the
		// whole config from before the commit.
		{platform: schema.AristaEOS,
			steps:  []step{{"verify", oob("logging host 192.0.2.99", "no qos map dscp 26 to traffic-class 3")}},
			marker: "logging host 192.0.2.99", want: StatusRolledBack,
			says: []string{"+logging host 192.0.2.99", "abort would have erased", "their change is kept"}},
		// The change is refused half way; while fabricgen rolls back,
		// someone adds a logging server.
		{platform: schema.CiscoNXOS, fault: lab.Fault{Reject: pcs[schema.CiscoNXOS].reject},
			steps:  []step{{"rollback", oob("logging server 192.0.2.99")}},
			marker: "logging server 192.0.2.99", want: StatusRolledBack,
			says: []string{"+logging server 192.0.2.99", "rollback running-config checkpoint", "their change is kept"}},
		{platform: schema.SONiC, fault: lab.Fault{Reject: pcs[schema.SONiC].reject},
			steps:  []step{{"rollback", oob(`[{"op":"add","path":"/NTP_SERVER/192.0.2.124","value":{}}]`)}},
			marker: `"192.0.2.124"`, want: StatusRolledBack,
			says: []string{"NTP_SERVER|192.0.2.124", "sudo config rollback", "their change is kept"}},
		// The connection drops right after commit confirmed (the
		// exclusive lock goes with it); someone commits an NTP server,
		// which confirms our commit too.
		{platform: schema.JuniperJunos,
			steps: []step{{"commit", func(dev *lab.Device) error { dev.SetFault(lab.Fault{DropAfter: 1}); return nil }},
				{"rollback", oob("set system ntp server 192.0.2.124")}},
			marker: "192.0.2.124", want: StatusRolledBack,
			says: []string{"confirmed by another commit", "ntp server 192.0.2.124", "their change is kept"}},
		// While fabricgen verifies, someone confirms our apply and
		// applies their own with a confirm timer, unsetting one of our
		// lines: --confirm-no would roll back theirs.
		{platform: schema.NvidiaCumulus,
			steps: []step{{"verify", oob("nv config apply --confirm-yes", "nv set system timezone Europe/Paris",
				"nv unset qos pfc default-global switch-priority 3", "nv config apply --confirm 600s -y")}},
			marker: "Europe/Paris", want: StatusFailed,
			says: []string{"not ours", "confirmed by someone else", "fabricgen rollback leaf4"}},
	}
	for _, tc := range tests {
		t.Run(string(tc.platform), func(t *testing.T) {
			pc := pcs[tc.platform]
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
func TestOutOfBandChangeDuringVerify(t *testing.T) {
	type want struct {
		oob    []string
		oobErr string // the device refuses their change with this
		status Status
		says   string
		marker string // in the running config (switches) after apply
	}
	cases := map[schema.Platform]want{
		schema.AristaEOS:     {oob: []string{"logging host 192.0.2.99"}, status: StatusApplied, says: "does not manage changed during the apply", marker: "logging host 192.0.2.99"},
		schema.CiscoNXOS:     {oob: []string{"logging server 192.0.2.99"}, status: StatusApplied, says: "does not manage changed during the apply", marker: "logging server 192.0.2.99"},
		schema.JuniperJunos:  {oob: []string{"set system ntp server 192.0.2.124"}, oobErr: "locked", status: StatusApplied},
		schema.NvidiaCumulus: {oob: []string{"nv set system timezone Europe/Paris"}, oobErr: "apply failed", status: StatusApplied},
		schema.SONiC:         {oob: []string{`[{"op":"add","path":"/NTP_SERVER/192.0.2.124","value":{}}]`}, status: StatusApplied, says: "NTP_SERVER|192.0.2.124", marker: `"192.0.2.124"`},
		schema.NvidiaMLNX:    {oob: []string{"ethtool --set-tunable ens1f0np0 pfc-prevention-tout 300"}, status: StatusRolledBack, says: "ens1f0np0 tunable pfc-prevention-tout = 300"},
		schema.LinuxDCB:      {oob: []string{"ethtool --set-tunable enp65s0f0np0 pfc-prevention-tout 300"}, status: StatusRolledBack, says: "enp65s0f0np0 tunable pfc-prevention-tout = 300"},
	}
	for _, pc := range platformCases(t) {
		w, ok := cases[pc.dev.platform]
		if !ok {
			t.Fatalf("no case for %s", pc.dev.platform)
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
				changed := strings.Replace(pc.dev.rendered, " mtu 4200", " mtu 4300", 1)
				if changed == pc.dev.rendered {
					t.Fatal("no MTU 4200 in the render")
				}
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
			switch pc.dev.platform {
			case schema.NvidiaCumulus:
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
			case schema.NvidiaMLNX, schema.LinuxDCB:
				now, err := fetchDirect(r, pc.dev.name, dl, string(r.inputs[0].Rendered))
				if err != nil {
					t.Fatal(err)
				}
				keep := []string{pc.dev.ports[0] + " tunable pfc-prevention-tout = 300"}
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
	pc := caseOf(t, schema.AristaEOS)
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
