package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/internal/lsp"
	"github.com/fabricgen/fabricgen/platforms"
)

func newLSPCommand(s *streams) *cobra.Command {
	var debounce, slowAfter time.Duration
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server: findings, hop traces, hover and completion in the editor",
		Long: `lsp speaks the Language Server Protocol 3.17 on standard input and output,
for editors (VS Code with editors/vscode, Neovim, Helix, Emacs eglot, …).
The unit of analysis is the fabric directory of the file being edited, with
the buffers the editor has open laid over the files on disk.

On each change the file is parsed at once and its syntax errors shown;
after --debounce of quiet, validate and lint run over the whole directory
(any run still going is cancelled) and every file's findings are published:
the rule as the code, its documentation as the link, and the hop trace as
related locations, each hop at the block of its port. A fabric whose check
takes longer than --slow-after is checked on save instead, and the editor
says so. Variables come from FABRICGEN_VAR_name in the server's environment.

Also: hover (a port's or device's effective QoS with where each value was
set, what a reference is and how many ports it reaches, an attribute's
documentation), go to definition and references, completion (block types,
attributes, values, names), quick fixes (a finding's one-attribute fix, or a
fabricgen:ignore comment), formatting (fabricgen fmt) and document symbols.

Exit status: 0 after the client's shutdown and exit, 1 when the client goes
away without them or sends a malformed frame.`,
		Example: `  fabricgen lsp          # started by the editor, never by hand`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if debounce < 0 || slowAfter <= 0 {
				return withCode(exitFailed, fmt.Errorf("--debounce must be 0 or more and --slow-after more than 0"))
			}
			if debounce == 0 {
				debounce = -1 // Options: negative is "none"
			}
			err := lsp.Serve(cmd.Context(), s.in, s.out, lsp.Options{
				Platforms: platforms.Catalog(),
				Version:   version,
				Debounce:  debounce,
				SlowAfter: slowAfter,
				Getenv:    s.getenv,
			})
			if errors.Is(err, lsp.ErrNoShutdown) {
				return withCode(exitFailed, err)
			}
			if err != nil {
				return withCode(exitFailed, fmt.Errorf("lsp: %w", err))
			}
			return nil
		},
	}
	cmd.Flags().DurationVar(&debounce, "debounce", lsp.DefaultDebounce, "quiet time after a change before the directory is checked again")
	cmd.Flags().DurationVar(&slowAfter, "slow-after", lsp.DefaultSlowAfter, "check on save only while a check takes longer than this")
	return cmd
}
