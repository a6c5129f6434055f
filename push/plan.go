package push

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/internal/push/txn"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
)

// Input is one device to plan: the device and its rendered config.
type Input struct {
	Device   *schema.Device
	Rendered []byte
}

// Plan fetches every input device's state in parallel (Options.Parallelism
// sessions at most, one per device) and compares it with the rendered
// config. A device that cannot be planned (unreachable, refused host key,
// missing password variable) gets status "error" with the reason; the
// other devices are still planned. The error return is for a cancelled
// context only.
func Plan(ctx context.Context, f *schema.Fabric, inputs []Input, toolVersion string, opts Options) (*planfile.Plan, error) {
	p := &planfile.Plan{
		FormatVersion: planfile.FormatVersion,
		ToolVersion:   toolVersion,
		Fabric:        f.Name,
		Dir:           f.Dir,
		IntentDigest:  f.Digest,
		TrustRecords:  opts.TrustRecords,
		Devices:       make([]*planfile.Device, len(inputs)),
	}
	opts = opts.withCache()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(opts.parallelism())
	for i, in := range inputs {
		g.Go(func() error {
			p.Devices[i] = planDevice(gctx, in, &opts)
			return nil
		})
	}
	_ = g.Wait()
	if err := ctx.Err(); err != nil {
		return p, fmt.Errorf("plan interrupted: %w", err)
	}
	return p, nil
}

func planDevice(ctx context.Context, in Input, opts *Options) *planfile.Device {
	d := in.Device
	sum := sha256.Sum256(in.Rendered)
	pd := &planfile.Device{
		Name:           d.Name,
		Platform:       string(d.Platform.V),
		Address:        opts.address(d),
		Rendered:       string(in.Rendered),
		RenderedSHA256: hex.EncodeToString(sum[:]),
	}
	defer opts.emit(d.Name, "done", true)
	fail := func(err error) *planfile.Device {
		pd.Status = planfile.StatusError
		pd.Error = err.Error()
		return pd
	}
	dl, err := opts.dialect(d.Platform.V)
	if err != nil {
		return fail(err)
	}
	opts.emit(d.Name, "connect", false)
	conn, err := connect(ctx, d, dl, pd.Address, opts)
	if err != nil {
		return fail(err)
	}
	defer func() { _ = conn.Close() }()
	opts.emit(d.Name, "check", false)
	if busy, err := planInspect(conn, dl, d.Name, opts); err != nil {
		return fail(err)
	} else if busy != "" {
		return fail(errors.New(busy))
	}
	rec, err := opts.appliedRecord(d)
	if err != nil {
		return fail(err)
	}
	pd.ScopeSHA256 = scopeDigest(recordScope(rec))
	cm, err := opts.newComparer(d, dl, pd.Rendered, rec)
	if err != nil {
		return fail(err)
	}
	opts.emit(d.Name, "fetch", false)
	running, err := fetch(conn, dl, cm.read)
	if err != nil {
		return fail(err)
	}
	if dl.Vet != nil {
		run := func(cmd string) (string, int, error) {
			out, st, _, err := conn.Run(cmd)
			return out, st, err
		}
		if err := dl.Vet(dialect.Vetting{Device: d, Rendered: pd.Rendered, Running: running, Run: run}); err != nil {
			return fail(fmt.Errorf("%s: %w", d.Name, err))
		}
	}
	cmp, err := cm.compare(running)
	if err != nil {
		return fail(err)
	}
	pd.RunningSHA256 = cmp.RunningSHA256
	pd.Kept = cm.keptNotes(opts.State.Path, d.Name)
	pd.Diff = cmp.Diff
	pd.Status = planfile.StatusUnchanged
	if !cmp.Changes.Empty() {
		pd.Status = planfile.StatusChange
		pd.Changes = cmp.Changes
	}
	if pd.Takeover, err = takeovers(cmp, cm.scope(running), dl); err != nil {
		return fail(err)
	}
	if opts.NoTakeover && len(pd.Takeover) > 0 {
		return fail(errTakeover(pd.Takeover))
	}
	return pd
}

// recordScope is the config fabricgen last applied to the device (its
// last-applied record rec, from appliedRecord), or "" when there is none.
func recordScope(rec *state.Applied) string {
	if rec == nil {
		return ""
	}
	return rec.Rendered
}

// appliedRecord is the device's last-applied record, or nil when there is
// none or it was for another platform.
func (o *Options) appliedRecord(d *schema.Device) (*state.Applied, error) {
	if o.State.IsZero() {
		return nil, nil
	}
	a, err := o.State.Applied(d.Name)
	if err != nil || a == nil || a.Platform != string(d.Platform.V) {
		return nil, err
	}
	return a, nil
}

// comparer is how one device is read and compared with what it must
// reach: the script whose settings are read (hosts: the intent's plus the
// settings the last apply made that the intent dropped) and the
// comparison.
type comparer struct {
	read string
	// rendered is the rendered config, parsed once for every compare.
	rendered *config.Source
	compare  func(now string) (*config.Comparison, error)
	// scope is the last-applied config the comparison of the device
	// state now manages: the record's, or when it is unverified the
	// part of it the device bears out (empty when that cannot be read).
	scope func(now string) *config.Source
	// held lists the record-only claims the last compare held back (an
	// unverified record without Options.TrustRecords): what the record
	// says fabricgen made, that the device holds, that nothing else
	// re-derives as fabricgen's.
	held []string
}

// keptNotes are the plan's notes for the claims the last compare held
// back, naming the record (in the state directory dir) and the ways to
// have them removed.
func (c *comparer) keptNotes(dir, device string) []string {
	if len(c.held) == 0 {
		return nil
	}
	rec := filepath.Join(filepath.Base(dir), "applied", device+".json")
	out := make([]string, len(c.held))
	for i, h := range c.held {
		out[i] = fmt.Sprintf("kept: %s — only the unsigned record %s says fabricgen made it; set FABRICGEN_PLAN_KEY so fabricgen signs its records, remove it by hand, or pass --trust-records after reviewing the record (git log -p %s)", h, rec, filepath.Join(filepath.Base(dir), "applied"))
	}
	return out
}

// newComparer builds the comparison of a device with its rendered config,
// managing what the last apply made too (the last-applied record rec, nil
// for none; an unverified record — its signature not checked with
// FABRICGEN_PLAN_KEY — is used only as far as the device bears it out,
// config.VerifiedScope). The rendered config and the record's are parsed
// here, once for every compare. A change set holding a line that may not
// be sent as it stands (config.CheckSendable) is an error, so plan
// reports the device and apply sends nothing.
func (o *Options) newComparer(d *schema.Device, dl *dialect.Dialect, rendered string, rec *state.Applied) (*comparer, error) {
	c, err := o.comparer(d, dl, rendered, rec)
	if err != nil {
		return nil, err
	}
	compare := c.compare
	c.compare = func(now string) (*config.Comparison, error) {
		cmp, err := compare(now)
		if err != nil {
			return nil, err
		}
		if err := config.CheckSendable(cmp.Changes, dl); err != nil {
			return nil, fmt.Errorf("%s: %w", d.Name, err)
		}
		return cmp, nil
	}
	return c, nil
}

// comparer is newComparer without the check of the change set.
func (o *Options) comparer(d *schema.Device, dl *dialect.Dialect, rendered string, rec *state.Applied) (*comparer, error) {
	scope, verified := recordScope(rec), rec != nil && rec.Verified
	src, last := config.NewSource(rendered, dl), config.NewSource(scope, dl)
	c := &comparer{read: rendered, rendered: src, scope: func(string) *config.Source { return last }}
	trust := verified || o.TrustRecords
	// checked is the scope the device state now lets the comparison
	// manage, and the record-only claims it held back.
	checked := func(now string) (*config.Source, []string, error) {
		if verified || scope == "" {
			return last, nil, nil
		}
		return config.CheckScope(now, src, last, dl, trust)
	}
	if !dl.Host || scope == "" {
		// A CONFIG_DB's BUFFER_QUEUE/BUFFER_PG key the last apply set
		// and the render drops gives its queues back the profile they
		// had before fabricgen: the baseline's.
		baseline := ""
		if dl.ConfigDB && scope != "" {
			var err error
			if baseline, err = o.deviceBaseline(d, rec); err != nil {
				return nil, err
			}
		}
		c.scope = func(now string) *config.Source {
			sc, _, err := checked(now)
			if err != nil {
				return nil
			}
			return sc
		}
		c.compare = func(now string) (*config.Comparison, error) {
			sc, held, err := checked(now)
			if err != nil {
				return nil, fmt.Errorf("%s: check the last-applied record against the device: %w", d.Name, err)
			}
			c.held = held
			return config.CompareSourceBaseline(d.Name, now, src, sc, baseline, dl)
		}
		return c, nil
	}
	dropped, err := config.HostDropped(rendered, scope)
	if err != nil {
		return nil, fmt.Errorf("the last-applied script: %w", err)
	}
	baseline := ""
	if dropped != "" {
		if baseline, err = o.deviceBaseline(d, rec); err != nil {
			return nil, err
		}
	}
	c.read = config.HostReadScript(rendered, dropped)
	c.compare = func(now string) (*config.Comparison, error) {
		dr := dropped
		var err error
		switch {
		case verified:
		case trust:
			// An unverified record's dropped settings are set back
			// only where the host still has what it says was set.
			dr, err = config.VerifiedHostDropped(dropped, now)
		default:
			// Without --trust-records, none is: only the record says
			// fabricgen set them.
			dr, c.held, err = config.DerivableHostDropped(dropped, now)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: check the last-applied record against the host: %w", d.Name, err)
		}
		return config.CompareHostScoped(d.Name, now, rendered, dr, baseline, dl)
	}
	return c, nil
}

// deviceBaseline is a device's settings (a host's) or config (a
// CONFIG_DB) from before fabricgen changed them: the last-applied
// record's (rec's) baseline, else its oldest backup (once old backups are
// pruned, the oldest kept one).
func (o *Options) deviceBaseline(d *schema.Device, rec *state.Applied) (string, error) {
	if rec != nil && rec.Baseline != "" {
		return rec.Baseline, nil
	}
	bs, err := o.State.Backups(d.Name)
	if err != nil {
		return "", err
	}
	for _, b := range bs {
		if !b.BeforeRollback {
			return readBackup(b.Path)
		}
	}
	return "", nil
}

// scopeDigest is the hex SHA-256 of the last-applied config a plan used,
// or "" for none.
func scopeDigest(scope string) string {
	if scope == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(scope))
	return hex.EncodeToString(sum[:])
}

// takeovers lists the device's own lines a change removes or replaces
// that fabricgen did not apply last: configuration it takes over. A value
// equal to the platform's factory default (a host's MTU 1500, trust pcp;
// a SONiC port's MTU 9100) is nobody's configuration and not listed.
func takeovers(cmp *config.Comparison, scope *config.Source, dl *dialect.Dialect) ([]string, error) {
	if len(cmp.Replaced) == 0 {
		return nil, nil
	}
	ours := map[string]bool{}
	if scope.Text() != "" {
		paths, err := config.ManagedPathsSource(scope, dl)
		if err != nil {
			return nil, fmt.Errorf("read the last-applied config: %w", err)
		}
		for _, p := range paths {
			ours[p] = true
		}
	}
	var out []string
	for _, r := range cmp.Replaced {
		if !ours[r] && !dl.IsFactoryDefault(r) {
			out = append(out, r)
		}
	}
	return out, nil
}

// errTakeover is the --no-takeover refusal, naming the lines.
func errTakeover(lines []string) error {
	show := lines
	more := ""
	if len(show) > 10 {
		show, more = show[:10], fmt.Sprintf(" (and %d more)", len(lines)-10)
	}
	return fmt.Errorf("--no-takeover: the change would remove or replace %d line(s) fabricgen did not create: %s%s; nothing was changed: drop --no-takeover to take them over, or change the intent to match", len(lines), strings.Join(show, "; "), more)
}

// planInspect reports what would make apply refuse the device: an
// in-flight record an interrupted run left with the device not clean, or
// work in flight on the device that is not ours.
func planInspect(conn *session.Conn, dl *dialect.Dialect, device string, opts *Options) (string, error) {
	ours := ""
	if !opts.State.IsZero() {
		rec, err := opts.State.InFlight(device)
		if err != nil {
			return "", err
		}
		if rec != nil {
			v, err := judgeInterrupted(conn, dl, rec, rec.Backup, opts)
			if err != nil {
				return "", err
			}
			if !v.clean {
				return v.message, nil
			}
			ours = rec.Txn
		}
	}
	busy, err := inspect(conn, dl, ours)
	if err != nil {
		return "", fmt.Errorf("look for other changes in flight: %w", err)
	}
	return busy, nil
}

// connect resolves the device's credentials and opens a session.
func connect(ctx context.Context, d *schema.Device, dl *dialect.Dialect, addr string, opts *Options) (*session.Conn, error) {
	auth, err := session.ResolveAuth(d.Name, session.WithUser(d.Credentials, opts.Users[d.Name]), opts.getenv, opts.Prompt)
	if err != nil {
		return nil, err
	}
	if opts.HostKeys == nil {
		return nil, fmt.Errorf("%s: no host key policy: pass --known-hosts FILE or --insecure-ignore-host-key", d.Name)
	}
	conn, err := session.Open(ctx, session.Target{
		Name:      d.Name,
		Addr:      addr,
		Dialect:   dl,
		Auth:      auth,
		HostKeys:  opts.HostKeys,
		Timeout:   opts.timeout(),
		MaxOutput: opts.MaxOutput,
		Getenv:    opts.getenv,
	})
	if err != nil {
		return nil, scrub(err, auth.Secrets())
	}
	return conn, nil
}

// probeOK is what a host prints when a capability probe passes.
const probeOK = "fabricgen-probe-ok"

// fetch reads the device state compared by config.Compare: the running
// config of a switch, the read-back of every fact a host script sets.
func fetch(conn *session.Conn, dl *dialect.Dialect, rendered string) (string, error) {
	if dl.Files {
		return txn.ReadFiles(conn, rendered)
	}
	if !dl.Host {
		return conn.RunningConfig()
	}
	var cmds, outs []string
	values := map[string]string{}
	// The script's capability probes first: a host without what the script
	// needs (a driver's sysfs file or tunable, DCB netlink) stops here,
	// with the script's own message, before anything is read or changed.
	probes, err := config.HostProbes(rendered)
	if err != nil {
		return "", err
	}
	for _, p := range probes {
		// The marker is quoted in the command, so its echo never matches.
		r, err := conn.Command(p.Test + " && echo " + probeOK[:len(probeOK)-2] + "'ok'")
		if err != nil {
			return "", fmt.Errorf("probe %q: %w", p.Test, err)
		}
		if !strings.Contains(r.Result, probeOK) {
			return "", fmt.Errorf("%s", p.Message)
		}
	}
	for _, l := range config.HostLookups(rendered) {
		// "; echo" ends output such as find -printf '%f' with a newline,
		// so the prompt is not glued to the value.
		out, err := conn.Show(l.Command + "; echo")
		if err != nil {
			return "", fmt.Errorf("preamble %s=$(%s): %w", l.Var, l.Command, err)
		}
		values[l.Var] = strings.TrimSpace(out)
		cmds, outs = append(cmds, l.Command), append(outs, out)
	}
	reads, err := config.HostReadCommands(config.ResolveHostScript(rendered, values), dl)
	if err != nil {
		return "", err
	}
	for _, c := range reads {
		r, err := conn.Command(c)
		if err != nil {
			return "", err
		}
		out := r.Result
		if r.Failed != nil {
			// A setting whose file does not exist yet (a configfs
			// directory the script creates) reads as unset.
			if !strings.Contains(r.Result, "No such file or directory") {
				return "", fmt.Errorf("read back %q: %w", c, txn.Rejection(r))
			}
			out = ""
		}
		cmds, outs = append(cmds, c), append(outs, out)
	}
	return config.HostState(cmds, outs), nil
}

// scrub replaces any secret in an error message; secrets should never get
// there, and this keeps it so even if a library echoes its input.
func scrub(err error, secrets []string) error {
	msg := err.Error()
	clean := msg
	for _, s := range secrets {
		clean = strings.ReplaceAll(clean, s, "<redacted>")
	}
	if clean == msg {
		return err
	}
	return fmt.Errorf("%s", clean)
}
