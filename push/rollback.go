package push

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/internal/push/txn"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
)

// StatusRestored means rollback brought the device back to its backup.
const StatusRestored Status = "restored"

// maxBackupBytes bounds a backup file read back for a rollback.
const maxBackupBytes = 64 << 20

// RollbackTarget is one device to restore from a backup.
type RollbackTarget struct {
	Device *schema.Device
	// Backup is the path of the backup file to restore.
	Backup string
	// Scope is the config applied since the backup (the in-flight or
	// last-applied record's, else the intent's render): what it created
	// is removed, what it changed is set back.
	Scope string
	// ScopeVerified says Scope is the intent's render, or comes from a
	// record whose signature was checked with FABRICGEN_PLAN_KEY. An
	// unverified scope is used only as far as the device bears it out
	// (config.VerifiedScope): an edited record must not make rollback
	// remove another team's object.
	ScopeVerified bool
	// TrustRecords (--trust-records) uses an unverified scope as far as
	// the device bears it out (config.VerifiedScope). Without it, what
	// only the record claims (config.DerivableScope: neither the backup
	// nor fabricgen's naming defines it) is not removed; the preview
	// lists it (RollbackPreview.Kept).
	TrustRecords bool
	// Intent is the device's config rendered from the intent now, ""
	// when it could not be rendered. Without TrustRecords, an unverified
	// scope's claims are fabricgen's where this render (else the backup)
	// defines them or fabricgen's naming claims them.
	Intent string
}

// restoreScope is the part of the target's scope a restore of the device
// state now may act on, and the record-only claims held back.
func (t RollbackTarget) restoreScope(now, backup string, dl *dialect.Dialect) (string, []string, error) {
	if t.ScopeVerified {
		return t.Scope, nil, nil
	}
	var sc string
	var held []string
	var err error
	if t.TrustRecords {
		sc, err = config.VerifiedScope(now, backup, t.Scope, dl)
	} else {
		own := t.Intent
		if own == "" {
			own = backup
		}
		sc, held, err = config.DerivableScope(now, own, t.Scope, dl)
	}
	if err != nil {
		return "", nil, fmt.Errorf("%s: check the record's config against the device: %w", t.Device.Name, err)
	}
	return sc, held, nil
}

// RollbackPreview is what restoring one device would do.
type RollbackPreview struct {
	Device   string `json:"device"`
	Platform string `json:"platform"`
	Address  string `json:"address"`
	Backup   string `json:"backup"`
	// Cleanup lists the interrupted run's own transaction removed first
	// (an EOS session waiting on its timer is aborted, a pending NVUE
	// confirm is refused, a pending revision detached).
	Cleanup []string `json:"cleanup,omitempty"`
	// Kept lists what only an unsigned record says the run since the
	// backup made, which the restore leaves on the device (no
	// --trust-records).
	Kept []string `json:"kept,omitempty"`
	// Diff shows the managed sections now against the backup.
	Diff config.Diff `json:"diff"`
	// Commands are those the restore would send now.
	Commands []string `json:"commands,omitempty"`
	// RunningSHA256 is the device's state the preview was made against;
	// Rollback refuses the device when it changed since.
	RunningSHA256 string `json:"running_sha256,omitempty"`
	Error         string `json:"error,omitempty"`
}

// Changes reports whether restoring would do anything.
func (p *RollbackPreview) Changes() bool {
	return p.Error == "" && (len(p.Commands) > 0 || len(p.Cleanup) > 0)
}

// PreviewRollback reads every target device and says what restoring its
// backup would do; nothing is changed. A device that cannot be read gets
// its error in the preview.
func PreviewRollback(ctx context.Context, targets []RollbackTarget, opts Options) ([]*RollbackPreview, error) {
	opts = opts.withCache()
	out := make([]*RollbackPreview, len(targets))
	var g errgroup.Group
	g.SetLimit(opts.parallelism())
	for i, t := range targets {
		g.Go(func() error {
			out[i] = previewOne(ctx, t, &opts)
			return nil
		})
	}
	_ = g.Wait()
	if err := ctx.Err(); err != nil {
		return out, fmt.Errorf("rollback preview interrupted: %w", err)
	}
	return out, nil
}

func previewOne(ctx context.Context, t RollbackTarget, opts *Options) *RollbackPreview {
	d := t.Device
	p := &RollbackPreview{Device: d.Name, Platform: string(d.Platform.V), Address: opts.address(d), Backup: t.Backup}
	backup, err := readBackup(t.Backup)
	if err != nil {
		p.Error = fmt.Sprintf("read backup: %v", err)
		return p
	}
	dl, err := opts.dialect(d.Platform.V)
	if err != nil {
		p.Error = err.Error()
		return p
	}
	conn, err := connect(ctx, d, dl, p.Address, opts)
	if err != nil {
		p.Error = err.Error()
		return p
	}
	defer func() { _ = conn.Close() }()
	rec, err := opts.State.InFlight(d.Name)
	if err != nil {
		p.Error = err.Error()
		return p
	}
	p.Cleanup, err = ownCleanup(conn, dl, rec)
	if err != nil {
		p.Error = err.Error()
		return p
	}
	now, err := fetch(conn, dl, t.Scope)
	if err != nil {
		p.Error = fmt.Sprintf("fetch running config: %v", err)
		return p
	}
	sc, held, err := t.restoreScope(now, backup, dl)
	if err != nil {
		p.Error = err.Error()
		return p
	}
	p.Kept = held
	cmp, err := restoreComparison(d.Name, now, backup, sc, dl)
	if err != nil {
		p.Error = err.Error()
		return p
	}
	p.RunningSHA256, p.Diff, p.Commands = cmp.RunningSHA256, cmp.Diff, cmp.Changes.Commands()
	return p
}

// restoreComparison compares a device with its backup within scope; a
// restore holding a line that may not be sent is an error.
func restoreComparison(device, now, backup, scope string, dl *dialect.Dialect) (*config.Comparison, error) {
	if !dl.Host {
		c, err := config.CompareRestore(device, now, backup, scope, dl)
		if err != nil {
			return nil, err
		}
		if err := config.CheckSendable(c.Changes, dl); err != nil {
			return nil, fmt.Errorf("%s: %w", device, err)
		}
		return c, nil
	}
	cmds, err := config.HostRestoreCommands(scope, backup, now)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", device, err)
	}
	cs := &config.ChangeSet{}
	if len(cmds) > 0 {
		cs.Blocks = []config.Block{{Lines: cmds}}
	}
	c := &config.Comparison{RunningSHA256: config.Digest(now, dl), Running: config.Normalize(now, dl), Desired: config.Normalize(backup, dl), Changes: cs}
	c.Diff = config.Unified(device+" (running)", device+" (backup)", c.Running, c.Desired)
	return c, nil
}

// Rollback restores each previewed device to its backup through the
// platform's transaction: it first removes the interrupted run's own
// pending transaction the preview listed, re-reads the device (refusing
// it when it changed since the preview), saves a backup of the state it is
// about to change, sends the derived restore commands, verifies that the
// managed sections equal the backup, and clears the device's in-flight
// record. A failure rolls the device back to how it was before this
// rollback started.
func Rollback(ctx context.Context, targets []RollbackTarget, previews []*RollbackPreview, opts ApplyOptions) ([]Result, error) {
	if opts.State.IsZero() {
		return nil, fmt.Errorf("rollback needs the fabric's state directory")
	}
	if opts.CommitTimer <= 0 {
		opts.CommitTimer = 5 * time.Minute
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.RunID == "" {
		id, err := state.NewRunID(opts.Now())
		if err != nil {
			return nil, err
		}
		opts.RunID = id
	}
	opts.Options = opts.withCache()
	results := make([]Result, len(targets))
	var g errgroup.Group
	g.SetLimit(opts.parallelism())
	for i, t := range targets {
		g.Go(func() error {
			results[i] = rollbackOne(ctx, t, previews[i], &opts)
			return nil
		})
	}
	_ = g.Wait()
	if err := ctx.Err(); err != nil {
		return results, fmt.Errorf("%w: %w", ErrInterrupted, err)
	}
	return results, nil
}

func rollbackOne(ctx context.Context, t RollbackTarget, pv *RollbackPreview, opts *ApplyOptions) Result {
	d := t.Device
	r := Result{Device: d.Name, Platform: string(d.Platform.V), Added: pv.Diff.Added, Removed: pv.Diff.Removed}
	defer opts.emit(d.Name, "done", true)
	fail := func(st Status, format string, a ...any) Result {
		r.Status, r.Reason = st, fmt.Sprintf(format, a...)
		return r
	}
	if pv.Error != "" {
		return fail(StatusFailed, "%s", pv.Error)
	}
	backup, err := readBackup(t.Backup)
	if err != nil {
		return fail(StatusFailed, "read backup: %v", err)
	}
	dl, err := opts.dialect(d.Platform.V)
	if err != nil {
		return fail(StatusFailed, "%v", err)
	}
	pd := &planfile.Device{Name: d.Name, Platform: string(d.Platform.V), Address: pv.Address}
	a := &applier{ctx: ctx, pd: pd, dev: d, dl: dl, opts: opts, rendered: t.Scope, txn: opts.RunID, rollback: true}
	// The scope is checked against the device once, before anything is
	// sent: what the restore removes must stay managed after it.
	scope := t.Scope
	a.compare = func(now string) (*config.Comparison, error) {
		return restoreComparison(d.Name, now, backup, scope, dl)
	}
	opts.emit(d.Name, "connect", false)
	if a.conn, err = connect(ctx, d, dl, pv.Address, &opts.Options); err != nil {
		return fail(StatusFailed, "%v", err)
	}
	defer func() { _ = a.conn.Close() }()
	rec, err := opts.State.InFlight(d.Name)
	if err != nil {
		return fail(StatusFailed, "%v", err)
	}
	a.keepRecord = rec != nil
	// The device's own lock (a host's): the interrupted run's is taken
	// over.
	a.ignore = txnOf(rec)
	release, lout, locked := a.lockDevice()
	if !locked {
		return fail(lout.Status, "%s", lout.Reason)
	}
	defer release()
	opts.emit(d.Name, "fetch", false)
	now, err := fetch(a.conn, dl, t.Scope)
	if err != nil {
		return fail(StatusFailed, "fetch running config: %v", err)
	}
	if config.Digest(now, dl) != pv.RunningSHA256 {
		return fail(StatusStale, "the device changed since the preview; nothing was sent: run %s again", opts.rollbackCommand(d.Name))
	}
	for _, c := range pv.Cleanup {
		opts.emit(d.Name, "cleanup", false)
		if err := a.sendCleanup(c); err != nil {
			return fail(StatusFailed, "%s: %v", c, err)
		}
	}
	if len(pv.Cleanup) > 0 {
		if now, err = fetch(a.conn, dl, t.Scope); err != nil {
			return fail(StatusFailed, "fetch running config after %s: %v", strings.Join(pv.Cleanup, ", "), err)
		}
	}
	if busy, err := inspect(a.conn, dl, a.ignore, a.txn); err != nil {
		return fail(StatusFailed, "look for other changes in flight: %v", err)
	} else if busy != "" {
		return fail(StatusRefused, "%s; nothing was sent", busy)
	}
	if scope, _, err = t.restoreScope(now, backup, dl); err != nil {
		return fail(StatusFailed, "%v", err)
	}
	scoped := config.NewSource(scope, dl)
	a.scopeOf = func(string) *config.Source { return scoped }
	cmp, err := a.compare(now)
	if err != nil {
		return fail(StatusFailed, "%v", err)
	}
	r.Added, r.Removed = cmp.Diff.Added, cmp.Diff.Removed
	if cmp.Changes.Empty() {
		a.restoredCleanup(rec)
		r.Status, r.Reason = StatusRestored, "the managed sections already match the backup "+t.Backup+a.rdmaCMStays(backup)+a.recordRestore(t, backup, scope)
		return r
	}
	a.before, a.changes = now, cmp.Changes
	if r.Backup, err = opts.State.SaveRollbackBackup(d.Name, now, opts.Now()); err != nil {
		return fail(StatusFailed, "save backup of the state before the rollback: %v", err)
	}
	a.backup = r.Backup
	opts.emit(d.Name, "stage", false)
	out := a.transaction()
	r.Status, r.Reason, r.DeviceDiff, r.Restore = out.Status, out.Reason, out.DeviceDiff, out.Restore
	switch {
	case ctx.Err() != nil && r.Status != StatusApplied && r.Status != StatusRolledBack:
		r.Status = StatusInterrupted
		r.Reason, r.Restore = a.interruptedState()
	case r.Status == StatusApplied:
		a.restoredCleanup(rec)
		r.Status, r.Reason = StatusRestored, "restored the managed sections of backup "+t.Backup+a.rdmaCMStays(backup)+a.recordRestore(t, backup, scope)
	case r.Status == StatusFailed:
		r.Reason += a.rdmaCMStays(backup)
	case r.Status == StatusRolledBack && rec == nil:
		// The device is as it was before this rollback: its own record
		// goes.
		_ = opts.State.ClearInFlight(d.Name)
	}
	_ = opts.State.PruneBackups(d.Name, opts.KeepBackups)
	return r
}

// rdmaCMStays is the note a host's rollback report ends with when the
// rdma_cm kernel module is loaded now but was not when the backup was
// read (its default_roce_tos settings are all unset, or it has none, for
// a scope that sets them): a
// restore never unloads a module (another RDMA user may hold it) and the
// backup, a list of settings, does not record it. "" otherwise, and on a
// switch or when the host cannot be asked.
func (a *applier) rdmaCMStays(backup string) string {
	// Only a script that sets default_roce_tos (the rdma_cm configfs)
	// reads it: another host's backup lacks it either way.
	if !a.dl.Host || a.conn == nil || !a.conn.Alive() || !strings.Contains(a.rendered, "/default_roce_tos") {
		return ""
	}
	for _, l := range strings.Split(backup, "\n") {
		if strings.Contains(l, "/default_roce_tos value = ") && !strings.HasSuffix(strings.TrimSpace(l), "value = <unset>") {
			return "" // loaded when the backup was read
		}
	}
	if _, st, _, err := a.conn.Run("test -d /sys/module/rdma_cm"); err != nil || st != 0 {
		return ""
	}
	return "; note: the rdma_cm kernel module stays loaded: it was not loaded when the backup was taken (its default_roce_tos settings are unset there; fabricgen's apply loads it with modprobe rdma_cm), and a restore never unloads a module, which another RDMA user may hold; it is not a setting of the script, so the backup does not record it; unload it with modprobe -r rdma_cm if nothing on the host needs it"
}

// sendCleanup runs one cleanup command from the preview.
func (a *applier) sendCleanup(cmd string) error {
	if a.dl.Driver == dialect.DriverNetwork {
		r, err := a.conn.Command(cmd)
		if err != nil {
			return err
		}
		if rej := txn.Rejection(r); rej != nil {
			return rej
		}
		return nil
	}
	_, err := a.shell(cmd)
	return err
}

func txnOf(rec *state.InFlight) string {
	if rec == nil {
		return ""
	}
	return rec.Txn
}

// readFileLimited reads at most limit bytes of a file, refusing a larger
// one: not a backup fabricgen wrote.
func readFileLimited(path string, limit int64) ([]byte, error) {
	b, err := readlimit.File(path, limit)
	if errors.Is(err, readlimit.ErrTooLarge) {
		return nil, fmt.Errorf("%w: not a backup fabricgen wrote", err)
	}
	return b, err
}
