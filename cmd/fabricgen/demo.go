package main

import (
	"bytes"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fatih/color"
	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/internal/check/snapshot"
	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/lint/format"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/push"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// demoFabricFS is the demo's fabric, a copy of examples/clos-400g kept
// identical by TestDemoFabricMatchesExample, so fabricgen demo works from
// any directory.
//
//go:embed demofabric/*.fab.hcl
var demoFabricFS embed.FS

// demoFabricName is what the demo calls its built-in fabric.
const demoFabricName = "clos-400g"

// demoIBFS is the demo's InfiniBand fabric, a copy of examples/ib-cluster
// kept identical by TestDemoFabricMatchesExample.
//
//go:embed demofabric-ib/*.fab.hcl
var demoIBFS embed.FS

// demoIBName is what the demo calls its built-in InfiniBand fabric.
const demoIBName = "ib-cluster"

// demoDiffLines is how much of one device's diff the demo shows without -v.
const demoDiffLines = 8

func newDemoCommand(s *streams) *cobra.Command {
	var vf varFlags
	var parallelism int
	var verbose bool
	cmd := &cobra.Command{
		Use:   "demo [DIR]",
		Short: "Lint, plan, apply, then find the seed's two field cases live in an in-process lab",
		Long: `demo shows the whole workflow with nothing to set up, in one screen: it
starts emulated devices for the fabric (default: the built-in copy of
examples/clos-400g, 2 spines, 4 leaves and 32 NICs on all seven platforms)
on 127.0.0.1 inside this process, then runs lint, plan (showing part of one
device's diff), apply, and plan again (which must show no changes). Then
it plays the seed's two field cases against the lab, each found live by
fabricgen check (two readings, the lab clock advanced 10 s between them):

  - a dirty connector on one link: check names the link and the fix
    (CHK010), and every other finding it counts is shown;
  - a spine (or core) resets RoCE's DSCP to 0: a QoS change made by hand
    (its platform's own syntax) on a switch whose ports all face
    switches. It measures the RoCE goodput
    across subnets from the lab's data plane (the receiving NICs'
    rx_write_requests counters), lets check pin the hop (CHK014, CHK016),
    shows the goodput meanwhile (about half on the built-in fabric),
    applies the intent to that switch and measures the goodput again.

A last, short step lints and renders the built-in copy of
examples/ib-cluster, an InfiniBand fabric: both subnet manager hosts get
the same OpenSM files, and the switches, which OpenSM programs, none.

The last line says how to run the lab yourself, by a path that works from
the current directory.

--verbose shows everything: every device's diff, every progress step,
every check report and every result table.

The lab password is generated in-process and handed to the devices and to
the SSH sessions directly; it is never printed or written. Host keys are
verified against the lab's known_hosts. Nothing outside a temporary
directory is written. The lab's clock is manual here (lab up --clock
manual), so the demo never waits on the wall clock.`,
		Example: `  fabricgen demo
  fabricgen demo --verbose
  fabricgen demo examples/ai-training-2subnet`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := newDemo(cmd, s, verbose)
			if err != nil {
				return err
			}
			defer func() { _ = os.RemoveAll(d.tmp) }()
			return d.run(args, &vf, parallelism)
		},
	}
	vf.register(cmd)
	cmd.Flags().IntVar(&parallelism, "parallelism", push.DefaultParallelism, "devices worked on at once")
	cmd.Flags().BoolVar(&verbose, "verbose", false, "show every diff, progress step, finding and result table")
	return cmd
}

// demo is one run of fabricgen demo.
type demo struct {
	cmd     *cobra.Command
	s       streams
	w       io.Writer
	verbose bool
	tmp     string
	step    int
	bold    func(string) string
}

// demoSteps is how many numbered steps the demo prints.
const demoSteps = 8

func newDemo(cmd *cobra.Command, s *streams, verbose bool) (*demo, error) {
	secret, err := randomSecret()
	if err != nil {
		return nil, withCode(exitFailed, err)
	}
	tmp, err := os.MkdirTemp("", "fabricgen-demo-")
	if err != nil {
		return nil, withCode(exitFailed, fmt.Errorf("temporary directory: %w", err))
	}
	// The demo's own streams: its password variable reads the in-process
	// secret; nothing else of the environment changes.
	d := &demo{cmd: cmd, s: *s, w: cmd.OutOrStdout(), verbose: verbose, tmp: tmp}
	d.s.getenv = func(k string) string {
		if k == demoPasswordEnv {
			return secret
		}
		return s.getenv(k)
	}
	d.bold = painter(d.s.colour(d.s.outTTY), color.Bold)
	return d, nil
}

func (d *demo) header(what string) {
	d.step++
	fmt.Fprintf(d.w, "\n%s %s\n", d.bold(fmt.Sprintf("==> %d/%d", d.step, demoSteps)), what)
}

func (d *demo) run(args []string, vf *varFlags, parallelism int) error {
	ctx := d.cmd.Context()
	dir, label, err := d.fabricDir(args)
	if err != nil {
		return withCode(exitFailed, err)
	}
	fmt.Fprintf(d.w, "fabricgen demo: the workflow on %s against emulated devices.\n", label)
	f, _, err := loadFabric(d.cmd, &d.s, dir, vf)
	if err != nil {
		return err
	}
	demoCredentials(f)
	var pushable []*schema.Device
	for _, dv := range f.Devices {
		if _, err := platforms.Dialect(dv.Platform.V); err == nil {
			pushable = append(pushable, dv)
		}
	}
	specs, err := labSpecs(pushable, d.s.getenv)
	if err != nil {
		return withCode(exitFailed, err)
	}
	l, inv, err := startLab(ctx, f, specs, filepath.Join(d.tmp, "lab"))
	if err != nil {
		return withCode(exitFailed, err)
	}
	defer func() { _ = l.Close() }()
	d.header("The lab")
	fmt.Fprintf(d.w, "%d emulated devices run in this process:\n%s\nEach speaks SSH on 127.0.0.1 with its vendor's CLI, config and transactions.\n",
		len(specs), wrapItems(platformCounts(pushable), 76, "  "))

	d.header("fabricgen lint " + label)
	if err := d.lint(f); err != nil {
		return err
	}

	pf := pushFlags{vf: *vf, parallelism: parallelism, timeout: 30 * time.Second, inventory: inv, knownHosts: []string{l.KnownHostsPath()}, skipUnrenderable: true}
	opts, err := pf.options(d.cmd, &d.s)
	if err != nil {
		return withCode(exitFailed, err)
	}
	opts.State = state.Dir{Path: filepath.Join(d.tmp, "state")}
	run, err := prepareFabric(ctx, f, &pf, d.cmd.ErrOrStderr(), false)
	if err != nil {
		return err
	}
	if len(run.unrendered) > 0 {
		fmt.Fprintf(d.w, "Left out: %d device(s) whose config cannot be rendered (fabricgen plan would stop here):\n", len(run.unrendered))
		for _, e := range run.unrendered {
			fmt.Fprintf(d.w, "  %s\n", e)
		}
	}
	if len(run.inputs) == 0 {
		return withCode(exitFailed, fmt.Errorf("no device of %s can be rendered", label))
	}

	d.header("fabricgen plan")
	p, err := d.plan(run, opts)
	if err != nil {
		return err
	}
	d.header("fabricgen apply -auto-approve")
	if err := d.apply(p, run, opts, true); err != nil {
		return err
	}
	d.header("fabricgen plan (again: must show no changes)")
	if err := d.replan(run, opts); err != nil {
		return err
	}
	if err := d.checkDirtyOptic(l, run, opts); err != nil {
		return err
	}
	if err := d.dscpReset(l, run, opts); err != nil {
		return err
	}
	if err := d.infiniband(); err != nil {
		return err
	}
	cwd, _ := os.Getwd()
	fmt.Fprintf(d.w, "\nDone: the lab matches the intent. %s\n", demoNext(args, cwd))
	return nil
}

// fabricDir is the argument, else the built-in fabric written to the
// demo's temporary directory; label is how the demo names it.
func (d *demo) fabricDir(args []string) (dir, label string, err error) {
	if len(args) == 1 {
		return args[0], args[0], nil
	}
	dir = filepath.Join(d.tmp, demoFabricName)
	if err := writeDemoFabric(dir); err != nil {
		return "", "", err
	}
	return dir, demoFabricName + " (built in)", nil
}

// demoNext is the closing hint: lab up on the fabric the demo ran, by a
// path that works from cwd (the argument as given; for the built-in
// fabric, examples/clos-400g of the fabricgen clone cwd is in, if any,
// relative to cwd), else how to get the fabric.
func demoNext(args []string, cwd string) string {
	const then = `then plan and apply against it yourself (README: "A tour").`
	if len(args) == 1 {
		return fmt.Sprintf("Next: fabricgen lab up %s,\n%s", shellQuote(args[0]), then)
	}
	if cwd != "" {
		for dir := cwd; ; dir = filepath.Dir(dir) {
			ex := filepath.Join(dir, "examples", demoFabricName)
			if _, err := os.Stat(filepath.Join(ex, "devices.fab.hcl")); err == nil {
				if rel, err := filepath.Rel(cwd, ex); err == nil {
					return fmt.Sprintf("Next: fabricgen lab up %s,\n%s", shellQuote(rel), then)
				}
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	return fmt.Sprintf("Next: in a clone of\n%s, fabricgen lab up examples/%s,\n%s", demoRepo, demoFabricName, then)
}

// demoRepo is where the built-in fabric's original, examples/clos-400g,
// lives.
const demoRepo = "https://github.com/fabricgen/fabricgen"

// writeDemoFabric writes the embedded fabric's files into dir.
func writeDemoFabric(dir string) error { return writeEmbedded(demoFabricFS, "demofabric", dir) }

// writeEmbedded writes the *.fab.hcl files of folder of fsys into dir.
func writeEmbedded(fsys embed.FS, folder, dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("demo fabric: %w", err)
	}
	files, err := fs.Glob(fsys, folder+"/*.fab.hcl")
	if err != nil {
		return fmt.Errorf("demo fabric: %w", err)
	}
	for _, name := range files {
		b, err := fsys.ReadFile(name)
		if err != nil {
			return fmt.Errorf("demo fabric: %w", err)
		}
		if err := readlimit.WriteFile(filepath.Join(dir, filepath.Base(name)), b, 0o600); err != nil {
			return fmt.Errorf("demo fabric: %w", err)
		}
	}
	return nil
}

// platformCounts is ["p1 2", "p2 1", …] (platform and its number of
// devices), sorted by platform name.
func platformCounts(devs []*schema.Device) []string {
	n := map[string]int{}
	for _, d := range devs {
		n[string(d.Platform.V)]++
	}
	names := make([]string, 0, len(n))
	for p := range n {
		names = append(names, p)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, p := range names {
		parts[i] = fmt.Sprintf("%s %d", p, n[p])
	}
	return parts
}

// wrapItems joins items with ", " into lines of at most width columns,
// each starting with indent; an item is never split.
func wrapItems(items []string, width int, indent string) string {
	var b strings.Builder
	line := indent
	for i, item := range items {
		if i < len(items)-1 {
			item += ","
		}
		if line != indent && len(line)+1+len(item) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += item
	}
	b.WriteString(line)
	return b.String()
}

// infiniband is the demo's InfiniBand step, on the built-in copy of
// examples/ib-cluster: lint, then render, and show that every subnet
// manager host gets the same files while the switches get none (OpenSM
// programs them).
func (d *demo) infiniband() error {
	ctx := d.cmd.Context()
	dir := filepath.Join(d.tmp, demoIBName)
	if err := writeEmbedded(demoIBFS, "demofabric-ib", dir); err != nil {
		return withCode(exitFailed, err)
	}
	f, _, err := loadFabric(d.cmd, &d.s, dir, &varFlags{})
	if err != nil {
		return err
	}
	findings, err := lint.Run(ctx, f, lint.Options{})
	if err != nil {
		return withCode(exitFailed, fmt.Errorf("lint %s: %w", demoIBName, err))
	}
	// The subnet manager hosts in a lab of their own, pushed as plan and
	// apply push them: the switches and HCAs are OpenSM's to program.
	demoCredentials(f)
	specs, err := labSpecs(pushedOnly(f, f.Devices), d.s.getenv)
	if err != nil {
		return withCode(exitFailed, err)
	}
	l, inv, err := startLab(ctx, f, specs, filepath.Join(d.tmp, "lab-ib"))
	if err != nil {
		return withCode(exitFailed, err)
	}
	defer func() { _ = l.Close() }()
	pf := pushFlags{parallelism: 2, timeout: 30 * time.Second, inventory: inv, knownHosts: []string{l.KnownHostsPath()}}
	opts, err := pf.options(d.cmd, &d.s)
	if err != nil {
		return withCode(exitFailed, err)
	}
	opts.State = state.Dir{Path: filepath.Join(d.tmp, "state-ib")}
	run, err := renderDevices(ctx, f, f.Devices, &pf)
	if err != nil {
		return err
	}
	var sms []string
	files := 0
	for _, in := range run.inputs {
		if !bytes.Equal(in.Rendered, run.inputs[0].Rendered) {
			return withCode(exitFailed, fmt.Errorf("render %s: subnet manager %s's files differ from %s's", demoIBName, in.Device.Name, sms[0]))
		}
		sms = append(sms, in.Device.Name)
		files = bytes.Count(in.Rendered, []byte("\n=== /"))
	}
	_, managed := splitManaged(f.Devices)
	p, err := push.Plan(ctx, f, run.inputs, version, opts)
	if err != nil {
		return withCode(exitFailed, err)
	}
	results, err := push.Apply(ctx, p, f, run.inputs, push.ApplyOptions{Options: opts, TrustPlan: true})
	if err != nil {
		return withCode(exitFailed, err)
	}
	again, err := push.Plan(ctx, f, run.inputs, version, opts)
	if err != nil {
		return withCode(exitFailed, err)
	}
	d.header(fmt.Sprintf("InfiniBand: fabricgen lint, render and apply %s (built in)", demoIBName))
	fmt.Fprintf(d.w, "%d finding(s); %s get the same %d OpenSM files, the %d switches none.\n",
		len(findings), strings.Join(sms, " and "), files, len(managed))
	fmt.Fprintf(d.w, "%s %s, OpenSM's tables read back; plan again: %d to change.\n",
		d.bold("Apply:"), resultCounts(results), again.Summary().Change)
	for _, r := range results {
		if r.Status != push.StatusApplied {
			return withCode(exitFailed, fmt.Errorf("apply %s: %s: %s: %s", demoIBName, r.Device, r.Status, r.Reason))
		}
	}
	if again.Summary().Change != 0 {
		return withCode(exitFailed, fmt.Errorf("%s: plan after apply still changes %s", demoIBName, unconverged(again)))
	}
	return nil
}

func (d *demo) lint(f *schema.Fabric) error {
	findings, err := lint.Run(d.cmd.Context(), f, lint.Options{})
	if err != nil {
		return withCode(exitFailed, fmt.Errorf("lint: %w", err))
	}
	bySev := map[schema.Severity]int{}
	for _, fd := range findings {
		bySev[fd.Severity]++
	}
	fmt.Fprintf(d.w, "%d devices, %d links: %d error(s), %d warning(s), %d info; RoCE data and CNP\nget the same lossless treatment at every hop.\n",
		len(f.Devices), len(f.Links), bySev[schema.SevError], bySev[schema.SevWarning], bySev[schema.SevInfo])
	return nil
}

// plan plans every device; without -v it shows the smallest changing
// device's diff (shortened) and the total.
func (d *demo) plan(run *planRun, opts push.Options) (*planfile.Plan, error) {
	p, err := push.Plan(d.cmd.Context(), run.f, run.inputs, version, opts)
	if err != nil {
		return nil, withCode(exitFailed, err)
	}
	if d.verbose {
		writePlanHuman(d.w, p, run.skipped, planView{colour: d.s.colour(d.s.outTTY)})
	} else {
		d.oneDiff(p)
	}
	return p, planExit(p, false)
}

// oneDiff prints the diff of the changing device with the fewest changed
// lines, cut at demoDiffLines, and a line about the others.
func (d *demo) oneDiff(p *planfile.Plan) {
	var pick *planfile.Device
	changing := 0
	for _, pd := range p.Devices {
		if pd.Status != planfile.StatusChange {
			continue
		}
		changing++
		if pick == nil || pd.Diff.Added+pd.Diff.Removed < pick.Diff.Added+pick.Diff.Removed {
			pick = pd
		}
	}
	if pick != nil {
		writeShortDiff(d.w, pick, demoDiffLines, d.s.colour(d.s.outTTY))
		if changing > 1 {
			fmt.Fprintf(d.w, "... and %d more devices will change (--verbose shows every diff).\n", changing-1)
		}
	}
	fmt.Fprintf(d.w, "%s %s.\n", d.bold("Plan:"), summaryLine(p))
}

// writeShortDiff prints one device's header and at most max diff lines.
func writeShortDiff(w io.Writer, pd *planfile.Device, max int, colour bool) {
	add, del, hunk := painter(colour, color.FgGreen), painter(colour, color.FgRed), painter(colour, color.FgCyan)
	fmt.Fprintf(w, "%s (%s) will change: +%d -%d lines\n", pd.Name, pd.Platform, pd.Diff.Added, pd.Diff.Removed)
	lines := strings.Split(strings.TrimSuffix(pd.Diff.Text, "\n"), "\n")
	for i, l := range lines {
		if i == max {
			fmt.Fprintf(w, "  ... %d more lines of %s's diff\n", len(lines)-max, pd.Name)
			break
		}
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			fmt.Fprintln(w, l)
		case strings.HasPrefix(l, "@@"):
			fmt.Fprintln(w, hunk(l))
		case strings.HasPrefix(l, "+"):
			fmt.Fprintln(w, add(l))
		case strings.HasPrefix(l, "-"):
			fmt.Fprintln(w, del(l))
		default:
			fmt.Fprintln(w, l)
		}
	}
}

// apply applies p with a progress display; wantOK makes any device that
// did not end as intended an error.
func (d *demo) apply(p *planfile.Plan, run *planRun, opts push.Options, wantOK bool) error {
	var results []push.Result
	var err error
	if d.verbose || d.s.errTTY {
		prog := newProgress(d.cmd, &d.s, len(p.Devices))
		opts.Events = prog.event
		results, err = push.Apply(d.cmd.Context(), p, run.f, run.inputs, push.ApplyOptions{Options: opts, TrustPlan: true})
		prog.wait()
	} else {
		prog := newDemoProgress(d.w, p.Summary().Change)
		opts.Events = prog.event
		results, err = push.Apply(d.cmd.Context(), p, run.f, run.inputs, push.ApplyOptions{Options: opts, TrustPlan: true})
	}
	if d.verbose {
		if werr := writeResults(d.w, "Apply", results, err); werr != nil && wantOK {
			return werr
		}
		fmt.Fprintln(d.w, "(The demo's backups live in its temporary directory and are removed when it exits.)")
		return nil
	}
	if err != nil {
		return withCode(exitFailed, err)
	}
	bad := 0
	for _, r := range results {
		if r.Status != push.StatusApplied && r.Status != push.StatusUnchanged {
			bad++
			fmt.Fprintf(d.w, "%s (%s): %s: %s\n", r.Device, r.Platform, r.Status, r.Reason)
		}
	}
	fmt.Fprintf(d.w, "%s %s.\n", d.bold("Apply:"), resultCounts(results))
	if bad > 0 && wantOK {
		return withCode(exitFailed, fmt.Errorf("%d device(s) did not end as intended (fabricgen demo --verbose shows the table)", bad))
	}
	return nil
}

// resultCounts is "38 applied" or "1 rolled back, 37 unchanged".
func resultCounts(results []push.Result) string {
	counts := map[push.Status]int{}
	for _, r := range results {
		counts[r.Status]++
	}
	var parts []string
	for _, st := range []push.Status{push.StatusApplied, push.StatusRestored, push.StatusUnchanged, push.StatusRolledBack, push.StatusStale, push.StatusRefused, push.StatusInterrupted, push.StatusFailed, push.StatusSkipped} {
		if counts[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[st], st))
		}
	}
	return strings.Join(parts, ", ")
}

// replan plans again and fails when anything would still change.
func (d *demo) replan(run *planRun, opts push.Options) error {
	p, err := push.Plan(d.cmd.Context(), run.f, run.inputs, version, opts)
	if err != nil {
		return withCode(exitFailed, err)
	}
	if d.verbose {
		writePlanHuman(d.w, p, run.skipped, planView{colour: d.s.colour(d.s.outTTY)})
	} else {
		fmt.Fprintf(d.w, "%s %s.\n", d.bold("Plan:"), summaryLine(p))
	}
	if err := planExit(p, false); err != nil {
		return err
	}
	if p.HasChanges() {
		return withCode(exitFailed, fmt.Errorf("the plan still has changes: %s", unconverged(p)))
	}
	return nil
}

// demoGoodputWindow is how far the demo advances the lab clock for one
// goodput reading or check.
const demoGoodputWindow = 10 * time.Second

// dscpReset is the seed's second case: a spine resets RoCE's DSCP to 0
// by hand (its platform's hand edit, platform.Platform.ZeroDSCP). It
// measures the cross-subnet RoCE goodput in the lab's data plane, lets
// fabricgen check pin the hop, applies the intent (which repairs the
// edit) and measures again.
func (d *demo) dscpReset(l *lab.Lab, run *planRun, opts push.Options) error {
	spine, edit := demoSpine(run.f, run.inputs)
	if spine == "" {
		d.header("Seed case 2: a spine resets RoCE's DSCP to 0")
		fmt.Fprintln(d.w, "Skipped: the fabric has no switch whose ports all face other switches.")
		return nil
	}
	dev := l.Device(spine)
	d.header(fmt.Sprintf("Seed case 2: %s resets RoCE's DSCP to 0", spine))
	before, flows, err := d.goodput(l)
	if err != nil {
		return err
	}
	if flows == 0 {
		fmt.Fprintln(d.w, "Skipped: no RoCE flow of the lab crosses from one leaf (subnet) to another.")
		return nil
	}
	fmt.Fprintf(d.w, "RoCE goodput across subnets (%d flows, read from the lab's data plane):\n%s per NIC.\n", flows, gbps(before))
	fmt.Fprintln(d.w, wrapText(fmt.Sprintf("Someone gives %s by hand a QoS change that sends RoCE (UDP 4791) on to its %d leaves with DSCP 0, as the seed's core switch did.", spine, len(edit.ports)), 78, ""))
	if err := dev.ConfigureOutOfBand(edit.lines); err != nil {
		return withCode(exitFailed, err)
	}
	broken, _, err := d.goodput(l)
	if err != nil {
		return err
	}
	findings, n, err := d.check(l, run, opts)
	if err != nil {
		return err
	}
	e, w := d.printFindings(findings, map[string]bool{"CHK014": true, "CHK016": true})
	d.checkLine(n, e, w, findings)
	if !demoHasRule(findings, "CHK014") && !demoHasRule(findings, "CHK016") {
		return withCode(exitFailed, fmt.Errorf("check did not find %s's DSCP reset (no CHK014 or CHK016)", spine))
	}
	if broken < 0.99*before {
		fmt.Fprintln(d.w, wrapText(fmt.Sprintf("Goodput across subnets meanwhile: %s per NIC, %.0f%% of %s: with its DSCP reset at %s, RoCE crossed a lossy queue, where each drop costs a go-back-N resend.",
			gbps(broken), 100*broken/before, gbps(before), spine), 78, ""))
	} else {
		fmt.Fprintln(d.w, wrapText(fmt.Sprintf("Goodput across subnets meanwhile: %s per NIC, unchanged: the hops after %s put RoCE back in its class, as this intent marks it on every hop.",
			gbps(broken), spine), 78, ""))
	}
	fmt.Fprintf(d.w, "The fix: fabricgen apply puts %s back to the intent.\n", spine)
	p, err := push.Plan(d.cmd.Context(), run.f, run.inputs, version, opts)
	if err != nil {
		return withCode(exitFailed, err)
	}
	if err := planExit(p, false); err != nil {
		return err
	}
	if d.verbose {
		writePlanHuman(d.w, p, run.skipped, planView{colour: d.s.colour(d.s.outTTY)})
	} else {
		fmt.Fprintf(d.w, "%s %s.\n", d.bold("Plan:"), summaryLine(p))
	}
	if err := d.apply(p, run, opts, true); err != nil {
		return err
	}
	after, _, err := d.goodput(l)
	if err != nil {
		return err
	}
	fmt.Fprintf(d.w, "Goodput across subnets after the fix: %s per NIC.\n", gbps(after))
	if after < 0.99*before {
		return withCode(exitFailed, fmt.Errorf("goodput %s before the DSCP reset, %s after the fix: the fix did not restore it", gbps(before), gbps(after)))
	}
	return d.replan(run, opts)
}

// demoEdit is a spine's DSCP reset: the ports it applies to and its
// lines.
type demoEdit struct {
	ports []string
	lines []string
}

// demoSpine is the first switch whose every linked port faces another
// switch (a spine or core) and whose platform has a DSCP reset hand edit,
// and that edit on its linked ports.
func demoSpine(f *schema.Fabric, inputs []push.Input) (string, demoEdit) {
	for _, in := range inputs {
		sd := in.Device
		if sd.HostPlatform {
			continue
		}
		p, ok := platforms.Get(sd.Platform.V)
		if !ok || p.ZeroDSCP == nil {
			continue
		}
		var down []string
		for _, pt := range sd.Ports {
			if pt.Peer == nil {
				continue
			}
			if pt.Peer.Device.HostPlatform {
				down = nil
				break
			}
			down = append(down, pt.Name)
		}
		if len(down) == 0 {
			continue
		}
		return sd.Name, demoEdit{ports: down, lines: p.ZeroDSCP(demoRoCEAt(f, sd, down))}
	}
	return "", demoEdit{}
}

// demoRoCEAt is RoCE at switch sd, for its hand edit on ports: the
// intent's RoCE class (its name as the render gives it, its priority) and
// the queue sd's QoS puts that priority in.
func demoRoCEAt(f *schema.Fabric, sd *schema.Device, ports []string) platform.RoCEAt {
	at := platform.RoCEAt{Ports: ports}
	roce := f.ClassByRole(schema.RoleRoCE)
	if roce == nil {
		return at
	}
	at.Priority = roce.Priority.V
	at.Class = view.ClassNames(f)[at.Priority]
	at.Queue = at.Priority
	for _, pt := range sd.Ports {
		if pt.QoS != nil && at.Priority >= 0 && at.Priority < 8 {
			if q := pt.QoS.Queue[at.Priority]; q.Set {
				at.Queue = q.V
			}
			break
		}
	}
	return at
}

// goodput advances the lab clock by demoGoodputWindow and returns the
// mean RoCE goodput (bytes/s) per receiving NIC of the flows that cross
// from one switch to another (another subnet), read from the receivers'
// rx_write_requests counters in the lab's data plane, and their number.
func (d *demo) goodput(l *lab.Lab) (float64, int, error) {
	dp := l.DataPlane()
	type rx struct{ dev, port string }
	var rxs []rx
	for _, fl := range dp.Flows() {
		if fl.SrcSwitch != fl.DstSwitch {
			rxs = append(rxs, rx{fl.Dst, fl.DstPort})
		}
	}
	read := func() ([]uint64, error) {
		out := make([]uint64, len(rxs))
		for i, r := range rxs {
			pv, ok := dp.View(r.dev).Port(r.port)
			if !ok {
				return nil, fmt.Errorf("lab data plane: no port %s:%s", r.dev, r.port)
			}
			out[i] = pv.C(dataplane.RxWriteRequests)
		}
		return out, nil
	}
	a, err := read()
	if err != nil {
		return 0, 0, withCode(exitFailed, err)
	}
	l.Clock().Advance(demoGoodputWindow)
	b, err := read()
	if err != nil {
		return 0, 0, withCode(exitFailed, err)
	}
	if len(rxs) == 0 {
		return 0, 0, nil
	}
	var sum float64
	for i := range rxs {
		sum += float64(b[i]-a[i]) * dataplane.RoCEPacket
	}
	return sum / demoGoodputWindow.Seconds() / float64(len(rxs)), len(rxs), nil
}

// gbps prints bytes/s as Gb/s.
func gbps(bytesPerSec float64) string { return fmt.Sprintf("%.1f Gb/s", bytesPerSec*8/1e9) }

// checkDirtyOptic puts a dirty connector on an optical link (a leaf's
// uplink: DAC host links have no optics), runs fabricgen check over the
// lab (its clock advanced between the two readings) and shows every
// finding it counts, the one naming the link and the fix in full.
func (d *demo) checkDirtyOptic(l *lab.Lab, run *planRun, opts push.Options) error {
	dev, port := demoOpticalPort(run.inputs)
	setting := "dirty-optic=" + port
	d.header(fmt.Sprintf("Seed case 1: a dirty optic on %s:%s", dev, port))
	if dev == "" {
		fmt.Fprintln(d.w, "Skipped: no switch port of the fabric is on an optical link.")
		return nil
	}
	var f lab.Fault
	if err := f.Set(setting); err != nil {
		return withCode(exitFailed, err)
	}
	l.Device(dev).SetFault(f)
	defer l.Device(dev).ClearFault()
	findings, n, err := d.check(l, run, opts)
	if err != nil {
		return err
	}
	e, w := d.printFindings(findings, map[string]bool{"CHK010": true})
	d.checkLine(n, e, w, findings)
	if !demoHasRule(findings, "CHK010") {
		return withCode(exitFailed, fmt.Errorf("check did not find the dirty optic on %s:%s", dev, port))
	}
	return nil
}

// check runs fabricgen check over the lab: two readings of every device
// with the lab clock advanced demoGoodputWindow between them. It returns
// the findings and the number of devices read.
func (d *demo) check(l *lab.Lab, run *planRun, opts push.Options) ([]check.Finding, int, error) {
	var devs []*schema.Device
	for _, in := range run.inputs {
		devs = append(devs, in.Device)
	}
	ctx := d.cmd.Context()
	co := snapshot.Options{Parallelism: opts.Parallelism, Timeout: opts.Timeout, HostKeys: opts.HostKeys, Inventory: opts.Inventory,
		Getenv: opts.Getenv, Now: l.Clock().Time, Clock: check.ClockLab, Sessions: snapshot.NewSessions(ctx)}
	defer func() { _ = co.Sessions.Close() }()
	before, err := snapshot.Take(ctx, devs, co)
	if err != nil {
		return nil, 0, withCode(exitFailed, err)
	}
	l.Clock().Advance(demoGoodputWindow)
	after, err := snapshot.Take(ctx, devs, co)
	if err != nil {
		return nil, 0, withCode(exitFailed, err)
	}
	findings, err := check.Evaluate(run.f, before, after, check.Options{})
	if err != nil {
		return nil, 0, withCode(exitFailed, err)
	}
	if d.verbose {
		res := &format.Result{Sources: run.f.Files, Rules: check.LintRules(), Valid: true, Color: d.s.colour(d.s.outTTY)}
		for i := range findings {
			res.Diagnostics = append(res.Diagnostics, &findings[i])
		}
		if f, err := format.Lookup("text"); err == nil {
			_ = f.Write(d.w, res)
		}
	}
	return findings, len(devs), nil
}

// printFindings prints (without --verbose, which prints the whole
// report) every error and warning the check line counts: those of the
// rules in full, with their fix, the others as one shortened line each.
// It returns the errors and warnings.
func (d *demo) printFindings(findings []check.Finding, full map[string]bool) (e, w int) {
	for i := range findings {
		fd := &findings[i]
		switch fd.Severity {
		case schema.SevError:
			e++
		case schema.SevWarning:
			w++
		default:
			continue
		}
		if d.verbose {
			continue
		}
		head := fmt.Sprintf("%s[%s]: ", fd.Severity, fd.Rule)
		if full[fd.Rule] {
			fmt.Fprintln(d.w, wrapText(head+demoShorten(fd.Summary, 230), 78, "  "))
			fix, _, _ := strings.Cut(fd.Fix, ":")
			fmt.Fprintln(d.w, wrapText("fix: "+strings.TrimSuffix(fix, ".")+".", 78, "  "))
			continue
		}
		fmt.Fprintln(d.w, wrapText(head+demoShorten(fd.Summary, 140), 78, "  "))
	}
	return e, w
}

// checkLine prints the check's counts, every one of them shown above it.
func (d *demo) checkLine(devices, e, w int, findings []check.Finding) {
	line := wrapText(fmt.Sprintf("Check: %d devices, read %d s apart: %d error(s), %d warning(s) (%s).",
		devices, int(demoGoodputWindow.Seconds()), e, w, ruleList(findings)), 78, "  ")
	fmt.Fprintln(d.w, d.bold("Check:")+strings.TrimPrefix(line, "Check:"))
}

// demoShorten cuts s at the end of a clause (": ", "; " or " (") before
// max runes, else at a word, marking the cut with "…".
func demoShorten(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	cut := string(r[:max])
	best := -1
	for _, sep := range []string{": ", "; ", " ("} {
		if i := strings.LastIndex(cut, sep); i > best && i > max/3 {
			best = i
		}
	}
	if best < 0 {
		best = strings.LastIndex(cut, " ")
	}
	if best < 0 {
		best = len(cut)
	}
	return strings.TrimRight(cut[:best], " ,;:") + " …"
}

// ruleList is the sorted rules of the errors and warnings, comma-separated.
func ruleList(findings []check.Finding) string {
	seen := map[string]bool{}
	var ids []string
	for _, fd := range findings {
		if fd.Severity != schema.SevError && fd.Severity != schema.SevWarning {
			continue
		}
		if !seen[fd.Rule] {
			seen[fd.Rule] = true
			ids = append(ids, fd.Rule)
		}
	}
	sort.Strings(ids)
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

// demoHasRule reports whether an error or warning of rule is among findings.
func demoHasRule(findings []check.Finding, rule string) bool {
	for _, fd := range findings {
		if fd.Rule == rule && (fd.Severity == schema.SevError || fd.Severity == schema.SevWarning) {
			return true
		}
	}
	return false
}

// demoOpticalPort is the first optical port (a link whose media is not
// dac or backplane) of a switch that faces NICs, else of any switch.
func demoOpticalPort(inputs []push.Input) (string, string) {
	for _, leafOnly := range []bool{true, false} {
		for _, in := range inputs {
			sd := in.Device
			if sd.HostPlatform {
				continue
			}
			facesNIC, first := false, ""
			for _, p := range sd.Ports {
				if p.Peer == nil || p.Link == nil {
					continue
				}
				if p.Peer.Device.HostPlatform {
					facesNIC = true
				}
				if m := p.Link.Media.V; first == "" && m != "dac" && m != "backplane" {
					first = p.Name
				}
			}
			if first != "" && (facesNIC || !leafOnly) {
				return sd.Name, first
			}
		}
	}
	return "", ""
}

// wrapText breaks s into lines of at most width columns, continuation
// lines indented.
func wrapText(s string, width int, indent string) string {
	var b strings.Builder
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len([]rune(line))+1+len([]rune(w)) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if line != "" && line != indent {
			line += " "
		}
		line += w
	}
	b.WriteString(line)
	return b.String()
}

// demoProgress prints a line when a quarter of the devices are done: the
// demo's progress without a terminal, a few lines instead of one per step.
type demoProgress struct {
	mu      sync.Mutex
	w       io.Writer
	total   int
	done    map[string]bool
	shown   int
	started time.Time
}

func newDemoProgress(w io.Writer, total int) *demoProgress {
	return &demoProgress{w: w, total: total, done: map[string]bool{}, started: time.Now()}
}

func (pr *demoProgress) event(e push.Event) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if !e.Done || pr.done[e.Device] || pr.total < 4 {
		return
	}
	pr.done[e.Device] = true
	n := len(pr.done)
	if quarter := 4 * n / pr.total; quarter > pr.shown {
		pr.shown = quarter
		fmt.Fprintf(pr.w, "  %d/%d devices done [%.1fs elapsed]\n", n, pr.total, time.Since(pr.started).Seconds())
	}
}

// demoPasswordEnv is the variable the demo's devices log in with; the demo
// answers it in-process and never exports it.
const demoPasswordEnv = "FABRICGEN_DEMO_PASSWORD"

// demoCredentials points every device of the in-memory fabric at the
// demo's generated lab password (keeping its username), so the demo needs
// neither the intent's key files nor its password variables.
func demoCredentials(f *schema.Fabric) {
	for _, d := range f.Devices {
		user := d.Credentials.Username
		if user.V == "" {
			user = schema.Value[string]{V: "admin", Set: true}
		}
		d.Credentials = schema.Credentials{
			Range:       d.Credentials.Range,
			Username:    user,
			PasswordEnv: schema.Value[string]{V: demoPasswordEnv, Set: true},
		}
	}
}

func randomSecret() (string, error) {
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate the lab password: %w", err)
	}
	return hex.EncodeToString(b), nil
}

func unconverged(p *planfile.Plan) string {
	var names []string
	for _, d := range p.Devices {
		if d.Status == planfile.StatusChange {
			names = append(names, d.Name)
		}
	}
	return fmt.Sprint(names)
}
