package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
)

func newShowCommand(s *streams) *cobra.Command {
	var asJSON, markdown, summary bool
	var vf varFlags
	mdLimit := DefaultMarkdownLimit
	cmd := &cobra.Command{
		Use:   "show PLANFILE",
		Short: "Print a saved plan (plan -out FILE) without contacting any device",
		Long: `show prints the plan saved by "fabricgen plan -out PLANFILE" the way plan
printed it: per device the diff (a host's settings as "setting: old ->
new"), the devices that could not be planned, the unchanged ones and the
total. -json prints the plan file itself, -format markdown (or --markdown)
the pull-request comment of plan --markdown. Nothing is read but the file:
no SSH, no device. The Markdown plan's lint warnings come from the fabric,
not the file: show lints the plan's fabric directory (relative to the
working directory, as plan recorded it; give the -var flags plan had) when
it still holds the intent the plan was made from, and leaves them out
otherwise.

A file that is not a plan (another JSON document, a plan of another
format version, an edited device entry) is refused, at its line and column
when it is not JSON at all. With FABRICGEN_PLAN_KEY set, an unsigned plan
or one whose signature does not match is refused, as apply refuses it; a
signed plan shown without the key is shown with a note that its signature
was not checked.`,
		Example: `  fabricgen plan . -out plan.json
  fabricgen show plan.json
  fabricgen show plan.json -format markdown > comment.md
  fabricgen show plan.json -json | jq '.devices[] | select(.status == "change") | .name'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if mdLimit < minMarkdownLimit {
				return withCode(exitFailed, fmt.Errorf("--markdown-limit %d: give at least %d", mdLimit, minMarkdownLimit))
			}
			p, err := loadPlanToShow(args[0])
			if err != nil {
				return withCode(exitFailed, err)
			}
			key := s.getenv(planfile.KeyEnv)
			switch {
			case key != "":
				if err := p.Verify([]byte(key)); err != nil {
					return withCode(exitFailed, fmt.Errorf("%s: %w", args[0], err))
				}
			case p.Signature != "":
				fmt.Fprintf(cmd.ErrOrStderr(), "Note: %s is signed, but %s is not set: its signature was not checked.\n", args[0], planfile.KeyEnv)
			}
			w := cmd.OutOrStdout()
			switch {
			case asJSON:
				err = p.Write(w)
			case markdown:
				md := planMarkdown{Limit: mdLimit, PlanFile: args[0], Dir: p.Dir, Findings: planFindings(cmd, s, p, &vf)}
				err = md.write(w, p, nil)
			default:
				writePlanHuman(w, p, nil, planView{colour: s.colour(s.outTTY), summary: summary})
			}
			if err != nil {
				return withCode(exitFailed, err)
			}
			return nil
		},
	}
	vf.register(cmd)
	fl := cmd.Flags()
	fl.BoolVar(&asJSON, "json", false, "print the plan file as JSON (as plan -json)")
	fl.BoolVar(&markdown, "markdown", false, "print the plan as Markdown for a review comment (as plan --markdown)")
	fl.IntVar(&mdLimit, "markdown-limit", DefaultMarkdownLimit, "with --markdown, stop before this many characters; GitHub comments hold 65,536")
	fl.BoolVar(&summary, "summary", false, "one line per device and no diffs")
	return cmd
}

// planFindings is what plan's Markdown listed of the lint findings: those
// that do not block, of the fabric in the plan's directory when it still
// holds the intent the plan was made from (the same digest), else none.
// Only files are read.
func planFindings(cmd *cobra.Command, s *streams, p *planfile.Plan, vf *varFlags) diag.Diagnostics {
	dir := filepath.FromSlash(p.Dir)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil
	}
	ctx := cmd.Context()
	f, diags, err := loadIntent(ctx, s, dir, vf)
	if err != nil || f == nil || diags.HasErrors() || f.Digest != p.IntentDigest {
		return nil
	}
	cfg, err := gateConfig(ctx, dir, io.Discard, false)
	if err != nil {
		return nil
	}
	findings, err := lint.Run(ctx, f, lint.Options{Config: cfg})
	if err != nil {
		return nil
	}
	var other diag.Diagnostics
	for i, fd := range findings {
		if fd.Severity != schema.SevError {
			other = append(other, &findings[i])
		}
	}
	return other
}

// loadPlanToShow reads a plan file (planfile.Load: bounded, decoded as it
// is read), placing a JSON syntax or type error at its line and column.
func loadPlanToShow(path string) (*planfile.Plan, error) {
	p, err := planfile.Load(path)
	if err == nil {
		return p, nil
	}
	var offset int64 = -1
	var cause error
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		// Offset counts the bad byte itself.
		offset, cause = max(syn.Offset-1, 0), syn
	case errors.As(err, &typ):
		offset, cause = typ.Offset, typ
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return nil, fmt.Errorf("%s: not a fabricgen plan: the file ends before its JSON does (save one with fabricgen plan -out %s)", path, path)
	}
	if offset < 0 {
		return nil, fmt.Errorf("%w (fabricgen show reads what fabricgen plan -out saved)", err)
	}
	line, col, lerr := lineColumn(path, offset)
	if lerr != nil {
		return nil, errors.Join(err, lerr)
	}
	return nil, fmt.Errorf("%s:%d:%d: not a fabricgen plan: %w (fabricgen show reads what fabricgen plan -out saved)", path, line, col, cause)
}

// lineColumn is the 1-based line and column of byte offset in path, which
// is read no further than offset.
func lineColumn(path string, offset int64) (line, col int, err error) {
	f, err := readlimit.Open(path)
	if err != nil {
		return 0, 0, fmt.Errorf("reading %s again: %w", path, err)
	}
	defer func() { _ = f.Close() }()
	line, col = 1, 1
	buf := make([]byte, 32<<10)
	r := io.LimitReader(f, offset)
	for {
		n, rerr := r.Read(buf)
		for _, b := range buf[:n] {
			if b == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		if rerr == io.EOF {
			return line, col, nil
		}
		if rerr != nil {
			return 0, 0, fmt.Errorf("reading %s again: %w", path, rerr)
		}
	}
}
