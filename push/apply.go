package push

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/fabricgen/fabricgen/push/config"
	"github.com/fabricgen/fabricgen/push/dialect"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/push/session"
	"github.com/fabricgen/fabricgen/schema"
)

// Status is the outcome of applying one device.
type Status string

// Apply outcomes.
const (
	StatusApplied    Status = "applied"
	StatusUnchanged  Status = "unchanged"
	StatusRolledBack Status = "rolled back"
	StatusFailed     Status = "failed"
	StatusStale      Status = "stale"
	StatusSkipped    Status = "skipped"
)

// Result is one device's apply outcome.
type Result struct {
	Device   string `json:"device"`
	Platform string `json:"platform"`
	Status   Status `json:"status"`
	// Reason says why the device was not applied, or what was undone.
	Reason string `json:"reason,omitempty"`
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

// ApplyOptions configure Apply.
type ApplyOptions struct {
	Options
	// BackupDir receives <device>/<UTC time>.cfg before any change
	// (default .fabricgen/backups).
	BackupDir string
	// FailFast stops starting devices after the first failure.
	FailFast bool
	// CommitTimer is how long an EOS session commit waits for confirmation
	// before the device rolls it back itself (default 5 minutes).
	CommitTimer time.Duration
	// Now is the clock for backup and session names (default time.Now).
	Now func() time.Time
}

// Apply changes every device of the plan that has changes. Each device is
// re-fetched first and refused when its normalised running config no
// longer hashes as in the plan (stale). The fabric supplies credentials;
// its digest must equal the plan's intent digest. Results are in plan order.
func Apply(ctx context.Context, p *planfile.Plan, f *schema.Fabric, opts ApplyOptions) ([]Result, error) {
	if f.Digest != p.IntentDigest {
		return nil, fmt.Errorf("the intent in %s changed since the plan was made (digest %.12s, plan has %.12s): run fabricgen plan again", f.Dir, f.Digest, p.IntentDigest)
	}
	if opts.BackupDir == "" {
		opts.BackupDir = filepath.Join(".fabricgen", "backups")
	}
	if opts.CommitTimer <= 0 {
		opts.CommitTimer = 5 * time.Minute
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	opts.Options = opts.Options.withCache()
	results := make([]Result, len(p.Devices))
	failed := make(chan struct{})
	var failOnce sync.Once
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(opts.parallelism())
	for i, pd := range p.Devices {
		results[i] = Result{Device: pd.Name, Platform: pd.Platform, Status: StatusSkipped,
			Reason: "not started: an earlier device failed and --fail-fast is set"}
		if opts.FailFast {
			select {
			case <-failed:
				continue
			default:
			}
		}
		g.Go(func() error {
			if opts.FailFast {
				select {
				case <-failed:
					return nil
				default:
				}
			}
			r := applyDevice(gctx, pd, f.Device(pd.Name), &opts)
			results[i] = r
			if !r.OK() && opts.FailFast {
				failOnce.Do(func() { close(failed) })
			}
			return nil
		})
	}
	_ = g.Wait()
	if err := ctx.Err(); err != nil {
		return results, fmt.Errorf("apply interrupted: %w", err)
	}
	return results, nil
}

func applyDevice(ctx context.Context, pd *planfile.Device, d *schema.Device, opts *ApplyOptions) Result {
	r := Result{Device: pd.Name, Platform: pd.Platform, Added: pd.Diff.Added, Removed: pd.Diff.Removed}
	defer opts.emit(pd.Name, "done", true)
	fail := func(format string, a ...any) Result {
		r.Status = StatusFailed
		r.Reason = fmt.Sprintf(format, a...)
		return r
	}
	switch {
	case pd.Status == planfile.StatusError:
		return fail("not planned: %s", pd.Error)
	case pd.Status == planfile.StatusUnchanged:
		r.Status = StatusUnchanged
		return r
	case d == nil:
		return fail("device %s is in the plan but not in the intent", pd.Name)
	}
	dl, err := opts.dialect(schema.Platform(pd.Platform))
	if err != nil {
		return fail("%v", err)
	}
	a := &applier{ctx: ctx, pd: pd, dev: d, dl: dl, opts: opts}
	opts.emit(pd.Name, "connect", false)
	if a.conn, err = connect(ctx, d, dl, pd.Address, &opts.Options); err != nil {
		return fail("%v", err)
	}
	defer func() { a.conn.Close() }()

	opts.emit(pd.Name, "fetch", false)
	before, err := fetch(a.conn, dl, pd.Rendered)
	if err != nil {
		return fail("fetch running config: %v", err)
	}
	cmp, err := config.Compare(pd.Name, before, pd.Rendered, dl)
	if err != nil {
		return fail("%v", err)
	}
	if cmp.RunningSHA256 != pd.RunningSHA256 {
		r.Status = StatusStale
		r.Reason = "the running config changed since the plan was made; nothing was sent: run fabricgen plan again"
		return r
	}
	if cmp.Changes.Empty() {
		r.Status = StatusUnchanged
		return r
	}
	a.before = before
	opts.emit(pd.Name, "backup", false)
	if r.Backup, err = a.backup(); err != nil {
		return fail("save backup before changing anything: %v", err)
	}
	opts.emit(pd.Name, "stage", false)
	var out outcome
	switch dl.Transaction {
	case dialect.TxnSession:
		out = a.eosSession()
	case dialect.TxnCheckpoint:
		out = a.nxosCheckpoint()
	case dialect.TxnCommitConfirmed:
		out = a.junosCommit()
	case dialect.TxnNVUE:
		out = a.nvue()
	case dialect.TxnGCU:
		out = a.sonicGCU()
	default:
		out = a.hostCommands()
	}
	r.Status, r.Reason, r.DeviceDiff = out.status, out.reason, out.deviceDiff
	return r
}

// outcome is what a transaction reports.
type outcome struct {
	status     Status
	reason     string
	deviceDiff string
}

// applier holds one device's apply state.
type applier struct {
	ctx    context.Context
	pd     *planfile.Device
	dev    *schema.Device
	dl     *dialect.Dialect
	opts   *ApplyOptions
	conn   *session.Conn
	before string
}

// backup writes the running config before any change.
func (a *applier) backup() (string, error) {
	dir := filepath.Join(a.opts.BackupDir, a.pd.Name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	path := filepath.Join(dir, a.opts.Now().UTC().Format("20060102T150405.000000000Z")+".cfg")
	if err := os.WriteFile(path, []byte(a.before), 0o600); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	return path, nil
}

// txnName names a session or checkpoint after the apply time.
func (a *applier) txnName() string {
	return "fabricgen-" + a.opts.Now().UTC().Format("20060102-150405")
}

// reconnect replaces a lost session with a new one.
func (a *applier) reconnect() error {
	a.conn.Close()
	c, err := connect(a.ctx, a.dev, a.dl, a.pd.Address, &a.opts.Options)
	if err != nil {
		return fmt.Errorf("reconnect: %w", err)
	}
	a.conn = c
	return nil
}

// converged re-fetches the device and reports whether a fresh plan is
// empty, with the number of lines still different.
func (a *applier) converged() (bool, int, error) {
	a.opts.emit(a.pd.Name, "verify", false)
	now, err := fetch(a.conn, a.dl, a.pd.Rendered)
	if err != nil {
		return false, 0, err
	}
	cmp, err := config.Compare(a.pd.Name, now, a.pd.Rendered, a.dl)
	if err != nil {
		return false, 0, err
	}
	return cmp.Changes.Empty(), cmp.Diff.Added + cmp.Diff.Removed, nil
}

// restored re-fetches the device and reports whether it equals the backup.
func (a *applier) restored() (bool, error) {
	now, err := fetch(a.conn, a.dl, a.pd.Rendered)
	if err != nil {
		return false, err
	}
	return config.Digest(now, a.dl) == config.Digest(a.before, a.dl), nil
}

// rolledBack finishes a failed change: it checks that the device is back
// to the backup and says so, or reports that it is not.
func (a *applier) rolledBack(why string) outcome {
	if !a.conn.Alive() {
		if err := a.reconnect(); err != nil {
			return outcome{status: StatusFailed, reason: why + "; could not check the rollback: " + err.Error()}
		}
	}
	ok, err := a.restored()
	switch {
	case err != nil:
		return outcome{status: StatusFailed, reason: why + "; could not check the rollback: " + err.Error()}
	case !ok:
		return outcome{status: StatusFailed, reason: why + "; the device is NOT back to its backup: restore it from the backup file"}
	}
	return outcome{status: StatusRolledBack, reason: why + "; the device was rolled back and matches its backup"}
}
