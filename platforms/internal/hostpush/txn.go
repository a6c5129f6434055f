package hostpush

import (
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/txn"
)

// Transaction is a Linux host's idempotent commands, read back and restored
// from the backup on failure; a host has no transaction object to find.
func Transaction() txn.Transaction {
	return txn.Transaction{
		Kind:           dialect.TxnHost,
		Run:            func(a txn.Applier) txn.Outcome { return (&hostRun{Applier: a}).hostCommands() },
		Named:          true,
		Leftovers:      hostLeftovers,
		NameNote:       hostLockNote,
		Remove:         removeHostLock,
		RemoveRestored: true,
		Lock:           lockHost,
		Unlock:         unlockHost,
		Interrupted: func(in txn.Stopped) (string, string) {
			switch {
			case in.Step == "stage" && in.Sent == nil:
				return "stopped before any command of the change was sent: the host has the settings of its backup (its lock " + hostLockDir + " may be left: the next plan or apply from this checkout removes it)", in.Rollback
			case in.Step == "stage":
				return "stopped while changing the host: it has the settings of its backup, except what these commands set: " + in.Sent.String(), in.Rollback
			case in.Step == "verify":
				return "stopped after every command of the change ran, while reading the settings back: the host has the settings of the intent", in.Rollback
			case in.Step == "rollback" && in.Sent != nil && in.Sent.What == "the restore":
				return "stopped while setting the host back to its backup: it has the settings the change made, except what these commands set back: " + in.Sent.String(), in.Rollback
			case in.Step == "rollback" && in.Sent != nil:
				return "stopped before setting the host back to its backup: it has the settings of its backup, except what these commands set: " + in.Sent.String(), in.Rollback
			}
			return "stopped at step " + in.Step + ": some of the script's settings may be changed", in.Rollback
		},
	}
}

// hostRun is one run of the host transaction: the applier, and what the
// change did that its restore must say.
type hostRun struct {
	txn.Applier
	// modprobed: the change ran modprobe rdma_cm on a host;
	// rdmaCMWasLoaded: the module was loaded before it.
	modprobed, rdmaCMWasLoaded bool
}

// hostCommands runs the changed, idempotent action lines one at a time,
// checking each exit status, then reads the state back. On failure it
// restores every fact that differs from the backup with the matching
// setter and checks the host is back to its backup.
func (a *hostRun) hostCommands() txn.Outcome {
	sent := a.Track("the change", a.Changes().Commands())
	// modprobe rdma_cm is a setup line no restore undoes (fabricgen
	// never unloads a kernel module another RDMA user may hold): note
	// whether the module was loaded before, to say so after a rollback.
	for _, line := range sent.Lines {
		if line == "modprobe rdma_cm" {
			_, st, _, err := a.Conn().Run("test -d /sys/module/rdma_cm")
			if err != nil {
				return a.hostRestore("read whether rdma_cm is loaded (test -d /sys/module/rdma_cm): " + err.Error())
			}
			a.rdmaCMWasLoaded = st == 0
			break
		}
	}
	for _, line := range sent.Lines {
		// A host has no lock against another administrator: right
		// before each line, the settings it sets must still be what
		// apply read (compare and set), or the line would overwrite
		// their change.
		if theirs, err := a.hostChangedUnder(line); err != nil {
			return a.hostRestore("re-read the settings of " + strconvQuote(line) + " before sending it: " + err.Error())
		} else if len(theirs) > 0 {
			return a.hostRestore(fmt.Sprintf("the host changed after apply read it: %s (another administrator's change to a setting this apply sets); %q was not sent", strings.Join(theirs, "; "), line))
		}
		_, err := a.Shell(line)
		if err == nil || a.Conn().Alive() {
			// Answered (taken or refused); a lost session leaves the
			// line in flight.
			sent.Done(err == nil)
		}
		if line == "modprobe rdma_cm" {
			a.modprobed = true
		}
		if err != nil {
			return a.hostRestore(err.Error())
		}
	}
	ok, left, err := a.Converged()
	if err != nil && !a.Conn().Alive() {
		// Every line was answered; only the read-back went unanswered
		// (readNow already reconnected once). Read once more after a
		// new session before undoing a change that may be complete.
		if rerr := a.Reconnect(); rerr == nil {
			ok, left, err = a.Converged()
		}
		if err != nil && !a.Conn().Alive() {
			return a.UnknownState("every line of the change was answered, but reading the host back failed", err.Error(), txn.Outcome{})
		}
	}
	if err != nil {
		return a.hostRestore(fmt.Sprintf("read back: %v", err))
	}
	if !ok {
		return a.hostRestore(fmt.Sprintf("read back: %d settings still differ from the script", left))
	}
	return txn.Outcome{Status: txn.StatusApplied}
}

// hostRestore sets every setting that differs from the backup back, with
// the setters of the script the backup was read with (the render plus the
// settings the last apply made that it dropped), and checks the result of
// every command. A connection lost while restoring is re-opened and the
// restore computed again from what the host has then; a command the host
// refuses is named in the result.
func (a *hostRun) hostRestore(why string) txn.Outcome {
	a.Mark("rollback")
	restore := a.RollbackCommand()
	var refused, keep, theirs []string
	for attempt := 0; ; attempt++ {
		if !a.Conn().Alive() {
			if err := a.Reconnect(); err != nil {
				return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; " + err.Error(), Restore: restore}
			}
		}
		now, err := a.ReadOnce()
		if err != nil {
			if !a.Conn().Alive() && attempt == 0 {
				continue
			}
			return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; read state to restore: " + err.Error(), Restore: restore}
		}
		// Settings our change does not touch that differ from the backup
		// are someone else's: they stay; so do settings it touches that
		// hold neither the backup's value nor ours.
		if keep, err = config.HostOthers(a.ReadScript(), a.Changes().Commands(), a.Before(), now); err != nil {
			return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; " + err.Error(), Restore: restore}
		}
		if theirs, err = config.HostTheirs(a.ReadScript(), a.Changes().Commands(), a.Before(), now); err != nil {
			return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; " + err.Error(), Restore: restore}
		}
		keep = append(keep, theirs...)
		cmds, err := config.HostRestoreCommandsKeeping(a.ReadScript(), a.Before(), now, keep)
		if err != nil {
			return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; " + err.Error(), Restore: restore}
		}
		refused = refused[:0]
		lost := false
		sent := a.Track("the restore", cmds)
		for _, c := range cmds {
			_, err := a.Shell(c)
			if err == nil || a.Conn().Alive() {
				sent.Done(err == nil)
			}
			if err != nil {
				if !a.Conn().Alive() {
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
			return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; the connection was lost twice while restoring the backup", Restore: restore}
		}
	}
	var out txn.Outcome
	if len(keep) == 0 {
		out = a.RolledBack(why)
	} else {
		out = a.hostKept(why, keep)
	}
	if len(refused) > 0 {
		out.Status, out.Restore = txn.StatusFailed, restore
		out.Reason = fmt.Sprintf("%s; restoring the backup: %d command(s) failed: %s; the device is NOT back to its backup", why, len(refused), strings.Join(refused, "; "))
	}
	if (out.Status == txn.StatusRolledBack || out.Status == txn.StatusFailed) && a.modprobed && !a.rdmaCMWasLoaded {
		out.Reason += "; note: the rdma_cm kernel module stays loaded: this apply loaded it (modprobe rdma_cm, a setup line of the change) and a restore never unloads a module, which another RDMA user may hold; it is not a setting of the script, so the backup does not record it; unload it with modprobe -r rdma_cm if nothing on the host needs it"
	}
	if out.Status == txn.StatusRolledBack && len(theirs) > 0 {
		// Someone else set a setting this apply sets: their value is
		// kept, everything of ours is undone.
		out.Status = txn.StatusRefused
		out.Reason = fmt.Sprintf("%s; another administrator set %d setting(s) this apply sets (%s): fabricgen set back every setting it had changed and kept theirs, so nothing of this apply is on the host: run fabricgen plan again",
			out.Reason, len(theirs), strings.Join(theirs, "; "))
	}
	return out
}

// hostKept checks a host restored except for the settings someone else
// changed during the apply, which it says it kept.
func (a *hostRun) hostKept(why string, keep []string) txn.Outcome {
	restore := a.RollbackCommand()
	now, err := a.ReadOnce()
	if err != nil {
		return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; could not check the rollback: " + err.Error(), Restore: restore}
	}
	ok, err := config.HostSameExcept(a.ReadScript(), now, a.Before(), keep)
	if err != nil || !ok {
		return txn.Outcome{Status: txn.StatusFailed, Reason: fmt.Sprintf("%s; the device is NOT back to its backup (%v)", why, err), Restore: restore}
	}
	return txn.Outcome{Status: txn.StatusRolledBack, Reason: fmt.Sprintf("%s; settings someone else changed during the apply are kept: %s; every other setting matches the backup",
		why, strings.Join(keep, "; "))}
}

// hostChangedUnder reads the settings one change line sets (with the
// line's own read-back command) and lists those that differ from the
// backup: another administrator changed them after apply read the host.
func (a *hostRun) hostChangedUnder(line string) ([]string, error) {
	acts, err := config.ParseHostScript(line)
	if err != nil || len(acts) == 0 || acts[0].Read == "" {
		// A setup line, or a restore line (dcb app del) that is no
		// script line: it sets nothing to compare first.
		return nil, nil
	}
	out, status, failed, err := a.Conn().Run(acts[0].Read)
	if err != nil {
		return nil, err
	}
	if failed || status != 0 {
		if !strings.Contains(out, "No such file or directory") {
			return nil, fmt.Errorf("read back %q: exit status %d: %s", acts[0].Read, status, strings.TrimSpace(out))
		}
		out = ""
	}
	return config.HostLineChanged(line, acts[0].Read, out, a.Before(), a.Changes().Commands())
}

// strconvQuote quotes a line for a message.
func strconvQuote(s string) string { return fmt.Sprintf("%q", s) }
