package push

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/state"
)

// nxosTxn is Cisco NX-OS's checkpoint and rollback.
func nxosTxn() transaction {
	return transaction{
		kind:      dialect.TxnCheckpoint,
		run:       (*applier).nxosCheckpoint,
		named:     true,
		leftovers: nxosLeftovers,
		nameNote: func(n string) string {
			return fmt.Sprintf("fabricgen checkpoint %s is on the device: another fabricgen run is changing it, or a killed run left it mid-change (restore it with: rollback running-config checkpoint %s, then: no checkpoint %s)", n, n, n)
		},
		remove:         func(conn *session.Conn, name string) { _, _ = conn.Command("no checkpoint " + name) },
		removeRestored: true,
		interrupted: func(in stopped) (string, string) {
			restore := "rollback running-config checkpoint " + in.name + " (then: no checkpoint " + in.name + ")"
			switch {
			case in.step == "stage" && in.sent == nil:
				return "stopped before any line of the change was sent: the switch is unchanged; checkpoint " + in.name + " may be on it", "no checkpoint " + in.name
			case in.step == "stage":
				return "stopped while sending the change in configure terminal, where NX-OS applies each line as it is entered: the switch has the config of checkpoint " + in.name + " plus these lines: " + in.sent.String(), restore
			case in.step == "verify":
				return "stopped after every line of the change was applied, while verifying: the switch has the intent; checkpoint " + in.name + " holds the config from before it", restore
			}
			return "stopped at step " + in.step + ": the change may be partly applied; checkpoint " + in.name + " holds the config from before it", restore
		},
	}
}

var reNXOSCheckpoint = regexp.MustCompile(`(?m)^\s*\d+\)\s+(\S+?):\s*$`)

// nxosLeftovers lists fabricgen's checkpoints other than ours.
func nxosLeftovers(conn *session.Conn, isOurs func(string) bool) (leftovers, error) {
	var l leftovers
	out, err := conn.Show("show checkpoint summary")
	if err != nil {
		return l, fmt.Errorf("list checkpoints: %w", err)
	}
	for _, m := range reNXOSCheckpoint.FindAllStringSubmatch(out, -1) {
		if !isOurs(m[1]) && strings.HasPrefix(m[1], state.RunPrefix) {
			l.names = append(l.names, m[1])
		}
	}
	return l, nil
}

// nxosCheckpoint takes a checkpoint, applies the lines in configuration
// mode, verifies, and rolls back to the checkpoint on any failure (NX-OS
// keeps lines already applied when a session drops). Commands per Cisco's
// NX-OS System Management Configuration Guide, "Configuring the Rollback
// Feature": checkpoint NAME, rollback running-config checkpoint NAME,
// no checkpoint NAME.
func (a *applier) nxosCheckpoint() outcome {
	name := a.txn
	// The accounting log's index before our checkpoint: what other
	// sessions type from here on is read back before we report.
	mark, err := a.nxosAuditMark()
	if err != nil {
		return outcome{status: StatusFailed, reason: fmt.Sprintf("read the accounting log before changing the switch (nothing was changed): %v", err)}
	}
	a.auditMark = &mark
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
		// Another administrator's commands since our checkpoint, to a
		// line we manage: the checkpoint rollback would erase them.
		if others, err := a.nxosOthers(mark); err == nil && anyManaged(others) {
			return a.nxosKeepTheirs(why, others)
		}
		// The checkpoint rollback puts back the whole config of the
		// checkpoint: someone else's change since would go with ours.
		th, err := a.othersSince()
		if err != nil {
			return outcome{status: StatusFailed, reason: why + "; re-read the device before rolling back: " + err.Error(),
				restore: "rollback running-config checkpoint " + name + " (then: no checkpoint " + name + ")"}
		}
		if th.some() {
			out := a.keepTheirs(why, th, "rollback running-config checkpoint "+name, func(cs *config.ChangeSet) error {
				_, rej, err := a.conn.Configure(cs.Commands(), "")
				return firstErrOrNil(err, rej)
			})
			if out.status == StatusRolledBack {
				cleanup()
			}
			return out
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
	sent := a.track("the change", a.changes.Commands())
	_, rej, err := a.conn.ConfigureAcked(sent.lines, "", func(string) { sent.done(true) })
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
	// The device reads as the intent, but a line someone else changed
	// while ours went in may have been overwritten by ours: the
	// accounting log says.
	others, err := a.nxosOthers(mark)
	if err != nil {
		return rollback("read the accounting log after the change: " + err.Error())
	}
	if anyManaged(others) {
		return a.nxosKeepTheirs("the change went in and read back as the intent", others)
	}
	cleanup()
	return outcome{status: StatusApplied}
}
