package push

import (
	"fmt"
	"strings"
)

// junosLevel is scrapligo's juniper_junos privilege level for an
// exclusive candidate (configure exclusive): Junos refuses commit confirmed
// in configure private, and the lock keeps other sessions from committing
// half of our change.
const junosLevel = "configuration-exclusive"

// junosCommit loads the statements into an exclusive candidate, keeps the
// device's `show | compare`, commits with `commit confirmed N`, verifies,
// and confirms with `commit`. Before the commit, a failure discards the
// candidate (rollback 0; the device does so itself when an exclusive session drops);
// after it, `rollback 1` + `commit` restores the previous configuration
// (and the device would roll back by itself when N minutes pass).
func (a *applier) junosCommit() outcome {
	discard := func(why string) outcome {
		a.mark("rollback")
		if a.conn.Alive() {
			_, _, _ = a.conn.Configure([]string{"rollback 0"}, junosLevel)
			_, _ = a.conn.Command("show system commit")
		}
		return a.rolledBack(why)
	}
	revert := func(why string) outcome {
		a.mark("rollback")
		if !a.conn.Alive() {
			if err := a.reconnect(); err != nil {
				return outcome{status: StatusFailed, reason: why + "; " + err.Error() + "; the device rolls the commit back itself when the confirm timer expires"}
			}
		}
		// Read the state before acting: when the commit is no longer
		// waiting for confirmation (the timer expired and the device
		// rolled back by itself, or someone confirmed it), rollback 1
		// would commit the very change we mean to undo.
		hist, err := a.conn.Show("show system commit")
		if err != nil {
			return outcome{status: StatusFailed, reason: why + "; read the commit state before rolling back: " + err.Error(), restore: "fabricgen rollback " + a.pd.Name}
		}
		if junosPendingCommit(hist) == "" {
			out := a.rolledBack(why + "; the commit was no longer waiting for confirmation (the device rolled it back itself, or someone confirmed it), so nothing was sent")
			if out.status == StatusFailed {
				out.restore = "fabricgen rollback " + a.pd.Name
			}
			return out
		}
		out, rej, err := a.conn.Configure([]string{"rollback 1", "commit"}, junosLevel)
		if err != nil || rej != nil || !strings.Contains(out, "commit complete") {
			return outcome{status: StatusFailed, reason: fmt.Sprintf("%s; rollback 1 + commit failed (%v): the device rolls the commit back itself when the confirm timer expires", why, firstErr(err, rej))}
		}
		return a.rolledBack(why)
	}
	if _, rej, err := a.conn.Configure(a.changes.Commands(), junosLevel); err != nil {
		return a.rolledBack(fmt.Sprintf("loading the candidate failed: %v (uncommitted exclusive changes are discarded when the session ends)", err))
	} else if rej != nil {
		return discard(rej.Error())
	}
	compare, _, err := a.conn.Configure([]string{"show | compare"}, junosLevel)
	if err != nil {
		return discard(fmt.Sprintf("show | compare: %v", err))
	}
	minutes := max(1, int((a.opts.CommitTimer.Minutes())+0.999))
	a.mark("commit")
	out, rej, err := a.conn.Configure([]string{fmt.Sprintf("commit confirmed %d", minutes)}, junosLevel)
	switch {
	case err != nil:
		return revert(fmt.Sprintf("commit confirmed: %v", err))
	case rej != nil:
		return discard(rej.Error())
	case !strings.Contains(out, "commit complete"):
		return discard("commit confirmed: " + strings.TrimSpace(out))
	}
	ok, left, err := a.converged()
	if err != nil {
		return revert(fmt.Sprintf("verify after commit: %v", err))
	}
	if !ok {
		return revert(fmt.Sprintf("verify after commit: %d lines still differ from the rendered config", left))
	}
	a.mark("confirm")
	out, rej, err = a.conn.Configure([]string{"commit comment " + a.txn}, junosLevel)
	if err != nil || rej != nil || !strings.Contains(out, "commit complete") {
		return revert(fmt.Sprintf("confirm the commit: %v %s", firstErr(err, rej), strings.TrimSpace(out)))
	}
	_, _ = a.conn.Command("show system commit")
	return outcome{status: StatusApplied, deviceDiff: strings.TrimSpace(compare)}
}
