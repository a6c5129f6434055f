// Package txn is the kit a platform folder writes its push transaction
// with: the Transaction it gives push (platforms/<name>/txn.go), the
// Applier interface through which the transaction acts on one device's
// apply, and the types and helpers the transactions share. It imports
// neither push nor platforms: push's applier implements Applier, and the
// folders import this package.
package txn

import (
	"time"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/state"
)

// Transaction is how push changes one platform's devices safely: it
// stages, verifies and undoes a change, finds the work other runs left in
// flight, and says what an interrupted run left behind. Each platform
// folder gives one (platforms/<name>/txn.go).
type Transaction struct {
	// Kind is the dialect's Transaction for the platform; the
	// completeness test checks both layers agree.
	Kind dialect.Transaction
	// Run applies a.Changes() inside the transaction.
	Run func(a Applier) Outcome
	// Named means the device object of the transaction (session,
	// checkpoint) carries this run's name, kept in the in-flight record.
	Named bool
	// Leftovers reads the device's transactions in flight, leaving out
	// those isOurs names (nil: the platform has none to read).
	Leftovers func(conn *session.Conn, isOurs func(string) bool) (Leftovers, error)
	// TimerNote describes another change waiting for its commit timer.
	TimerNote func(timer string) string
	// NameNote describes another fabricgen run's transaction object.
	NameNote func(name string) string
	// Remove deletes a fabricgen transaction object that changes
	// nothing any more (nil: the platform leaves none).
	Remove func(conn *session.Conn, name string)
	// RemoveRestored: once the device is back at its backup, the
	// interrupted run's transaction object is removed (a checkpoint).
	RemoveRestored bool
	// Interrupted says, from the step a stopped run was in, what the
	// device has now and the command undoing it ("" state: unknown).
	Interrupted func(in Stopped) (now, restore string)
	// Cleanup lists the commands removing an interrupted run's own
	// transaction still pending on the device (nil: none to remove).
	Cleanup func(rec *state.InFlight, left Leftovers) []string
	// Lock takes the device's own lock for the run, before the device is
	// read for the change (nil: the transaction object is the guard);
	// ok false means the device was not changed and out says why.
	// Unlock releases it.
	Lock   func(a Applier) (out Outcome, ok bool)
	Unlock func(a Applier)
}

// Status is the outcome of applying one device (push.Status is this
// type).
type Status string

// Apply outcomes.
const (
	StatusApplied    Status = "applied"
	StatusUnchanged  Status = "unchanged"
	StatusRolledBack Status = "rolled back"
	StatusFailed     Status = "failed"
	StatusStale      Status = "stale"
	StatusSkipped    Status = "skipped"
	// StatusRefused means nothing was sent: the plan does not match the
	// intent or the inventory, or another change is in flight on the
	// device, or an earlier run was interrupted there.
	StatusRefused Status = "refused"
	// StatusInterrupted means the run was stopped while the device was
	// changing; Reason says what the device has now and Restore how to
	// undo it.
	StatusInterrupted Status = "interrupted"
)

// Outcome is what a transaction reports.
type Outcome struct {
	Status     Status
	Reason     string
	DeviceDiff string
	Restore    string
	// Unread: the device could not be read back, so the outcome says
	// nothing of what it has (ProveApplied).
	Unread bool
}

// Stopped is a run interrupted mid-change, as a transaction describes it.
type Stopped struct {
	// Name is the run's transaction name, Step its step.
	Name, Step string
	// Wait says how long the device waits before rolling back itself.
	Wait string
	// Rollback is the fabricgen command restoring the device's backup.
	Rollback string
	// Sent is how far the commands being sent one by one got (nil:
	// none were being sent).
	Sent *Progress
}

// Leftovers is what a transaction's Leftovers found on a device.
type Leftovers struct {
	// Names are fabricgen transactions on the device (sessions,
	// checkpoints) other than the caller's own.
	Names []string
	// Timer names a session or commit waiting for confirmation.
	Timer string
	// Foreign describes other work in flight (someone else's).
	Foreign []string
	// Notes say more about a name: who holds it (the host lock's
	// holder).
	Notes map[string]string
}

// Empty reports whether nothing was found.
func (l Leftovers) Empty() bool { return len(l.Names) == 0 && l.Timer == "" && len(l.Foreign) == 0 }

// Proof says whether the device's own record shows our commit confirmed;
// detail says what it shows when it does not.
type Proof func(a Applier) (ok bool, detail string, err error)

// Applier is one device's apply as a transaction sees it: what is being
// applied, and the steps push provides (reading back, verifying, rolling
// back while keeping someone else's change). push's applier implements
// it.
type Applier interface {
	// Conn is the device's session now (Reconnect replaces it: call
	// Conn again after it).
	Conn() *session.Conn
	// Dialect is the device's push dialect.
	Dialect() *dialect.Dialect
	// Device is the device's name.
	Device() string
	// Txn names this run's transaction on the device.
	Txn() string
	// Ignore names an interrupted run's transaction a rollback is
	// cleaning up: not someone else's work ("" when none).
	Ignore() string
	// Changes is the change set being applied.
	Changes() *config.ChangeSet
	// Before is the device's config (a host's settings) apply read.
	Before() string
	// Rendered is the config being applied.
	Rendered() string
	// Scope is the last-applied config this change manages.
	Scope() string
	// RenderedSource and ScopeSource are Rendered and Scope parsed once
	// for the whole apply (config.Source): compare with them, not the
	// text, so nothing is parsed again.
	RenderedSource() *config.Source
	ScopeSource() *config.Source
	// ReadScript is the script whose settings are read on a host.
	ReadScript() string
	// CommitTimer is how long a commit waits for its confirm.
	CommitTimer() time.Duration
	// Now is the run's clock.
	Now() time.Time
	// RollbackCommand is the fabricgen command restoring the device's
	// backup.
	RollbackCommand() string
	// Command names what this run is ("fabricgen apply", "fabricgen
	// rollback"), for lock holders.
	Command() string

	// Mark records the step now starting in the in-flight record.
	Mark(step string)
	// Track starts the sending of lines one by one (what names them),
	// so a stopped run can say how far it got.
	Track(what string, lines []string) *Progress
	// SetInside reads the running config inside the transaction's own
	// configuration mode from now on (nil: as plan does).
	SetInside(read func() (string, error))
	// OnSettleApplied sets the transaction's own check of a device
	// whose answer was lost and which read back as the intent: done
	// true means out is the result.
	OnSettleApplied(check func(failed Outcome) (out Outcome, done bool))
	// Reconnect replaces a lost session with a new one.
	Reconnect() error
	// Shell runs one shell command, a failure or non-zero exit status
	// being an error.
	Shell(cmd string) (string, error)
	// Inspect describes the work in flight on the device other than
	// the transactions named ours ("" when there is none).
	Inspect(ours ...string) (string, error)
	// ReadNow reads the device now (reconnecting once when the session
	// is lost on the way).
	ReadNow() (string, error)
	// ReadOnce reads the device once as plan does, with ReadScript.
	ReadOnce() (string, error)
	// Converged re-reads the device and reports whether the change is
	// in place, with the number of lines still different.
	Converged() (ok bool, left int, err error)
	// ChangedSince says how the device differs from what apply read
	// ("" when it does not).
	ChangedSince() (string, error)
	// Restored reports whether what fabricgen manages equals the
	// backup.
	Restored() (bool, error)
	// RolledBack checks the device is back at its backup and says so.
	RolledBack(why string) Outcome
	// UnknownState reports a device whose state is unknown.
	UnknownState(what, why string, ok Outcome) Outcome
	// OthersSince compares the lines fabricgen does not manage with the
	// backup's.
	OthersSince() (Theirs, error)
	// KeepTheirs restores fabricgen's sections, sent with send, instead
	// of the platform's rollback (blanket), keeping their change.
	KeepTheirs(why string, th Theirs, blanket string, send func(cs *config.ChangeSet) error) Outcome
	// TheirLines lists the lines of fabricgen's sections someone else
	// changed after fabricgen's change went in.
	TheirLines() ([]string, error)
	// KeepTheirLines undoes our change keeping their lines.
	KeepTheirLines(why string, their []string, blanket string, send func(cs *config.ChangeSet) error) Outcome
	// RefusedForTheirs reports a change refused because someone else
	// changed the device after apply read it.
	RefusedForTheirs(why, undone string) Outcome
	// ProveApplied re-reads the device after the last command and
	// reports what it has.
	ProveApplied(ok Outcome, what string, proof Proof) Outcome
	// LostConfirm handles a confirm whose answer was lost.
	LostConfirm(ok Outcome, what string, proof Proof, undo func() Outcome) Outcome
}
