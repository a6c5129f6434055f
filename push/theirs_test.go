package push

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
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
			dl, _ := dialect.Lookup(pc.dev.platform)
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
