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
		kind: dialect.TxnHost,
		run:  (*applier).hostCommands,
		interrupted: func(in stopped) (string, string) {
			return "stopped at step " + in.step + ": some of the script's settings may be changed", in.rollback
		},
	}
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

// hostRestore sets every setting that differs from the backup back, with
// the setters of the script the backup was read with (the render plus the
// settings the last apply made that it dropped), and checks the result of
// every command. A connection lost while restoring is re-opened and the
// restore computed again from what the host has then; a command the host
// refuses is named in the result.
func (a *applier) hostRestore(why string) outcome {
	a.mark("rollback")
	restore := "fabricgen rollback " + a.pd.Name
	var refused []string
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
		cmds, err := config.HostRestoreCommands(a.readScript(), a.before, now)
		if err != nil {
			return outcome{status: StatusFailed, reason: why + "; " + err.Error(), restore: restore}
		}
		refused = refused[:0]
		lost := false
		for _, c := range cmds {
			if _, err := a.shell(c); err != nil {
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
	out := a.rolledBack(why)
	if len(refused) > 0 {
		out.status, out.restore = StatusFailed, restore
		out.reason = fmt.Sprintf("%s; restoring the backup: %d command(s) failed: %s; the device is NOT back to its backup", why, len(refused), strings.Join(refused, "; "))
	}
	return out
}
