package main

import (
	"crypto/rand"
	"embed"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fatih/color"
	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/internal/check/snapshot"
	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/lint/format"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/push"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
)

// demoFabricFS is the demo's fabric, a copy of examples/clos-400g kept
// identical by TestDemoFabricMatchesExample, so fabricgen demo works from
// any directory.
//
//go:embed demofabric/*.fab.hcl
var demoFabricFS embed.FS

// demoFabricName is what the demo calls its built-in fabric.
const demoFabricName = "clos-400g"

// demoDiffLines is how much of one device's diff the demo shows without -v.
const demoDiffLines = 18

func newDemoCommand(s *streams) *cobra.Command {
	var vf varFlags
	var parallelism int
	var verbose bool
	cmd := &cobra.Command{
		Use:   "demo [DIR]",
		Short: "Lint, plan, apply, re-plan and rehearse a failure against an in-process lab",
		Long: `demo shows the whole workflow with nothing to set up, in one screen: it
starts emulated devices for the fabric (default: the built-in copy of
examples/clos-400g, 2 spines, 4 leaves and 32 NICs on all seven platforms)
on 127.0.0.1 inside this process, then runs lint, plan (showing one
device's diff), apply, plan again (which must show no changes), and
rehearses a failure: an Arista switch is changed by hand and made to refuse
the repair, apply rolls it back to exactly what it had, and once the fault
is cleared apply repairs it. Last, a dirty connector is put on one link and
fabricgen check finds it from the optics and error counters, naming the link
and the fix.

-v (--verbose) shows everything: every device's diff, every progress step
and every result table.

The lab password is generated in-process and handed to the devices and to
the SSH sessions directly; it is never printed or written. Host keys are
verified against the lab's known_hosts. Nothing outside a temporary
directory is written.`,
		Example: `  fabricgen demo
  fabricgen demo -v
  fabricgen demo examples/roce-storage`,
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
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "show every diff, progress step and result table")
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
const demoSteps = 7

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
	fmt.Fprintf(d.w, "%d emulated devices run in this process:\n%s\nEach answers SSH on 127.0.0.1 with its vendor's prompts, running config and\ntransactions; plan and apply reach them as they reach real switches.\n",
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
	d.header("A rehearsed failure, rolled back")
	if err := d.rehearse(l, run, opts); err != nil {
		return err
	}
	if err := d.checkDirtyOptic(l, run, opts); err != nil {
		return err
	}
	fmt.Fprintf(d.w, "\nDone: the lab matches the intent. Next: fabricgen lab up %s,\nthen plan and apply against it yourself (README: \"A tour\").\n", demoNextDir(args))
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

// demoNextDir is the directory the closing hint points lab up at.
func demoNextDir(args []string) string {
	if len(args) == 1 {
		return args[0]
	}
	return filepath.Join("examples", demoFabricName)
}

// writeDemoFabric writes the embedded fabric's files into dir.
func writeDemoFabric(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("demo fabric: %w", err)
	}
	files, err := fs.Glob(demoFabricFS, "demofabric/*.fab.hcl")
	if err != nil {
		return fmt.Errorf("demo fabric: %w", err)
	}
	for _, name := range files {
		b, err := demoFabricFS.ReadFile(name)
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
			fmt.Fprintf(d.w, "... and %d more devices will change (-v shows every diff).\n", changing-1)
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
		return withCode(exitFailed, fmt.Errorf("%d device(s) did not end as intended (fabricgen demo -v shows the table)", bad))
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

// dscpMapLine matches a rendered switch line mapping one DSCP value to a
// traffic class on its own line (EOS's form), which one out-of-band line
// can change and the lab can be made to refuse.
var dscpMapLine = regexp.MustCompile(`^qos map dscp (\d+) to traffic-class (\d+)$`)

// rehearse changes by hand a switch whose render maps a DSCP to a traffic
// class on a line of its own (the first such device; the platform is
// picked by property, not by name), makes it refuse the repair, shows
// apply rolling it back to exactly what it had, then clears the fault and
// repairs it.
func (d *demo) rehearse(l *lab.Lab, run *planRun, opts push.Options) error {
	var name, line, dscp string
	for _, in := range run.inputs {
		if pl, ok := platforms.Get(in.Device.Platform.V); !ok || pl.Spec.Host {
			continue
		}
		for _, rl := range strings.Split(string(in.Rendered), "\n") {
			if m := dscpMapLine.FindStringSubmatch(rl); m != nil && m[2] != "0" {
				name, line, dscp = in.Device.Name, "qos map dscp "+m[1]+" to traffic-class 0", m[1]
				break
			}
		}
		if name != "" {
			break
		}
	}
	dev := l.Device(name)
	if dev == nil {
		fmt.Fprintln(d.w, "Skipped: the fabric has no switch mapping a DSCP to a traffic class on a line of its own.")
		return nil
	}
	fmt.Fprintf(d.w, "Someone maps DSCP %s to traffic class 0 on %s by hand, and %s is made to\nrefuse the repair (fabricgen lab fault %s 'reject=^qos map').\n", dscp, name, name, name)
	if err := dev.ConfigureOutOfBand([]string{line}); err != nil {
		return withCode(exitFailed, err)
	}
	before := dev.RunningConfig()
	dev.SetFault(lab.Fault{Reject: "^qos map"})
	p, err := push.Plan(d.cmd.Context(), run.f, run.inputs, version, opts)
	if err != nil {
		return withCode(exitFailed, err)
	}
	if err := planExit(p, false); err != nil {
		return err
	}
	d.oneDiff(p)
	if err := d.apply(p, run, opts, false); err != nil {
		return err
	}
	if dev.RunningConfig() != before {
		return withCode(exitFailed, fmt.Errorf("%s's running config changed although the apply was rolled back", name))
	}
	fmt.Fprintf(d.w, "%s's running config is exactly what it was before the apply.\n", name)
	dev.ClearFault()
	fmt.Fprintf(d.w, "Fault cleared (fabricgen lab fault %s clear); apply again:\n", name)
	p, err = push.Plan(d.cmd.Context(), run.f, run.inputs, version, opts)
	if err != nil {
		return withCode(exitFailed, err)
	}
	if err := d.apply(p, run, opts, true); err != nil {
		return err
	}
	return d.replan(run, opts)
}

// checkDirtyOptic puts a dirty connector on an optical link (a leaf's
// uplink: DAC host links have no optics), runs fabricgen check over the
// lab (its clock advanced 10 s between the two readings) and shows the
// finding that names the link and the fix.
func (d *demo) checkDirtyOptic(l *lab.Lab, run *planRun, opts push.Options) error {
	dev, port := demoOpticalPort(run.inputs)
	setting := "dirty-optic=" + port
	d.header(fmt.Sprintf("fabricgen check: a dirty optic on %s:%s", dev, port))
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
		return withCode(exitFailed, err)
	}
	l.Clock().Advance(10 * time.Second)
	after, err := snapshot.Take(ctx, devs, co)
	if err != nil {
		return withCode(exitFailed, err)
	}
	findings, err := check.Evaluate(run.f, before, after, check.Options{})
	if err != nil {
		return withCode(exitFailed, err)
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
	rules := map[string]bool{}
	var ids []string
	var e, w int
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
		if !rules[fd.Rule] {
			rules[fd.Rule] = true
			ids = append(ids, fd.Rule)
		}
		if fd.Rule == "CHK010" && !d.verbose {
			fmt.Fprintln(d.w, wrapText("error[CHK010]: "+fd.Summary, 78, "  "))
			fix, _, _ := strings.Cut(fd.Fix, ":")
			fmt.Fprintln(d.w, wrapText("fix: "+fix+".", 78, "  "))
		}
	}
	sort.Strings(ids)
	fmt.Fprintf(d.w, "%s %d devices, read 10 s apart: %d error(s), %d warning(s) (%s).\n", d.bold("Check:"), len(devs), e, w, strings.Join(ids, ", "))
	if !rules["CHK010"] {
		return withCode(exitFailed, fmt.Errorf("check did not find the dirty optic on %s:%s", dev, port))
	}
	return nil
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
