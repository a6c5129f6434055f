package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/internal/hclfmt"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/spf13/cobra"
)

func newFmtCommand(s *streams) *cobra.Command {
	var check, diff, recursive, write bool
	cmd := &cobra.Command{
		Use:   "fmt [PATH...]",
		Short: "Rewrite *.fab.hcl files in the canonical format",
		Long: `fmt rewrites *.fab.hcl files in the canonical HCL layout (indentation and
aligned equals signs). Each PATH is a file or a directory (default: the
current directory); -recursive also descends into subdirectories.

A file with syntax errors is never rewritten: fmt prints its diagnostics and
exits 1. With -check nothing is written, the files that need formatting are
listed, and the exit status is 2 when there are any. JSON files are left alone.`,
		Example: `  fabricgen fmt
  fabricgen fmt -check -recursive examples
  fabricgen fmt -diff fabric.fab.hcl`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				args = []string{"."}
			}
			files, err := fmtTargets(args, recursive)
			if err != nil {
				return withCode(exitFailed, err)
			}
			var diags schema.Diagnostics
			sources := map[string][]byte{}
			changed := 0
			for _, path := range files {
				src, err := readFileBounded(path, schema.MaxFileSize)
				if err != nil {
					return withCode(exitFailed, fmt.Errorf("read %s: %w", path, err))
				}
				sources[path] = src
				out, ds := formatHCL(src, path)
				if len(ds) > 0 {
					diags = append(diags, ds...)
					continue
				}
				if bytes.Equal(out, src) {
					continue
				}
				changed++
				fmt.Fprintln(cmd.OutOrStdout(), path)
				if diff {
					d := config.Unified("a/"+filepath.ToSlash(path), "b/"+filepath.ToSlash(path), string(src), string(out))
					fmt.Fprint(cmd.OutOrStdout(), d.Text)
				}
				if write && !check {
					if err := readlimit.WriteFile(path, out, 0o644); err != nil {
						return withCode(exitFailed, fmt.Errorf("write %s: %w", path, err))
					}
				}
			}
			if len(diags) > 0 {
				if err := diags.WriteText(cmd.ErrOrStderr(), sources, s.colour(s.errTTY)); err != nil {
					return withCode(exitFailed, err)
				}
				return withCode(exitFailed, fmt.Errorf("%d file(s) have syntax errors and were not formatted", countFiles(diags)))
			}
			if check && changed > 0 {
				return withCode(exitFindings, nil)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&check, "check", false, "write nothing; exit 2 when a file is not formatted")
	cmd.Flags().BoolVar(&diff, "diff", false, "print a unified diff of the changes")
	cmd.Flags().BoolVar(&recursive, "recursive", false, "also format files in subdirectories")
	cmd.Flags().BoolVar(&write, "write", true, "write the result back to the files")
	return cmd
}

// formatHCL is hclfmt.Format: fmt and fabricgen lsp format alike.
func formatHCL(src []byte, path string) ([]byte, schema.Diagnostics) {
	return hclfmt.Format(src, path)
}

// fmtTargets expands PATH arguments into *.fab.hcl files, sorted.
func fmtTargets(args []string, recursive bool) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("fmt %s: %w", a, err)
		}
		if !st.IsDir() {
			if !strings.HasSuffix(a, schema.HCLSuffix) {
				return nil, fmt.Errorf("fmt %s: only *%s files are formatted", a, schema.HCLSuffix)
			}
			out = append(out, a)
			continue
		}
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != a && (!recursive || strings.HasPrefix(d.Name(), ".")) {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(p, schema.HCLSuffix) {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("fmt %s: %w", a, err)
		}
	}
	sort.Strings(out)
	return out, nil
}

func countFiles(ds schema.Diagnostics) int {
	seen := map[string]bool{}
	for _, d := range ds {
		if d.Subject != nil {
			seen[d.Subject.Filename] = true
		}
	}
	return len(seen)
}
