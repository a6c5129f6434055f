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
		a.opts.emit(a.pd.Name, "rollback", false)
		if !a.conn.Alive() {
			if err := a.reconnect(); err != nil {
				return outcome{status: StatusFailed, reason: why + "; " + err.Error() + "; run " + cmd + " on the switch"}
			}
		}
		if _, err := run(cmd); err != nil {
			return outcome{status: StatusFailed, reason: fmt.Sprintf("%s; %s failed: %v", why, cmd, err)}
		}
		return a.rolledBack(why)
	}
	for _, line := range a.pd.Changes.Commands() {
		if _, err := run(line); err != nil {
			return undo(err.Error(), "nv config detach")
		}
	}
	diff, err := run("nv config diff")
	if err != nil {
		return undo("nv config diff: "+err.Error(), "nv config detach")
	}
	secs := max(1, int(a.opts.CommitTimer.Seconds()))
	a.opts.emit(a.pd.Name, "commit", false)
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
	if _, err := run("nv config apply --confirm-yes"); err != nil {
		return undo("confirm: "+err.Error(), "nv config apply --confirm-no")
	}
	return outcome{status: StatusApplied, deviceDiff: strings.TrimSpace(diff)}
}
