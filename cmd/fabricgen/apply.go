package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/push"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
)

// stateFlags are the flags of commands that change devices: where state
// goes, the lock, backups kept, commit timers and interrupts.
type stateFlags struct {
	backupDir      string
	lockTimeout    time.Duration
	keepBackups    int
	commitTimer    time.Duration
	interruptGrace time.Duration
}

func (sf *stateFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&sf.backupDir, "backup-dir", "", "where running configs are saved before changes (default DIR/.fabricgen/backups)")
	fl.DurationVar(&sf.lockTimeout, "lock-timeout", 0, "wait this long for another apply or rollback of the fabric to finish (default: refuse at once)")
	fl.IntVar(&sf.keepBackups, "keep-backups", 10, "backups kept per device; older ones are removed (0 keeps all)")
	fl.DurationVar(&sf.commitTimer, "commit-timer", 5*time.Minute, "the device rolls a commit back unless fabricgen confirms it within this time (EOS commit timer, Junos commit confirmed, NVUE apply --confirm)")
	fl.DurationVar(&sf.interruptGrace, "interrupt-grace", push.DefaultInterruptGrace, "after Ctrl-C, how long devices already changing may take to finish or roll back")
}

// check validates the flag values.
func (sf *stateFlags) check() error {
	switch {
	case sf.lockTimeout < 0:
		return fmt.Errorf("-lock-timeout %s: give 0 (refuse at once) or a positive duration", sf.lockTimeout)
	case sf.keepBackups < 0:
		return fmt.Errorf("--keep-backups %d: give 0 (keep all) or a positive number", sf.keepBackups)
	case sf.commitTimer < time.Minute && sf.commitTimer != 0:
		return fmt.Errorf("--commit-timer %s: give at least 1m (Junos counts whole minutes)", sf.commitTimer)
	case sf.interruptGrace <= 0:
		return fmt.Errorf("--interrupt-grace %s: give a positive duration such as 60s", sf.interruptGrace)
	}
	return nil
}

// stateDir is the fabric's state directory, with the backup override
// and the key that signs its records.
func (sf *stateFlags) stateDir(s *streams, f *schema.Fabric) state.Dir {
	st := fabricState(s, f.Dir)
	st.BackupRoot = sf.backupDir
	return st
}

// fabricState is the state directory of the fabric in dir; with
// FABRICGEN_PLAN_KEY set, its records are signed when written and must
// be signed with that key when read.
func fabricState(s *streams, dir string) state.Dir {
	st := state.ForFabric(dir)
	if k := s.getenv(planfile.KeyEnv); k != "" {
		st.Key = []byte(k)
	}
	return st
}

// lock takes the fabric's operator lock for command.
func (sf *stateFlags) lock(cmd *cobra.Command, st state.Dir, command string) (*state.Lock, error) {
	l, err := st.Lock(cmd.Context(), state.Me(command, time.Now()), sf.lockTimeout)
	if err != nil {
		return nil, withCode(exitFailed, err)
	}
	return l, nil
}

// applyOptions are the push options of a change run; the first interrupt
// closes Interrupt.
func (sf *stateFlags) applyOptions(cmd *cobra.Command, s *streams, opts push.Options, st state.Dir) push.ApplyOptions {
	opts.State = st
	grace := sf.interruptGrace
	w := cmd.ErrOrStderr()
	return push.ApplyOptions{
		Options:        opts,
		CommitTimer:    sf.commitTimer,
		KeepBackups:    sf.keepBackups,
		InterruptGrace: grace,
		Interrupt: s.intr.Graceful(func() {
			fmt.Fprintf(w, "\nInterrupt received: no new device will start; devices already changing finish or roll back (up to %s). Press Ctrl-C again to stop at once.\n", grace)
		}),
	}
}

func newApplyCommand(s *streams) *cobra.Command {
	var pf pushFlags
	var sf stateFlags
	var autoApprove, failFast, deviceDiff bool
	var fabric string
	cmd := &cobra.Command{
		Use:   "apply [PLANFILE | DIR]",
		Short: "Change the devices to match the intent, safely",
		Long: `apply changes every device that has changes.

With a plan file (from "fabricgen plan -out FILE"), the plan is a record to
check, never a script: apply loads the intent from --fabric DIR, else from
the plan's dir (relative to the working directory, followed only when it
stays below it), refuses the whole plan when the intent's digest differs
from the plan's, re-renders every device, re-reads it, and derives the
change set itself; a device is refused when its running config changed
since the plan (stale), when its rendered config or derived change set
differs from the plan's ("plan file does not match its intent"), or when
--inventory gives another address than the plan's. An unsigned plan's
"unchanged" devices are read and compared again too (a device with
changes is refused). --device selects a subset of the plan. With
FABRICGEN_PLAN_KEY set, the plan must carry a matching signature. With a
directory (default "."), apply plans, shows the plan, and asks for "yes"
unless -auto-approve.

One apply or rollback runs per fabric at a time (a lock in
DIR/.fabricgen/lock; -lock-timeout waits for it). Per device: work in
flight that is not this run's (an EOS session waiting on its commit timer,
a pending NVUE revision or confirm, a Junos commit confirmed, a fabricgen
checkpoint another run left) makes apply refuse the device; the running
config is saved to DIR/.fabricgen/backups/DEVICE/TIME.cfg (TIME in UTC); the
change is staged with the platform's transaction under a name unique to
this run; the device is re-read and must show no difference; any failure
rolls that device back.

Ctrl-C: no new device starts, devices already changing finish or roll back
(--interrupt-grace); a second Ctrl-C stops at once and prints, per device,
what it has now and the command that restores it. After a killed run, the
next plan or apply finds what it left and says what to do
("fabricgen rollback DEVICE").

Progress goes to standard error: on a terminal a live display (devices
done/total, elapsed time, the step each device is in); otherwise one line
per device when it finishes and "Still applying... [30s elapsed]" every 30
seconds. FABRICGEN_PROGRESS=steps prints every step of every device instead.

Exit status: 0 every device applied or unchanged, 1 otherwise.`,
		Example: `  fabricgen plan . -out plan.json && fabricgen apply plan.json
  fabricgen apply examples/roce-storage -auto-approve
  fabricgen apply . --device 'leaf*' --fail-fast --parallelism 4`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := sf.check(); err != nil {
				return withCode(exitFailed, err)
			}
			opts, err := pf.options(cmd, s)
			if err != nil {
				return withCode(exitFailed, err)
			}
			target := fabricDir(args)
			w := cmd.OutOrStdout()
			var p *planfile.Plan
			var run *planRun
			var lock *state.Lock
			// trusted: the plan cannot have been altered (made here, or
			// its signature checked with the key), so what it says of
			// unchanged devices is taken at its word.
			trusted := false
			defer func() { _ = lock.Release() }()
			if st, err := os.Stat(target); err == nil && !st.IsDir() {
				if p, run, lock, trusted, err = loadSavedPlan(cmd, s, target, fabric, &pf, &sf); err != nil {
					return err
				}
				fmt.Fprintf(w, "Applying saved plan %s (fabric %s): %s.\n", termLine(target), termLine(p.Fabric), summaryLine(p))
			} else {
				f, _, err := loadFabric(cmd, s, target, &pf.vf)
				if err != nil {
					return err
				}
				if lock, err = sf.lock(cmd, sf.stateDir(s, f), "fabricgen apply "+target); err != nil {
					return err
				}
				if run, err = prepareFabric(cmd.Context(), f, &pf, cmd.ErrOrStderr(), s.colour(s.errTTY)); err != nil {
					return err
				}
				trusted = true // made here, from the intent and the devices
				popts := opts
				popts.State = sf.stateDir(s, run.f)
				if p, err = push.Plan(cmd.Context(), run.f, run.inputs, version, popts); err != nil {
					return withCode(exitFailed, err)
				}
				writePlanHuman(w, p, run.skipped, planView{colour: s.colour(s.outTTY)})
				if err := planExit(p, false); err != nil {
					return err
				}
				if !p.HasChanges() && !hasInterrupted(sf.stateDir(s, run.f), p) {
					fmt.Fprintln(w, "\nNo changes. The devices match the intent.")
					return nil
				}
				if !autoApprove {
					ok, err := confirm(cmd, s, "Do you want to apply these changes?")
					if err != nil {
						return withCode(exitFailed, err)
					}
					if !ok {
						return withCode(exitFailed, fmt.Errorf("apply cancelled: nothing was changed"))
					}
				}
			}
			prog := newProgress(cmd, s, len(p.Devices))
			opts.Events = prog.event
			aopts := sf.applyOptions(cmd, s, opts, sf.stateDir(s, run.f))
			aopts.FailFast = failFast
			aopts.TrustPlan = trusted
			results, err := push.Apply(cmd.Context(), p, run.f, run.inputs, aopts)
			prog.wait()
			if err != nil && results == nil {
				return withCode(exitFailed, err)
			}
			if deviceDiff {
				writeDeviceDiffs(w, results)
			}
			return writeResults(w, "Apply", results, err)
		},
	}
	pf.register(cmd)
	pf.registerTrust(cmd)
	sf.register(cmd)
	fl := cmd.Flags()
	fl.BoolVar(&autoApprove, "auto-approve", false, "do not ask for confirmation")
	fl.BoolVar(&failFast, "fail-fast", false, "start no more devices after the first failure")
	fl.StringVar(&fabric, "fabric", "", "with a plan file: the fabric directory to apply it to (default: the plan's dir, which must lie below the working directory); the plan's intent digest must match it")
	fl.BoolVar(&deviceDiff, "device-diff", false, "print each device's own view of the staged change (EOS show session-config diffs, Junos show | compare, nv config diff, apply-patch log)")
	return cmd
}

// loadSavedPlan reads and checks a saved plan, loads the fabric it is
// applied to, takes the fabric's lock and renders the plan's devices
// afresh. trusted says the plan's signature was checked with the key, so
// what it says of unchanged devices is taken at its word.
func loadSavedPlan(cmd *cobra.Command, s *streams, target, fabric string, pf *pushFlags, sf *stateFlags) (p *planfile.Plan, run *planRun, lock *state.Lock, trusted bool, err error) {
	if p, err = planfile.Load(target); err != nil {
		return nil, nil, nil, false, withCode(exitFailed, err)
	}
	if err := p.Verify([]byte(s.getenv(planfile.KeyEnv))); err != nil {
		return nil, nil, nil, false, withCode(exitFailed, fmt.Errorf("%s: %w", target, err))
	}
	// Verify passed: a signature there was checked with the key.
	trusted = p.Signature != ""
	dir, err := planFabricDir(target, p, fabric)
	if err != nil {
		return nil, nil, nil, false, withCode(exitFailed, err)
	}
	f, _, err := loadFabric(cmd, s, dir, &pf.vf)
	if err != nil {
		return nil, nil, nil, false, err
	}
	if p, err = selectPlanDevices(p, pf.devices); err != nil {
		return nil, nil, nil, false, withCode(exitFailed, err)
	}
	if !trusted {
		if missing := notInPlan(f, p, pf.devices); len(missing) > 0 {
			fmt.Fprintf(cmd.ErrOrStderr(), "Note: %s does not list %d device(s) of the intent, which are not applied: %s (the plan was made with --device, or edited; sign plans with %s to rule out the second)\n",
				target, len(missing), strings.Join(missing, ", "), planfile.KeyEnv)
		}
	}
	if lock, err = sf.lock(cmd, sf.stateDir(s, f), "fabricgen apply "+target); err != nil {
		return nil, nil, nil, false, err
	}
	if run, err = renderPlanDevices(cmd.Context(), f, p, pf, trusted); err != nil {
		return nil, nil, lock, false, err
	}
	return p, run, lock, trusted, nil
}

// notInPlan lists the intent's devices on platforms plan and apply
// support, selected by globs (all when none), that the plan does not
// list: an unsigned plan's device list is obeyed, so what it leaves out
// is said.
func notInPlan(f *schema.Fabric, p *planfile.Plan, globs []string) []string {
	var out []string
	for _, d := range f.Devices {
		if p.Device(d.Name) != nil {
			continue
		}
		if _, err := platforms.Dialect(d.Platform.V); err != nil {
			continue
		}
		selected := len(globs) == 0
		for _, g := range globs {
			if ok, _ := path.Match(g, d.Name); ok {
				selected = true
			}
		}
		if selected {
			out = append(out, d.Name)
		}
	}
	return out
}

// planFabricDir is the fabric directory a saved plan is applied to. A
// plan names its fabric by the intent digest, which apply checks against
// the fabric it loads; the plan's dir (relative to where plan ran) is
// only where to look, followed when it stays below the working directory
// (a relative path with no ".." leaving it, and no symlink leading out).
// --fabric DIR replaces it, for a plan made elsewhere. A dir that leaves
// the working directory is refused: an edited plan must not make apply
// load another fabric and write its lock, backups and records there.
func planFabricDir(planPath string, p *planfile.Plan, flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	dir := filepath.FromSlash(p.Dir)
	if dir == "" {
		dir = "."
	}
	leaves := func(why string) error {
		return fmt.Errorf("%s: the plan's dir %q %s: apply follows a plan's dir only below the working directory; run apply from the directory plan ran in, or pass --fabric DIR (apply checks the plan's intent digest against it)", planPath, p.Dir, why)
	}
	if !filepath.IsLocal(dir) {
		return "", leaves("leaves the working directory")
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	realWd, err := filepath.EvalSymlinks(wd)
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(wd, dir))
	if err != nil {
		return "", fmt.Errorf("%s: the plan's dir %q is not below the working directory (%w): run apply from the directory plan ran in, or pass --fabric DIR (apply checks the plan's intent digest against it)", planPath, p.Dir, err)
	}
	if rel, err := filepath.Rel(realWd, real); err != nil || !filepath.IsLocal(rel) {
		return "", leaves("leads out of the working directory through a symlink (to " + real + ")")
	}
	return dir, nil
}

// hasInterrupted reports whether a device of the plan has an in-flight
// record an interrupted run left: apply then visits it even without
// changes, to clear the record of a device left clean.
func hasInterrupted(st state.Dir, p *planfile.Plan) bool {
	for _, d := range p.Devices {
		if rec, err := st.InFlight(d.Name); err == nil && rec != nil {
			return true
		}
	}
	return false
}

// selectPlanDevices keeps the plan's devices matching any glob (all when
// there is none); a glob matching no device of the plan is an error.
func selectPlanDevices(p *planfile.Plan, globs []string) (*planfile.Plan, error) {
	if len(globs) == 0 {
		return p, nil
	}
	hit := make([]bool, len(globs))
	out := *p
	out.Devices = nil
	for _, d := range p.Devices {
		matched := false
		for i, g := range globs {
			ok, err := path.Match(g, d.Name)
			if err != nil {
				return nil, fmt.Errorf("--device %q: %w", g, err)
			}
			if ok {
				hit[i], matched = true, true
			}
		}
		if matched {
			out.Devices = append(out.Devices, d)
		}
	}
	for i, g := range globs {
		if !hit[i] {
			return nil, fmt.Errorf("--device %q matches no device of the plan", g)
		}
	}
	return &out, nil
}

// renderPlanDevices lints the fabric and renders the plan's changing
// devices afresh, so apply derives its commands from the intent and not
// from the plan file. An untrusted (unsigned) plan's unchanged devices are
// rendered too: apply derives their status again rather than take the
// plan's word for it.
func renderPlanDevices(ctx context.Context, f *schema.Fabric, p *planfile.Plan, pf *pushFlags, trusted bool) (*planRun, error) {
	var devs []*schema.Device
	st := state.ForFabric(f.Dir)
	for _, pd := range p.Devices {
		if pd.Status == planfile.StatusError {
			continue
		}
		if rec, _ := st.InFlight(pd.Name); trusted && pd.Status != planfile.StatusChange && rec == nil {
			continue
		}
		d := f.Device(pd.Name)
		if d == nil {
			continue // apply reports it as not in the intent
		}
		devs = append(devs, d)
	}
	return renderDevices(ctx, f, devs, pf)
}

// confirm asks question and waits for "yes" on the input stream.
func confirm(cmd *cobra.Command, s *streams, question string) (bool, error) {
	fmt.Fprint(cmd.OutOrStdout(), "\n"+question+" Only 'yes' will be accepted: ")
	line, err := bufio.NewReader(s.in).ReadString('\n')
	if err != nil && err != io.EOF {
		return false, fmt.Errorf("read confirmation: %w", err)
	}
	return strings.TrimSpace(line) == "yes", nil
}

// writeDeviceDiffs prints what each device reported about the change it
// staged, next to fabricgen's own diff shown by the plan.
func writeDeviceDiffs(w io.Writer, results []push.Result) {
	for _, r := range results {
		if r.DeviceDiff == "" {
			continue
		}
		fmt.Fprintf(w, "\n%s (%s) reported:\n%s\n", termLine(r.Device), termLine(r.Platform), termText(r.DeviceDiff))
	}
}

// writeResults prints the final table, then what each device left
// half-done has now and how to restore it, and returns the exit status.
func writeResults(w io.Writer, verb string, results []push.Result, runErr error) error {
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "DEVICE\tPLATFORM\tRESULT\tLINES\tDETAIL")
	counts := map[push.Status]int{}
	for _, r := range results {
		counts[r.Status]++
		detail := r.Reason
		if r.Backup != "" && r.Status != push.StatusApplied {
			detail = strings.TrimSpace(detail + " (backup: " + r.Backup + ")")
		} else if r.Backup != "" {
			detail = "backup: " + r.Backup
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t+%d -%d\t%s\n", termLine(r.Device), termLine(r.Platform), termLine(string(r.Status)), r.Added, r.Removed, termLine(detail))
	}
	_ = tw.Flush()
	var restore []push.Result
	for _, r := range results {
		if r.Restore != "" {
			restore = append(restore, r)
		}
	}
	if len(restore) > 0 {
		fmt.Fprintln(w, "\nDevices left half-done, and the command that restores each:")
		for _, r := range restore {
			fmt.Fprintf(w, "  %s: %s\n    restore: %s\n", termLine(r.Device), termLine(r.Reason), termLine(r.Restore))
		}
	}
	var parts []string
	for _, st := range []push.Status{push.StatusApplied, push.StatusRestored, push.StatusUnchanged, push.StatusRolledBack, push.StatusStale, push.StatusRefused, push.StatusInterrupted, push.StatusFailed, push.StatusSkipped} {
		if counts[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[st], st))
		}
	}
	fmt.Fprintf(w, "\n%s: %s.\n", verb, strings.Join(parts, ", "))
	if runErr != nil {
		return withCode(exitFailed, runErr)
	}
	if bad := len(results) - counts[push.StatusApplied] - counts[push.StatusUnchanged] - counts[push.StatusRestored]; bad > 0 {
		return withCode(exitFailed, fmt.Errorf("%d device(s) did not end as intended; see the table above", bad))
	}
	return nil
}
