package push

import (
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/internal/push/txn"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// transaction is how push changes one platform's devices safely (the
// kit's Transaction, which each platform folder gives in txn.go).
type transaction = txn.Transaction

// stopped is a run interrupted mid-change, as a transaction describes it.
type stopped = txn.Stopped

// transactions is every platform's push transaction, keyed by platform,
// as the platform folders give them (platforms.All): a platform fabricgen
// can apply to has one in its folder's txn.go.
func transactions() map[schema.Platform]transaction {
	out := map[schema.Platform]transaction{}
	for _, p := range platforms.Needing("push dialect") {
		if p.Transaction.Run != nil {
			out[p.Name] = p.Transaction
		}
	}
	return out
}

// transactionFor returns the platform's transaction, or an error when its
// folder has none or it disagrees with the dialect.
func transactionFor(dl *dialect.Dialect) (transaction, error) {
	p, ok := platforms.Get(dl.Platform)
	if !ok || p.Transaction.Run == nil {
		return transaction{}, fmt.Errorf("platform %s: push has no transaction for it (platforms/<folder>/txn.go)", dl.Platform)
	}
	tx := p.Transaction
	if tx.Kind != dl.Transaction {
		return transaction{}, fmt.Errorf("platform %s: the dialect says transaction %s, the folder's txn.go %s", dl.Platform, dl.Transaction, tx.Kind)
	}
	return tx, nil
}

// platformTxn is the transaction of a dialect checked by Options.dialect; a
// platform without one gets a transaction that fails and finds nothing.
func platformTxn(dl *dialect.Dialect) transaction {
	tx, err := transactionFor(dl)
	if err != nil {
		return transaction{Kind: dl.Transaction, Run: func(txn.Applier) outcome {
			return outcome{Status: StatusFailed, Reason: err.Error() + "; nothing was sent"}
		}}
	}
	return tx
}

// transaction runs the platform's transaction.
func (a *applier) transaction() outcome { return platformTxn(a.dl).Run(a) }

// lockDevice takes the device's own lock, when its platform has one,
// recording the run in flight first (step "lock": nothing sent yet), so a
// run stopped while it holds the lock leaves a record naming it. It
// returns the release to defer, or ok false with the outcome (the device
// was not changed).
func (a *applier) lockDevice() (release func(), out outcome, ok bool) {
	tx := platformTxn(a.dl)
	if tx.Lock == nil {
		return func() {}, outcome{}, true
	}
	if err := a.step("lock"); err != nil {
		return nil, outcome{Status: StatusFailed, Reason: fmt.Sprintf("record the run before locking the device: %v; nothing was changed", err)}, false
	}
	if out, ok := tx.Lock(a); !ok {
		if !a.keepRecord {
			_ = a.opts.State.ClearInFlight(a.pd.Name)
		}
		return nil, out, false
	}
	return func() {
		if a.ctx.Err() != nil {
			// Stopped: the lock stays with the in-flight record, which
			// names this run; the next run from this checkout removes
			// both once the device is clean.
			return
		}
		tx.Unlock(a)
		if a.stepName == "lock" && !a.keepRecord {
			// Nothing was staged (stale, refused, unchanged): the
			// record of the lock goes with it.
			_ = a.opts.State.ClearInFlight(a.pd.Name)
		}
	}, outcome{}, true
}

// txnName is the name of this run's transaction on the device, or "" for
// platforms without one.
func (a *applier) txnName() string {
	if platformTxn(a.dl).Named {
		return a.txn
	}
	return ""
}

// inspect looks for work in flight on the device other than the
// transactions named ours, and returns it described for the operator (""
// when there is none).
func inspect(conn *session.Conn, dl *dialect.Dialect, ours ...string) (string, error) {
	l, err := findLeftovers(conn, dl, ours...)
	if err != nil {
		return "", err
	}
	return describeLeftovers(dl, l), nil
}

// findLeftovers reads the device's transactions, leaving out ours.
func findLeftovers(conn *session.Conn, dl *dialect.Dialect, ours ...string) (leftovers, error) {
	tx, err := transactionFor(dl)
	if err != nil {
		return leftovers{}, err
	}
	if tx.Leftovers == nil {
		return leftovers{}, nil
	}
	return tx.Leftovers(conn, func(name string) bool { return name != "" && txn.Contains(ours, name) })
}

// describeLeftovers says what was found and what to do about it.
func describeLeftovers(dl *dialect.Dialect, l leftovers) string {
	tx := platformTxn(dl)
	var parts []string
	if l.Timer != "" {
		if tx.TimerNote != nil {
			parts = append(parts, tx.TimerNote(l.Timer))
		} else {
			parts = append(parts, fmt.Sprintf("a change is waiting for confirmation (%s): another change is in flight; wait until it is confirmed or rolled back", l.Timer))
		}
	}
	for _, n := range l.Names {
		note := fmt.Sprintf("fabricgen transaction %s is on the device: another fabricgen run is changing it, or a killed run left it", n)
		if tx.NameNote != nil {
			note = tx.NameNote(n)
		}
		if who := l.Notes[n]; who != "" {
			note += " (held by " + txn.SafeText(who) + ")"
		}
		parts = append(parts, note)
	}
	parts = append(parts, l.Foreign...)
	return strings.Join(parts, "; ")
}

// removeTxn removes a fabricgen transaction object that changes nothing
// any more (an uncommitted session, a checkpoint of a clean device).
func removeTxn(conn *session.Conn, dl *dialect.Dialect, name string) {
	if rm := platformTxn(dl).Remove; rm != nil {
		rm(conn, name)
	}
}

// interruptedState says, from the step the device was in when the run
// stopped, what the device has now and the command that undoes it.
func (a *applier) interruptedState() (string, string) {
	in := stopped{Name: a.txn, Step: a.stepName, Wait: fmtWait(a.opts.CommitTimer), Rollback: a.opts.rollbackCommand(a.pd.Name), Sent: a.sending}
	if f := platformTxn(a.dl).Interrupted; f != nil {
		if now, restore := f(in); now != "" {
			return now, restore
		}
	}
	return "stopped at step " + in.Step + ": the change may or may not be in place", in.Rollback
}

// ownCleanup lists the commands removing an interrupted run's own
// transaction that is still pending on the device, from its in-flight
// record.
func ownCleanup(conn *session.Conn, dl *dialect.Dialect, rec *state.InFlight) ([]string, error) {
	if rec == nil {
		return nil, nil
	}
	left, err := findLeftovers(conn, dl)
	if err != nil {
		return nil, err
	}
	if f := platformTxn(dl).Cleanup; f != nil {
		return f(rec, left), nil
	}
	return nil, nil
}

// restoredCleanup removes what an interrupted run left once the device is
// back at its backup (its checkpoint), and the device's in-flight record.
func (a *applier) restoredCleanup(rec *state.InFlight) {
	if rec != nil && rec.Txn != "" && platformTxn(a.dl).RemoveRestored {
		removeTxn(a.conn, a.dl, rec.Txn)
	}
	_ = a.opts.State.ClearInFlight(a.pd.Name)
}
