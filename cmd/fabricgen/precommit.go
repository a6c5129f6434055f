package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/lint/format"
	"github.com/fabricgen/fabricgen/schema"
)

func newPrecommitCommand(s *streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "precommit",
		Short: "Validate or lint the fabrics that changed files belong to (for pre-commit hooks)",
		Long: `precommit runs validate or lint once for each fabric directory the FILE
arguments belong to, the way pre-commit passes the files of a commit:

  fabricgen precommit lint fabric/dc1/spines.fab.hcl fabric/dc2/qos.fab.hcl

checks the fabrics in fabric/dc1 and fabric/dc2. A *.fab.hcl or *.fab.json
file belongs to the fabric in its directory. A .fabricgen.hcl (lint
configuration) belongs to every fabric at or below its directory. Other
files are ignored, and so is a run with no fabric at all.

The exit status is the worst of the runs: 1 when a fabric could not be
checked (invalid intent), else 2 when lint found something at or above the
fail level, else 0. .pre-commit-hooks.yaml uses it for fabricgen-validate
and fabricgen-lint.`,
		Example: `  fabricgen precommit validate fabric/leaves.fab.hcl
  fabricgen precommit lint --format compact fabric/dc1/qos.fab.hcl fabric/dc2/qos.fab.hcl`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newPrecommitValidateCommand(s), newPrecommitLintCommand(s))
	return cmd
}

func newPrecommitValidateCommand(s *streams) *cobra.Command {
	var vf varFlags
	cmd := &cobra.Command{
		Use:     "validate FILE...",
		Short:   "Validate the fabric of each changed file",
		Long:    "precommit validate runs fabricgen validate on each fabric directory the files belong to (see fabricgen precommit --help).",
		Example: "  fabricgen precommit validate fabric/leaves.fab.hcl fabric/qos.fab.hcl",
		RunE: func(cmd *cobra.Command, args []string) error {
			return eachFabric(cmd, args, func(dir string) error { return runValidate(cmd, s, dir, &vf, false) })
		},
	}
	vf.register(cmd)
	return cmd
}

func newPrecommitLintCommand(s *streams) *cobra.Command {
	var lf lintFlags
	cmd := &cobra.Command{
		Use:     "lint FILE...",
		Short:   "Lint the fabric of each changed file",
		Long:    "precommit lint runs fabricgen lint on the fabric directories the files belong to (see fabricgen precommit --help), with lint's flags: one report, as lint DIR... gives.",
		Example: "  fabricgen precommit lint --format compact fabric/leaves.fab.hcl",
		RunE: func(cmd *cobra.Command, args []string) error {
			dirs, err := fabricDirsOf(args)
			if err != nil {
				return withCode(exitFailed, err)
			}
			if len(dirs) == 0 {
				return nil
			}
			return runLintDirs(cmd, s, dirs, nil, &lf)
		},
	}
	lf.vf.register(cmd)
	cmd.Flags().StringVarP(&lf.formatName, "format", "f", "compact", "output format: "+strings.Join(format.Names(), ", "))
	cmd.Flags().StringVar(&lf.failLevel, "fail-level", "warning", "lowest severity that makes lint exit 2: warning or error")
	cmd.Flags().StringSliceVar(&lf.only, "rule", nil, "run only these rules (repeatable or comma-separated IDs)")
	cmd.Flags().StringVar(&lf.basePath, "base-path", "", "make SARIF, GitHub and Markdown file names relative to this directory")
	return cmd
}

// eachFabric runs check on every fabric directory of files and returns
// the worst outcome: a code-1 error, else a code-2 one, else nil.
func eachFabric(cmd *cobra.Command, files []string, check func(dir string) error) error {
	dirs, err := fabricDirsOf(files)
	if err != nil {
		return withCode(exitFailed, err)
	}
	worst := 0
	var failed []string
	for _, dir := range dirs {
		err := check(dir)
		if err == nil {
			continue
		}
		code := exitFailed
		var ee *exitError
		if errors.As(err, &ee) {
			code = ee.code
			if ee.err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "Error: %v\n", ee.err)
			}
		} else {
			fmt.Fprintf(cmd.ErrOrStderr(), "Error: %v\n", err)
		}
		failed = append(failed, dir)
		if code == exitFailed || worst == 0 {
			worst = code
		}
	}
	switch worst {
	case 0:
		return nil
	case exitFindings:
		return withCode(exitFindings, nil)
	default:
		return withCode(exitFailed, fmt.Errorf("%d of %d fabric(s) failed: %s", len(failed), len(dirs), strings.Join(failed, ", ")))
	}
}

// fabricDirsOf maps changed files to the fabric directories they belong
// to, sorted and without duplicates.
func fabricDirsOf(files []string) ([]string, error) {
	set := map[string]bool{}
	for _, f := range files {
		base := filepath.Base(f)
		switch {
		case strings.HasSuffix(base, schema.HCLSuffix), strings.HasSuffix(base, schema.JSONSuffix):
			set[filepath.Dir(f)] = true
		case base == ".fabricgen.hcl":
			below, err := fabricsBelow(filepath.Dir(f))
			if err != nil {
				return nil, err
			}
			for _, d := range below {
				set[d] = true
			}
		}
	}
	dirs := make([]string, 0, len(set))
	for d := range set {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	return dirs, nil
}

// fabricsBelow lists root and the directories under it (hidden ones
// skipped) that hold fabric files.
func fabricsBelow(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, schema.HCLSuffix) || strings.HasSuffix(p, schema.JSONSuffix) {
			if dir := filepath.Dir(p); len(out) == 0 || out[len(out)-1] != dir {
				out = append(out, dir)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("fabrics under %s: %w", root, err)
	}
	return out, nil
}
