package push

import (
	"fmt"
	"strings"
)

// nvue stages the nv set/unset commands in a pending revision, keeps `nv
// config diff`, applies with `nv config apply --confirm Ns -y`, verifies,
// and confirms with `nv config apply --confirm-yes`. Before the apply a
// failure detaches the pending revision; after it, `--confirm-no` rolls
// the revision back (and the switch would itself when the timer expires).
func (a *applier) nvue() outcome {
	run := a.shell
	undo := func(why, cmd string) outcome {
		a.mark("rollback")
		if !a.conn.Alive() {
			if err := a.reconnect(); err != nil {
				return outcome{status: StatusFailed, reason: why + "; " + err.Error(), restore: cmd}
			}
		}
		if cmd == "nv config apply --confirm-no" {
			// Read the state before acting: the switch may already have
			// rolled the revision back itself (its timer expired).
			st, err := run("nv config apply --confirm-status")
			if err == nil && !reNVUEWaiting.MatchString(st) {
				return a.rolledBack(why + "; the apply was no longer waiting for confirmation (the switch rolled it back itself), so nothing was sent")
			}
		}
		if _, err := run(cmd); err != nil {
			return outcome{status: StatusFailed, reason: fmt.Sprintf("%s; %s failed: %v", why, cmd, err), restore: cmd}
		}
		return a.rolledBack(why)
	}
	for _, line := range a.changes.Commands() {
		if _, err := run(line); err != nil {
			return undo(err.Error(), "nv config detach")
		}
	}
	diff, err := run("nv config diff")
	if err != nil {
		return undo("nv config diff: "+err.Error(), "nv config detach")
	}
	// The pending revision is shared: apply it only when it holds
	// nothing but our lines (someone may have started since inspect).
	if extra := foreignNVUE(diff, a.changes.Commands()); extra != "" {
		out := undo("pending NVUE changes that are not ours appeared while staging: "+extra, "nv config detach")
		if out.status == StatusRolledBack {
			out.status = StatusRefused
			out.reason = "pending NVUE changes that are not ours appeared while staging (" + extra + "); our staged lines were detached and nothing was applied"
		}
		return out
	}
	if why, err := a.changedSince(); err != nil || why != "" {
		out := undo(firstNonEmpty(why, fmt.Sprint(err)), "nv config detach")
		if out.status == StatusRolledBack && why != "" {
			out.status, out.reason = StatusRefused, why+"; our staged lines were detached"
		}
		return out
	}
	secs := max(1, int(a.opts.CommitTimer.Seconds()))
	a.mark("commit")
	if _, err := run(fmt.Sprintf("nv config apply --confirm %ds -y", secs)); err != nil {
		if a.conn.Alive() {
			return undo("nv config apply: "+err.Error(), "nv config detach")
		}
		return undo("nv config apply: "+err.Error(), "nv config apply --confirm-no")
	}
	ok, left, err := a.converged()
	if err != nil {
		return undo("verify after apply: "+err.Error(), "nv config apply --confirm-no")
	}
	if !ok {
		return undo(fmt.Sprintf("verify after apply: %d lines still differ from the rendered config", left), "nv config apply --confirm-no")
	}
	a.mark("confirm")
	if _, err := run("nv config apply --confirm-yes"); err != nil {
		return undo("confirm: "+err.Error(), "nv config apply --confirm-no")
	}
	return outcome{status: StatusApplied, deviceDiff: strings.TrimSpace(diff)}
}
