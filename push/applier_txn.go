package push

import (
	"time"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/txn"
)

// The applier is what a platform folder's transaction acts through: the
// methods below are txn.Applier, each the applier's own step or field.
var _ txn.Applier = (*applier)(nil)

// Conn is the device's session now.
func (a *applier) Conn() *session.Conn { return a.conn }

// Dialect is the device's push dialect.
func (a *applier) Dialect() *dialect.Dialect { return a.dl }

// Device is the device's name.
func (a *applier) Device() string { return a.pd.Name }

// Txn names this run's transaction on the device.
func (a *applier) Txn() string { return a.txn }

// Ignore names the interrupted run's transaction a rollback cleans up.
func (a *applier) Ignore() string { return a.ignore }

// Changes is the change set being applied.
func (a *applier) Changes() *config.ChangeSet { return a.changes }

// Before is the device's config apply read.
func (a *applier) Before() string { return a.before }

// Rendered is the config being applied.
func (a *applier) Rendered() string { return a.rendered }

// Scope is the last-applied config this change manages.
func (a *applier) Scope() string { return a.scope() }

// RenderedSource is the config being applied, parsed once.
func (a *applier) RenderedSource() *config.Source { return a.renderedSource() }

// ScopeSource is the last-applied config this change manages, parsed once.
func (a *applier) ScopeSource() *config.Source { return a.scopeSource() }

// ReadScript is the script whose settings are read on a host.
func (a *applier) ReadScript() string { return a.readScript() }

// CommitTimer is how long a commit waits for its confirm.
func (a *applier) CommitTimer() time.Duration { return a.opts.CommitTimer }

// Now is the run's clock.
func (a *applier) Now() time.Time { return a.opts.Now() }

// RollbackCommand is the fabricgen command restoring the device's backup.
func (a *applier) RollbackCommand() string { return a.opts.rollbackCommand(a.pd.Name) }

// Command names what this run is, for lock holders.
func (a *applier) Command() string {
	if a.rollback {
		return "fabricgen rollback"
	}
	return "fabricgen apply"
}

// Mark records the step now starting.
func (a *applier) Mark(step string) { a.mark(step) }

// Track starts the sending of lines one by one.
func (a *applier) Track(what string, lines []string) *txn.Progress { return a.track(what, lines) }

// SetInside reads the running config inside the transaction's own
// configuration mode (nil: as plan does).
func (a *applier) SetInside(read func() (string, error)) { a.inside = read }

// OnSettleApplied sets the transaction's own check of a device whose
// answer was lost and which read back as the intent.
func (a *applier) OnSettleApplied(check func(failed txn.Outcome) (txn.Outcome, bool)) {
	a.settleApplied = check
}

// Reconnect replaces a lost session with a new one.
func (a *applier) Reconnect() error { return a.reconnect() }

// Shell runs one shell command.
func (a *applier) Shell(cmd string) (string, error) { return a.shell(cmd) }

// Inspect describes the work in flight on the device other than ours.
func (a *applier) Inspect(ours ...string) (string, error) { return inspect(a.conn, a.dl, ours...) }

// ReadNow reads the device now.
func (a *applier) ReadNow() (string, error) { return a.readNow() }

// ReadOnce reads the device once as plan does.
func (a *applier) ReadOnce() (string, error) { return fetch(a.conn, a.dl, a.readScript()) }

// Converged reports whether the change is in place.
func (a *applier) Converged() (bool, int, error) { return a.converged() }

// ChangedSince says how the device differs from what apply read.
func (a *applier) ChangedSince() (string, error) { return a.changedSince() }

// Restored reports whether what fabricgen manages equals the backup.
func (a *applier) Restored() (bool, error) { return a.restored() }

// RolledBack checks the device is back at its backup and says so.
func (a *applier) RolledBack(why string) txn.Outcome { return a.rolledBack(why) }

// UnknownState reports a device whose state is unknown.
func (a *applier) UnknownState(what, why string, ok txn.Outcome) txn.Outcome {
	return a.unknownState(what, why, ok)
}

// OthersSince compares the lines fabricgen does not manage with the
// backup's.
func (a *applier) OthersSince() (txn.Theirs, error) { return a.othersSince() }

// KeepTheirs restores fabricgen's sections keeping their change.
func (a *applier) KeepTheirs(why string, th txn.Theirs, blanket string, send func(cs *config.ChangeSet) error) txn.Outcome {
	return a.keepTheirs(why, th, blanket, send)
}

// TheirLines lists the lines someone else changed after ours went in.
func (a *applier) TheirLines() ([]string, error) { return a.theirLines() }

// KeepTheirLines undoes our change keeping their lines.
func (a *applier) KeepTheirLines(why string, their []string, blanket string, send func(cs *config.ChangeSet) error) txn.Outcome {
	return a.keepTheirLines(why, their, blanket, send)
}

// RefusedForTheirs reports a change refused for someone else's.
func (a *applier) RefusedForTheirs(why, undone string) txn.Outcome {
	return a.refusedForTheirs(why, undone)
}

// ProveApplied re-reads the device after the last command.
func (a *applier) ProveApplied(ok txn.Outcome, what string, proof txn.Proof) txn.Outcome {
	return a.proveApplied(ok, what, proof)
}

// LostConfirm handles a confirm whose answer was lost.
func (a *applier) LostConfirm(ok txn.Outcome, what string, proof txn.Proof, undo func() txn.Outcome) txn.Outcome {
	return a.lostConfirm(ok, what, proof, undo)
}
