package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/fabricgen/fabricgen/push"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
)

func newApplyCommand(s *streams) *cobra.Command {
	var pf pushFlags
	var autoApprove, failFast, deviceDiff bool
	var backupDir string
	var commitTimer time.Duration
	cmd := &cobra.Command{
		Use:   "apply [PLANFILE | DIR]",
		Short: "Change the devices to match the intent, safely",
		Long: `apply changes every device that has changes.

With a plan file (from "fabricgen plan -out FILE"), it applies exactly that
plan: each device is re-fetched first and refused when its running config
changed since the plan (stale), and the whole plan is refused when the
intent changed. With a directory (default "."), it plans, shows the plan,
and asks for "yes" unless -auto-approve.

Per device: the running config is saved to
.fabricgen/backups/<device>/<UTC time>.cfg before any change; the change is
staged with the platform's transaction (EOS configuration session with
commit timer, then confirmed; NX-OS checkpoint; host NIC commands one at a
time); the device is re-read and must show no difference; any failure
rolls that device back and says so. A final table reports each device:
applied, unchanged, rolled back, stale, failed or skipped, with the reason.

Exit status: 0 every device applied or unchanged, 1 otherwise.`,
		Example: `  fabricgen plan . -out plan.json && fabricgen apply plan.json
  fabricgen apply examples/roce-storage -auto-approve
  fabricgen apply . --device 'leaf*' --fail-fast --parallelism 4`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := pf.options(cmd, s)
			if err != nil {
				return withCode(exitFailed, err)
			}
			target := fabricDir(args)
			var p *planfile.Plan
			var f *schema.Fabric
			w := cmd.OutOrStdout()
			if st, err := os.Stat(target); err == nil && !st.IsDir() {
				if p, err = planfile.Load(target); err != nil {
					return withCode(exitFailed, err)
				}
				if f, _, err = loadFabric(cmd, s, p.Dir, &pf.vf); err != nil {
					return err
				}
				fmt.Fprintf(w, "Applying saved plan %s (fabric %s): %s.\n", target, p.Fabric, summaryLine(p))
			} else {
				run, err := prepare(cmd.Context(), cmd, s, target, &pf)
				if err != nil {
					return err
				}
				f = run.f
				if p, err = push.Plan(cmd.Context(), run.f, run.inputs, version, opts); err != nil {
					return withCode(exitFailed, err)
				}
				writePlanHuman(w, p, run.skipped, s.colour(s.outTTY))
				if err := planExit(p, false); err != nil {
					return err
				}
				if !p.HasChanges() {
					fmt.Fprintln(w, "\nNo changes. The devices match the intent.")
					return nil
				}
				if !autoApprove {
					ok, err := confirm(cmd, s)
					if err != nil {
						return withCode(exitFailed, err)
					}
					if !ok {
						return withCode(exitFailed, fmt.Errorf("apply cancelled: nothing was changed"))
					}
				}
			}
			prog := newProgress(cmd, s)
			opts.Events = prog.event
			results, err := push.Apply(cmd.Context(), p, f, push.ApplyOptions{
				Options:     opts,
				BackupDir:   backupDir,
				FailFast:    failFast,
				CommitTimer: commitTimer,
			})
			prog.wait()
			if err != nil && results == nil {
				return withCode(exitFailed, err)
			}
			if deviceDiff {
				writeDeviceDiffs(w, results)
			}
			return writeResults(w, results, err)
		},
	}
	pf.register(cmd)
	fl := cmd.Flags()
	fl.BoolVar(&autoApprove, "auto-approve", false, "do not ask for confirmation")
	fl.BoolVar(&failFast, "fail-fast", false, "start no more devices after the first failure")
	fl.StringVar(&backupDir, "backup-dir", ".fabricgen/backups", "where running configs are saved before changes")
	fl.BoolVar(&deviceDiff, "device-diff", false, "print each device's own view of the staged change (EOS show session-config diffs, Junos show | compare, nv config diff, apply-patch log)")
	fl.DurationVar(&commitTimer, "commit-timer", 5*time.Minute, "EOS: the device rolls the commit back unless confirmed within this time")
	return cmd
}

// confirm asks for "yes" on the input stream.
func confirm(cmd *cobra.Command, s *streams) (bool, error) {
	fmt.Fprint(cmd.OutOrStdout(), "\nDo you want to apply these changes? Only 'yes' will be accepted: ")
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
		fmt.Fprintf(w, "\n%s (%s) reported:\n%s\n", r.Device, r.Platform, r.DeviceDiff)
	}
}

// writeResults prints the final table and returns the exit status.
func writeResults(w io.Writer, results []push.Result, applyErr error) error {
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t+%d −%d\t%s\n", r.Device, r.Platform, r.Status, r.Added, r.Removed, detail)
	}
	_ = tw.Flush()
	var parts []string
	for _, st := range []push.Status{push.StatusApplied, push.StatusUnchanged, push.StatusRolledBack, push.StatusStale, push.StatusFailed, push.StatusSkipped} {
		if counts[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[st], st))
		}
	}
	fmt.Fprintf(w, "\nApply: %s.\n", strings.Join(parts, ", "))
	if applyErr != nil {
		return withCode(exitFailed, applyErr)
	}
	if bad := len(results) - counts[push.StatusApplied] - counts[push.StatusUnchanged]; bad > 0 {
		return withCode(exitFailed, fmt.Errorf("%d device(s) not applied; see the table above", bad))
	}
	return nil
}

// progress shows one line per device in flight: an mpb spinner on a
// terminal, plain "device: step" lines otherwise.
type progress struct {
	mu   sync.Mutex
	w    io.Writer
	p    *mpb.Progress
	bars map[string]*mpb.Bar
	// steps is read by mpb's render goroutine; it has its own lock so a
	// render never waits on event.
	steps sync.Map
}

func newProgress(cmd *cobra.Command, s *streams) *progress {
	pr := &progress{w: cmd.ErrOrStderr(), bars: map[string]*mpb.Bar{}}
	if s.errTTY {
		pr.p = mpb.NewWithContext(cmd.Context(), mpb.WithOutput(cmd.ErrOrStderr()), mpb.WithWidth(16))
	}
	return pr
}

func (pr *progress) event(e push.Event) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.p == nil {
		fmt.Fprintf(pr.w, "%s: %s\n", e.Device, e.Step)
		return
	}
	pr.steps.Store(e.Device, e.Step)
	b, ok := pr.bars[e.Device]
	if !ok {
		dev := e.Device
		b = pr.p.New(0, mpb.SpinnerStyle(),
			mpb.PrependDecorators(decor.Name(dev, decor.WCSyncSpaceR), decor.Any(func(decor.Statistics) string {
				v, _ := pr.steps.Load(dev)
				step, _ := v.(string)
				return step
			}, decor.WCSyncSpaceR)),
			mpb.BarRemoveOnComplete())
		pr.bars[e.Device] = b
	}
	if e.Done {
		b.SetTotal(-1, true)
	}
}

func (pr *progress) wait() {
	if pr.p != nil {
		pr.p.Wait()
	}
}
