package cisconxos

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/config"
	pushdialect "github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/internal/push/txn"
)

// transaction is Cisco NX-OS's checkpoint and rollback.
func transaction() txn.Transaction {
	return txn.Transaction{
		Kind:      pushdialect.TxnCheckpoint,
		Run:       nxosCheckpoint,
		Named:     true,
		Leftovers: nxosLeftovers,
		NameNote: func(n string) string {
			return fmt.Sprintf("fabricgen checkpoint %s is on the device: another fabricgen run is changing it, or a killed run left it mid-change (restore it with: rollback running-config checkpoint %s, then: no checkpoint %s)", n, n, n)
		},
		Remove:         func(conn *session.Conn, name string) { _, _ = conn.Command("no checkpoint " + name) },
		RemoveRestored: true,
		Interrupted: func(in txn.Stopped) (string, string) {
			restore := "rollback running-config checkpoint " + in.Name + " (then: no checkpoint " + in.Name + ")"
			switch {
			case in.Step == "stage" && in.Sent == nil:
				return "stopped before any line of the change was sent: the switch is unchanged; checkpoint " + in.Name + " may be on it", "no checkpoint " + in.Name
			case in.Step == "stage":
				return "stopped while sending the change in configure terminal, where NX-OS applies each line as it is entered: the switch has the config of checkpoint " + in.Name + " plus these lines: " + in.Sent.String(), restore
			case in.Step == "verify":
				return "stopped after every line of the change was applied, while verifying: the switch has the intent; checkpoint " + in.Name + " holds the config from before it", restore
			}
			return "stopped at step " + in.Step + ": the change may be partly applied; checkpoint " + in.Name + " holds the config from before it", restore
		},
	}
}

var reNXOSCheckpoint = regexp.MustCompile(`(?m)^\s*\d+\)\s+(\S+?):\s*$`)

// nxosLeftovers lists fabricgen's checkpoints other than ours.
func nxosLeftovers(conn *session.Conn, isOurs func(string) bool) (txn.Leftovers, error) {
	var l txn.Leftovers
	out, err := conn.Show("show checkpoint summary")
	if err != nil {
		return l, fmt.Errorf("list checkpoints: %w", err)
	}
	for _, m := range reNXOSCheckpoint.FindAllStringSubmatch(out, -1) {
		if !isOurs(m[1]) && strings.HasPrefix(m[1], state.RunPrefix) {
			l.Names = append(l.Names, m[1])
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
func nxosCheckpoint(a txn.Applier) txn.Outcome {
	name := a.Txn()
	// The accounting log's index before our checkpoint: what other
	// sessions type from here on is read back before we report.
	mark, err := nxosAuditMark(a)
	if err != nil {
		return txn.Outcome{Status: txn.StatusFailed, Reason: fmt.Sprintf("read the accounting log before changing the switch (nothing was changed): %v", err)}
	}
	// A device whose answer is lost later and reads back as the intent
	// is checked as after a normal verify: the change may have
	// overwritten another session's command to a line we manage.
	a.OnSettleApplied(func(failed txn.Outcome) (txn.Outcome, bool) {
		others, err := nxosOthers(a, mark)
		if err != nil {
			failed.Reason += "; read back after the lost answer, the device has the change, but its accounting log could not be read: " + err.Error()
			return failed, true
		}
		if anyManaged(others) {
			return nxosKeepTheirs(a, failed.Reason, others), true
		}
		return txn.Outcome{}, false
	})
	if r, err := a.Conn().Command("checkpoint " + name); err != nil || r.Failed != nil {
		return txn.Outcome{Status: txn.StatusFailed, Reason: fmt.Sprintf("take checkpoint %s (nothing was changed): %v", name, txn.FirstErr(err, txn.Rejection(r)))}
	}
	cleanup := func() { _, _ = a.Conn().Command("no checkpoint " + name) }
	// Another run may have taken a checkpoint at the same moment: go on
	// only when ours is the only fabricgen checkpoint.
	if busy, err := a.Inspect(name, a.Ignore()); err != nil || busy != "" {
		cleanup()
		if busy == "" { // the device could not be read: not a refusal, and our checkpoint may be left (the record stays, so the next run removes it)
			return txn.Outcome{Status: txn.StatusFailed, Reason: fmt.Sprintf("look for other runs' checkpoints: %v; nothing was changed", err)}
		}
		return txn.Outcome{Status: txn.StatusRefused, Reason: busy + "; nothing was changed"}
	}
	rollback := func(why string) txn.Outcome {
		a.Mark("rollback")
		if !a.Conn().Alive() {
			if err := a.Reconnect(); err != nil {
				return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; " + err.Error(),
					Restore: "rollback running-config checkpoint " + name + " (then: no checkpoint " + name + ")"}
			}
		}
		// Another administrator's commands since our checkpoint, to a
		// line we manage: the checkpoint rollback would erase them.
		if others, err := nxosOthers(a, mark); err == nil && anyManaged(others) {
			return nxosKeepTheirs(a, why, others)
		}
		// The checkpoint rollback puts back the whole config of the
		// checkpoint: someone else's change since would go with ours.
		th, err := a.OthersSince()
		if err != nil {
			return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; re-read the device before rolling back: " + err.Error(),
				Restore: "rollback running-config checkpoint " + name + " (then: no checkpoint " + name + ")"}
		}
		if th.Some() {
			out := a.KeepTheirs(why, th, "rollback running-config checkpoint "+name, func(cs *config.ChangeSet) error {
				_, rej, err := a.Conn().Configure(cs.Commands(), "")
				return txn.FirstErrOrNil(err, rej)
			})
			if out.Status == txn.StatusRolledBack {
				cleanup()
			}
			return out
		}
		r, err := a.Conn().Command("rollback running-config checkpoint " + name)
		if err != nil || r.Failed != nil {
			return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; rollback running-config checkpoint " + name + " failed: " + txn.FirstErr(err, txn.Rejection(r)).Error(),
				Restore: "rollback running-config checkpoint " + name + " (then: no checkpoint " + name + ")"}
		}
		out := a.RolledBack(why)
		cleanup()
		return out
	}
	if why, err := a.ChangedSince(); err != nil || why != "" {
		cleanup()
		if err != nil {
			return txn.Outcome{Status: txn.StatusFailed, Reason: "re-read the device before changing it (nothing was changed): " + err.Error()}
		}
		return txn.Outcome{Status: txn.StatusRefused, Reason: why}
	}
	sent := a.Track("the change", a.Changes().Commands())
	_, rej, err := a.Conn().ConfigureAcked(sent.Lines, "", func(string) { sent.Done(true) })
	if err != nil {
		return rollback(fmt.Sprintf("applying failed: %v", err))
	}
	if rej != nil {
		return rollback(rej.Error())
	}
	ok, left, err := a.Converged()
	if err != nil {
		return rollback(fmt.Sprintf("verify: %v", err))
	}
	if !ok {
		return rollback(fmt.Sprintf("verify: %d lines still differ from the rendered config", left))
	}
	// The device reads as the intent, but a line someone else changed
	// while ours went in may have been overwritten by ours: the
	// accounting log says.
	others, err := nxosOthers(a, mark)
	if err != nil {
		return rollback("read the accounting log after the change: " + err.Error())
	}
	if anyManaged(others) {
		return nxosKeepTheirs(a, "the change went in and read back as the intent", others)
	}
	cleanup()
	return txn.Outcome{Status: txn.StatusApplied}
}
