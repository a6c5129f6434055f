package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/lint/format"
	"github.com/fabricgen/fabricgen/schema"
)

// ruleListHelp lists the registry's rules for --help.
func ruleListHelp() string {
	var b strings.Builder
	for _, r := range lint.Rules() {
		fmt.Fprintf(&b, "  %s  %-7s  %s\n", r.ID, r.Severity, r.Title)
	}
	return b.String()
}

func newLintCommand(s *streams) *cobra.Command {
	var vf varFlags
	var formatName, failLevel string
	var only []string
	cmd := &cobra.Command{
		Use:   "lint [DIR]",
		Short: "Check the fabric end to end: RoCE data and CNP at every hop, links, ports, buffers",
		Long: `lint validates the intent in DIR (default: the current directory) first
(errors exit 1), then runs every rule: per link and port, and end to end by
walking RoCE data (every NIC to every NIC, so both directions) and CNP (the
reverse path) through every leaf, spine and routed core hop, over every ECMP
member. A path finding shows one representative hop trace and how many paths
share the problem.

Suppress one finding with a comment on or above its block or attribute:
  # fabricgen:ignore RULE-ID reason
Configure rules in .fabricgen.hcl (found in DIR or a parent directory):
  config { fail_level = "warning" }
  rule "QOS005" { enabled = false }
  rule "PFC003" { severity = "error" }

Exit status: 0 nothing at or above the fail level, 2 findings, 1 lint could
not run (invalid intent, bad flags or config).

Formats (--format, -f):
` + indent(format.Help()) + `

Rules (fabricgen explain RULE-ID for one):
` + ruleListHelp(),
		Example: `  fabricgen lint examples/roce-storage
  fabricgen lint --format sarif . > fabricgen.sarif
  fabricgen lint -f github --fail-level warning examples/clos-400g
  fabricgen lint examples/scale -var leaves=128`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := fabricDir(args)
			ctx := cmd.Context()
			out, err := format.Lookup(formatName)
			if err != nil {
				if strings.HasPrefix(formatName, "ormat") {
					err = fmt.Errorf("-format was read as -f %q: write --format NAME or -f NAME", formatName)
				}
				return withCode(exitFailed, err)
			}
			cfg, err := loadLintConfig(cmd, dir)
			if err != nil {
				return withCode(exitFailed, err)
			}
			level := schema.SevError
			if cfg != nil && cfg.FailLevel != 0 {
				level = cfg.FailLevel
			}
			if cmd.Flags().Changed("fail-level") {
				if level, err = schema.ParseSeverity(failLevel); err != nil {
					return withCode(exitFailed, fmt.Errorf("--fail-level: %w", err))
				}
			}
			for _, id := range only {
				if lint.Lookup(id) == nil {
					return withCode(exitFailed, fmt.Errorf("--rule %s: no such rule; run `fabricgen explain` for the list", id))
				}
			}
			f, _, err := loadFabric(cmd, s, dir, &vf)
			if err != nil {
				return err
			}
			findings, err := lint.Run(ctx, f, lint.Options{Config: cfg, Only: only})
			if err != nil {
				return withCode(exitFailed, err)
			}
			res := &format.Result{Findings: findings, Sources: f.Files, Rules: lint.Rules(), Version: version,
				Color: formatName == "text" && s.colour(s.outTTY)}
			if err := out.Write(cmd.OutOrStdout(), res); err != nil {
				return withCode(exitFailed, fmt.Errorf("writing %s output: %w", formatName, err))
			}
			if lint.AtOrAbove(findings, level) > 0 {
				return withCode(exitFindings, nil)
			}
			return nil
		},
	}
	vf.register(cmd)
	cmd.Flags().StringVarP(&formatName, "format", "f", "text", "output format: "+strings.Join(format.Names(), ", "))
	cmd.Flags().StringVar(&failLevel, "fail-level", "error", "lowest severity that makes lint exit 2: error, warning or info")
	cmd.Flags().StringSliceVar(&only, "rule", nil, "run only these rules (repeatable or comma-separated IDs)")
	return cmd
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
