package push

import (
	"context"
	"fmt"
	"slices"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/state"
)

// DriftStatus says how a device, its last-applied config and the intent
// relate.
type DriftStatus string

// Drift statuses.
const (
	// DriftInSync: the device has what fabricgen applied last, and the
	// intent still renders it.
	DriftInSync DriftStatus = "in-sync"
	// DriftDrifted: the device's managed config changed since fabricgen
	// applied it; the intent did not.
	DriftDrifted DriftStatus = "drifted"
	// DriftPending: the intent changed since the last apply (or was
	// never applied from this state directory); the device did not.
	DriftPending DriftStatus = "pending"
	// DriftConflict: both changed.
	DriftConflict DriftStatus = "conflict"
	// DriftError: the device could not be read.
	DriftError DriftStatus = "error"
	// DriftInFlight: a change is in flight on the device (an apply
	// waiting for confirmation, a transaction a run left, an
	// interrupted run's record): what the device reads now may not last,
	// so it is not reported in sync; DriftResult.Error says what.
	DriftInFlight DriftStatus = "in-flight"
)

// DriftResult is one device's drift report.
type DriftResult struct {
	Device   string      `json:"device"`
	Platform string      `json:"platform"`
	Address  string      `json:"address"`
	Status   DriftStatus `json:"status"`
	Error    string      `json:"error,omitempty"`
	// LastApplied is when fabricgen last applied the device (zero when
	// the state directory has no record), and Run that run's name.
	LastApplied time.Time `json:"last_applied,omitempty"`
	Run         string    `json:"run,omitempty"`
	// Drift is how the device's managed sections differ from what was
	// applied last ("last applied" → "running").
	Drift config.Diff `json:"drift"`
	// Pending is what an apply would change now ("running" → intent).
	Pending config.Diff `json:"pending"`
}

// Drifted reports whether the device changed behind fabricgen's back.
func (r DriftResult) Drifted() bool { return r.Status == DriftDrifted || r.Status == DriftConflict }

// Drift compares, per device, the intent rendered now, the config
// fabricgen applied last (Options.State's last-applied records) and the
// running config. It changes nothing. The error return is for a cancelled
// context only.
func Drift(ctx context.Context, inputs []Input, opts Options) ([]DriftResult, error) {
	if opts.State.IsZero() {
		return nil, fmt.Errorf("drift needs the fabric's state directory (its last-applied records)")
	}
	opts = opts.withCache()
	out := make([]DriftResult, len(inputs))
	var g errgroup.Group
	g.SetLimit(opts.parallelism())
	for i, in := range inputs {
		g.Go(func() error {
			out[i] = driftOne(ctx, in, &opts)
			return nil
		})
	}
	_ = g.Wait()
	if err := ctx.Err(); err != nil {
		return out, fmt.Errorf("drift interrupted: %w", err)
	}
	return out, nil
}

func driftOne(ctx context.Context, in Input, opts *Options) DriftResult {
	d := in.Device
	r := DriftResult{Device: d.Name, Platform: string(d.Platform.V), Address: opts.address(d)}
	defer opts.emit(d.Name, "done", true)
	fail := func(err error) DriftResult {
		r.Status, r.Error = DriftError, err.Error()
		return r
	}
	dl, err := opts.dialect(d.Platform.V)
	if err != nil {
		return fail(err)
	}
	rec, err := opts.State.Applied(d.Name)
	if err != nil {
		return fail(err)
	}
	if rec != nil && rec.Platform != r.Platform {
		rec = nil
	}
	opts.emit(d.Name, "connect", false)
	conn, err := connect(ctx, d, dl, r.Address, opts)
	if err != nil {
		return fail(err)
	}
	defer func() { _ = conn.Close() }()
	opts.emit(d.Name, "fetch", false)
	intent := string(in.Rendered)
	running, err := fetch(conn, dl, intent)
	if err != nil {
		return fail(err)
	}
	scope := ""
	if rec != nil {
		scope = rec.Rendered
	}
	// A change in flight (what plan and apply refuse the device for)
	// decides first: an NVUE apply waiting for confirmation reads as
	// the intent until its timer rolls it back.
	busy, err := planInspect(conn, dl, d.Name, opts)
	if err != nil {
		return fail(err)
	}
	pending, err := config.CompareScoped(d.Name, running, intent, scope, dl)
	if err != nil {
		return fail(err)
	}
	r.Pending = pending.Diff
	if busy != "" {
		if rec != nil {
			r.LastApplied, r.Run = rec.Time, rec.Run
		}
		r.Status, r.Error = DriftInFlight, busy
		return r
	}
	if rec == nil {
		// Never applied from this state directory: what differs is the
		// intent's to apply.
		r.Status = DriftInSync
		if !pending.Changes.Empty() {
			r.Status = DriftPending
		}
		return r
	}
	r.LastApplied, r.Run = rec.Time, rec.Run
	devChanged, drift, err := deviceDrift(conn, dl, d.Name, running, intent, rec)
	if err != nil {
		return fail(err)
	}
	r.Drift = drift
	intentChanged, err := intentDrift(rec.Rendered, intent, dl)
	if err != nil {
		return fail(err)
	}
	switch {
	case devChanged && intentChanged:
		r.Status = DriftConflict
	case devChanged:
		r.Status = DriftDrifted
	case intentChanged:
		r.Status = DriftPending
	default:
		r.Status = DriftInSync
	}
	return r
}

// deviceDrift compares the device's managed sections with the config
// applied last, and returns the diff from that config to the device.
func deviceDrift(conn *session.Conn, dl *dialect.Dialect, name, running, intent string, rec *state.Applied) (bool, config.Diff, error) {
	now := running
	if (dl.Host || dl.Files) && rec.Rendered != intent {
		// A host is read setting by setting, a subnet manager file by
		// file: read what the last-applied script or files set.
		var err error
		if now, err = fetch(conn, dl, rec.Rendered); err != nil {
			return false, config.Diff{}, err
		}
	}
	cmp, err := config.CompareScoped(name, now, rec.Rendered, "", dl)
	if err != nil {
		return false, config.Diff{}, err
	}
	diff := config.Unified(name+" (last applied)", name+" (running)", cmp.Desired, cmp.Running)
	return !cmp.Changes.Empty(), diff, nil
}

// intentDrift reports whether the intent renders other managed lines
// than those applied last.
func intentDrift(applied, intent string, dl *dialect.Dialect) (bool, error) {
	a, err := config.ManagedPaths(applied, dl)
	if err != nil {
		return false, err
	}
	b, err := config.ManagedPaths(intent, dl)
	if err != nil {
		return false, err
	}
	slices.Sort(a)
	slices.Sort(b)
	return !slices.Equal(a, b), nil
}
