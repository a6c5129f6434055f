package push

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/push/planfile"
)

// Host rollbacks (issue 10): a failed host apply restores every setting of
// the script its backup was read with — the render and the settings the
// last apply made that the render dropped — checks every restore command,
// and fabricgen rollback restores the same settings.

// hostRig is a matrix device with the base intent applied on top of its
// brownfield configuration.
func hostRig(t *testing.T, md matrixDevice) (*matrixRig, *matrixIntent) {
	t.Helper()
	base := loadMatrixIntent(t, md, nil)
	r := newMatrixRig(t, md, md.brownfield(t))
	r.converge(t, base, "the base intent")
	return r, base
}

// restoreHosts runs test on every host folder whose matrix.json gives the
// part of the restore data part picks, failing when none does.
func restoreHosts(t *testing.T, what string, part func(matrixRestore) bool, test func(t *testing.T, md matrixDevice)) {
	t.Helper()
	n := 0
	for _, md := range matrixDevices(t) {
		if !md.host || !part(md.data.Restore) {
			continue
		}
		n++
		t.Run(string(md.platform), func(t *testing.T) { test(t, md) })
	}
	if n == 0 {
		t.Fatalf("no host folder's testdata/push/matrix.json gives restore.%s: the test proves nothing", what)
	}
}

// applyOpts are the rig's apply options.
func (r *matrixRig) applyOpts() ApplyOptions { return ApplyOptions{Options: r.opts} }

// TestHostRestoreBringsBackDroppedSettings: the lossless priority moves
// 3 -> 4, so ECN on priority 3 goes back to its value before fabricgen
// (0); the change is refused half way (the host rejects the roce_rp
// write). The restore puts roce_np/enable/3, which the new render does not
// set, back to the backup's 1: the device equals its backup. Before, only
// what the new render sets was restored ("the device is NOT back to its
// backup", roce_np/enable/3 stayed 0).
func TestHostRestoreBringsBackDroppedSettings(t *testing.T) {
	restoreHosts(t, "dropped", func(d matrixRestore) bool { return d.Dropped != nil }, func(t *testing.T, md matrixDevice) {
		x := md.data.Restore.Dropped
		r, _ := hostRig(t, md)
		in := loadMatrixIntent(t, md, matrixEdits(t, "lossless-priority"))
		before := r.state()
		dev := r.lab.Device(r.dev.name)
		p := r.plan(t, in)
		if !strings.Contains(strings.Join(p.Devices[0].Changes.Commands(), "\n"), x.Cmd) {
			t.Fatalf("the change does not set the dropped setting back (%q): %q", x.Cmd, p.Devices[0].Changes.Commands())
		}
		dev.SetFault(lab.Fault{Reject: x.Reject})
		res := r.apply(t, in, p)
		dev.ClearFault()
		if res.Status != StatusRolledBack {
			t.Fatalf("apply: %s (%s), want rolled back", res.Status, res.Reason)
		}
		if after := r.state(); after != before {
			t.Errorf("the host is not back to its backup:\n%s", config.Unified("backup", "now", before, after).Text)
		}
	})
}

// TestHostRestoreNamesRefusedCommands: a restore command the host refuses
// fails the device with that command named, and the in-flight record,
// which names the script the backup was read with, lets fabricgen rollback
// restore the backup once the host accepts the command again (before,
// rollback found "nothing to restore" while roce_np/enable/3 differed).
func TestHostRestoreNamesRefusedCommands(t *testing.T) {
	restoreHosts(t, "refused", func(d matrixRestore) bool { return d.Refused != nil }, func(t *testing.T, md matrixDevice) {
		x := md.data.Restore.Refused
		r, _ := hostRig(t, md)
		in := loadMatrixIntent(t, md, matrixEdits(t, "lossless-priority"))
		before := r.state()
		dev := r.lab.Device(r.dev.name)
		p := r.plan(t, in)
		dev.SetFault(lab.Fault{Reject: x.Reject})
		res := r.apply(t, in, p)
		dev.ClearFault()
		if res.Status != StatusFailed {
			t.Fatalf("apply: %s (%s), want failed", res.Status, res.Reason)
		}
		for _, want := range []string{x.Names, "NOT back to its backup"} {
			if !strings.Contains(res.Reason, want) {
				t.Errorf("the result does not say %q: %s", want, res.Reason)
			}
		}
		if res.Restore != "fabricgen rollback "+config.ShellQuote(filepath.Dir(r.opts.State.Path), r.dev.name) {
			t.Errorf("restore: %q", res.Restore)
		}
		rec, err := r.opts.State.InFlight(r.dev.name)
		if err != nil || rec == nil {
			t.Fatalf("no in-flight record after a failed restore: %v", err)
		}
		if !strings.Contains(rec.ReadScript(), x.ReadScript) {
			t.Fatalf("the in-flight record's read script does not name the dropped settings:\n%s", rec.ReadScript())
		}
		// fabricgen rollback takes the in-flight record's read script as its
		// scope (cmd/fabricgen rollbackTargets).
		targets := []RollbackTarget{{Device: in.f.Device(r.dev.name), Backup: rec.Backup, Scope: rec.ReadScript()}}
		pv, err := PreviewRollback(context.Background(), targets, r.opts)
		if err != nil || pv[0].Error != "" {
			t.Fatalf("preview: %v %s", err, pv[0].Error)
		}
		if !pv[0].Changes() {
			t.Fatalf("the preview finds nothing to restore; the host differs:\n%s", config.Unified("backup", "now", before, r.state()).Text)
		}
		rres, err := Rollback(context.Background(), targets, pv, r.applyOpts())
		if err != nil || rres[0].Status != StatusRestored {
			t.Fatalf("rollback: %v %s (%s)", err, rres[0].Status, rres[0].Reason)
		}
		if after := r.state(); after != before {
			t.Errorf("after rollback the host is not back to its backup:\n%s", config.Unified("backup", "now", before, after).Text)
		}
		if d := r.plan(t, in).Devices[0]; d.Status != planfile.StatusChange {
			t.Errorf("plan after rollback: %s, want the change again", d.Status)
		}
	})
}

// TestDCBRestoreSurvivesADrop: on a host whose ETS tool takes both
// vectors (linux_dcb's dcb ets; the folder's restore.ets) a class is added and the ETS
// weights change (both tc-tsa and tc-bw), a later line is refused, and the
// connection drops right after the restore's ETS command. fabricgen
// reconnects, finishes the restore, and the host equals its backup; every
// dcb ets command it sent carried the TSA and bandwidth vectors together,
// so no moment had a hybrid of old TSAs and new bandwidths.
func TestDCBRestoreSurvivesADrop(t *testing.T) {
	restoreHosts(t, "ets", func(d matrixRestore) bool { return d.ETS != nil }, func(t *testing.T, md matrixDevice) {
		x := md.data.Restore.ETS
		r, _ := hostRig(t, md)
		edits := append(matrixEdits(t, "class-added"), matrixEdits(t, "ets-weights")...)
		edits = append(edits, matrixEdits(t, "watchdog-timers")...)
		in := loadMatrixIntent(t, md, edits)
		before := r.state()
		dev := r.lab.Device(r.dev.name)
		p := r.plan(t, in)
		var ets []string
		for _, c := range p.Devices[0].Changes.Commands() {
			if strings.HasPrefix(c, x.Cmd) {
				ets = append(ets, c)
			}
		}
		if len(ets) != 1 || len(x.Has) == 0 {
			t.Fatalf("the change does not set both ETS vectors in one %q command: %q", x.Cmd, ets)
		}
		for _, h := range x.Has {
			if !strings.Contains(ets[0], h) {
				t.Fatalf("the change's ETS command %q does not hold %q", ets[0], h)
			}
		}
		d := in.f.Device(r.dev.name)
		read := func() string {
			conn, err := connect(context.Background(), d, r.dl, r.opts.address(d), &r.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			s, err := fetch(conn, r.dl, in.rendered[r.dev.name])
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		backup := read()
		dev.SetFault(lab.Fault{Reject: x.Reject})
		opts := r.applyOpts()
		var once sync.Once
		dropAt := 0
		opts.Events = func(e Event) {
			if e.Step != "rollback" {
				return
			}
			once.Do(func() {
				// Drop the connection right after the restore's first
				// dcb ets command.
				cmds, err := config.HostRestoreCommands(in.rendered[r.dev.name], backup, read())
				if err != nil {
					t.Error(err)
					return
				}
				for i, c := range cmds {
					if strings.HasPrefix(c, x.Tool) {
						dropAt = i + 1
						break
					}
				}
				dev.SetFault(lab.Fault{DropAfter: dropAt})
			})
		}
		res, err := Apply(context.Background(), p, in.f, in.input(t, r.dev.name), opts)
		dev.ClearFault()
		if err != nil {
			t.Fatal(err)
		}
		if dropAt == 0 {
			t.Fatalf("the restore has no %q command: the test proves nothing", x.Tool)
		}
		if res[0].Status != StatusRolledBack {
			t.Fatalf("apply: %s (%s), want rolled back", res[0].Status, res[0].Reason)
		}
		if after := r.state(); after != before {
			t.Errorf("the host is not back to its backup:\n%s", config.Unified("backup", "now", before, after).Text)
		}
		for _, argv := range dev.ExecutedArgv() {
			line := strings.Join(argv, " ")
			if strings.HasPrefix(line, x.Tool) && (strings.Contains(line, x.Vectors[0]) != strings.Contains(line, x.Vectors[1])) {
				t.Errorf("an ETS command set one ETS vector alone: %s", line)
			}
		}
	})
}
