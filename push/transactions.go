package push

import (
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/schema"
)

// transaction is how push changes one platform's devices safely: it
// stages, verifies and undoes a change, finds the work other runs left in
// flight, and says what an interrupted run left behind. Each platform has
// one entry in transactions; the functions live in txn_<platform>.go.
type transaction struct {
	// kind is the dialect's Transaction for the platform; the
	// completeness test checks both layers agree.
	kind dialect.Transaction
	// run applies a.changes inside the transaction.
	run func(a *applier) outcome
	// named means the device object of the transaction (session,
	// checkpoint) carries this run's name, kept in the in-flight record.
	named bool
	// leftovers reads the device's transactions in flight, leaving out
	// those isOurs names (nil: the platform has none to read).
	leftovers func(conn *session.Conn, isOurs func(string) bool) (leftovers, error)
	// timerNote describes another change waiting for its commit timer.
	timerNote func(timer string) string
	// nameNote describes another fabricgen run's transaction object.
	nameNote func(name string) string
	// remove deletes a fabricgen transaction object that changes
	// nothing any more (nil: the platform leaves none).
	remove func(conn *session.Conn, name string)
	// removeRestored: once the device is back at its backup, the
	// interrupted run's transaction object is removed (a checkpoint).
	removeRestored bool
	// interrupted says, from the step a stopped run was in, what the
	// device has now and the command undoing it ("" state: unknown).
	interrupted func(in stopped) (now, restore string)
	// cleanup lists the commands removing an interrupted run's own
	// transaction still pending on the device (nil: none to remove).
	cleanup func(rec *state.InFlight, left leftovers) []string
	// lock takes the device's own lock for the run, before the device is
	// read for the change (nil: the transaction object is the guard);
	// ok false means the device was not changed and out says why.
	// unlock releases it.
	lock   func(a *applier) (out outcome, ok bool)
	unlock func(a *applier)
}

// stopped is a run interrupted mid-change, as a transaction describes it.
type stopped struct {
	// name is the run's transaction name, step its step.
	name, step string
	// wait says how long the device waits before rolling back itself.
	wait string
	// rollback is the fabricgen command restoring the device's backup.
	rollback string
	// sent is how far the commands being sent one by one got (nil:
	// none were being sent).
	sent *progress
}

// transactions is the registry of push transactions, keyed by platform:
// a platform fabricgen can apply to has exactly one line here. It is a
// function (a fresh map per call) because the entries refer to functions
// that look the table up again.
func transactions() map[schema.Platform]transaction {
	host := hostTxn()
	return map[schema.Platform]transaction{
		schema.AristaEOS:     eosTxn(),
		schema.CiscoNXOS:     nxosTxn(),
		schema.JuniperJunos:  junosTxn(),
		schema.NvidiaCumulus: nvueTxn(),
		schema.SONiC:         gcuTxn(),
		schema.NvidiaMLNX:    host,
		schema.LinuxDCB:      host,
	}
}

// transactionFor returns the platform's transaction, or an error when push
// has none for it or it disagrees with the dialect.
func transactionFor(dl *dialect.Dialect) (transaction, error) {
	tx, ok := transactions()[dl.Platform]
	if !ok {
		return transaction{}, fmt.Errorf("platform %s: push has no transaction for it (push/transactions.go)", dl.Platform)
	}
	if tx.kind != dl.Transaction {
		return transaction{}, fmt.Errorf("platform %s: the dialect says transaction %s, push's table %s", dl.Platform, dl.Transaction, tx.kind)
	}
	return tx, nil
}

// platformTxn is the transaction of a dialect checked by Options.dialect; a
// platform without one gets a transaction that fails and finds nothing.
func platformTxn(dl *dialect.Dialect) transaction {
	tx, err := transactionFor(dl)
	if err != nil {
		return transaction{kind: dl.Transaction, run: func(*applier) outcome {
			return outcome{status: StatusFailed, reason: err.Error() + "; nothing was sent"}
		}}
	}
	return tx
}

// transaction runs the platform's transaction.
func (a *applier) transaction() outcome { return platformTxn(a.dl).run(a) }

// lockDevice takes the device's own lock, when its platform has one,
// recording the run in flight first (step "lock": nothing sent yet), so a
// run stopped while it holds the lock leaves a record naming it. It
// returns the release to defer, or ok false with the outcome (the device
// was not changed).
func (a *applier) lockDevice() (release func(), out outcome, ok bool) {
	tx := platformTxn(a.dl)
	if tx.lock == nil {
		return func() {}, outcome{}, true
	}
	if err := a.step("lock"); err != nil {
		return nil, outcome{status: StatusFailed, reason: fmt.Sprintf("record the run before locking the device: %v; nothing was changed", err)}, false
	}
	if out, ok := tx.lock(a); !ok {
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
		tx.unlock(a)
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
	if platformTxn(a.dl).named {
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
	if tx.leftovers == nil {
		return leftovers{}, nil
	}
	return tx.leftovers(conn, func(name string) bool { return name != "" && contains(ours, name) })
}

// describeLeftovers says what was found and what to do about it.
func describeLeftovers(dl *dialect.Dialect, l leftovers) string {
	tx := platformTxn(dl)
	var parts []string
	if l.timer != "" {
		if tx.timerNote != nil {
			parts = append(parts, tx.timerNote(l.timer))
		} else {
			parts = append(parts, fmt.Sprintf("a change is waiting for confirmation (%s): another change is in flight; wait until it is confirmed or rolled back", l.timer))
		}
	}
	for _, n := range l.names {
		note := fmt.Sprintf("fabricgen transaction %s is on the device: another fabricgen run is changing it, or a killed run left it", n)
		if tx.nameNote != nil {
			note = tx.nameNote(n)
		}
		if who := l.notes[n]; who != "" {
			note += " (held by " + safeText(who) + ")"
		}
		parts = append(parts, note)
	}
	parts = append(parts, l.foreign...)
	return strings.Join(parts, "; ")
}

// removeTxn removes a fabricgen transaction object that changes nothing
// any more (an uncommitted session, a checkpoint of a clean device).
func removeTxn(conn *session.Conn, dl *dialect.Dialect, name string) {
	if rm := platformTxn(dl).remove; rm != nil {
		rm(conn, name)
	}
}

// interruptedState says, from the step the device was in when the run
// stopped, what the device has now and the command that undoes it.
func (a *applier) interruptedState() (string, string) {
	in := stopped{name: a.txn, step: a.stepName, wait: fmtWait(a.opts.CommitTimer), rollback: a.opts.rollbackCommand(a.pd.Name), sent: a.sending}
	if f := platformTxn(a.dl).interrupted; f != nil {
		if now, restore := f(in); now != "" {
			return now, restore
		}
	}
	return "stopped at step " + in.step + ": the change may or may not be in place", in.rollback
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
	if f := platformTxn(dl).cleanup; f != nil {
		return f(rec, left), nil
	}
	return nil, nil
}

// restoredCleanup removes what an interrupted run left once the device is
// back at its backup (its checkpoint), and the device's in-flight record.
func (a *applier) restoredCleanup(rec *state.InFlight) {
	if rec != nil && rec.Txn != "" && platformTxn(a.dl).removeRestored {
		removeTxn(a.conn, a.dl, rec.Txn)
	}
	_ = a.opts.State.ClearInFlight(a.pd.Name)
}
