package push

import (
	"fmt"
	"strings"
	"time"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/internal/push/txn"
)

// Work in flight on a device that is not this run's: another operator's
// EOS session waiting on its commit timer, a pending NVUE revision, a
// Junos commit confirmed not yet confirmed, a fabricgen checkpoint or
// session another run made (or a killed run left). apply refuses to
// change such a device, and plan reports it.

// leftovers is what inspect found on a device.
type leftovers = txn.Leftovers

// interrupted is the verdict on a device an earlier run left mid-change.
type interrupted struct {
	rec *state.InFlight
	// clean means the device equals its backup or the intent the run
	// was applying, and holds no leftover of it: the record can go.
	clean bool
	// ownLeftover is the run's own transaction still on the device
	// (uncommitted session, checkpoint) that can be removed safely when
	// clean.
	ownLeftover string
	// message tells the operator what is there and what to do.
	message string
}

// judgeInterrupted reads a device whose in-flight record says a run
// stopped mid-change, and decides whether it is clean.
func judgeInterrupted(conn *session.Conn, dl *dialect.Dialect, rec *state.InFlight, backupPath string, opts *Options) (interrupted, error) {
	v := interrupted{rec: rec}
	left, err := findLeftovers(conn, dl)
	if err != nil {
		return v, err
	}
	// The run's own transaction: an uncommitted session or a checkpoint
	// can go once the config is clean; a commit waiting on its timer
	// cannot.
	var others []string
	for _, n := range left.Names {
		if n == rec.Txn && rec.Txn != "" {
			v.ownLeftover = n
			continue
		}
		others = append(others, n)
	}
	left.Names = others
	now, err := fetch(conn, dl, rec.Rendered)
	if err != nil {
		return v, fmt.Errorf("read the device an interrupted run left: %w", err)
	}
	// A host's backup holds the settings of the script the run read
	// (the render and the settings the last apply made that it dropped).
	nowRead := now
	if rec.ReadScript() != rec.Rendered {
		if nowRead, err = fetch(conn, dl, rec.ReadScript()); err != nil {
			return v, fmt.Errorf("read the device an interrupted run left: %w", err)
		}
	}
	backup, berr := readBackup(backupPath)
	atBackup := berr == nil && config.Digest(nowRead, dl) == config.Digest(backup, dl)
	atIntent := false
	if cmp, err := config.Compare(rec.Device, now, rec.Rendered, dl); err == nil {
		atIntent = cmp.Changes.Empty()
	}
	who := fmt.Sprintf("an earlier apply (run %s, %s) was interrupted while changing %s (step %q)", rec.Run, rec.Holder, rec.Device, rec.Step)
	// Stopped while it held the device's lock, before it staged
	// anything: the device is as that run found it.
	nothingSent := rec.Step == "lock"
	v.clean = left.Empty() && (nothingSent || atBackup || atIntent)
	if v.clean {
		return v, nil
	}
	var what []string
	if d := describeLeftovers(dl, left); d != "" {
		what = append(what, d)
	}
	if !atBackup && !atIntent {
		what = append(what, "the device now matches neither its backup nor the intent that run applied")
	}
	restore := opts.rollbackCommand(rec.Device)
	if rec.Backup != "" {
		restore += " (backup " + rec.Backup + ")"
	}
	v.message = who + ": " + strings.Join(what, "; ") + "; restore the device with " + restore + ", then plan again (" + opts.planCommand(opts.fabricDir()) + ")"
	return v, nil
}

// resolveInterrupted handles the in-flight record an earlier run left for
// this device (rec, as the caller read it; nil for none): a clean device
// has the record (and the run's own leftover transaction) removed and
// goes on; otherwise the device is refused with what to do.
func (a *applier) resolveInterrupted(rec *state.InFlight) (string, error) {
	if rec == nil {
		return "", nil
	}
	v, err := judgeInterrupted(a.conn, a.dl, rec, rec.Backup, &a.opts.Options)
	if err != nil {
		return "", err
	}
	if !v.clean {
		return v.message, nil
	}
	if v.ownLeftover != "" {
		removeTxn(a.conn, a.dl, v.ownLeftover)
	}
	return "", a.opts.State.ClearInFlight(a.pd.Name)
}

func fmtWait(d time.Duration) string { return "within " + d.String() + " of the commit" }

// readBackup reads a backup file.
func readBackup(path string) (string, error) {
	if path == "" {
		return "", fmt.Errorf("no backup recorded")
	}
	b, err := readFileLimited(path, maxBackupBytes)
	if err != nil {
		return "", err
	}
	return string(b), nil
}
