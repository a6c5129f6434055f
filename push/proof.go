package push

import (
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/txn"
)

// An apply reports a device applied only when the device, read back after
// the last command of the transaction, proves it: its managed config
// re-diffs empty against the rendered config, and — on platforms whose
// commit waits for confirmation — the device's own record says our commit
// was confirmed (Junos show system commit: nothing pending; EOS: our
// session completed; NVUE: our revision applied). A confirm timer can run
// out while the confirm is in flight on a slow device, and the confirm
// then confirms nothing (or, on Junos, commits the candidate the device
// rolled back to): the answer to the confirm command says nothing about
// that, the device does.

// confirmedProof says whether the device's own record shows our commit
// confirmed; detail says what it shows when it does not.
type confirmedProof = txn.Proof

// proveApplied re-reads the device after the transaction's last command
// and reports what it has: applied when the managed config re-diffs empty
// and proof (nil: none on the platform) confirms it; rolled back when the
// device is back at its backup (its own confirm timer undid the change);
// otherwise failed, saying what the device has and how to restore it.
// what names the step that just ended ("the confirm").
func (a *applier) proveApplied(ok outcome, what string, proof confirmedProof) outcome {
	restore := a.opts.rollbackCommand(a.pd.Name)
	if !a.conn.Alive() {
		if err := a.reconnect(); err != nil {
			return outcome{Status: StatusFailed, Restore: restore, DeviceDiff: ok.DeviceDiff, Unread: true,
				Reason: fmt.Sprintf("after %s the device could not be read back to prove the change: %v; it may be applied or rolled back by its own timer", what, err)}
		}
	}
	confirmed, detail := true, ""
	if proof != nil {
		var err error
		if confirmed, detail, err = proof(a); err != nil {
			return outcome{Status: StatusFailed, Restore: restore, DeviceDiff: ok.DeviceDiff, Unread: !a.conn.Alive(),
				Reason: fmt.Sprintf("after %s, reading the device's commit state failed: %v; the change may or may not be confirmed", what, err)}
		}
	}
	now, err := a.readNow()
	if err != nil {
		return outcome{Status: StatusFailed, Restore: restore, DeviceDiff: ok.DeviceDiff, Unread: true,
			Reason: fmt.Sprintf("after %s the device could not be read back: %v; it may be applied or rolled back by its own timer", what, err)}
	}
	cmp, err := a.compare(now)
	if err != nil {
		return outcome{Status: StatusFailed, Restore: restore, DeviceDiff: ok.DeviceDiff, Reason: fmt.Sprintf("after %s: %v", what, err)}
	}
	if confirmed && cmp.Changes.Empty() {
		return ok
	}
	why := fmt.Sprintf("after %s the device does not have the change", what)
	if !confirmed {
		why = fmt.Sprintf("after %s the device does not show our commit confirmed (%s)", what, detail)
	}
	if !cmp.Changes.Empty() {
		why += fmt.Sprintf("; read back, %d line(s) differ from the rendered config", cmp.Diff.Added+cmp.Diff.Removed)
	}
	back, err := a.restored()
	switch {
	case err != nil:
		return outcome{Status: StatusFailed, Restore: restore, DeviceDiff: ok.DeviceDiff, Reason: why + "; could not compare with the backup: " + err.Error()}
	case back:
		return outcome{Status: StatusRolledBack, DeviceDiff: ok.DeviceDiff,
			Reason: why + ": its confirm timer ran out before the confirm took effect and the device rolled the change back by itself; the device matches its backup"}
	}
	return outcome{Status: StatusFailed, Restore: restore, DeviceDiff: ok.DeviceDiff, Reason: why + "; the device is NOT back to its backup either"}
}

// settle re-reads a device whose change failed after an answer was lost
// (a command's answer came too late or the connection dropped, so the
// device may have carried out the command whose answer fabricgen never
// saw) and reports what the device has: applied when it reads back as
// the intent with nothing waiting for confirmation (the transaction's own
// object, a checkpoint, is removed then); rolled back when it is back at
// its backup with nothing waiting; otherwise the failure, whose restore
// command — when the device could be read and nothing waits — is
// fabricgen rollback, which restores from any state (a platform command
// such as nv config apply --confirm-no only works in one).
func (a *applier) settle(failed outcome) outcome {
	if !a.conn.Alive() {
		if err := a.reconnect(); err != nil {
			return failed
		}
	}
	now, err := a.readNow()
	if err != nil {
		return failed
	}
	left, err := findLeftovers(a.conn, a.dl, a.ignore)
	if err != nil {
		return failed
	}
	waiting := left.Timer != "" || len(left.Foreign) > 0
	if waiting {
		failed.Reason += "; read back after the lost answer: " + describeLeftovers(a.dl, left)
		return failed
	}
	cmp, err := a.compare(now)
	if err != nil {
		return failed
	}
	lead := "read back after the lost answer, "
	if cmp.Changes.Empty() && a.settleApplied != nil {
		// The transaction's own check (NX-OS: the change may have
		// overwritten another session's command to a line we manage,
		// as after a normal verify).
		if out, done := a.settleApplied(failed); done {
			return out
		}
	}
	if cmp.Changes.Empty() {
		if a.txnName() != "" && platformTxn(a.dl).RemoveRestored && txn.Contains(left.Names, a.txn) {
			removeTxn(a.conn, a.dl, a.txn)
		}
		return outcome{Status: StatusApplied, DeviceDiff: failed.DeviceDiff,
			Reason: "note: " + lead + "the device has the change and nothing waits for confirmation (it carried out the command whose answer was lost); what fabricgen had reported: " + failed.Reason}
	}
	if back, err := a.restored(); err == nil && back {
		if a.txnName() != "" && platformTxn(a.dl).RemoveRestored && txn.Contains(left.Names, a.txn) {
			removeTxn(a.conn, a.dl, a.txn)
		}
		return outcome{Status: StatusRolledBack, DeviceDiff: failed.DeviceDiff,
			Reason: failed.Reason + "; " + lead + "the device matches its backup and nothing waits for confirmation"}
	}
	failed.Reason += fmt.Sprintf("; %sthe device is neither at the intent (%d line(s) differ) nor at its backup, and nothing waits for confirmation", lead, cmp.Diff.Added+cmp.Diff.Removed)
	failed.Restore = a.opts.rollbackCommand(a.pd.Name)
	return failed
}

// lostConfirm handles a confirm whose answer was lost (too late, or the
// connection dropped): the device may or may not have taken it. It reads
// the device back (reconnecting) and reports what it has; only when the
// change is neither confirmed nor undone does it undo it with undo. When
// the device cannot be read back, its state is unknown, and the report
// says so and how to find out (unknownState), sending nothing.
func (a *applier) lostConfirm(ok outcome, what string, proof confirmedProof, undo func() outcome) outcome {
	out := a.proveApplied(ok, what+", whose answer was lost", proof)
	// A device that answers again a while later is read once more, over
	// a new session (reconnect tries again, with pauses), before its
	// state is called unknown.
	if out.Unread && a.ctx.Err() == nil {
		if err := a.reconnect(); err == nil {
			out = a.proveApplied(ok, what+", whose answer was lost", proof)
		}
	}
	if out.Unread {
		// Nothing is known: an undo sent now might undo a confirmed
		// change or fail on a device that does not answer; say so.
		why := out.Reason
		for _, guess := range []string{"; the change may or may not be confirmed", "; it may be applied or rolled back by its own timer"} {
			why = strings.TrimSuffix(why, guess)
		}
		return a.unknownState(what+" was sent but its answer was lost", why, ok)
	}
	switch out.Status {
	case StatusFailed:
		return undo()
	case StatusApplied:
		out.Reason = strings.TrimPrefix(out.Reason+"; note: the answer to "+what+" was lost; read back, the device has the change and its commit is confirmed", "; ")
	}
	return out
}
