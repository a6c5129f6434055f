package push

import (
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/txn"
)

// Another administrator's change is never silently lost. A platform
// rollback that puts back the whole configuration of a checkpoint (NX-OS
// rollback running-config checkpoint, SONiC config rollback) would erase
// any change someone else made since the checkpoint; Junos rollback 1 and
// NVUE --confirm-no undo the newest commit, which must then be ours. Before
// such a rollback fabricgen re-reads the device: when the lines it does not
// manage differ from the backup, it does not roll back blindly but restores
// only its own sections to the backup with derived commands (what
// fabricgen rollback does), keeps their change, and checks both.

// theirs is another administrator's change since the backup.
type theirs = txn.Theirs

// unmanagedOf is the device's unmanaged lines for this change.
func (a *applier) unmanagedOf(text string) (string, error) {
	return config.UnmanagedSource(text, a.renderedSource(), a.scopeSource(), a.dl)
}

// othersSince re-reads the device and compares the lines fabricgen does
// not manage with the backup's.
func (a *applier) othersSince() (theirs, error) {
	now, err := a.readNow()
	if err != nil {
		return theirs{}, err
	}
	was, err := a.unmanagedOf(a.before)
	if err != nil {
		return theirs{}, err
	}
	is, err := a.unmanagedOf(now)
	if err != nil {
		return theirs{}, err
	}
	t := theirs{Now: now}
	if was != is {
		t.Diff = config.Unified(a.pd.Name+" (backup)", a.pd.Name+" (now)", was, is)
	}
	return t, nil
}

// keepTheirs restores fabricgen's own sections to the backup with the
// commands derived from the device now and the backup, sent with send in
// the platform's own way, instead of the platform's rollback (blanket),
// which would erase their change; then checks that the managed sections
// equal the backup and that their lines are still there. On failure the
// device is reported failed with what differs and the command that
// restores it without erasing their change.
func (a *applier) keepTheirs(why string, th theirs, blanket string, send func(cs *config.ChangeSet) error) outcome {
	restore := a.opts.rollbackCommand(a.pd.Name)
	failed := func(what string) outcome {
		return outcome{Status: StatusFailed, Restore: restore,
			Reason: fmt.Sprintf("%s; %s; %s would erase them, so fabricgen did not run it; %s; the device is NOT back to its backup: %s restores fabricgen's sections and keeps their lines (%s would not)",
				why, th.Summary(), blanket, what, restore, blanket)}
	}
	cmp, err := config.CompareRestore(a.pd.Name, th.Now, a.before, a.rendered, a.dl)
	if err == nil {
		err = config.CheckSendable(cmp.Changes, a.dl)
	}
	if err != nil {
		return failed("deriving the restore: " + err.Error())
	}
	if !cmp.Changes.Empty() {
		if err := send(cmp.Changes); err != nil {
			return failed("restoring fabricgen's sections failed: " + err.Error())
		}
	}
	if !a.conn.Alive() {
		if err := a.reconnect(); err != nil {
			return failed("could not check the restore: " + err.Error())
		}
	}
	ok, err := a.restored()
	if err != nil {
		return failed("could not check the restore: " + err.Error())
	}
	if !ok {
		return failed("after restoring fabricgen's sections they still differ from the backup")
	}
	after, err := a.othersSince()
	if err != nil {
		return failed("could not check their lines: " + err.Error())
	}
	if after.Diff.Text != th.Diff.Text {
		return failed("their lines changed while fabricgen restored its own")
	}
	return outcome{Status: StatusRolledBack, Reason: fmt.Sprintf("%s; %s, which %s would have erased: fabricgen restored only its own sections, their change is kept; the device matches its backup in every line fabricgen manages",
		why, th.Summary(), blanket)}
}

// refusedForTheirs reports a device whose change was refused because
// someone else changed it after apply read it, once nothing of ours can
// be on it (undone says why: the session was aborted, the candidate
// discarded, the patch refused as a whole before its commit). It re-reads
// the device and names their change to what fabricgen manages, which is
// kept: a rollback to the backup would erase it.
func (a *applier) refusedForTheirs(why, undone string) outcome {
	restore := a.opts.rollbackCommand(a.pd.Name)
	if !a.conn.Alive() {
		if err := a.reconnect(); err != nil {
			return outcome{Status: StatusFailed, Restore: restore, Reason: why + "; " + undone + "; could not read the device back: " + err.Error()}
		}
	}
	now, err := a.readNow()
	if err != nil {
		return outcome{Status: StatusFailed, Restore: restore, Reason: why + "; " + undone + "; could not read the device back: " + err.Error()}
	}
	cmp, err := config.CompareRestore(a.pd.Name, now, a.before, a.rendered, a.dl)
	if err != nil {
		return outcome{Status: StatusFailed, Restore: restore, Reason: why + "; " + undone + "; " + err.Error()}
	}
	theirs := "the lines fabricgen manages are as in the backup"
	if !cmp.Changes.Empty() {
		theirs = fmt.Sprintf("their change to %d line(s) fabricgen manages is kept (first line of the device-to-backup diff: %s)", cmp.Diff.Added+cmp.Diff.Removed, firstChanged(cmp.Diff.Text))
	}
	return outcome{Status: StatusRefused,
		Reason: fmt.Sprintf("%s; %s, so nothing of this apply is on the device; %s: run %s again", why, undone, theirs, a.opts.planCommand(a.opts.fabricDir()))}
}

// firstChanged is the first added or removed line of a unified diff.
func firstChanged(diff string) string {
	for _, l := range strings.Split(diff, "\n") {
		if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++") && !strings.HasPrefix(l, "---") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// theirLines re-reads the device and lists the lines of fabricgen's
// sections someone else changed after fabricgen's change went in
// (config.TheirLines), for a text configuration.
func (a *applier) theirLines() ([]string, error) {
	now, err := a.readNow()
	if err != nil {
		return nil, err
	}
	return config.TheirLines(now, a.before, a.rendered, a.scope(), a.dl), nil
}

// keepTheirLines undoes our change while keeping another administrator's
// change to lines fabricgen manages that landed after ours went in (their:
// what theirLines found), where the platform's rollback (blanket) would
// erase it: it restores fabricgen's sections to the backup except the
// lines theirs replaced, sent with send, then checks that only their lines
// differ from the backup. Nothing of ours is then left: refused. send is
// called even when nothing is to be restored.
func (a *applier) keepTheirLines(why string, their []string, blanket string, send func(cs *config.ChangeSet) error) outcome {
	restore := a.opts.rollbackCommand(a.pd.Name)
	summary := strings.Join(their, "; ")
	if len(their) > 3 {
		summary = strings.Join(their[:3], "; ") + fmt.Sprintf(" (and %d more)", len(their)-3)
	}
	what := fmt.Sprintf("another administrator changed %d line(s) fabricgen manages after its change went in (%s)", len(their), summary)
	failed := func(problem string) outcome {
		return outcome{Status: StatusFailed, Restore: restore,
			Reason: fmt.Sprintf("%s; %s; %s would erase them, so fabricgen did not run it; %s; the device is NOT back to its backup plus their change: %s restores fabricgen's sections (it would put back the backup's value of their lines too)",
				why, what, blanket, problem, restore)}
	}
	th, err := a.othersSince()
	if err != nil {
		return failed("could not read the device: " + err.Error())
	}
	cmp, err := config.CompareRestore(a.pd.Name, th.Now, a.before, a.rendered, a.dl)
	if err != nil {
		return failed("deriving the restore: " + err.Error())
	}
	undo := config.WithoutTheirs(cmp.Changes, their)
	if err := config.CheckSendable(undo, a.dl); err != nil {
		return failed("deriving the restore: " + err.Error())
	}
	// send runs even with nothing to restore: a platform whose commit
	// waits on a timer confirms it there (else the timer would roll back
	// their change with ours).
	if err := send(undo); err != nil {
		return failed("restoring fabricgen's own lines failed: " + err.Error())
	}
	if !a.conn.Alive() {
		if err := a.reconnect(); err != nil {
			return failed("could not check the restore: " + err.Error())
		}
	}
	after, err := a.othersSince()
	if err != nil {
		return failed("could not check the restore: " + err.Error())
	}
	if diff := config.RestoredBut(after.Now, a.before, a.scope(), their, a.dl); diff != "" {
		return failed("after restoring fabricgen's own lines the device still differs from its backup plus their change: " + diff)
	}
	if after.Diff.Text != th.Diff.Text {
		return failed("the lines fabricgen does not manage changed while fabricgen restored its own")
	}
	return outcome{Status: StatusRefused,
		Reason: fmt.Sprintf("%s; %s, which %s would have erased: fabricgen restored only its own lines, so nothing of this apply is on the device and their change is kept: run %s again",
			why, what, blanket, a.opts.planCommand(a.opts.fabricDir()))}
}
