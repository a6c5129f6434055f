package main

import (
	"fmt"

	"github.com/fabricgen/fabricgen/schema"
	"github.com/spf13/cobra"
)

func newValidateCommand(s *streams) *cobra.Command {
	var vf varFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "validate [DIR]",
		Short: "Check the intent's syntax, types and references",
		Long: `validate reads every *.fab.hcl and *.fab.json file of DIR (default: the
current directory), evaluates variables, locals, functions, for_each, count
and dynamic blocks, resolves every reference, and reports every error with
its file, line and source snippet. It does not run the lint rules.

Exit status: 0 valid, 1 invalid.`,
		Example: `  fabricgen validate examples/roce-storage
  fabricgen validate -json .
  fabricgen validate examples/scale -var leaves=16`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := fabricDir(args)
			opts, err := vf.options(s)
			if err != nil {
				return withCode(exitFailed, err)
			}
			f, diags := schema.Load(dir, opts)
			var files map[string][]byte
			if f != nil {
				files = f.Files
			}
			if asJSON {
				if err := diags.WriteJSON(cmd.OutOrStdout(), files); err != nil {
					return withCode(exitFailed, err)
				}
				if diags.HasErrors() {
					return withCode(exitFailed, nil)
				}
				return nil
			}
			if err := diags.WriteText(cmd.ErrOrStderr(), files, s.colour(s.errTTY)); err != nil {
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
		},
	}
	vf.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON (Terraform's validate -json shape)")
	return cmd
}
