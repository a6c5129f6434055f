package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/internal/check/snapshot"
	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/lint/format"
	"github.com/fabricgen/fabricgen/push"
	"github.com/fabricgen/fabricgen/schema"
)

// prometheusFormat is check's format beyond lint's.
const prometheusFormat = "prometheus"

// checkFlags are the check command's options.
type checkFlags struct {
	vf          varFlags
	devices     []string
	knownHosts  []string
	insecure    bool
	parallelism int
	timeout     time.Duration
	maxOutput   int
	inventory   string
	interval    time.Duration
	save        string
	baseline    string
	from        string
	formatName  string
	failLevel   string
	only        []string
	labDir      string
	basePath    string
	output      string
	local       bool
	textfileDir string
	// leftCentral are the rules a --local run leaves to a central run.
	leftCentral []string
	// wrote is set once the report went to --output; fabric is the name
	// of the fabric once loaded.
	wrote  bool
	fabric string
}

// checkFormatNames are lint's formats plus prometheus.
func checkFormatNames() []string { return append(format.Names(), prometheusFormat) }

func newCheckCommand(s *streams) *cobra.Command {
	var cf checkFlags
	cmd := &cobra.Command{
		Use:   "check [DIR]",
		Short: "Judge the live fabric against its intent: optics, FEC, PFC, ECN, CNP, DSCP continuity, QP states",
		Long: `check reads every device of the fabric in DIR twice, --interval apart (default
10s), over the SSH sessions, credentials, inventory and known_hosts plan uses,
with read-only commands only (structured output where the platform has it:
| json, | display json, -o json, sonic-db-cli/sonic-db-dump, --json, ethtool,
rdma -j, dcb -j), and judges the change between the two readings against the
intent: optics against the module's own thresholds, FEC and CRC errors, link
speed and flaps, pauses on lossy priorities, PFC watchdog storms, pauses
without ECN marks, RoCE changing class from one hop to the next, drops in a
lossless class, the QoS each device reports, CE marks without CNPs, CNPs
never handled, queue pairs in error and RoCE retransmits.

Findings use lint's type and formats, each with the measurements it rests on
(metric, value, threshold, window, the command that produced it) and the
link, port or hop it is about; -format prometheus writes the Prometheus text
format for node-exporter's textfile collector. A signal a platform does not
expose is reported as "not evaluated" (info), never as a pass; a counter that
went down between the readings is reported as a reset.

--save FILE writes the readings; --baseline FILE uses a saved reading as the
first of the pair (read once now); --from FILE judges saved readings again
offline (the first and the last), without contacting any device.

--local judges this host's own NICs (those whose host attribute is this
host's name, or --device NAME): it runs the same read-only commands on this
host, without SSH, credentials, inventory or known_hosts, and only the rules
a host can judge alone; it says once which ones it leaves to a central run.
--textfile-dir DIR writes DIR/fabricgen.prom (-format prometheus, atomically,
mode 0644) for node-exporter's textfile collector. With --baseline FILE
--save FILE on one file, each run judges the time since the last one (a
--local run with no FILE yet reads twice, --interval apart);
deploy/systemd/ has the timer that runs it every 5 minutes.

On a lab (fabricgen lab up), --lab-dir DIR advances the lab's clock by
--interval through its control socket instead of waiting, and times the
readings by it.

Exit status: 0 nothing at or above --fail-level, 2 findings at or above it
(default warning; info never fails), 1 check could not run or a device could
not be read.

Rules (fabricgen explain CHKnnn for one):
` + checkRuleListHelp(),
		Example: `  fabricgen check examples/clos-400g --inventory .fabricgen/lab/inventory.json --known-hosts .fabricgen/lab/known_hosts --lab-dir .fabricgen/lab
  fabricgen check . --interval 30s --save now.json
  fabricgen check . --baseline yesterday.json -format json
  fabricgen check . --from now.json -format prometheus > /var/lib/node_exporter/textfile/fabricgen.prom
  fabricgen check --local --textfile-dir /var/lib/prometheus/node-exporter --baseline /var/lib/fabricgen/state.json --save /var/lib/fabricgen/state.json /etc/fabricgen`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(cmd, s, fabricDir(args), &cf)
		},
	}
	cf.vf.register(cmd)
	fl := cmd.Flags()
	fl.StringArrayVar(&cf.devices, "device", nil, "only these devices (glob, repeatable): --device 'leaf*'")
	fl.StringArrayVar(&cf.knownHosts, "known-hosts", nil, "known_hosts file with the devices' host keys (default ~/.ssh/known_hosts; repeatable)")
	fl.BoolVar(&cf.insecure, "insecure-ignore-host-key", false, "accept any host key (prints a warning; never in production)")
	fl.IntVar(&cf.parallelism, "parallelism", push.DefaultParallelism, "devices read at once")
	fl.DurationVar(&cf.timeout, "timeout", 30*time.Second, "per-device SSH handshake and per-command timeout")
	fl.IntVar(&cf.maxOutput, "max-device-output", session.DefaultMaxOutput>>20, "MiB a device may send in answer to one command (or before its prompt); a device sending more fails (0: the default)")
	fl.StringVar(&cf.inventory, "inventory", "", inventoryHelp)
	fl.DurationVar(&cf.interval, "interval", 10*time.Second, "time between the two readings")
	fl.StringVar(&cf.save, "save", "", "write the readings to FILE (JSON), for --baseline and --from")
	fl.StringVar(&cf.baseline, "baseline", "", "use the last reading saved in FILE as the first of the pair")
	fl.StringVar(&cf.from, "from", "", "judge the readings saved in FILE again (its first and last), without contacting devices")
	fl.StringVarP(&cf.formatName, "format", "f", "text", "output format: "+strings.Join(checkFormatNames(), ", "))
	fl.StringVar(&cf.failLevel, "fail-level", "warning", "lowest severity that makes check exit 2: warning or error")
	fl.StringSliceVar(&cf.only, "rule", nil, "run only these rules (repeatable or comma-separated CHK IDs)")
	fl.StringVar(&cf.labDir, "lab-dir", "", "the fabric is a lab served from DIR (lab up --dir): advance its clock by --interval instead of waiting")
	fl.StringVar(&cf.basePath, "base-path", "", "make SARIF, GitHub and Markdown file names relative to this directory (default: the repository root)")
	fl.BoolVar(&cf.local, "local", false, "judge this host's own NICs (host = this host's name, or --device), read here without SSH, with the rules a host can judge alone")
	fl.StringVar(&cf.textfileDir, "textfile-dir", "", "write DIR/"+textfileName+" (-format prometheus, atomically, mode 0644) for node-exporter's textfile collector")
	fl.StringVarP(&cf.output, "output", "o", "", "write the report to FILE (atomically: a reader never sees half a file) instead of standard output; with -format prometheus a run that could not judge the fabric writes fabricgen_check_up 0 there")
	return cmd
}

// checkRuleListHelp lists the check rules for --help.
func checkRuleListHelp() string {
	var b strings.Builder
	for _, r := range check.Rules() {
		fmt.Fprintf(&b, "  %s  %-7s  %s\n", r.ID, r.Severity, r.Title)
	}
	return b.String()
}

func runCheck(cmd *cobra.Command, s *streams, dir string, cf *checkFlags) error {
	if err := localFlags(cmd, cf); err != nil {
		return withCode(exitFailed, err)
	}
	if cf.formatName != prometheusFormat {
		if _, err := format.Lookup(cf.formatName); err != nil {
			return withCode(exitFailed, fmt.Errorf("unknown format %q: use one of %s", cf.formatName, strings.Join(checkFormatNames(), ", ")))
		}
	}
	err := runCheckRead(cmd, s, dir, cf)
	if ee, ok := errors.AsType[*exitError](err); ok && ee.code == exitFailed && !cf.wrote && cf.output != "" && cf.formatName == prometheusFormat {
		// The monitoring needs to know the check itself failed: up 0 and
		// why, never a stale report that looks current.
		msg := ""
		if ee.err != nil {
			msg = ee.err.Error()
		}
		var b bytes.Buffer
		run := check.Run{Fabric: cf.fabric, Failed: msg, At: time.Now(), LastSuccess: lastSuccess(cf.output)}
		if run.Fabric == "" {
			run.Fabric = lastFabric(cf.output)
		}
		if werr := check.WritePrometheus(&b, run); werr == nil {
			if werr := writeReportFile(cf.output, b.Bytes()); werr != nil {
				return withCode(exitFailed, errors.Join(err, werr))
			}
		}
	}
	return err
}

// writeReportFile replaces path with data atomically: a temporary file
// beside it, renamed into place, so node-exporter (or anyone) never reads
// half a report. The file is readable by all (0644), as a
// textfile collector needs.
func writeReportFile(path string, data []byte) error {
	if err := checkReportTarget(path); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("--output %s: %w", path, err)
	}
	fail := func(err error) error {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("--output %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return fail(err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		_ = tmp.Close()
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fail(err)
	}
	return nil
}

// lastSuccess is when the last successful run that wrote path ended.
func lastSuccess(path string) time.Time {
	fh, err := readlimit.Open(path)
	if err != nil {
		return time.Time{}
	}
	defer func() { _ = fh.Close() }()
	return check.LastSuccess(io.LimitReader(fh, maxReportSize))
}

// lastFabric is the fabric label of an earlier report at path, for a run
// that could not load its fabric.
func lastFabric(path string) string {
	fh, err := readlimit.Open(path)
	if err != nil {
		return ""
	}
	defer func() { _ = fh.Close() }()
	// The label is on the report's first sample line: its first KiBs.
	b, err := io.ReadAll(io.LimitReader(fh, reportLabelPrefix))
	if err != nil {
		return ""
	}
	if _, rest, ok := strings.Cut(string(b), `{fabric="`); ok {
		if name, _, ok := strings.Cut(rest, `"`); ok && !strings.Contains(name, `\`) {
			return name
		}
	}
	return ""
}

// runCheckRead validates the flags, takes or loads the readings, judges
// them and writes the report.
func runCheckRead(cmd *cobra.Command, s *streams, dir string, cf *checkFlags) error {
	ctx := cmd.Context()
	level, err := schema.ParseSeverity(cf.failLevel)
	if err != nil {
		return withCode(exitFailed, fmt.Errorf("--fail-level: %w", err))
	}
	if level < diag.Warning {
		return withCode(exitFailed, errors.New("fail level info: info findings never fail a run; use warning (the default) or error"))
	}
	for _, id := range cf.only {
		if check.Lookup(id) == nil {
			return withCode(exitFailed, fmt.Errorf("--rule %s: no such check rule; run `fabricgen explain` for the list", id))
		}
	}
	if cf.interval <= 0 {
		return withCode(exitFailed, fmt.Errorf("--interval %s: give a positive duration such as 10s", cf.interval))
	}
	if cf.from != "" && cf.labDir != "" {
		return withCode(exitFailed, errors.New("--from judges saved readings and contacts no lab: drop --lab-dir"))
	}
	if cf.from != "" && cf.baseline != "" {
		return withCode(exitFailed, errors.New("--from and --baseline are mutually exclusive: --from judges the readings saved in one file (its first and last) without contacting devices, --baseline judges a saved reading against one taken now"))
	}
	f, _, err := loadFabric(cmd, s, dir, &cf.vf)
	if err != nil {
		return err
	}
	if err := ethernetOnly(f, "fabricgen check"); err != nil {
		return err
	}
	cf.fabric = f.Name
	if len(cf.leftCentral) > 0 {
		noteOnce(cmd.ErrOrStderr(), leftToCentral(cf.leftCentral))
	}
	file, err := readings(ctx, cmd, s, f, cf)
	if err != nil {
		return err
	}
	if cf.save != "" {
		if err := file.Save(cf.save); err != nil {
			return withCode(exitFailed, err)
		}
	}
	before, after := file.Snapshots[0], file.Snapshots[len(file.Snapshots)-1]
	findings, err := check.Evaluate(f, before, after, check.Options{Only: cf.only})
	if err != nil {
		return withCode(exitFailed, err)
	}
	if err := writeCheck(cmd, s, f, cf, after, findings); err != nil {
		return withCode(exitFailed, err)
	}
	var failed []string
	for _, d := range after.Devices {
		if d.Error != "" {
			failed = append(failed, d.Name+": "+d.Error)
		}
	}
	if len(failed) > 0 {
		return withCode(exitFailed, fmt.Errorf("%d device(s) could not be read:\n  %s", len(failed), strings.Join(failed, "\n  ")))
	}
	n := 0
	for i := range findings {
		if findings[i].Severity >= level {
			n++
		}
	}
	if n > 0 {
		return withCode(exitFindings, nil)
	}
	return nil
}

// readings are the snapshots to judge: from a file, or read now.
func readings(ctx context.Context, cmd *cobra.Command, s *streams, f *schema.Fabric, cf *checkFlags) (*check.File, error) {
	file := &check.File{FormatVersion: check.FileFormat, ToolVersion: version, Fabric: f.Name, IntentDigest: f.Digest}
	if cf.from != "" {
		from, err := check.ReadFile(cf.from)
		if err != nil {
			return nil, withCode(exitFailed, err)
		}
		if len(from.Snapshots) < 2 {
			return nil, withCode(exitFailed, fmt.Errorf("--from %s holds one reading: judge it against one taken now with --baseline %s instead", cf.from, cf.from))
		}
		if from.Fabric != f.Name {
			return nil, withCode(exitFailed, fmt.Errorf("--from %s was taken of fabric %q, not %q", cf.from, from.Fabric, f.Name))
		}
		file.Snapshots = from.Snapshots
		return file, nil
	}
	if cf.baseline != "" {
		b, err := check.ReadFile(cf.baseline)
		switch {
		case cf.local && errors.Is(err, os.ErrNotExist):
			// A timer's first run: no earlier reading yet.
			fmt.Fprintf(cmd.ErrOrStderr(), "check --local: no baseline in %s yet: reading twice, %s apart\n", cf.baseline, cf.interval)
		case err != nil:
			return nil, withCode(exitFailed, err)
		case b.Fabric != f.Name:
			return nil, withCode(exitFailed, fmt.Errorf("--baseline %s was taken of fabric %q, not %q", cf.baseline, b.Fabric, f.Name))
		default:
			file.Snapshots = append([]*check.Snapshot{b.Snapshots[len(b.Snapshots)-1]}, file.Snapshots...)
		}
	}
	opts, devs, err := collectOptions(cmd, s, f, cf)
	if err != nil {
		return nil, err
	}
	// Both readings on one session per device: one login, not two.
	opts.Sessions = snapshot.NewSessions(ctx)
	defer func() { _ = opts.Sessions.Close() }()
	if len(file.Snapshots) == 0 {
		first, err := snapshot.Take(ctx, devs, opts)
		if err != nil {
			return nil, withCode(exitFailed, err)
		}
		file.Snapshots = append(file.Snapshots, first)
		if err := waitInterval(ctx, cf); err != nil {
			return nil, err
		}
	}
	second, err := snapshot.Take(ctx, devs, opts)
	if err != nil {
		return nil, withCode(exitFailed, err)
	}
	file.Snapshots = append(file.Snapshots, second)
	return file, nil
}

// waitInterval lets --interval pass: on a lab by advancing its clock,
// else by waiting (Ctrl-C ends it).
func waitInterval(ctx context.Context, cf *checkFlags) error {
	if cf.labDir != "" {
		if _, err := labRequest(ctx, cf.labDir, lab.ControlRequest{Op: "clock", Advance: cf.interval.String()}); err != nil {
			return withCode(exitFailed, err)
		}
		return nil
	}
	t := time.NewTimer(cf.interval)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return withCode(exitFailed, fmt.Errorf("check interrupted: %w", ctx.Err()))
	}
}

// collectOptions builds the collection options and selects the devices.
func collectOptions(cmd *cobra.Command, s *streams, f *schema.Fabric, cf *checkFlags) (snapshot.Options, []*schema.Device, error) {
	if cf.parallelism < 1 {
		return snapshot.Options{}, nil, withCode(exitFailed, fmt.Errorf("--parallelism %d: give at least 1", cf.parallelism))
	}
	if cf.timeout <= 0 {
		return snapshot.Options{}, nil, withCode(exitFailed, fmt.Errorf("--timeout %s: give a positive duration such as 30s", cf.timeout))
	}
	if cf.maxOutput < 0 {
		return snapshot.Options{}, nil, withCode(exitFailed, fmt.Errorf("--max-device-output %d: give a number of MiB, at least 1", cf.maxOutput))
	}
	if cf.local {
		devs, err := localDevices(f, cf.devices, s.hostnameFunc())
		if err != nil {
			return snapshot.Options{}, nil, withCode(exitFailed, err)
		}
		o := snapshot.Options{Parallelism: cf.parallelism, Timeout: cf.timeout, Runner: localRunner(cmd, s, cf)}
		if err := checkLabClock(cmd, cf, &o); err != nil {
			return snapshot.Options{}, nil, err
		}
		return o, devs, nil
	}
	if cf.insecure {
		fmt.Fprintln(cmd.ErrOrStderr(), "Warning: --insecure-ignore-host-key: device host keys are NOT verified; anyone on the path can impersonate a device and read its state.")
	}
	hk, err := newHostKeys(cf.knownHosts, cf.insecure)
	if err != nil {
		return snapshot.Options{}, nil, withCode(exitFailed, err)
	}
	inv, err := readInventoryFile(cf.inventory)
	if err != nil {
		return snapshot.Options{}, nil, withCode(exitFailed, err)
	}
	devs, err := push.SelectDevices(f, cf.devices)
	if err != nil {
		return snapshot.Options{}, nil, withCode(exitFailed, err)
	}
	o := snapshot.Options{Parallelism: cf.parallelism, Timeout: cf.timeout, MaxOutput: int64(cf.maxOutput) << 20, HostKeys: hk, Inventory: inv.Addr, Users: inv.User, Getenv: s.getenv}
	if fh, ok := s.in.(*os.File); ok && term.IsTerminal(int(fh.Fd())) {
		o.Prompt = func(msg string) (string, error) {
			fmt.Fprint(cmd.ErrOrStderr(), msg)
			b, err := term.ReadPassword(int(fh.Fd()))
			fmt.Fprintln(cmd.ErrOrStderr())
			return string(b), err
		}
	}
	if err := checkLabClock(cmd, cf, &o); err != nil {
		return snapshot.Options{}, nil, err
	}
	return o, devs, nil
}

// checkLabClock times the readings by the lab's clock with --lab-dir.
func checkLabClock(cmd *cobra.Command, cf *checkFlags, o *snapshot.Options) error {
	if cf.labDir == "" {
		return nil
	}
	o.Clock = check.ClockLab
	o.Now = func() time.Time { return labTime(cmd.Context(), cf.labDir) }
	if _, err := labRequest(cmd.Context(), cf.labDir, lab.ControlRequest{Op: "clock"}); err != nil {
		return withCode(exitFailed, fmt.Errorf("--lab-dir: %w", err))
	}
	return nil
}

// labTime is the lab's clock as a wall time (the zero time when the lab
// does not answer; the check then fails on the window).
func labTime(ctx context.Context, dir string) time.Time {
	rep, err := labRequest(ctx, dir, lab.ControlRequest{Op: "clock"})
	if err != nil {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, rep.ClockTime)
	if err != nil {
		return time.Time{}
	}
	return t
}

// writeCheck prints the findings in the format asked for, to standard
// output or (atomically) to --output.
func writeCheck(cmd *cobra.Command, s *streams, f *schema.Fabric, cf *checkFlags, after *check.Snapshot, findings []check.Finding) error {
	if cf.output == "" {
		return writeReport(cmd.OutOrStdout(), s, f, cf, after, findings)
	}
	var b bytes.Buffer
	if err := writeReport(&b, s, f, cf, after, findings); err != nil {
		return err
	}
	if err := writeReportFile(cf.output, b.Bytes()); err != nil {
		return err
	}
	cf.wrote = true
	return nil
}

// writeReport writes the findings in the format asked for to w.
func writeReport(w io.Writer, s *streams, f *schema.Fabric, cf *checkFlags, after *check.Snapshot, findings []check.Finding) error {
	read := 0
	var unreadable []string
	for _, d := range after.Devices {
		if d.Error == "" {
			read++
		} else {
			unreadable = append(unreadable, d.Name)
		}
	}
	if cf.formatName == prometheusFormat {
		now := time.Now()
		run := check.Run{Fabric: f.Name, Findings: findings, Read: read, Unreadable: unreadable, At: now, LastSuccess: now}
		if len(unreadable) > 0 {
			run.LastSuccess = lastSuccess(cf.output)
		}
		return check.WritePrometheus(w, run)
	}
	out, _ := format.Lookup(cf.formatName)
	base, err := resolveBasePath(cf.basePath)
	if err != nil {
		return err
	}
	res := &format.Result{Sources: f.Files, Rules: check.LintRules(), Version: version, BasePath: base, Valid: true,
		Color: cf.formatName == "text" && cf.output == "" && s.colour(s.outTTY)}
	for i := range findings {
		res.Diagnostics = append(res.Diagnostics, &findings[i])
	}
	if cf.formatName == "text" {
		writeCheckHeader(w, after, read)
	}
	return out.Write(w, res)
}

// writeCheckHeader says what was read, for the text format.
func writeCheckHeader(w io.Writer, after *check.Snapshot, read int) {
	clock := ""
	if after.Clock == check.ClockLab {
		clock = " (lab clock)"
	}
	fmt.Fprintf(w, "Checked %d device(s) at %s%s.\n\n", read, after.Taken.UTC().Format(time.RFC3339), clock)
}
