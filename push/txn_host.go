package push

import (
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
)

// hostTxn is a Linux host's idempotent commands, read back and restored
// from the backup on failure; a host has no transaction object to find.
func hostTxn() transaction {
	return transaction{
		kind:           dialect.TxnHost,
		run:            (*applier).hostCommands,
		named:          true,
		leftovers:      hostLeftovers,
		nameNote:       hostLockNote,
		remove:         removeHostLock,
		removeRestored: true,
		lock:           (*applier).lockHost,
		unlock:         (*applier).unlockHost,
		interrupted: func(in stopped) (string, string) {
			switch {
			case in.step == "stage" && in.sent == nil:
				return "stopped before any command of the change was sent: the host has the settings of its backup (its lock " + hostLockDir + " may be left: the next plan or apply from this checkout removes it)", in.rollback
			case in.step == "stage":
				return "stopped while changing the host: it has the settings of its backup, except what these commands set: " + in.sent.String(), in.rollback
			case in.step == "verify":
				return "stopped after every command of the change ran, while reading the settings back: the host has the settings of the intent", in.rollback
			case in.step == "rollback" && in.sent != nil && in.sent.what == "the restore":
				return "stopped while setting the host back to its backup: it has the settings the change made, except what these commands set back: " + in.sent.String(), in.rollback
			case in.step == "rollback" && in.sent != nil:
				return "stopped before setting the host back to its backup: it has the settings of its backup, except what these commands set: " + in.sent.String(), in.rollback
			}
			return "stopped at step " + in.step + ": some of the script's settings may be changed", in.rollback
		},
	}
}

// hostCommands runs the changed, idempotent action lines one at a time,
// checking each exit status, then reads the state back. On failure it
// restores every fact that differs from the backup with the matching
// setter and checks the host is back to its backup.
func (a *applier) hostCommands() outcome {
	sent := a.track("the change", a.changes.Commands())
	// modprobe rdma_cm is a setup line no restore undoes (fabricgen
	// never unloads a kernel module another RDMA user may hold): note
	// whether the module was loaded before, to say so after a rollback.
	for _, line := range sent.lines {
		if line == "modprobe rdma_cm" {
			_, st, _, err := a.conn.Run("test -d /sys/module/rdma_cm")
			if err != nil {
				return a.hostRestore("read whether rdma_cm is loaded (test -d /sys/module/rdma_cm): " + err.Error())
			}
			a.rdmaCMWasLoaded = st == 0
			break
		}
	}
	for _, line := range sent.lines {
		// A host has no lock against another administrator: right
		// before each line, the settings it sets must still be what
		// apply read (compare and set), or the line would overwrite
		// their change.
		if theirs, err := a.hostChangedUnder(line); err != nil {
			return a.hostRestore("re-read the settings of " + strconvQuote(line) + " before sending it: " + err.Error())
		} else if len(theirs) > 0 {
			return a.hostRestore(fmt.Sprintf("the host changed after apply read it: %s (another administrator's change to a setting this apply sets); %q was not sent", strings.Join(theirs, "; "), line))
		}
		_, err := a.shell(line)
		if err == nil || a.conn.Alive() {
			// Answered (taken or refused); a lost session leaves the
			// line in flight.
			sent.done(err == nil)
		}
		if line == "modprobe rdma_cm" {
			a.modprobed = true
		}
		if err != nil {
			return a.hostRestore(err.Error())
		}
	}
	ok, left, err := a.converged()
	if err != nil && !a.conn.Alive() {
		// Every line was answered; only the read-back went unanswered
		// (readNow already reconnected once). Read once more after a
		// new session before undoing a change that may be complete.
		if rerr := a.reconnect(); rerr == nil {
			ok, left, err = a.converged()
		}
		if err != nil && !a.conn.Alive() {
			return a.unknownState("every line of the change was answered, but reading the host back failed", err.Error(), outcome{})
		}
	}
	if err != nil {
		return a.hostRestore(fmt.Sprintf("read back: %v", err))
	}
	if !ok {
		return a.hostRestore(fmt.Sprintf("read back: %d settings still differ from the script", left))
	}
	return outcome{status: StatusApplied}
}

// hostRestore sets every setting that differs from the backup back, with
// the setters of the script the backup was read with (the render plus the
// settings the last apply made that it dropped), and checks the result of
// every command. A connection lost while restoring is re-opened and the
// restore computed again from what the host has then; a command the host
// refuses is named in the result.
func (a *applier) hostRestore(why string) outcome {
	a.mark("rollback")
	restore := a.opts.rollbackCommand(a.pd.Name)
	var refused, keep, theirs []string
	for attempt := 0; ; attempt++ {
		if !a.conn.Alive() {
			if err := a.reconnect(); err != nil {
				return outcome{status: StatusFailed, reason: why + "; " + err.Error(), restore: restore}
			}
		}
		now, err := fetch(a.conn, a.dl, a.readScript())
		if err != nil {
			if !a.conn.Alive() && attempt == 0 {
				continue
			}
			return outcome{status: StatusFailed, reason: why + "; read state to restore: " + err.Error(), restore: restore}
		}
		// Settings our change does not touch that differ from the backup
		// are someone else's: they stay; so do settings it touches that
		// hold neither the backup's value nor ours.
		if keep, err = config.HostOthers(a.readScript(), a.changes.Commands(), a.before, now); err != nil {
			return outcome{status: StatusFailed, reason: why + "; " + err.Error(), restore: restore}
		}
		if theirs, err = config.HostTheirs(a.readScript(), a.changes.Commands(), a.before, now); err != nil {
			return outcome{status: StatusFailed, reason: why + "; " + err.Error(), restore: restore}
		}
		keep = append(keep, theirs...)
		cmds, err := config.HostRestoreCommandsKeeping(a.readScript(), a.before, now, keep)
		if err != nil {
			return outcome{status: StatusFailed, reason: why + "; " + err.Error(), restore: restore}
		}
		refused = refused[:0]
		lost := false
		sent := a.track("the restore", cmds)
		for _, c := range cmds {
			_, err := a.shell(c)
			if err == nil || a.conn.Alive() {
				sent.done(err == nil)
			}
			if err != nil {
				if !a.conn.Alive() {
					lost = true
					break
				}
				refused = append(refused, err.Error())
			}
		}
		if !lost {
			break
		}
		if attempt > 0 {
			return outcome{status: StatusFailed, reason: why + "; the connection was lost twice while restoring the backup", restore: restore}
		}
	}
	var out outcome
	if len(keep) == 0 {
		out = a.rolledBack(why)
	} else {
		out = a.hostKept(why, keep)
	}
	if len(refused) > 0 {
		out.status, out.restore = StatusFailed, restore
		out.reason = fmt.Sprintf("%s; restoring the backup: %d command(s) failed: %s; the device is NOT back to its backup", why, len(refused), strings.Join(refused, "; "))
	}
	if (out.status == StatusRolledBack || out.status == StatusFailed) && a.modprobed && !a.rdmaCMWasLoaded {
		out.reason += "; note: the rdma_cm kernel module stays loaded: this apply loaded it (modprobe rdma_cm, a setup line of the change) and a restore never unloads a module, which another RDMA user may hold; it is not a setting of the script, so the backup does not record it; unload it with modprobe -r rdma_cm if nothing on the host needs it"
	}
	if out.status == StatusRolledBack && len(theirs) > 0 {
		// Someone else set a setting this apply sets: their value is
		// kept, everything of ours is undone.
		out.status = StatusRefused
		out.reason = fmt.Sprintf("%s; another administrator set %d setting(s) this apply sets (%s): fabricgen set back every setting it had changed and kept theirs, so nothing of this apply is on the host: run fabricgen plan again",
			out.reason, len(theirs), strings.Join(theirs, "; "))
	}
	return out
}

// hostKept checks a host restored except for the settings someone else
// changed during the apply, which it says it kept.
func (a *applier) hostKept(why string, keep []string) outcome {
	restore := a.opts.rollbackCommand(a.pd.Name)
	now, err := fetch(a.conn, a.dl, a.readScript())
	if err != nil {
		return outcome{status: StatusFailed, reason: why + "; could not check the rollback: " + err.Error(), restore: restore}
	}
	ok, err := config.HostSameExcept(a.readScript(), now, a.before, keep)
	if err != nil || !ok {
		return outcome{status: StatusFailed, reason: fmt.Sprintf("%s; the device is NOT back to its backup (%v)", why, err), restore: restore}
	}
	return outcome{status: StatusRolledBack, reason: fmt.Sprintf("%s; settings someone else changed during the apply are kept: %s; every other setting matches the backup",
		why, strings.Join(keep, "; "))}
}

// hostChangedUnder reads the settings one change line sets (with the
// line's own read-back command) and lists those that differ from the
// backup: another administrator changed them after apply read the host.
func (a *applier) hostChangedUnder(line string) ([]string, error) {
	acts, err := config.ParseHostScript(line)
	if err != nil || len(acts) == 0 || acts[0].Read == "" {
		// A setup line, or a restore line (dcb app del) that is no
		// script line: it sets nothing to compare first.
		return nil, nil
	}
	out, status, failed, err := a.conn.Run(acts[0].Read)
	if err != nil {
		return nil, err
	}
	if failed || status != 0 {
		if !strings.Contains(out, "No such file or directory") {
			return nil, fmt.Errorf("read back %q: exit status %d: %s", acts[0].Read, status, strings.TrimSpace(out))
		}
		out = ""
	}
	return config.HostLineChanged(line, acts[0].Read, out, a.before, a.changes.Commands())
}

// strconvQuote quotes a line for a message.
func strconvQuote(s string) string { return fmt.Sprintf("%q", s) }
