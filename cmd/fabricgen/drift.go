package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/push"
)

// driftFormatVersion is the version of drift's JSON document.
const driftFormatVersion = 1

func newDriftCommand(s *streams) *cobra.Command {
	var pf pushFlags
	var asJSON, markdown bool
	cmd := &cobra.Command{
		Use:   "drift [DIR]",
		Short: "Report devices whose config changed since fabricgen applied it",
		Long: `drift compares, per device, three things: the intent in DIR rendered now,
the config fabricgen applied last (DIR/.fabricgen/applied/DEVICE.json,
written by apply), and the device's running config, over the same SSH
sessions, credentials, inventory and known_hosts as plan. Only what
fabricgen manages is compared. It changes nothing.

One line per device, NAME STATUS:
  in-sync   the device has what was applied, and the intent still renders it
  drifted   the device changed since the apply (someone changed it by hand)
  pending   the intent changed since the apply (plan/apply will change it),
            or fabricgen never applied the device from this directory
  conflict  both changed
  in-flight a change is in flight on the device (an apply waiting for
            confirmation, a transaction a run left): what it reads now
            may not last; the line says what and what to do
then the unified diff of each drift (last applied -> running). -json and
--markdown print the same for machines and review comments ("plan
-refresh-only" is the same report).

Exit status: 0 every device in sync or pending, 1 a device could not be
read, 2 a device drifted, conflicts or has a change in flight.`,
		Example: `  fabricgen drift fabric/
  fabricgen drift fabric/ -json > drift.json
  fabricgen drift . --markdown --device 'leaf*'`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON && markdown {
				return withCode(exitFailed, fmt.Errorf("-json and --markdown exclude each other"))
			}
			return runDrift(cmd, s, &pf, fabricDir(args), asJSON, markdown)
		},
	}
	pf.register(cmd)
	fl := cmd.Flags()
	fl.BoolVar(&asJSON, "json", false, "print the report as JSON")
	fl.BoolVar(&markdown, "markdown", false, "print the report as Markdown for a review comment or an issue")
	return cmd
}

// runDrift loads, renders and compares, prints the report, and returns
// the exit status.
func runDrift(cmd *cobra.Command, s *streams, pf *pushFlags, dir string, asJSON, markdown bool) error {
	opts, err := pf.options(cmd, s)
	if err != nil {
		return withCode(exitFailed, err)
	}
	run, err := prepare(cmd.Context(), cmd, s, dir, pf)
	if err != nil {
		return err
	}
	opts.State = fabricState(s, run.f.Dir)
	results, err := push.Drift(cmd.Context(), run.inputs, opts)
	if err != nil {
		return withCode(exitFailed, err)
	}
	w := cmd.OutOrStdout()
	switch {
	case asJSON:
		err = writeDriftJSON(w, run.f.Name, results)
	case markdown:
		writeDriftMarkdown(w, run.f.Name, results)
	default:
		writeDriftText(w, results)
	}
	if err != nil {
		return withCode(exitFailed, err)
	}
	sum := driftSummary(results)
	switch {
	case sum[push.DriftError] > 0:
		return withCode(exitFailed, fmt.Errorf("%d device(s) could not be read", sum[push.DriftError]))
	case sum[push.DriftDrifted]+sum[push.DriftConflict]+sum[push.DriftInFlight] > 0:
		return withCode(exitFindings, nil)
	}
	return nil
}

// driftSummary counts the statuses.
func driftSummary(rs []push.DriftResult) map[push.DriftStatus]int {
	m := map[push.DriftStatus]int{}
	for _, r := range rs {
		m[r.Status]++
	}
	return m
}

// driftOrder is the order statuses are summed up in.
func driftOrder() []push.DriftStatus {
	return []push.DriftStatus{push.DriftDrifted, push.DriftConflict, push.DriftPending, push.DriftInSync, push.DriftInFlight, push.DriftError}
}

func driftSummaryLine(rs []push.DriftResult) string {
	sum := driftSummary(rs)
	var parts []string
	for _, st := range driftOrder() {
		if sum[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", sum[st], st))
		}
	}
	return strings.Join(parts, ", ")
}

func writeDriftText(w io.Writer, rs []push.DriftResult) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, r := range rs {
		detail := ""
		switch {
		case r.Error != "":
			detail = r.Error
		case !r.LastApplied.IsZero():
			detail = "last applied " + r.LastApplied.UTC().Format(time.RFC3339) + " (" + termLine(r.Run) + ")"
		default:
			detail = "never applied from this state directory"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", termLine(r.Device), termLine(string(r.Status)), termLine(detail))
	}
	_ = tw.Flush()
	for _, r := range rs {
		if r.Drifted() {
			fmt.Fprintf(w, "\n%s (%s) %s: its managed config changed since it was applied:\n", termLine(r.Device), termLine(r.Platform), r.Status)
			if push.IsHost(r.Platform) {
				plain := func(s string) string { return s }
				writeHostSettings(w, r.Drift.Text, plain, plain)
			} else {
				fmt.Fprint(w, termText(r.Drift.Text))
			}
		}
	}
	fmt.Fprintf(w, "\nDrift: %s.\n", driftSummaryLine(rs))
}

func writeDriftJSON(w io.Writer, fabric string, rs []push.DriftResult) error {
	sum := map[string]int{}
	for st, n := range driftSummary(rs) {
		sum[string(st)] = n
	}
	doc := struct {
		FormatVersion int                `json:"format_version"`
		Fabric        string             `json:"fabric"`
		Summary       map[string]int     `json:"summary"`
		Devices       []push.DriftResult `json:"devices"`
	}{driftFormatVersion, fabric, sum, rs}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("encode drift report: %w", err)
	}
	return nil
}

func writeDriftMarkdown(w io.Writer, fabric string, rs []push.DriftResult) {
	fmt.Fprintf(w, "### fabricgen drift: %s\n\n**%s**\n\n", mdCode(fabric), driftSummaryLine(rs))
	fmt.Fprintln(w, "| device | platform | status | last applied |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, r := range rs {
		last := ""
		if !r.LastApplied.IsZero() {
			last = r.LastApplied.UTC().Format(time.RFC3339)
		}
		st := string(r.Status)
		if r.Error != "" {
			st += ": " + r.Error
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", mdCode(r.Device), mdText(r.Platform), mdText(st), last)
	}
	for _, r := range rs {
		if r.Drifted() {
			lang, body := "diff", r.Drift.Text
			if push.IsHost(r.Platform) {
				lang, body = "text", push.HostSettingText(body)
			}
			body = termText(body) // a fence shows its text as is: no raw controls
			fence := codeFence(body)
			fmt.Fprintf(w, "\n<details><summary>%s: %s</summary>\n\n%s%s\n%s%s\n</details>\n", mdCode(r.Device), r.Status, fence, lang, body, fence)
		}
	}
}
