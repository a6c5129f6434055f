package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/lint/format"
	"github.com/fabricgen/fabricgen/schema"
)

// ruleListHelp lists the registry's rules for --help; the platform-limit
// rules, one per platform, are one line (fabricgen platforms shows each
// platform's), so adding a platform leaves the help as it is.
func ruleListHelp() string {
	var b strings.Builder
	plt := false
	for _, r := range lint.Rules() {
		if lint.IsPlatformRule(r.ID) {
			if !plt {
				plt = true
				fmt.Fprintf(&b, "  %s  %-7s  %s\n", "PLT001…", r.Severity, "Every value is expressible on the device's platform (one rule per platform: fabricgen platforms)")
			}
			continue
		}
		fmt.Fprintf(&b, "  %s  %-7s  %s\n", r.ID, r.Severity, r.Title)
	}
	return b.String()
}

// lintFlags are the lint command's options.
type lintFlags struct {
	vf         varFlags
	formatName string
	failLevel  string
	only       []string
	basePath   string
	recursive  bool
}

func newLintCommand(s *streams) *cobra.Command {
	var lf lintFlags
	cmd := &cobra.Command{
		Use:   "lint [DIR | FILE]...",
		Short: "Check the fabric end to end: RoCE data and CNP at every hop, links, ports, buffers, platform limits",
		Long: `lint validates the intent in DIR (default: the current directory; a
*.fab.hcl or *.fab.json file stands for the fabric in its directory) first,
then runs every rule: per link and port, per platform (what each device's
platform can express, computed by the code render uses), and end to end by
walking RoCE data (every NIC to every NIC, so both directions) and CNP (the
reverse path) through every leaf, spine and routed core hop, over every ECMP
member. A path finding shows one representative hop trace and how many paths
share the problem; a finding points at the line to change, with the other
places involved listed under "see".

Several DIRs, or --recursive (every fabric under each DIR: each directory
holding *.fab.hcl or *.fab.json files; hidden directories, node_modules and
symbolic links to directories are skipped), give one report in one format,
file names relative to the working directory; each fabric keeps its own
.fabricgen.hcl. A fabric that does not load shows its errors beside the
others' findings. The exit status is the worst of the fabrics'.

Every format carries load and validation errors too (rule ` + lint.ValidationRule + `), so
CI gets a SARIF, JSON, GitHub, JUnit or Checkstyle report of an invalid intent.

Suppress one finding with a comment on or above its block or attribute:
  # fabricgen:ignore RULE-ID reason
Configure rules in .fabricgen.hcl (found in DIR or a parent directory):
  config { fail_level = "error" }
  rule "QOS005" { enabled = false }
  rule "PFC003" { severity = "error" }

Exit status, as tflint: 0 nothing at or above the fail level, 2 findings at
or above it (default: warning, so any error or warning fails; info never
does), 1 lint could not run (invalid intent, bad flags or config).

Formats (--format, -f):
` + indent(format.Help()) + `

Rules (fabricgen explain RULE-ID for one):
` + ruleListHelp(),
		Example: `  fabricgen lint examples/roce-storage
  fabricgen lint --format sarif --base-path . fabric/ > fabricgen.sarif
  fabricgen lint -f github --fail-level error examples/clos-400g
  fabricgen lint examples/scale -var leaves=128
  fabricgen lint examples/clos-400g examples/roce-storage
  fabricgen lint --recursive -f sarif . > fabricgen.sarif`,
		RunE: func(cmd *cobra.Command, args []string) error {
			dirs, walkErrs, err := lintTargets(args, lf.recursive, os.ReadDir)
			if err != nil {
				return withCode(exitFailed, err)
			}
			return runLintDirs(cmd, s, dirs, walkErrs, &lf)
		},
	}
	lf.vf.register(cmd)
	cmd.Flags().StringVarP(&lf.formatName, "format", "f", "text", "output format: "+strings.Join(format.Names(), ", "))
	cmd.Flags().StringVar(&lf.failLevel, "fail-level", "warning", "lowest severity that makes lint exit 2: warning (any finding but info) or error")
	cmd.Flags().StringSliceVar(&lf.only, "rule", nil, "run only these rules (repeatable or comma-separated IDs)")
	cmd.Flags().StringVar(&lf.basePath, "base-path", "", "make SARIF, GitHub and Markdown file names relative to this directory (default: the repository root above the working directory, else the working directory)")
	cmd.Flags().BoolVarP(&lf.recursive, "recursive", "r", false, "lint every fabric under each DIR (default .), into one report")
	return cmd
}

// runLintDirs lints every fabric of dirs into one report in lf's format
// (walkErrs, the directories a --recursive walk could not read, count as
// failed fabrics) and returns the worst exit: 1 when a fabric could not be
// linted, else 2 when one has findings at or above its fail level.
func runLintDirs(cmd *cobra.Command, s *streams, dirs []string, walkErrs []error, lf *lintFlags) error {
	out, err := format.Lookup(lf.formatName)
	if err != nil {
		if strings.HasPrefix(lf.formatName, "ormat") {
			err = fmt.Errorf("-format was read as -f %q: write --format NAME or -f NAME", lf.formatName)
		}
		return withCode(exitFailed, err)
	}
	var flagLevel diag.Severity
	if cmd.Flags().Changed("fail-level") {
		if flagLevel, err = schema.ParseSeverity(lf.failLevel); err != nil {
			return withCode(exitFailed, fmt.Errorf("--fail-level: %w", err))
		}
	}
	for _, id := range lf.only {
		if lint.Lookup(id) == nil {
			return withCode(exitFailed, fmt.Errorf("--rule %s: no such rule; run `fabricgen explain` for the list", id))
		}
	}
	base, err := resolveBasePath(lf.basePath)
	if err != nil {
		return withCode(exitFailed, err)
	}
	all := &format.Result{Sources: map[string][]byte{}, Rules: lint.Rules(), Version: version, BasePath: base,
		Color: lf.formatName == "text" && s.colour(s.outTTY), Valid: true}
	var unloaded, unloadedIn, failed []string
	linted := 0
	var lintedDirs []string
	var exits []error
	for _, dir := range dirs {
		res, exit := lintFabric(cmd, s, dir, lf, flagLevel)
		if exit != nil {
			exits = append(exits, exit)
		}
		if res == nil {
			failed = append(failed, dir)
			continue
		}
		all.Diagnostics = append(all.Diagnostics, res.Diagnostics...)
		all.Suppressed = append(all.Suppressed, res.Suppressed...)
		for name, src := range res.Sources {
			all.Sources[name] = src
		}
		if res.Valid {
			linted++
			lintedDirs = append(lintedDirs, dir)
		} else {
			unloaded = append(unloaded, res.Unloaded)
			unloadedIn = append(unloadedIn, dir)
		}
	}
	for _, err := range walkErrs {
		exits = append(exits, withCode(exitFailed, err))
	}
	// The report is of an invalid intent only when no fabric was linted;
	// a fabric that did not load among others that did is its errors (and
	// exit 1), beside their findings.
	if len(unloaded) > 0 && linted == 0 {
		all.Valid = false
		all.Unloaded = unloadedText(unloaded, unloadedIn)
	}
	if len(dirs) > len(failed) || len(dirs) == 0 {
		if len(dirs) > 1 {
			all.Fabrics = lintedDirs
		}
		if err := out.Write(cmd.OutOrStdout(), all); err != nil {
			return withCode(exitFailed, fmt.Errorf("writing %s output: %w", lf.formatName, err))
		}
	}
	return worstExit(cmd, exits)
}

// unloadedText names what did not load for the report's last line: ""
// (the intent) or the one configuration as before, else per directory.
func unloadedText(unloaded, dirs []string) string {
	if len(dirs) == 1 {
		return unloaded[0]
	}
	parts := make([]string, len(dirs))
	for i, d := range dirs {
		what := unloaded[i]
		if what == "" {
			what = "intent"
		}
		parts[i] = what + " in " + d
	}
	if !slices.ContainsFunc(unloaded, func(u string) bool { return u != "" }) {
		return "intent in " + strings.Join(dirs, ", ")
	}
	return strings.Join(parts, ", ")
}

// worstExit prints every exit error but the worst and returns the worst:
// a code-1 error, else a code-2 one, else nil.
func worstExit(cmd *cobra.Command, exits []error) error {
	worst := -1
	for i, e := range exits {
		if worst < 0 || exitCode(e) == exitFailed && exitCode(exits[worst]) != exitFailed {
			worst = i
		}
	}
	for i, e := range exits {
		var ee *exitError
		if i != worst && (!errors.As(e, &ee) || ee.err != nil) {
			fmt.Fprintf(cmd.ErrOrStderr(), "Error: %s\n", termText(e.Error()))
		}
	}
	if worst < 0 {
		return nil
	}
	return exits[worst]
}

// exitCode is the code an error from a command exits with.
func exitCode(err error) int {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return exitFailed
}

// lintFabric lints the fabric in dir: its part of the report (nil when
// there is none to give) and the exit error it earns, nil when it passes.
// flagLevel is --fail-level when given (else 0: the configuration's, or
// warning).
func lintFabric(cmd *cobra.Command, s *streams, dir string, lf *lintFlags, flagLevel diag.Severity) (*format.Result, error) {
	ctx := cmd.Context()
	cfg, err := loadLintConfig(cmd, dir)
	var cerr *lint.ConfigError
	if errors.As(err, &cerr) {
		// A broken .fabricgen.hcl reaches CI in the format it asked for.
		res := &format.Result{Diagnostics: cerr.Diagnostics, Sources: map[string][]byte{cerr.Path: cerr.Source},
			Unloaded: "lint configuration " + filepath.Base(cerr.Path)}
		return res, withCode(exitFailed, fmt.Errorf("%s is not a valid lint configuration: %d error(s)", cerr.Path, len(cerr.Diagnostics)))
	}
	if err != nil {
		return nil, withCode(exitFailed, err)
	}
	level := diag.Warning
	if cfg != nil && cfg.FailLevel != 0 {
		level = cfg.FailLevel
	}
	if flagLevel != 0 {
		level = flagLevel
	}
	if level < diag.Warning {
		return nil, withCode(exitFailed, errors.New("fail level info: info findings never fail a run; use warning (the default) or error"))
	}
	f, diags, err := loadIntent(ctx, s, dir, &lf.vf)
	if err != nil {
		return nil, err
	}
	res := &format.Result{Sources: sourcesOf(f, diags), Valid: !diags.HasErrors()}
	res.Diagnostics = append(res.Diagnostics, diags...)
	res.Diagnostics.Sort()
	if !res.Valid {
		return res, withCode(exitFailed, fmt.Errorf("%s is not a valid fabric: %d error(s)", dir, len(diags.Errs())))
	}
	rep, err := lint.RunReport(ctx, f, lint.Options{Config: cfg, Only: lf.only})
	if err != nil {
		return nil, withCode(exitFailed, err)
	}
	findings := rep.Findings
	if lf.formatName == "sarif" {
		// SARIF shows suppressed findings as suppressed results.
		res.Suppressed = rep.Suppressed
	}
	res.Diagnostics = append(res.Diagnostics, lint.Diagnostics(findings)...)
	if lint.AtOrAbove(findings, level) > 0 {
		return res, withCode(exitFindings, nil)
	}
	return res, nil
}

// lintTargets is the fabric directories lint's arguments name, sorted
// and without duplicates: each argument's fabric (a file's directory), or
// with recursive every fabric under each argument. walkErrs are the
// directories that could not be read; err is for arguments that name no
// fabric at all.
func lintTargets(args []string, recursive bool, readDir func(string) ([]fs.DirEntry, error)) (dirs []string, walkErrs []error, err error) {
	if len(args) == 0 {
		args = []string{"."}
	}
	seen := map[string]bool{}
	add := func(d string) {
		if d = filepath.Clean(d); !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	for _, a := range args {
		if !recursive {
			add(fabricDir([]string{a}))
			continue
		}
		fi, err := os.Stat(a)
		if err != nil {
			return nil, nil, fmt.Errorf("--recursive %s: %w", a, err)
		}
		if !fi.IsDir() {
			return nil, nil, fmt.Errorf("--recursive %s: not a directory; --recursive looks for fabrics under directories", a)
		}
		found, errs := fabricsUnder(filepath.Clean(a), readDir)
		walkErrs = append(walkErrs, errs...)
		if len(found) == 0 && len(errs) == 0 {
			return nil, nil, fmt.Errorf("--recursive %s: no fabric under it (a directory holding *.fab.hcl or *.fab.json files)", a)
		}
		for _, d := range found {
			add(d)
		}
	}
	sort.Strings(dirs)
	return dirs, walkErrs, nil
}

// fabricsUnder lists root and the directories under it that hold fabric
// files. Hidden directories (.git, .fabricgen), node_modules and symbolic
// links are not entered, so a link loop or a link out of the tree is never
// followed; a fabric file of any kind (a FIFO too) marks its directory, for
// lint to report. Directories that cannot be read are errors, the walk goes
// on past them.
func fabricsUnder(root string, readDir func(string) ([]fs.DirEntry, error)) (dirs []string, errs []error) {
	var walk func(dir string)
	walk = func(dir string) {
		entries, err := readDir(dir)
		if err != nil {
			errs = append(errs, fmt.Errorf("--recursive: reading %s: %w", dir, err))
			return
		}
		fabric := false
		var subs []string
		for _, e := range entries {
			name := e.Name()
			switch {
			case e.IsDir():
				if !strings.HasPrefix(name, ".") && name != "node_modules" {
					subs = append(subs, filepath.Join(dir, name))
				}
			case strings.HasSuffix(name, schema.HCLSuffix), strings.HasSuffix(name, schema.JSONSuffix):
				fabric = true
			}
		}
		if fabric {
			dirs = append(dirs, dir)
		}
		for _, sub := range subs {
			walk(sub)
		}
	}
	walk(root)
	return dirs, errs
}

// resolveBasePath is the --base-path, or the repository root (the nearest
// directory above the working directory with a .git entry), or the working
// directory.
func resolveBasePath(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("--base-path: %w", err)
	}
	for d := wd; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("--base-path: %w", err)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return wd, nil
		}
		d = parent
	}
}

// loadLintConfig finds and reads .fabricgen.hcl for dir (nil when there is none).
func loadLintConfig(cmd *cobra.Command, dir string) (*lint.Config, error) {
	path, err := lint.FindConfig(cmd.Context(), dir)
	if err != nil || path == "" {
		return nil, err
	}
	return lint.LoadConfig(cmd.Context(), path)
}

func indent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return strings.Join(lines, "\n")
}
