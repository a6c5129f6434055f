package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
}

func newLintCommand(s *streams) *cobra.Command {
	var lf lintFlags
	cmd := &cobra.Command{
		Use:   "lint [DIR | FILE]",
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
  fabricgen lint examples/scale -var leaves=128`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runLint(cmd, s, fabricDir(args), &lf)
		},
	}
	lf.vf.register(cmd)
	cmd.Flags().StringVarP(&lf.formatName, "format", "f", "text", "output format: "+strings.Join(format.Names(), ", "))
	cmd.Flags().StringVar(&lf.failLevel, "fail-level", "warning", "lowest severity that makes lint exit 2: warning (any finding but info) or error")
	cmd.Flags().StringSliceVar(&lf.only, "rule", nil, "run only these rules (repeatable or comma-separated IDs)")
	cmd.Flags().StringVar(&lf.basePath, "base-path", "", "make SARIF, GitHub and Markdown file names relative to this directory (default: the repository root above the working directory, else the working directory)")
	return cmd
}

func runLint(cmd *cobra.Command, s *streams, dir string, lf *lintFlags) error {
	ctx := cmd.Context()
	out, err := format.Lookup(lf.formatName)
	if err != nil {
		if strings.HasPrefix(lf.formatName, "ormat") {
			err = fmt.Errorf("-format was read as -f %q: write --format NAME or -f NAME", lf.formatName)
		}
		return withCode(exitFailed, err)
	}
	cfg, err := loadLintConfig(cmd, dir)
	var cerr *lint.ConfigError
	if errors.As(err, &cerr) {
		// A broken .fabricgen.hcl reaches CI in the format it asked for.
		res := &format.Result{Diagnostics: cerr.Diagnostics, Sources: map[string][]byte{cerr.Path: cerr.Source}, Rules: lint.Rules(),
			Version: version, BasePath: lf.basePath, Color: lf.formatName == "text" && s.colour(s.outTTY),
			Unloaded: "lint configuration " + filepath.Base(cerr.Path)}
		if res.BasePath == "" {
			res.BasePath, _ = resolveBasePath("")
		}
		if werr := out.Write(cmd.OutOrStdout(), res); werr != nil {
			return withCode(exitFailed, fmt.Errorf("writing %s output: %w", lf.formatName, werr))
		}
		return withCode(exitFailed, fmt.Errorf("%s is not a valid lint configuration: %d error(s)", cerr.Path, len(cerr.Diagnostics)))
	}
	if err != nil {
		return withCode(exitFailed, err)
	}
	level := diag.Warning
	if cfg != nil && cfg.FailLevel != 0 {
		level = cfg.FailLevel
	}
	if cmd.Flags().Changed("fail-level") {
		if level, err = schema.ParseSeverity(lf.failLevel); err != nil {
			return withCode(exitFailed, fmt.Errorf("--fail-level: %w", err))
		}
	}
	if level < diag.Warning {
		return withCode(exitFailed, errors.New("fail level info: info findings never fail a run; use warning (the default) or error"))
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
	f, diags, err := loadIntent(ctx, s, dir, &lf.vf)
	if err != nil {
		return err
	}
	res := &format.Result{Sources: sourcesOf(f, diags), Rules: lint.Rules(), Version: version, BasePath: base,
		Color: lf.formatName == "text" && s.colour(s.outTTY), Valid: !diags.HasErrors()}
	res.Diagnostics = append(res.Diagnostics, diags...)
	res.Diagnostics.Sort()
	var findings []lint.Finding
	if res.Valid {
		// SARIF shows suppressed findings as suppressed results.
		rep, err := lint.RunReport(ctx, f, lint.Options{Config: cfg, Only: lf.only})
		if err != nil {
			return withCode(exitFailed, err)
		}
		findings = rep.Findings
		if lf.formatName == "sarif" {
			res.Suppressed = rep.Suppressed
		}
		res.Diagnostics = append(res.Diagnostics, lint.Diagnostics(findings)...)
	}
	if err := out.Write(cmd.OutOrStdout(), res); err != nil {
		return withCode(exitFailed, fmt.Errorf("writing %s output: %w", lf.formatName, err))
	}
	if !res.Valid {
		return withCode(exitFailed, fmt.Errorf("%s is not a valid fabric: %d error(s)", dir, len(diags.Errs())))
	}
	if lint.AtOrAbove(findings, level) > 0 {
		return withCode(exitFindings, nil)
	}
	return nil
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
