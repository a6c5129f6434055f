package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/lint/format"
)

func newValidateCommand(s *streams) *cobra.Command {
	var vf varFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "validate [DIR | FILE]",
		Short: "Check the intent's syntax, types and references",
		Long: `validate reads every *.fab.hcl and *.fab.json file of DIR (default: the
current directory; a *.fab.hcl or *.fab.json file stands for the fabric in
its directory, since a fabric's files reference each other), evaluates variables, locals, functions, for_each, count
and dynamic blocks, resolves every reference, and reports every error with
its file, line and source snippet. It does not run the lint rules.

-json prints the document lint -format json prints (format_version, valid,
error and warning counts, diagnostics; see docs/rules.md).

Exit status: 0 valid, 1 invalid.`,
		Example: `  fabricgen validate examples/roce-storage
  fabricgen validate -json .
  fabricgen validate examples/scale -var leaves=16`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runValidate(cmd, s, fabricDir(args), &vf, asJSON)
		},
	}
	vf.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON (the document of lint -format json)")
	return cmd
}

// runValidate validates the fabric in dir and prints the result.
func runValidate(cmd *cobra.Command, s *streams, dir string, vf *varFlags, asJSON bool) error {
	f, diags, err := loadIntent(cmd.Context(), s, dir, vf)
	if err != nil {
		return err
	}
	diags.Sort()
	if asJSON {
		js, _ := format.Lookup("json")
		res := &format.Result{Diagnostics: diags, Valid: !diags.HasErrors(), Sources: sourcesOf(f, diags), Rules: lint.Rules(), Version: version}
		if err := js.Write(cmd.OutOrStdout(), res); err != nil {
			return withCode(exitFailed, err)
		}
		if diags.HasErrors() {
			return withCode(exitFailed, nil)
		}
		return nil
	}
	if err := diags.WriteText(cmd.ErrOrStderr(), sourcesOf(f, diags), s.colour(s.errTTY)); err != nil {
		return withCode(exitFailed, err)
	}
	if diags.HasErrors() {
		return withCode(exitFailed, fmt.Errorf("%s is not a valid fabric: %d error(s)", dir, len(diags.Errs())))
	}
	ports := 0
	for _, d := range f.Devices {
		ports += len(d.Ports)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "Success! Fabric %q is valid: %d devices, %d ports, %d links.\n", f.Name, len(f.Devices), ports, len(f.Links))
	return nil
}
