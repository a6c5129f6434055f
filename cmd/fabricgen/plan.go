package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fatih/color"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/internal/natsort"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/push"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
	"github.com/fabricgen/fabricgen/templates/view"
)

// pushFlags are the flags plan and apply share.
type pushFlags struct {
	vf          varFlags
	devices     []string
	knownHosts  []string
	insecure    bool
	parallelism int
	timeout     time.Duration
	maxOutput   int
	inventory   string
	templates   string
	noTakeover  bool
	// trustRecords is --trust-records (plan, apply and rollback only).
	trustRecords bool
	// skipUnrenderable leaves out devices whose config cannot be rendered
	// instead of failing (the demo's choice; plan and apply fail).
	skipUnrenderable bool
}

func (pf *pushFlags) register(cmd *cobra.Command) {
	pf.vf.register(cmd)
	fl := cmd.Flags()
	fl.StringArrayVar(&pf.devices, "device", nil, "only these devices (glob, repeatable): --device 'leaf*'")
	fl.StringArrayVar(&pf.knownHosts, "known-hosts", nil, "known_hosts file with the devices' host keys (default ~/.ssh/known_hosts; repeatable)")
	fl.BoolVar(&pf.insecure, "insecure-ignore-host-key", false, "accept any host key (prints a warning; never in production)")
	fl.IntVar(&pf.parallelism, "parallelism", push.DefaultParallelism, "devices worked on at once")
	fl.DurationVar(&pf.timeout, "timeout", 30*time.Second, "per-device SSH handshake and per-command timeout")
	fl.IntVar(&pf.maxOutput, "max-device-output", session.DefaultMaxOutput>>20, "MiB a device may send in answer to one command (or before its prompt); a device sending more fails (0: the default)")
	fl.StringVar(&pf.inventory, "inventory", "", inventoryHelp)
	fl.StringVar(&pf.templates, "templates", "", "folder of per-platform template overrides (DIR/PLATFORM/*.tmpl; see docs/templates.md)")
	fl.BoolVar(&pf.noTakeover, "no-takeover", false, "refuse a device whose change would remove or replace managed lines fabricgen did not create (brownfield config), instead of taking them over")
}

// registerTrust adds --trust-records, for the commands that remove what a
// last-applied record says fabricgen made (plan, apply, rollback).
func (pf *pushFlags) registerTrust(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&pf.trustRecords, "trust-records", false, "remove what only an unsigned last-applied record (.fabricgen/applied, no FABRICGEN_PLAN_KEY) says fabricgen made, where the device still holds exactly that; review the records first (git log -p .fabricgen/applied). Without it such removals are held back and plan lists them as kept")
}

// options builds push options from the flags.
func (pf *pushFlags) options(cmd *cobra.Command, s *streams) (push.Options, error) {
	if pf.parallelism < 1 {
		return push.Options{}, fmt.Errorf("--parallelism %d: give at least 1", pf.parallelism)
	}
	if pf.timeout <= 0 {
		return push.Options{}, fmt.Errorf("--timeout %s: give a positive duration such as 30s", pf.timeout)
	}
	if pf.maxOutput < 0 {
		return push.Options{}, fmt.Errorf("--max-device-output %d: give a number of MiB, at least 1", pf.maxOutput)
	}
	if pf.insecure {
		fmt.Fprintln(cmd.ErrOrStderr(), "Warning: --insecure-ignore-host-key: device host keys are NOT verified; anyone on the path can impersonate a device and read its configuration.")
	}
	hk, err := newHostKeys(pf.knownHosts, pf.insecure)
	if err != nil {
		return push.Options{}, err
	}
	inv, err := readInventoryFile(pf.inventory)
	if err != nil {
		return push.Options{}, err
	}
	o := push.Options{
		Parallelism: pf.parallelism,
		Timeout:     pf.timeout,
		MaxOutput:   int64(pf.maxOutput) << 20,
		HostKeys:    hk,
		Inventory:   inv.Addr,
		Users:       inv.User,
		Getenv:      s.getenv,
		NoTakeover:  pf.noTakeover,

		TrustRecords: pf.trustRecords,
		FollowUp:     pf.followUp(),
	}
	if f, ok := s.in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		o.Prompt = func(msg string) (string, error) {
			fmt.Fprint(cmd.ErrOrStderr(), msg)
			b, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(cmd.ErrOrStderr())
			return string(b), err
		}
	}
	return o, nil
}

// planRun is a fabric made ready for push: loaded, linted, rendered.
type planRun struct {
	f       *schema.Fabric
	inputs  []push.Input
	skipped []string
	// unrendered holds the render errors of devices left out (demo only).
	unrendered []string
	// findings are the lint findings that did not block (warnings and
	// notes), for the Markdown plan's hop-path diagrams.
	findings diag.Diagnostics
	// rounded lists, per rendered device, the intent values its render
	// rounds to what the platform takes (one note each).
	rounded [][]view.Rounding
}

// prepare loads, lints (error findings block) and renders the fabric's
// selected devices. Devices on platforms push cannot reach are listed in
// skipped.
func prepare(ctx context.Context, cmd *cobra.Command, s *streams, dir string, pf *pushFlags) (*planRun, error) {
	f, _, err := loadFabric(cmd, s, dir, &pf.vf)
	if err != nil {
		return nil, err
	}
	return prepareFabric(ctx, f, pf, cmd.ErrOrStderr(), s.colour(s.errTTY))
}

// prepareFabric lints and renders a loaded fabric. Blocking lint errors
// are written to ew as lint's text format writes them (colour for a
// terminal).
func prepareFabric(ctx context.Context, f *schema.Fabric, pf *pushFlags, ew io.Writer, colour bool) (*planRun, error) {
	dir := f.Dir
	cfg, err := gateConfig(ctx, dir, ew, colour)
	if err != nil {
		return nil, err
	}
	findings, err := lint.Run(ctx, f, lint.Options{Config: cfg})
	if err != nil {
		return nil, withCode(exitFailed, fmt.Errorf("lint: %w", err))
	}
	var blocking, other diag.Diagnostics
	for i, fd := range findings {
		if fd.Severity == schema.SevError {
			blocking = append(blocking, &findings[i])
		} else {
			other = append(other, &findings[i])
		}
	}
	if len(blocking) > 0 {
		// The same renderer as lint's text format: line, snippet, trace, fix.
		if err := diag.WriteText(ew, blocking, f.Files, colour); err != nil {
			return nil, withCode(exitFailed, fmt.Errorf("writing lint errors: %w", err))
		}
		lintCmd := strings.Join(append([]string{"fabricgen", "lint", shellWord(dir)}, pf.varFlags()...), " ")
		return nil, withCode(exitFailed, fmt.Errorf("lint found %d error(s) (listed above); fix them before pushing (%s -f json for CI)",
			len(blocking), lintCmd))
	}
	devs, err := push.SelectDevices(f, pf.devices)
	if err != nil {
		return nil, withCode(exitFailed, err)
	}
	run, err := renderDevices(ctx, f, devs, pf)
	if run != nil {
		run.findings = other
	}
	return run, err
}

// renderDevices renders the given devices of a linted fabric. Devices on
// platforms push cannot reach are listed in skipped.
func renderDevices(ctx context.Context, f *schema.Fabric, devs []*schema.Device, pf *pushFlags) (*planRun, error) {
	r, err := templates.NewRenderer(templates.Options{Dir: pf.templates})
	if err != nil {
		return nil, withCode(exitFailed, fmt.Errorf("templates: %w", err))
	}
	run := &planRun{f: f}
	var pushable []*schema.Device
	// Devices an InfiniBand fabric's subnet manager programs: one entry
	// per reason, naming its devices.
	var whys []string
	left := map[string][]string{}
	for _, d := range devs {
		if why := notPushedOnIB(f, d); why != "" {
			if len(left[why]) == 0 {
				whys = append(whys, why)
			}
			left[why] = append(left[why], d.Name)
			continue
		}
		if _, err := platforms.Dialect(d.Platform.V); err != nil {
			run.skipped = append(run.skipped, fmt.Sprintf("%s (%s)", d.Name, d.Platform.V))
			continue
		}
		pushable = append(pushable, d)
	}
	for _, why := range whys {
		var names []string
		for _, r := range natsort.Ranges(left[why]) {
			names = append(names, r.String())
		}
		run.skipped = append(run.skipped, fmt.Sprintf("%s (%s)", strings.Join(names, ", "), why))
	}
	outs, err := r.RenderAll(ctx, f, pushable)
	if err == nil {
		for i, o := range outs {
			text, err := pushText(pushable[i], o)
			if err != nil {
				return nil, withCode(exitFailed, err)
			}
			run.inputs = append(run.inputs, push.Input{Device: pushable[i], Rendered: text})
			run.rounded = append(run.rounded, o.Rounded)
		}
		return run, nil
	}
	if !pf.skipUnrenderable {
		return nil, withCode(exitFailed, fmt.Errorf("render: %w", err))
	}
	for _, d := range pushable {
		o, err := r.Render(f, d)
		if err == nil {
			var text []byte
			if text, err = pushText(d, o); err == nil {
				run.inputs = append(run.inputs, push.Input{Device: d, Rendered: text})
				run.rounded = append(run.rounded, o.Rounded)
				continue
			}
		}
		run.unrendered = append(run.unrendered, err.Error())
	}
	return run, nil
}

// pushText is what push compares and applies of a device's render: its
// text, or for a platform whose configuration is files (a subnet
// manager's) the bundle of its files as they are installed.
func pushText(d *schema.Device, o *templates.Output) ([]byte, error) {
	p, ok := platforms.Get(d.Platform.V)
	if !ok || p.Render.Dir == "" {
		return o.Text, nil
	}
	b, err := o.Bundle(p.Render.Dir)
	if err != nil {
		return nil, fmt.Errorf("%s: the files of its render: %w", d.Name, err)
	}
	return b, nil
}

func newPlanCommand(s *streams) *cobra.Command {
	var pf pushFlags
	var out, backupDir string
	var detailed, asJSON, markdown, refreshOnly, summary bool
	mdLimit := DefaultMarkdownLimit
	cmd := &cobra.Command{
		Use:   "plan [DIR]",
		Short: "Show what would change on each device",
		Long: `plan lints the intent in DIR (errors block), renders every device's config,
fetches the running configs over SSH in parallel, and shows per device the
unified diff of the sections fabricgen manages (QoS maps, class/policy-maps,
its ACLs, the QoS lines of interfaces). Unrelated config is never shown or
touched. Nothing is changed on any device.

-out FILE saves the plan for "fabricgen apply FILE" (with the fabric
directory relative to the working directory, so it can move between CI
jobs; signed with HMAC-SHA-256 when FABRICGEN_PLAN_KEY is set); apply
derives its commands again and refuses a device whose running config
changed since. A device that an interrupted apply left half-changed, or
with another change in flight, is reported as an error. Host keys are checked against
known_hosts. Passwords come from the environment variable named by
credentials.password_env and are never printed or saved.

fabricgen show FILE prints a saved plan again, without SSH.

-format json is -json, -format markdown is --markdown, which writes a pull-request comment: the changed devices only, a
summary table first, devices with the same change grouped ("leaf1–leaf32
(32): same change"), one collapsed diff per group, the hop paths of lint
warnings as Mermaid diagrams, and never more than --markdown-limit
characters (default 60,000; past it, a pointer to the full plan of -out).
Hosts show one line per setting that changes: "setting: old -> new" (ASCII
arrow, in every output; -json keeps the full diff). On a terminal, a live
display shows the device reads. docs/review.md has examples.

A device whose change is that of a device before it (same platform, same
lines) shows one line naming that device instead of its diff; --summary
shows one line per device and no diffs (saved with -out, the plan is the
same), --device NAME one device's diff.

Exit status: 0 no changes (or changes without -detailed-exitcode), 1 error
(including any unreachable device), 2 changes with -detailed-exitcode.`,
		Example: `  fabricgen plan examples/roce-storage
  fabricgen plan . -out plan.json -detailed-exitcode
  fabricgen plan . --device 'leaf*' -format markdown > plan.md
  fabricgen plan . --markdown -out plan.json --markdown-limit 30000 > comment.md
  fabricgen plan . --inventory .fabricgen/lab/inventory.json --known-hosts .fabricgen/lab/known_hosts`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON && markdown {
				return withCode(exitFailed, fmt.Errorf("-json and --markdown exclude each other"))
			}
			if err := notAPlanFile(args); err != nil {
				return withCode(exitFailed, err)
			}
			if mdLimit < minMarkdownLimit {
				return withCode(exitFailed, fmt.Errorf("--markdown-limit %d: give at least %d", mdLimit, minMarkdownLimit))
			}
			if refreshOnly {
				if out != "" {
					return withCode(exitFailed, fmt.Errorf("-refresh-only reports drift and saves no plan: drop -out"))
				}
				return runDrift(cmd, s, &pf, fabricDir(args), asJSON, markdown)
			}
			opts, err := pf.options(cmd, s)
			if err != nil {
				return withCode(exitFailed, err)
			}
			run, err := prepare(cmd.Context(), cmd, s, fabricDir(args), &pf)
			if err != nil {
				return err
			}
			opts.State = fabricState(s, run.f.Dir)
			opts.State.BackupRoot = backupDir
			var prog *progress
			if s.errTTY {
				// A live display of the device reads; without a
				// terminal plan prints only the plan.
				prog = newProgress(cmd, s, len(run.inputs))
				opts.Events = prog.event
			}
			p, err := push.Plan(cmd.Context(), run.f, run.inputs, version, opts)
			if prog != nil {
				prog.wait()
			}
			if err != nil {
				return withCode(exitFailed, err)
			}
			if p.Dir, err = relativeDir(run.f.Dir); err != nil {
				return withCode(exitFailed, err)
			}
			if key := s.getenv(planfile.KeyEnv); key != "" {
				if err := p.Sign([]byte(key)); err != nil {
					return withCode(exitFailed, err)
				}
			}
			w := cmd.OutOrStdout()
			switch {
			case asJSON:
				err = p.Write(w)
			case markdown:
				md := planMarkdown{Limit: mdLimit, PlanFile: out, Dir: fabricDir(args), Findings: run.findings, FollowUp: pf.followUp()}
				err = md.write(w, p, run.skipped)
			default:
				writePlanHuman(w, p, run.skipped, planView{colour: s.colour(s.outTTY), summary: summary})
				writeRoundingNotes(cmd.ErrOrStderr(), run.rounded)
			}
			if err != nil {
				return withCode(exitFailed, err)
			}
			if out != "" {
				if err := p.Save(out); err != nil {
					return withCode(exitFailed, err)
				}
				if !asJSON && !markdown {
					fmt.Fprintf(w, "\nSaved the plan to %s (fabricgen show %s prints it again). Apply exactly this plan with:\n  %s\n", out, out, applyHint(out, &pf))
				}
			}
			return planExit(p, detailed)
		},
	}
	pf.register(cmd)
	pf.registerTrust(cmd)
	fl := cmd.Flags()
	fl.StringVarP(&out, "out", "o", "", "save the plan to FILE for fabricgen apply")
	fl.BoolVar(&detailed, "detailed-exitcode", false, "exit 2 when there are changes")
	fl.BoolVar(&asJSON, "json", false, "print the plan as JSON (the plan file format)")
	fl.BoolVar(&markdown, "markdown", false, "print the plan as Markdown for a review comment: changed devices only, a summary table, devices with the same change grouped, collapsed diffs, host settings as 'setting: old -> new', hop-path diagrams of lint warnings")
	fl.IntVar(&mdLimit, "markdown-limit", DefaultMarkdownLimit, "with --markdown, stop before this many characters and point at the full plan (-out FILE); GitHub comments hold 65,536")
	fl.BoolVar(&summary, "summary", false, "one line per device and no diffs (the plan saved with -out is the same)")
	fl.StringVar(&backupDir, "backup-dir", "", "the folder an interrupted apply saved its backups in (its --backup-dir), to judge whether it left the device clean (default DIR/.fabricgen/backups)")
	fl.BoolVar(&refreshOnly, "refresh-only", false, "report drift instead: devices whose config changed since fabricgen applied it (as fabricgen drift)")
	return cmd
}

// notAPlanFile refuses a plan argument that is a file but no fabric file:
// most likely a saved plan, which show prints.
func notAPlanFile(args []string) error {
	if len(args) == 0 || strings.HasSuffix(args[0], schema.HCLSuffix) || strings.HasSuffix(args[0], schema.JSONSuffix) {
		return nil
	}
	if st, err := os.Stat(args[0]); err == nil && !st.IsDir() {
		return fmt.Errorf("%s is a file, and plan takes the fabric's directory; to print a plan saved with -out, run fabricgen show %s", args[0], args[0])
	}
	return nil
}

// relativeDir is the fabric directory relative to the working directory,
// slash-separated, as plan files record it.
func relativeDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("fabric directory %s: %w", dir, err)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	rel, err := filepath.Rel(wd, abs)
	if err != nil {
		return "", fmt.Errorf("fabric directory %s is not reachable from the working directory: %w", dir, err)
	}
	return filepath.ToSlash(rel), nil
}

// planExit maps a plan to the exit code.
func planExit(p *planfile.Plan, detailed bool) error {
	sum := p.Summary()
	if sum.Errors > 0 {
		return withCode(exitFailed, fmt.Errorf("%d device(s) could not be planned", sum.Errors))
	}
	if detailed && sum.Change > 0 {
		return withCode(exitFindings, nil)
	}
	return nil
}

// summaryLine is "3 to change, 29 unchanged; +41 -12 lines".
func summaryLine(p *planfile.Plan) string {
	s := p.Summary()
	line := fmt.Sprintf("%d to change, %d unchanged", s.Change, s.Unchanged)
	if s.Errors > 0 {
		line += fmt.Sprintf(", %d failed", s.Errors)
	}
	// A host's diff has a removed and an added line per setting: its
	// settings are counted as settings, not as lines.
	added, removed, settings, hosts := s.Added, s.Removed, 0, 0
	for _, d := range p.Devices {
		if d.Status == planfile.StatusChange && push.IsHost(d.Platform) {
			n, _ := push.HostSettingCount(d.Diff.Text)
			added, removed, settings, hosts = added-d.Diff.Added, removed-d.Diff.Removed, settings+n, hosts+1
		}
	}
	if hosts == 0 || added+removed > 0 {
		line += fmt.Sprintf("; +%d -%d lines", added, removed)
	}
	if hosts > 0 {
		sep := "; "
		if added+removed > 0 {
			sep = ", "
		}
		line += fmt.Sprintf("%s%d host setting(s)", sep, settings)
	}
	return line
}

// planView is how writePlanHuman shows a plan.
type planView struct {
	// colour paints the diff.
	colour bool
	// summary shows one line per device and no diffs.
	summary bool
}

// writePlanHuman prints each changing device's diff, the errors, the
// unchanged devices and the total. A device whose change is that of a
// device before it (same platform, same lines, same takeover) gets its
// header line only, naming that device, so 32 identical NICs cost 32
// lines rather than 32 diffs; with summary no device shows its diff.
func writePlanHuman(w io.Writer, p *planfile.Plan, skipped []string, v planView) {
	add, del, hunk, bold, red := painter(v.colour, color.FgGreen), painter(v.colour, color.FgRed),
		painter(v.colour, color.FgCyan), painter(v.colour, color.Bold), painter(v.colour, color.FgRed, color.Bold)
	var unchanged []string
	firstOf := map[string]string{}
	for _, d := range p.Devices {
		switch d.Status {
		case planfile.StatusUnchanged:
			unchanged = append(unchanged, termLine(d.Name))
		case planfile.StatusError:
			fmt.Fprintf(w, "%s %s (%s, %s): %s\n\n", red("✗"), bold(termLine(d.Name)), termLine(d.Platform), termLine(d.Address), termText(d.Error))
		default:
			body, host := changeBody(d)
			key := changeKey(d, body)
			same, seen := firstOf[key]
			if !seen {
				firstOf[key] = termLine(d.Name)
			}
			name, platform, addr := termLine(d.Name), termLine(d.Platform), termLine(d.Address)
			header := fmt.Sprintf("%s (%s, %s) will change: +%d -%d lines", bold(name), platform, addr, d.Diff.Added, d.Diff.Removed)
			if host {
				header = fmt.Sprintf("%s (%s, %s) will change %s", bold(name), platform, addr, hostCount(d.Diff.Text))
			}
			switch {
			case seen && host:
				fmt.Fprintf(w, "%s: the same as %s\n", header, same)
				continue
			case seen:
				fmt.Fprintf(w, "%s, the same as %s\n", header, same)
				continue
			}
			if host && !v.summary {
				header += ":" // the settings follow
			}
			fmt.Fprintln(w, header)
			if n := len(d.Takeover); n > 0 {
				where := "removed or replaced below; "
				if v.summary {
					where = ""
				}
				fmt.Fprintf(w, "  takes over %d line(s) fabricgen did not create (%s--no-takeover refuses instead), e.g. %s\n", n, where, termLine(d.Takeover[0]))
			}
			switch {
			case v.summary:
			case host:
				writeHostSettings(w, d.Diff.Text, del, add)
				fmt.Fprintln(w)
			default:
				writeDiff(w, d.Diff.Text, add, del, hunk, bold)
				fmt.Fprintln(w)
			}
		}
	}
	for _, d := range p.Devices {
		for _, k := range d.Kept {
			fmt.Fprintf(w, "%s: %s\n", bold(termLine(d.Name)), termLine(k))
		}
	}
	if len(unchanged) > 0 {
		fmt.Fprintf(w, "No changes: %s\n", nameRanges(unchanged))
	}
	if len(skipped) > 0 {
		fmt.Fprintf(w, "Not planned (plan/apply supports %s): %s\n", strings.Join(platforms.Pushable(), ", "), termLine(strings.Join(skipped, ", ")))
	}
	if v.summary && p.HasChanges() {
		fmt.Fprintln(w, "\nDiffs not shown (--summary): plan without it shows them, --device NAME one device's.")
	}
	fmt.Fprintf(w, "\n%s %s.\n", bold("Plan:"), summaryLine(p))
}

// writeDiff prints a unified diff, its lines painted by kind.
func writeDiff(w io.Writer, text string, add, del, hunk, bold func(string) string) {
	for _, l := range strings.SplitAfter(termText(text), "\n") {
		switch {
		case l == "":
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			fmt.Fprint(w, bold(l))
		case strings.HasPrefix(l, "@@"):
			fmt.Fprint(w, hunk(l))
		case strings.HasPrefix(l, "+"):
			fmt.Fprint(w, add(l))
		case strings.HasPrefix(l, "-"):
			fmt.Fprint(w, del(l))
		default:
			fmt.Fprint(w, l)
		}
	}
}

// nameRanges is names in natural order with runs folded:
// "leaf1–leaf4, nic01–nic32, spine1".
func nameRanges(names []string) string {
	rs := natsort.Ranges(names)
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.String()
	}
	return strings.Join(parts, ", ")
}

// writeHostSettings prints a host's diff as one "setting: old -> new"
// line per setting that changes, the old value in del's colour and the
// new in add's.
func writeHostSettings(w io.Writer, diffText string, del, add func(string) string) {
	for _, c := range push.HostSettingSummary(diffText) {
		if c.Entries > 1 {
			fmt.Fprintf(w, "  %s\n", add(termLine(c.String())))
			continue
		}
		fmt.Fprintf(w, "  %s: %s%s%s\n", termLine(c.Setting), del(termLine(c.Old)), push.SettingArrow, add(termLine(c.New)))
	}
}

// hostCount is "74 setting(s)": what a host's diff changes, counted in
// settings (an unset table entry given a value is one) rather than the
// diff's removed and added lines.
func hostCount(diffText string) string {
	changed, _ := push.HostSettingCount(diffText)
	return fmt.Sprintf("%d setting(s)", changed)
}

// painter returns a function colouring text when colour is on; the colour
// object is local, so fatih/color's global NoColor is never consulted.
func painter(colour bool, attrs ...color.Attribute) func(string) string {
	c := color.New(attrs...)
	if colour {
		c.EnableColor()
	} else {
		c.DisableColor()
	}
	return func(s string) string {
		if !colour {
			return s
		}
		nl := strings.HasSuffix(s, "\n")
		s = c.Sprint(strings.TrimSuffix(s, "\n"))
		if nl {
			s += "\n"
		}
		return s
	}
}
