package juniperjunos

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/config"
	pushdialect "github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/txn"
)

// transaction is Junos's exclusive candidate and commit confirmed.
func transaction() txn.Transaction {
	return txn.Transaction{
		Kind:      pushdialect.TxnCommitConfirmed,
		Run:       junosCommit,
		Leftovers: junosLeftovers,
		TimerNote: func(timer string) string {
			return fmt.Sprintf("a commit confirmed is waiting for confirmation (%s): another change is in flight; wait until it is confirmed or rolled back", timer)
		},
		Interrupted: func(in txn.Stopped) (string, string) {
			switch in.Step {
			case "stage":
				return "stopped while loading the exclusive candidate: nothing was committed, and Junos discards the candidate when the session ends", ""
			case "commit", "verify":
				return "stopped after commit confirmed: the device rolls the change back by itself " + in.Wait + " unless confirmed", in.Rollback
			}
			return "", ""
		},
	}
}

// junosLeftovers finds a commit waiting for confirmation.
func junosLeftovers(conn *session.Conn, _ func(string) bool) (txn.Leftovers, error) {
	var l txn.Leftovers
	out, err := conn.Show("show system commit")
	if err != nil {
		return l, fmt.Errorf("show system commit: %w", err)
	}
	l.Timer, _ = junosPendingCommit(out)
	return l, nil
}

// junosEditBanner is the "[edit ...]" line configuration mode prints
// before its prompt, left at the end of a command's output.
var junosEditBanner = regexp.MustCompile(`\n*\[edit[^\]\n]*\]\s*$`)

var reJunosEntry = regexp.MustCompile(`^\s*(\d+)\s+\d{4}-\d\d-\d\d`)

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
func junosCommit(a txn.Applier) txn.Outcome {
	discard := func(why string) txn.Outcome {
		a.Mark("rollback")
		if a.Conn().Alive() {
			_, _, _ = a.Conn().Configure([]string{"rollback 0"}, junosLevel)
			_, _ = a.Conn().Command("show system commit")
		}
		return a.RolledBack(why)
	}
	revert := func(why string) txn.Outcome {
		a.Mark("rollback")
		if !a.Conn().Alive() {
			if err := a.Reconnect(); err != nil {
				return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; " + err.Error() + "; the device rolls the commit back itself when the confirm timer expires"}
			}
		}
		// Read the state before acting: rollback 1 undoes the newest
		// commit, which must be ours and still waiting. When the timer
		// expired and the device rolled back by itself, or someone's
		// commit confirmed ours, rollback 1 would commit the very change
		// we mean to undo, or undo theirs.
		hist, err := a.Conn().Show("show system commit")
		if err != nil {
			return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; read the commit state before rolling back: " + err.Error(), Restore: a.RollbackCommand()}
		}
		entry, comment := junosPendingCommit(hist)
		switch {
		case entry != "" && comment == a.Txn():
			// rollback 1 puts back the configuration from before our
			// commit, which holds every change committed before it.
			out, rej, err := a.Conn().Configure([]string{"rollback 1", "commit"}, junosLevel)
			if err != nil || rej != nil || !strings.Contains(out, "commit complete") {
				return txn.Outcome{Status: txn.StatusFailed, Reason: fmt.Sprintf("%s; rollback 1 + commit failed (%v): the device rolls the commit back itself when the confirm timer expires", why, txn.FirstErr(err, rej))}
			}
			return a.RolledBack(why)
		case entry != "":
			return txn.Outcome{Status: txn.StatusFailed, Restore: a.RollbackCommand(),
				Reason: fmt.Sprintf("%s; the commit waiting for confirmation is not ours (%s): rollback 1 would undo someone else's commit and a commit would confirm it, so fabricgen sent nothing; once it is confirmed or rolled back, fabricgen rollback %s restores fabricgen's sections", why, entry, a.Device())}
		}
		// Nothing waits: the device rolled our commit back by itself, or
		// another commit confirmed it.
		if ok, err := a.Restored(); err == nil && ok {
			return a.RolledBack(why + "; the commit was no longer waiting for confirmation (the device rolled it back itself), so nothing was sent")
		}
		th, err := a.OthersSince()
		if err != nil {
			return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; re-read the device: " + err.Error(), Restore: a.RollbackCommand()}
		}
		return a.KeepTheirs(why+"; our commit was confirmed by another commit", th, "rollback 1 + commit", func(cs *config.ChangeSet) error {
			out, rej, err := a.Conn().Configure(append(cs.Commands(), "commit comment "+a.Txn()), junosLevel)
			if err := txn.FirstErrOrNil(err, rej); err != nil {
				_, _, _ = a.Conn().Configure([]string{"rollback 0"}, junosLevel)
				return err
			}
			if !strings.Contains(out, "commit complete") {
				return fmt.Errorf("commit: %s", strings.TrimSpace(out))
			}
			return nil
		})
	}
	if _, rej, err := a.Conn().Configure(a.Changes().Commands(), junosLevel); errors.Is(err, session.ErrModeRefused) {
		// configure exclusive was refused: another session (another
		// fabricgen run, another administrator) holds the lock, and
		// none of our statements reached the device.
		return txn.Outcome{Status: txn.StatusRefused, Reason: fmt.Sprintf("another session holds the exclusive configuration lock (%v); nothing was sent: run fabricgen plan again once it is released", err)}
	} else if err != nil {
		return a.RolledBack(fmt.Sprintf("loading the candidate failed: %v (uncommitted exclusive changes are discarded when the session ends)", err))
	} else if rej != nil {
		return discard(rej.Error())
	}
	// Once the candidate holds our statements (the lock is ours),
	// every read is made inside the exclusive candidate
	// (run show configuration), so the lock taken with configure
	// exclusive is held until the change is confirmed: no other commit
	// can land between our read and our commit, nor confirm ours.
	a.SetInside(func() (string, error) {
		out, rej, err := a.Conn().Configure([]string{"run " + a.Dialect().ShowRunning}, junosLevel)
		if err := txn.FirstErrOrNil(err, rej); err != nil {
			return "", fmt.Errorf("run %s: %w", a.Dialect().ShowRunning, err)
		}
		return junosEditBanner.ReplaceAllString(out, "\n"), nil
	})
	defer a.SetInside(nil)
	// Apply read the device before it took the lock: a commit someone
	// made in between is in our candidate, and our statements would
	// overwrite what they changed. Under the lock, the device must still
	// be what apply read.
	if why, err := a.ChangedSince(); err != nil {
		return discard("re-read the device under the exclusive lock: " + err.Error())
	} else if why != "" {
		if _, rej, err := a.Conn().Configure([]string{"rollback 0"}, junosLevel); err != nil || rej != nil {
			return discard(why)
		}
		return a.RefusedForTheirs("the device changed after apply read it and before fabricgen took the exclusive lock (another administrator's commit)",
			"our exclusive candidate was discarded (rollback 0) before its commit")
	}
	compare, _, err := a.Conn().Configure([]string{"show | compare"}, junosLevel)
	if err != nil {
		return discard(fmt.Sprintf("show | compare: %v", err))
	}
	minutes := max(1, int((a.CommitTimer().Minutes())+0.999))
	a.Mark("commit")
	// The comment names our commit in show system commit, so a
	// rollback undoes only ours.
	out, rej, err := a.Conn().Configure([]string{fmt.Sprintf("commit confirmed %d comment \"%s\"", minutes, a.Txn())}, junosLevel)
	switch {
	case err != nil:
		return revert(fmt.Sprintf("commit confirmed: %v", err))
	case rej != nil:
		return discard(rej.Error())
	case !strings.Contains(out, "commit complete"):
		return discard("commit confirmed: " + strings.TrimSpace(out))
	}
	ok, left, err := a.Converged()
	if err != nil {
		return revert(fmt.Sprintf("verify after commit: %v", err))
	}
	if !ok {
		return revert(fmt.Sprintf("verify after commit: %d lines still differ from the rendered config", left))
	}
	a.Mark("confirm")
	applied := txn.Outcome{Status: txn.StatusApplied, DeviceDiff: strings.TrimSpace(compare)}
	confirm := "the confirm (commit comment " + a.Txn() + ")"
	out, rej, err = a.Conn().Configure([]string{"commit comment " + a.Txn()}, junosLevel)
	if err != nil {
		return a.LostConfirm(applied, confirm, junosConfirmed, func() txn.Outcome { return revert(fmt.Sprintf("confirm the commit: %v", err)) })
	}
	if rej != nil || !strings.Contains(out, "commit complete") {
		return revert(fmt.Sprintf("confirm the commit: %v %s", txn.FirstErr(err, rej), strings.TrimSpace(out)))
	}
	return a.ProveApplied(applied, confirm, junosConfirmed)
}

// junosPendingCommit returns the newest commit of `show system commit`
// when it still waits for confirmation, with its comment ("" when it has
// none), else "", "". Junos keeps "commit confirmed, rollback in Nmins" on
// an entry for good; while the timer runs, the newest entry (0) is
// followed by a "rollback pending" line; a comment is printed on the line
// after its entry.
func junosPendingCommit(out string) (entry, comment string) {
	seen, note := "", ""
	for _, line := range strings.Split(out, "\n") {
		if m := reJunosEntry.FindStringSubmatch(line); m != nil {
			if m[1] != "0" {
				break
			}
			seen = strings.TrimSpace(line)
			continue
		}
		t := strings.TrimSpace(line)
		switch {
		case seen == "" || t == "":
		case t == "rollback pending":
			return seen, note
		case note == "":
			note = strings.Trim(t, `"`)
		}
	}
	return "", ""
}

// junosConfirmed: `show system commit` has no commit waiting for
// confirmation (the newest commit, ours, was confirmed; the read-back that
// follows shows whether our change is what it confirmed).
func junosConfirmed(a txn.Applier) (bool, string, error) {
	// Read inside the exclusive candidate, so the lock is held until
	// the proof is complete: no one else's commit lands before it.
	hist, rej, err := a.Conn().Configure([]string{"run show system commit"}, junosLevel)
	if err := txn.FirstErrOrNil(err, rej); err != nil {
		return false, "", fmt.Errorf("show system commit: %w", err)
	}
	if entry, comment := junosPendingCommit(hist); entry != "" {
		return false, fmt.Sprintf("commit %q (%s) still waits for confirmation", entry, comment), nil
	}
	return true, "", nil
}
