package push

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/internal/push/txn"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
)

// Status is the outcome of applying one device (the transaction kit's
// type, which the platform folders' transactions report).
type Status = txn.Status

// Apply outcomes.
const (
	StatusApplied    = txn.StatusApplied
	StatusUnchanged  = txn.StatusUnchanged
	StatusRolledBack = txn.StatusRolledBack
	StatusFailed     = txn.StatusFailed
	StatusStale      = txn.StatusStale
	StatusSkipped    = txn.StatusSkipped
	// StatusRefused means nothing was sent: the plan does not match the
	// intent or the inventory, or another change is in flight on the
	// device, or an earlier run was interrupted there.
	StatusRefused = txn.StatusRefused
	// StatusInterrupted means the run was stopped while the device was
	// changing; Reason says what the device has now and Restore how to
	// undo it.
	StatusInterrupted = txn.StatusInterrupted
)

// Result is one device's apply outcome.
type Result struct {
	Device   string `json:"device"`
	Platform string `json:"platform"`
	Status   Status `json:"status"`
	// Reason says why the device was not applied, or what was undone.
	Reason string `json:"reason,omitempty"`
	// Restore is the command that undoes a change left half-done
	// (interrupted or failed rollback).
	Restore string `json:"restore,omitempty"`
	// Backup is the path of the running config saved before the change.
	Backup string `json:"backup,omitempty"`
	// DeviceDiff is the device's own view of the staged change (EOS
	// show session-config diffs), when the platform offers one.
	DeviceDiff string `json:"device_diff,omitempty"`
	Added      int    `json:"added"`
	Removed    int    `json:"removed"`
}

// OK reports whether the device ended as intended.
func (r Result) OK() bool { return r.Status == StatusApplied || r.Status == StatusUnchanged }

// DefaultInterruptGrace is how long devices already changing may take to
// finish or roll back after the first interrupt.
const DefaultInterruptGrace = 60 * time.Second

// ApplyOptions configure Apply.
type ApplyOptions struct {
	Options
	// FailFast stops starting devices after the first failure.
	FailFast bool
	// CommitTimer is how long a commit waits for confirmation before the
	// device rolls it back itself (EOS commit timer, Junos commit
	// confirmed, NVUE apply --confirm; default 5 minutes).
	CommitTimer time.Duration
	// Now is the clock for backup names (default time.Now).
	Now func() time.Time
	// RunID names this run's transactions on the devices; default a new
	// state.NewRunID, unique per run.
	RunID string
	// KeepBackups keeps the newest N backups per device (0 keeps all).
	KeepBackups int
	// Interrupt, once closed, stops Apply from starting more devices;
	// devices already changing carry on to applied or rolled back within
	// InterruptGrace, then are stopped. Cancelling ctx stops every
	// device at once.
	Interrupt <-chan struct{}
	// InterruptGrace bounds the work after Interrupt (default 60 s).
	InterruptGrace time.Duration
	// TrustPlan says the plan cannot have been altered: Plan made it in
	// this process, or its signature was checked with FABRICGEN_PLAN_KEY
	// (planfile.Plan.Verify with a key). A device it says is unchanged
	// is then taken at its word and not visited (unless an interrupted
	// run left a record there). Without it (an unsigned plan file, whose
	// statuses could have been edited) Apply derives every "unchanged"
	// device's change set again and refuses one that has changes; inputs
	// must then hold those devices too.
	TrustPlan bool
}

// ErrInterrupted is returned by Apply when Interrupt was closed or ctx
// ended before every device finished.
var ErrInterrupted = errors.New("apply interrupted")

// Apply changes every device of the plan that has changes. The plan is a
// record to check, not a script: for each device Apply renders nothing
// itself but takes the freshly rendered inputs, refuses the device when
// its rendered config differs from the plan's (the intent changed) or
// its address differs from the plan's, re-reads the running config,
// refuses a stale device, derives the change set and refuses the device
// when it differs from the saved one. Only the derived commands are sent.
// The fabric's digest must equal the plan's. Results are in plan order.
func Apply(ctx context.Context, p *planfile.Plan, f *schema.Fabric, inputs []Input, opts ApplyOptions) ([]Result, error) {
	if f.Digest != p.IntentDigest {
		return nil, fmt.Errorf("intent changed since plan: the intent in %s has digest %.12s, the plan was made from %.12s; run fabricgen plan again", f.Dir, f.Digest, p.IntentDigest)
	}
	if p.TrustRecords != opts.TrustRecords {
		return nil, errTrustMismatch(p.TrustRecords)
	}
	if opts.CommitTimer <= 0 {
		opts.CommitTimer = 5 * time.Minute
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.InterruptGrace <= 0 {
		opts.InterruptGrace = DefaultInterruptGrace
	}
	if opts.RunID == "" {
		id, err := state.NewRunID(opts.Now())
		if err != nil {
			return nil, err
		}
		opts.RunID = id
	}
	if opts.State.IsZero() {
		return nil, errors.New("apply needs the fabric's state directory for backups and records")
	}
	opts.Options = opts.withCache()
	opts.intentDigest = f.Digest
	byName := make(map[string]Input, len(inputs))
	for _, in := range inputs {
		byName[in.Device.Name] = in
	}
	results := make([]Result, len(p.Devices))
	failed := make(chan struct{})
	var failOnce sync.Once
	stopped := func() string {
		select {
		case <-ctx.Done():
			return "not started: apply was stopped"
		case <-opts.Interrupt:
			return "not started: apply was interrupted"
		case <-failed:
			return "not started: an earlier device failed and --fail-fast is set"
		default:
			return ""
		}
	}
	var g errgroup.Group
	g.SetLimit(opts.parallelism())
	for i, pd := range p.Devices {
		results[i] = Result{Device: pd.Name, Platform: pd.Platform, Status: StatusSkipped}
		if why := stopped(); why != "" {
			results[i].Reason = why
			continue
		}
		g.Go(func() error {
			if why := stopped(); why != "" {
				results[i].Reason = why
				return nil
			}
			in, ok := byName[pd.Name]
			r := applyWithGrace(ctx, pd, in, ok, &opts)
			results[i] = r
			if !r.OK() && opts.FailFast {
				failOnce.Do(func() { close(failed) })
			}
			return nil
		})
	}
	_ = g.Wait()
	select {
	case <-opts.Interrupt:
		return results, ErrInterrupted
	default:
	}
	if err := ctx.Err(); err != nil {
		return results, fmt.Errorf("%w: %w", ErrInterrupted, err)
	}
	return results, nil
}

// applyWithGrace applies one device under its own context: cancelled when
// ctx is, or InterruptGrace after Interrupt closes.
func applyWithGrace(ctx context.Context, pd *planfile.Device, in Input, ok bool, opts *ApplyOptions) Result {
	dctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-opts.Interrupt:
		case <-done:
			return
		}
		t := time.NewTimer(opts.InterruptGrace)
		defer t.Stop()
		select {
		case <-t.C:
			cancel()
		case <-done:
		}
	}()
	return applyDevice(dctx, pd, in, ok, opts)
}

func applyDevice(ctx context.Context, pd *planfile.Device, in Input, ok bool, opts *ApplyOptions) Result {
	r := Result{Device: pd.Name, Platform: pd.Platform, Added: pd.Diff.Added, Removed: pd.Diff.Removed}
	defer opts.emit(pd.Name, "done", true)
	fail := func(st Status, format string, a ...any) Result {
		r.Status = st
		r.Reason = fmt.Sprintf(format, a...)
		return r
	}
	switch {
	case pd.Status == planfile.StatusError:
		return fail(StatusFailed, "not planned: %s", pd.Error)
	case pd.Status == planfile.StatusUnchanged && opts.TrustPlan:
		return clearInterrupted(ctx, pd, in, ok, opts, r)
	case pd.Status == planfile.StatusUnchanged:
		return checkUnchanged(ctx, pd, in, ok, opts, r)
	case !ok:
		return fail(StatusRefused, "%s is in the plan but not in the intent (or not selected): nothing was sent", pd.Name)
	}
	d := in.Device
	if string(d.Platform.V) != pd.Platform {
		return fail(StatusRefused, "plan file does not match its intent: the plan says platform %s, the intent %s; nothing was sent", pd.Platform, d.Platform.V)
	}
	sum := sha256.Sum256(in.Rendered)
	if hex.EncodeToString(sum[:]) != pd.RenderedSHA256 {
		return fail(StatusRefused, "plan file does not match its intent: the config rendered now differs from the one in the plan; nothing was sent: run fabricgen plan again")
	}
	if addr, from := opts.addressFrom(d); addr != pd.Address {
		return fail(StatusRefused, "the plan was made against %s but %s gives %s: refusing to change a device other than the one planned; apply with the inventory the plan used, or run fabricgen plan again", quoteAddr(pd.Address), from, quoteAddr(addr))
	}
	dl, err := opts.dialect(d.Platform.V)
	if err != nil {
		return fail(StatusFailed, "%v", err)
	}
	// The last-applied record is read once: it is what the change is
	// compared with and what finish keeps the host baseline of.
	rec, err := opts.appliedRecord(d)
	if err != nil {
		return fail(StatusFailed, "%v", err)
	}
	a := &applier{ctx: ctx, pd: pd, dev: d, dl: dl, opts: opts, rendered: string(in.Rendered), txn: opts.RunID, record: rec}
	cm, err := opts.newComparer(d, dl, a.rendered, rec)
	if err != nil {
		return fail(StatusFailed, "%v", err)
	}
	a.compare, a.read, a.scopeOf, a.src = cm.compare, cm.read, cm.scope, cm.rendered
	opts.emit(pd.Name, "connect", false)
	if a.conn, err = connect(ctx, d, dl, pd.Address, &opts.Options); err != nil {
		return fail(StatusFailed, "%v", err)
	}
	defer func() { _ = a.conn.Close() }()

	opts.emit(pd.Name, "check", false)
	inflight, err := opts.State.InFlight(pd.Name)
	if err != nil {
		return fail(StatusFailed, "%v", err)
	}
	if why, err := a.resolveInterrupted(inflight); err != nil {
		return fail(StatusFailed, "%v", err)
	} else if why != "" {
		return fail(StatusRefused, "%s", why)
	}
	if busy, err := inspect(a.conn, dl, ""); err != nil {
		return fail(StatusFailed, "look for other changes in flight: %v", err)
	} else if busy != "" {
		return fail(StatusRefused, "%s; nothing was sent", busy)
	}
	release, lout, locked := a.lockDevice()
	if !locked {
		return fail(lout.Status, "%s", lout.Reason)
	}
	defer release()

	opts.emit(pd.Name, "fetch", false)
	before, err := fetch(a.conn, dl, a.readScript())
	if err != nil {
		return fail(StatusFailed, "fetch running config: %v", err)
	}
	if config.Digest(before, dl) != pd.RunningSHA256 {
		return fail(StatusStale, "the running config changed since the plan was made; nothing was sent: run fabricgen plan again")
	}
	if scopeDigest(recordScope(rec)) != pd.ScopeSHA256 {
		return fail(StatusRefused, "plan file does not match its intent: the last-applied record of %s differs from the one plan used (another apply since, or plan ran without this fabric's state directory %s); nothing was sent: run fabricgen plan again", pd.Name, opts.State.Path)
	}
	cmp, err := a.compare(before)
	if err != nil {
		return fail(StatusFailed, "%v", err)
	}
	if !sameChanges(cmp.Changes, pd.Changes) {
		return fail(StatusRefused, "plan file does not match its intent: the change set in the plan differs from the one derived from the intent and the running config; nothing was sent: run fabricgen plan again")
	}
	if cmp.Diff != pd.Diff {
		// The diff is what the reviewer approved: a plan showing another
		// change than it carries is no plan of this change.
		return fail(StatusRefused, "plan file does not match its intent: the diff in the plan (+%d -%d) differs from the one derived from the intent and the running config (+%d -%d), so what was reviewed is not what would be applied; nothing was sent: run fabricgen plan again",
			pd.Diff.Added, pd.Diff.Removed, cmp.Diff.Added, cmp.Diff.Removed)
	}
	r.Added, r.Removed = cmp.Diff.Added, cmp.Diff.Removed
	if cmp.Changes.Empty() {
		r.Status = StatusUnchanged
		return r
	}
	a.before, a.changes = before, cmp.Changes
	if opts.NoTakeover {
		if tk, err := takeovers(cmp, a.scopeSource(), dl); err != nil {
			return fail(StatusFailed, "%v", err)
		} else if len(tk) > 0 {
			return fail(StatusRefused, "%v", errTakeover(tk))
		}
	}
	opts.emit(pd.Name, "backup", false)
	if r.Backup, err = opts.State.SaveBackup(pd.Name, before, opts.Now()); err != nil {
		return fail(StatusFailed, "save backup before changing anything: %v", err)
	}
	a.backup = r.Backup
	if err := a.step("stage"); err != nil {
		return fail(StatusFailed, "record the change in flight before changing anything: %v", err)
	}
	out := a.transaction()
	if out.Status == StatusFailed && a.reconnected && ctx.Err() == nil {
		out = a.settle(out)
	}
	r.Status, r.Reason, r.DeviceDiff, r.Restore = out.Status, out.Reason, out.DeviceDiff, out.Restore
	if ctx.Err() != nil && r.Status != StatusApplied && r.Status != StatusRolledBack {
		// Stopped mid-change: say what the device has now and how to
		// undo it; the in-flight record stays for the next run.
		r.Status = StatusInterrupted
		r.Reason, r.Restore = a.interruptedState()
		return r
	}
	if r.Status == StatusApplied && a.note != "" {
		r.Reason = a.note
	}
	a.finish(r.Status)
	return r
}

// clearInterrupted finishes an unchanged device: when an interrupted run
// left its in-flight record (a run killed after its change was complete),
// the device is read and, being clean, the record and the run's leftover
// checkpoint or session are removed, so no later run takes that change
// for a half-done one.
func clearInterrupted(ctx context.Context, pd *planfile.Device, in Input, ok bool, opts *ApplyOptions, r Result) Result {
	r.Status = StatusUnchanged
	rec, err := opts.State.InFlight(pd.Name)
	if err != nil {
		r.Status, r.Reason = StatusFailed, err.Error()
		return r
	}
	if rec == nil || !ok {
		return r
	}
	d := in.Device
	dl, err := opts.dialect(d.Platform.V)
	if err != nil {
		r.Status, r.Reason = StatusFailed, err.Error()
		return r
	}
	a := &applier{ctx: ctx, pd: pd, dev: d, dl: dl, opts: opts, rendered: string(in.Rendered), txn: opts.RunID}
	opts.emit(pd.Name, "connect", false)
	if a.conn, err = connect(ctx, d, dl, opts.address(d), &opts.Options); err != nil {
		r.Status, r.Reason = StatusFailed, err.Error()
		return r
	}
	defer func() { _ = a.conn.Close() }()
	opts.emit(pd.Name, "check", false)
	why, err := a.resolveInterrupted(rec)
	switch {
	case err != nil:
		r.Status, r.Reason = StatusFailed, err.Error()
	case why != "":
		r.Status, r.Reason = StatusRefused, why
	default:
		r.Reason = "an interrupted run's record was cleared: the device was clean"
	}
	return r
}

// checkUnchanged is a device an unsigned plan says is unchanged: the
// status is not taken at its word (it could have been edited to skip a
// device with changes) but derived again from the intent rendered now and
// the running config, as plan derived it. A device with changes is
// refused, naming them; nothing is sent. An interrupted run's record is
// handled as clearInterrupted does.
func checkUnchanged(ctx context.Context, pd *planfile.Device, in Input, ok bool, opts *ApplyOptions, r Result) Result {
	fail := func(st Status, format string, a ...any) Result {
		r.Status = st
		r.Reason = fmt.Sprintf(format, a...)
		return r
	}
	if !ok {
		return fail(StatusRefused, "%s is in the plan but not in the intent (or not selected): nothing was sent", pd.Name)
	}
	d := in.Device
	if string(d.Platform.V) != pd.Platform {
		return fail(StatusRefused, "plan file does not match its intent: the plan says platform %s, the intent %s; nothing was sent", pd.Platform, d.Platform.V)
	}
	if addr, from := opts.addressFrom(d); addr != pd.Address {
		return fail(StatusRefused, "the plan was made against %s but %s gives %s: refusing to check a device other than the one planned; apply with the inventory the plan used, or run fabricgen plan again", quoteAddr(pd.Address), from, quoteAddr(addr))
	}
	dl, err := opts.dialect(d.Platform.V)
	if err != nil {
		return fail(StatusFailed, "%v", err)
	}
	rec, err := opts.appliedRecord(d)
	if err != nil {
		return fail(StatusFailed, "%v", err)
	}
	a := &applier{ctx: ctx, pd: pd, dev: d, dl: dl, opts: opts, rendered: string(in.Rendered), txn: opts.RunID}
	cm, err := opts.newComparer(d, dl, a.rendered, rec)
	if err != nil {
		return fail(StatusFailed, "%v", err)
	}
	opts.emit(pd.Name, "connect", false)
	if a.conn, err = connect(ctx, d, dl, pd.Address, &opts.Options); err != nil {
		return fail(StatusFailed, "%v", err)
	}
	defer func() { _ = a.conn.Close() }()
	opts.emit(pd.Name, "check", false)
	cleared := false
	if inflight, err := opts.State.InFlight(pd.Name); err != nil {
		return fail(StatusFailed, "%v", err)
	} else if inflight != nil {
		why, err := a.resolveInterrupted(inflight)
		switch {
		case err != nil:
			return fail(StatusFailed, "%v", err)
		case why != "":
			return fail(StatusRefused, "%s", why)
		}
		cleared = true
	}
	opts.emit(pd.Name, "fetch", false)
	now, err := fetch(a.conn, dl, cm.read)
	if err != nil {
		return fail(StatusFailed, "fetch running config: %v", err)
	}
	cmp, err := cm.compare(now)
	if err != nil {
		return fail(StatusFailed, "%v", err)
	}
	if !cmp.Changes.Empty() {
		r.Added, r.Removed = cmp.Diff.Added, cmp.Diff.Removed
		return fail(StatusRefused, "plan file does not match its intent: the plan says %s is unchanged, but the intent and the running config give a change of +%d -%d lines (the plan's status was edited, or the device changed since); nothing was sent: run fabricgen plan again",
			pd.Name, cmp.Diff.Added, cmp.Diff.Removed)
	}
	r.Status = StatusUnchanged
	if cleared {
		r.Reason = "an interrupted run's record was cleared: the device was clean"
	}
	return r
}

// finish records the end of a change: the in-flight record goes when the
// device ended applied or back at its backup, or was refused inside the
// transaction (another run's work appeared: ours was undone and checked,
// or not yet sent) — a failed rollback keeps it, so the next run refuses
// the device until someone looks; an applied device gets its last-applied
// record; old backups are pruned.
func (a *applier) finish(st Status) {
	s := a.opts.State
	if st == StatusApplied {
		now, err := fetch(a.conn, a.dl, a.readScript())
		sum := ""
		if err == nil {
			sum = config.Digest(now, a.dl)
		}
		baseline := ""
		if a.dl.Host {
			prev := ""
			if a.record != nil {
				prev = a.record.Baseline
			}
			baseline = config.MergeHostState(prev, a.before)
		}
		_ = s.WriteApplied(state.Applied{Device: a.pd.Name, Platform: a.pd.Platform, Run: a.opts.RunID,
			Time: a.opts.Now().UTC(), IntentDigest: a.opts.intentDigest, Rendered: a.rendered, RunningSHA256: sum,
			Baseline: baseline, Read: a.readIfMore()})
	}
	if st == StatusApplied || st == StatusRolledBack || st == StatusRefused {
		_ = s.ClearInFlight(a.pd.Name)
	}
	_ = s.PruneBackups(a.pd.Name, a.opts.KeepBackups)
}

// sameChanges compares two change sets by their JSON form.
func sameChanges(a, b *config.ChangeSet) bool {
	if a.Empty() && b.Empty() {
		return true
	}
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

func quoteAddr(a string) string {
	if a == "" {
		return "no address"
	}
	return a
}

// outcome is what a transaction reports.
type outcome = txn.Outcome

// unknownState is the outcome of a device whose last command was sent but
// whose answer was lost, and which could not be read back after: what it
// has is unknown. It says so and how to find out; the restore is
// fabricgen rollback, which restores the backup from any state (a
// platform command such as nv config apply --confirm-no only works in
// one).
func (a *applier) unknownState(what, why string, ok outcome) outcome {
	return outcome{Status: StatusFailed, DeviceDiff: ok.DeviceDiff, Restore: a.opts.rollbackCommand(a.pd.Name),
		Reason: fmt.Sprintf("%s; the device could not be read back (%s), so its state is unknown: %s; run fabricgen plan to find out (no changes: the change is applied; changes: it is not, and %s restores the backup from either state)",
			what, why, a.maybeHas(), a.opts.rollbackCommand(a.pd.Name))}
}

// maybeHas says what a device whose state is unknown may have.
func (a *applier) maybeHas() string {
	if a.dl.Host {
		return "every line of the change was answered, so it most likely has the change"
	}
	if a.dl.Files {
		return "the new files may be in place, and the subnet manager may have re-read them"
	}
	return "the change may be confirmed, or still wait for confirmation (the device then rolls it back by itself when its confirm timer expires)"
}

// applier holds one device's apply state.
type applier struct {
	ctx  context.Context
	pd   *planfile.Device
	dev  *schema.Device
	dl   *dialect.Dialect
	opts *ApplyOptions
	conn *session.Conn
	// rendered is the config being applied; for a host it also says
	// which settings to read back.
	rendered string
	// compare compares a fresh read of the device with what the
	// transaction must reach: empty changes means converged.
	compare func(now string) (*config.Comparison, error)
	// read is the script whose settings are read on a host ("" means
	// rendered).
	read string
	// scopeOf is the last-applied config managed for a device state (the
	// comparer's scope); nil when there is none (rollback).
	scopeOf func(now string) *config.Source
	// scoped is scopeOf(before), worked out once (scopedFor is the
	// before it was worked out for).
	scoped    *config.Source
	scopedFor string
	// src is the rendered config parsed once (nil until first needed).
	src *config.Source
	// record is the device's last-applied record read at the start of
	// the run (nil for none): finish keeps a host's baseline from it.
	record  *state.Applied
	changes *config.ChangeSet
	before  string
	backup  string
	// txn names this run's transaction on the device.
	txn string
	// ignore names an interrupted run's transaction a rollback is
	// cleaning up: not someone else's work.
	ignore string
	// rollback is true when restoring a backup rather than applying.
	rollback bool
	// keepRecord leaves the device's in-flight record as it is (a
	// rollback of an interrupted run).
	keepRecord bool
	// stepName is the step in progress, for the in-flight record.
	stepName string
	// note is said in the result of an applied device (an out-of-band
	// change seen during the apply window).
	note    string
	started time.Time
	// sending is the list of commands being sent one by one (hosts,
	// NX-OS), nil when none: what a stopped run reports.
	sending *txn.Progress
	// settleApplied is the transaction's own check of a device whose
	// answer was lost and which read back as the intent (nil: none; see
	// txn.Applier.OnSettleApplied).
	settleApplied func(failed outcome) (outcome, bool)
	// reconnected is set once the run had to open a new session (an
	// answer was lost): its outcome is then settled by reading the
	// device back.
	reconnected bool
	// inside, when set, reads the running config inside the
	// transaction's own configuration mode (Junos: in the exclusive
	// candidate, so the lock stays held); nil reads it as plan does.
	inside func() (string, error)
}

// readNow reads the device's running config (a host's settings) now.
// When the session is lost on the way (the device answered too late, or
// the connection dropped), it reconnects and reads once more.
func (a *applier) readNow() (string, error) {
	read := func() (string, error) {
		if a.inside != nil && a.conn.Alive() {
			if out, err := a.inside(); err == nil || !a.conn.Alive() {
				return out, err
			}
			// The transaction's mode cannot be entered (after a
			// reconnect, another session holds the Junos lock): read
			// as plan does.
		}
		return fetch(a.conn, a.dl, a.readScript())
	}
	out, err := read()
	if err == nil || a.conn.Alive() || a.ctx.Err() != nil {
		return out, err
	}
	if rerr := a.reconnect(); rerr != nil {
		return "", fmt.Errorf("%w; %w", err, rerr)
	}
	return read()
}

// track starts the sending of lines.
func (a *applier) track(what string, lines []string) *txn.Progress {
	a.sending = &txn.Progress{What: what, Lines: lines}
	return a.sending
}

// scope is the last-applied config this change manages, as borne out
// by the device before the change (the same for every comparison of
// this run, so a stanza the change removes stays managed after it).
func (a *applier) scope() string {
	return a.scopeSource().Text()
}

// scopeSource is scope parsed, worked out once per run (per before).
func (a *applier) scopeSource() *config.Source {
	if a.scopeOf == nil {
		return nil
	}
	if a.scoped == nil || a.scopedFor != a.before {
		a.scoped, a.scopedFor = a.scopeOf(a.before), a.before
	}
	return a.scoped
}

// renderedSource is the rendered config parsed, once.
func (a *applier) renderedSource() *config.Source {
	if a.src == nil {
		a.src = config.NewSource(a.rendered, a.dl)
	}
	return a.src
}

// readScript is the script whose settings are read on a host.
func (a *applier) readScript() string {
	if a.read != "" {
		return a.read
	}
	return a.rendered
}

// readIfMore is the script a host's settings are read with when it is
// more than the rendered one ("" otherwise), for the in-flight record.
func (a *applier) readIfMore() string {
	if a.read == a.rendered {
		return ""
	}
	return a.read
}

// step records the step now starting in the device's in-flight record,
// so a run killed at any point leaves a record saying how far it got.
func (a *applier) step(name string) error {
	a.opts.emit(a.pd.Name, name, false)
	a.stepName = name
	if a.keepRecord {
		// A rollback of an interrupted run keeps that run's record: it
		// says what to restore if this rollback stops too.
		return nil
	}
	if a.started.IsZero() {
		a.started = a.opts.Now().UTC()
	}
	return a.opts.State.WriteInFlight(state.InFlight{
		Run: a.opts.RunID, Holder: state.Me("fabricgen apply", a.started), Device: a.pd.Name,
		Platform: a.pd.Platform, Address: a.pd.Address, Started: a.started, Txn: a.txnName(),
		Step: name, Backup: a.backup, Rendered: a.rendered, Read: a.readIfMore(), IntentDigest: a.opts.intentDigest,
	})
}

// mark records a step, ignoring a failure to write the record (the change
// is already under way; the transaction's own safety nets still hold).
// Once the run is stopping, the step in progress when it stopped is kept:
// it says what the device has.
func (a *applier) mark(name string) {
	if a.ctx.Err() != nil {
		return
	}
	_ = a.step(name)
}

// reconnectAttempts bounds how often reconnect tries to open a new
// session: a device that stopped answering in time may answer again a
// moment later, and only a device read back says what it has.
const reconnectAttempts = 3

// reconnect replaces a lost session with a new one, trying again (after
// a pause that grows, at most 2 s) when the device does not answer yet.
func (a *applier) reconnect() error {
	_ = a.conn.Close()
	a.reconnected = true
	var err error
	for i := 1; ; i++ {
		var c *session.Conn
		if c, err = connect(a.ctx, a.dev, a.dl, a.pd.Address, &a.opts.Options); err == nil {
			a.conn = c
			return nil
		}
		if i == reconnectAttempts || a.ctx.Err() != nil {
			break
		}
		pause := time.NewTimer(time.Duration(i) * min(a.opts.Timeout, 2*time.Second))
		select {
		case <-a.ctx.Done():
		case <-pause.C:
		}
		pause.Stop()
	}
	return fmt.Errorf("reconnect (%d attempts): %w", reconnectAttempts, err)
}

// converged re-fetches the device and reports whether a fresh plan is
// empty, with the number of lines still different. It also compares the
// lines fabricgen does not manage with those before the change: a
// difference is another administrator's change made during the apply
// window, kept and reported in the result.
func (a *applier) converged() (bool, int, error) {
	a.mark("verify")
	now, err := a.readNow()
	if err != nil {
		return false, 0, err
	}
	cmp, err := a.compare(now)
	if err != nil {
		return false, 0, err
	}
	if !a.rollback && cmp.Changes.Empty() {
		a.note = a.unmanagedChange(now)
	}
	return cmp.Changes.Empty(), cmp.Diff.Added + cmp.Diff.Removed, nil
}

// unmanagedChange describes how the lines fabricgen does not manage
// differ between the config before the change and now ("" when they do
// not).
func (a *applier) unmanagedChange(now string) string {
	scope := a.scopeSource()
	was, err1 := config.UnmanagedSource(a.before, a.renderedSource(), scope, a.dl)
	is, err2 := config.UnmanagedSource(now, a.renderedSource(), scope, a.dl)
	if a.dl.Host {
		others, err := config.HostOthers(a.readScript(), a.changes.Commands(), a.before, now)
		if err != nil || len(others) == 0 {
			return ""
		}
		return fmt.Sprintf("note: %d setting(s) fabricgen did not change were changed during the apply (someone else's change, kept): %s", len(others), strings.Join(others, "; "))
	}
	if err1 != nil || err2 != nil || was == is {
		return ""
	}
	d := config.Unified("before", "after", was, is)
	first := ""
	for _, l := range strings.Split(d.Text, "\n") {
		if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++") && !strings.HasPrefix(l, "---") {
			first = l
			break
		}
	}
	return fmt.Sprintf("note: %d line(s) fabricgen does not manage changed during the apply (someone else's change, kept), first: %s", d.Added+d.Removed, first)
}

// changedSince re-reads the device right before its change goes in and
// says how it differs from the config the change set was derived from
// ("" when it does not): another run's change that landed since apply
// read the device, which this change would otherwise be applied on top of
// without anyone having planned the result.
func (a *applier) changedSince() (string, error) {
	now, err := a.readNow()
	if err != nil {
		return "", err
	}
	if config.Digest(now, a.dl) == config.Digest(a.before, a.dl) {
		return "", nil
	}
	return "the device changed after apply read it (another change landed meanwhile); ours was not applied: run fabricgen plan again", nil
}

// restored re-fetches the device and reports whether what fabricgen
// manages equals the backup (for a host: every setting). Lines it does
// not manage are not compared: another administrator may have changed
// them meanwhile, and that change is theirs to keep.
func (a *applier) restored() (bool, error) {
	now, err := a.readNow()
	if err != nil {
		return false, err
	}
	if a.dl.Host {
		return config.Digest(now, a.dl) == config.Digest(a.before, a.dl), nil
	}
	cmp, err := config.CompareRestore(a.pd.Name, now, a.before, a.rendered, a.dl)
	if err != nil {
		return false, err
	}
	return cmp.Changes.Empty(), nil
}

// rolledBack finishes a failed change: it checks that the device is back
// to the backup and says so, or reports that it is not.
func (a *applier) rolledBack(why string) outcome {
	if !a.conn.Alive() {
		if err := a.reconnect(); err != nil {
			return outcome{Status: StatusFailed, Reason: why + "; could not check the rollback: " + err.Error(),
				Restore: a.opts.rollbackCommand(a.pd.Name)}
		}
	}
	ok, err := a.restored()
	switch {
	case err != nil:
		return outcome{Status: StatusFailed, Reason: why + "; could not check the rollback: " + err.Error(),
			Restore: a.opts.rollbackCommand(a.pd.Name)}
	case !ok:
		return outcome{Status: StatusFailed, Reason: why + "; the device is NOT back to its backup",
			Restore: a.opts.rollbackCommand(a.pd.Name)}
	}
	return outcome{Status: StatusRolledBack, Reason: why + "; the device was rolled back and matches its backup"}
}

// errTrustMismatch refuses a plan made with (planned) or without
// --trust-records applied the other way: apply derives the change set
// again and must take unsigned last-applied records at their word exactly
// as plan did, and an unsigned plan file is no proof that its reviewer
// chose to.
func errTrustMismatch(planned bool) error {
	if planned {
		return errors.New("the plan was made with --trust-records (removals only an unsigned last-applied record justifies) but apply was not given it; nothing was sent: pass --trust-records to apply after reviewing the records (git log -p .fabricgen/applied), or run fabricgen plan again without it")
	}
	return errors.New("apply was given --trust-records but the plan was made without it; nothing was sent: run fabricgen plan --trust-records and review the removals it plans, or apply without the flag")
}
