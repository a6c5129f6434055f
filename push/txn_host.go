package push

import (
	"fmt"

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
