package push

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/response"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/session"
)

// eosSession stages the change in an EOS configuration session, shows the
// device's own diff, commits with a timer, verifies, then confirms. Any
// failure aborts the session (an uncommitted session is discarded by the
// device even when the connection drops) and checks the device is back to
// its backup. Commands per the EOS User Manual, "Configuration sessions":
// configure session NAME, show session-config diffs, commit timer
// hh:mm:ss, configure session NAME commit, configure session NAME abort.
func (a *applier) eosSession() outcome {
	name := a.txn
	level := &network.PrivilegeLevel{
		Name: name,
		// EOS shows a truncated session name: leaf1(config-s-fabric)#,
		// and sub-modes after it: leaf1(config-s-fabric-if-Et1)#.
		Pattern:      `(?im)^[\w.\-@()/: ]{1,63}\(config-s-[\w.\-@/:]{0,63}\)#\s?$`,
		PreviousPriv: "privilege-exec",
		Deescalate:   "end",
		Escalate:     "configure session " + name,
	}
	a.conn.AddPrivilege(level)
	abort := func(why string) outcome {
		a.mark("rollback")
		if a.conn.Alive() {
			_, _ = a.conn.Command("configure session " + name + " abort")
		} else if err := a.reconnect(); err == nil {
			a.conn.AddPrivilege(level)
			_, _ = a.conn.Command("configure session " + name + " abort")
		}
		return a.rolledBack(why)
	}
	_, rej, err := a.conn.Configure(a.changes.Commands(), name)
	if err != nil {
		return abort(fmt.Sprintf("staging failed: %v", err))
	}
	if rej != nil {
		return abort(rej.Error())
	}
	// Another operator may have started while we staged: commit only
	// when no other session waits on a commit timer and no other
	// fabricgen session is open.
	if busy, err := inspect(a.conn, a.dl, name, a.ignore); err != nil || busy != "" {
		out := abort(fmt.Sprintf("before commit: %s", firstNonEmpty(busy, fmt.Sprint(err))))
		if out.status == StatusRolledBack && busy != "" {
			out.status = StatusRefused
			out.reason = busy + "; our staged session was aborted and nothing changed"
		}
		return out
	}
	diffs, rej, err := a.conn.Configure([]string{"show session-config diffs"}, name)
	if err != nil {
		return abort(fmt.Sprintf("show session-config diffs: %v", err))
	}
	if rej != nil {
		return abort(rej.Error())
	}
	// A session commits a copy of the running config taken when it
	// started: a change someone made to the running config since would
	// be lost. The session's diff then shows lines we did not send.
	if extra := foreignEOS(diffs, a.changes.Commands()); extra != "" {
		out := abort("the running config changed while the change was staged (another administrator?): the session diff also has " + extra)
		if out.status == StatusRolledBack {
			out.status = StatusRefused
			out.reason = "the running config changed while the change was staged (another administrator?): the session diff also has " + extra + "; our session was aborted so their change is kept, and nothing changed: run fabricgen plan again"
		}
		return out
	}
	timer := fmtTimer(a.opts.CommitTimer)
	a.mark("commit")
	if _, rej, err = a.conn.Configure([]string{"commit timer " + timer}, name); err != nil || rej != nil {
		return abort(fmt.Sprintf("commit timer %s: %v", timer, firstErr(err, rej)))
	}
	ok, left, err := a.converged()
	if err != nil {
		return abort(fmt.Sprintf("verify after commit: %v", err))
	}
	if !ok {
		return abort(fmt.Sprintf("verify after commit: %d lines still differ from the rendered config", left))
	}
	a.mark("confirm")
	r, err := a.conn.Command("configure session " + name + " commit")
	if err != nil || r.Failed != nil {
		return abort(fmt.Sprintf("confirm the commit: %v", firstErr(err, rejection(r))))
	}
	return outcome{status: StatusApplied, deviceDiff: strings.TrimSpace(diffs)}
}

// nxosCheckpoint takes a checkpoint, applies the lines in configuration
// mode, verifies, and rolls back to the checkpoint on any failure (NX-OS
// keeps lines already applied when a session drops). Commands per Cisco's
// NX-OS System Management Configuration Guide, "Configuring the Rollback
// Feature": checkpoint NAME, rollback running-config checkpoint NAME,
// no checkpoint NAME.
func (a *applier) nxosCheckpoint() outcome {
	name := a.txn
	if r, err := a.conn.Command("checkpoint " + name); err != nil || r.Failed != nil {
		return outcome{status: StatusFailed, reason: fmt.Sprintf("take checkpoint %s (nothing was changed): %v", name, firstErr(err, rejection(r)))}
	}
	cleanup := func() { _, _ = a.conn.Command("no checkpoint " + name) }
	// Another run may have taken a checkpoint at the same moment: go on
	// only when ours is the only fabricgen checkpoint.
	if busy, err := inspect(a.conn, a.dl, name, a.ignore); err != nil || busy != "" {
		cleanup()
		if busy == "" { // the device could not be read: not a refusal, and our checkpoint may be left (the record stays, so the next run removes it)
			return outcome{status: StatusFailed, reason: fmt.Sprintf("look for other runs' checkpoints: %v; nothing was changed", err)}
		}
		return outcome{status: StatusRefused, reason: busy + "; nothing was changed"}
	}
	rollback := func(why string) outcome {
		a.mark("rollback")
		if !a.conn.Alive() {
			if err := a.reconnect(); err != nil {
				return outcome{status: StatusFailed, reason: why + "; " + err.Error(),
					restore: "rollback running-config checkpoint " + name + " (then: no checkpoint " + name + ")"}
			}
		}
		r, err := a.conn.Command("rollback running-config checkpoint " + name)
		if err != nil || r.Failed != nil {
			return outcome{status: StatusFailed, reason: why + "; rollback running-config checkpoint " + name + " failed: " + firstErr(err, rejection(r)).Error(),
				restore: "rollback running-config checkpoint " + name + " (then: no checkpoint " + name + ")"}
		}
		out := a.rolledBack(why)
		cleanup()
		return out
	}
	if why, err := a.changedSince(); err != nil || why != "" {
		cleanup()
		if err != nil {
			return outcome{status: StatusFailed, reason: "re-read the device before changing it (nothing was changed): " + err.Error()}
		}
		return outcome{status: StatusRefused, reason: why}
	}
	_, rej, err := a.conn.Configure(a.changes.Commands(), "")
	if err != nil {
		return rollback(fmt.Sprintf("applying failed: %v", err))
	}
	if rej != nil {
		return rollback(rej.Error())
	}
	ok, left, err := a.converged()
	if err != nil {
		return rollback(fmt.Sprintf("verify: %v", err))
	}
	if !ok {
		return rollback(fmt.Sprintf("verify: %d lines still differ from the rendered config", left))
	}
	cleanup()
	return outcome{status: StatusApplied}
}

// shell runs one shell command and turns a non-zero exit status or a
// failure string into an error naming the command and its output.
func (a *applier) shell(cmd string) (string, error) {
	out, status, failed, err := a.conn.Run(cmd)
	switch {
	case err != nil:
		return out, err
	case failed || status < 0:
		return out, fmt.Errorf("the device rejected %q: %s", cmd, strings.TrimSpace(out))
	case status != 0:
		return out, fmt.Errorf("%q exited with status %d: %s", cmd, status, strings.TrimSpace(out))
	}
	return out, nil
}

// hostCommands runs the changed, idempotent action lines one at a time,
// checking each exit status, then reads the state back. On failure it
// restores every fact that differs from the backup with the matching
// setter and checks the host is back to its backup.
func (a *applier) hostCommands() outcome {
	for _, line := range a.changes.Commands() {
		if _, err := a.shell(line); err != nil {
			return a.hostRestore(err.Error())
		}
	}
	ok, left, err := a.converged()
	if err != nil {
		return a.hostRestore(fmt.Sprintf("read back: %v", err))
	}
	if !ok {
		return a.hostRestore(fmt.Sprintf("read back: %d settings still differ from the script", left))
	}
	return outcome{status: StatusApplied}
}

func (a *applier) hostRestore(why string) outcome {
	a.mark("rollback")
	restore := "fabricgen rollback " + a.pd.Name
	if !a.conn.Alive() {
		if err := a.reconnect(); err != nil {
			return outcome{status: StatusFailed, reason: why + "; " + err.Error(), restore: restore}
		}
	}
	now, err := fetch(a.conn, a.dl, a.readScript())
	if err != nil {
		return outcome{status: StatusFailed, reason: why + "; read state to restore: " + err.Error(), restore: restore}
	}
	cmds, err := config.HostRestoreCommands(a.rendered, a.before, now)
	if err != nil {
		return outcome{status: StatusFailed, reason: why + "; " + err.Error(), restore: restore}
	}
	for _, c := range cmds {
		if _, err := a.conn.Command(c); err != nil {
			return outcome{status: StatusFailed, reason: why + "; restore " + c + ": " + err.Error(), restore: restore}
		}
	}
	return a.rolledBack(why)
}

// fmtTimer prints a duration as EOS's hh:mm:ss.
func fmtTimer(d time.Duration) string {
	s := int(d.Seconds())
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
}

// foreignEOS returns the first line of an EOS session diff that none of
// our commands explains ("" when every changed line is ours). A line is
// ours when we sent it, or negated it (no X, default X).
func foreignEOS(diff string, cmds []string) string {
	ours := map[string]bool{}
	for _, c := range cmds {
		c = strings.TrimSpace(c)
		ours[c] = true
		if rest, ok := strings.CutPrefix(c, "no "); ok {
			ours[rest] = true
		}
		if rest, ok := strings.CutPrefix(c, "default "); ok {
			ours[rest] = true
			ours["no "+rest] = true
		}
	}
	// A line under one of ours with the same sign is part of the stanza
	// we added or removed (no tx-queue 3 removes its lines too).
	coverSign, coverIndent := byte(0), -1
	for _, l := range strings.Split(diff, "\n") {
		if strings.HasPrefix(l, "+++") || strings.HasPrefix(l, "---") || (!strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "-")) {
			coverIndent = -1
			continue
		}
		body := l[1:]
		indent := len(body) - len(strings.TrimLeft(body, " "))
		t := strings.TrimSpace(body)
		if coverIndent >= 0 && l[0] == coverSign && indent > coverIndent {
			continue
		}
		coverIndent = -1
		if t == "" || t == "!" {
			continue
		}
		if ours[t] {
			coverSign, coverIndent = l[0], indent
			continue
		}
		return strings.TrimSpace(l)
	}
	return ""
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// firstErr is the session error, else the device's rejection.
func firstErr(err error, rej *session.Rejected) error {
	if err != nil {
		return err
	}
	if rej != nil {
		return rej
	}
	return errors.New("the device gave no reason")
}

// rejection is a response's rejection, or nil.
func rejection(r *response.Response) *session.Rejected {
	if r == nil || r.Failed == nil {
		return nil
	}
	return &session.Rejected{Input: r.Input, Output: r.Result}
}
