package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/fabricgen/fabricgen/internal/check/collect"
	"github.com/fabricgen/fabricgen/schema"
)

// Exit codes shared by every command (see DESIGN.md).
const (
	exitOK       = 0
	exitFailed   = 1
	exitFindings = 2
)

// exitError carries an exit code out of a command. A nil err with code 2
// means "worked and found something"; the command has printed its output.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// withCode wraps err so the command exits with code.
func withCode(code int, err error) error { return &exitError{code: code, err: err} }

// streams are the command's terminal ends; tests replace them.
type streams struct {
	in       io.Reader
	out      io.Writer
	err      io.Writer
	outTTY   bool
	errTTY   bool
	getenv   func(string) string
	noColour bool
	// chdir changes the working directory for -chdir (os.Chdir when nil).
	chdir func(string) error
	// chdirLate is set when -chdir came after the command name.
	chdirLate string
	// intr handles SIGINT/SIGTERM; nil in tests that send none.
	intr *interrupts
	// localRunner, when set, is the runner check --local reads its NICs
	// with (tests: a lab host's shell); nil runs commands on this host.
	localRunner func(*schema.Device) (collect.Runner, error)
	// hostname is this host's name for check --local (os.Hostname when nil).
	hostname func() (string, error)
}

// hostnameFunc is the streams' hostname, os.Hostname by default.
func (s *streams) hostnameFunc() func() (string, error) {
	if s.hostname != nil {
		return s.hostname
	}
	return os.Hostname
}

func newStreams() *streams {
	return &streams{
		in:     os.Stdin,
		out:    os.Stdout,
		err:    os.Stderr,
		outTTY: isatty.IsTerminal(os.Stdout.Fd()) || isatty.IsCygwinTerminal(os.Stdout.Fd()),
		errTTY: isatty.IsTerminal(os.Stderr.Fd()) || isatty.IsCygwinTerminal(os.Stderr.Fd()),
		getenv: os.Getenv,
		chdir:  os.Chdir,
	}
}

// colour reports whether output to a terminal may be coloured.
func (s *streams) colour(tty bool) bool {
	return tty && !s.noColour && s.getenv("NO_COLOR") == "" && s.getenv("TERM") != "dumb"
}

// commandConstructors lists every subcommand; help and dispatch derive from it.
func commandConstructors() []func(*streams) *cobra.Command {
	return []func(*streams) *cobra.Command{

		newValidateCommand,
		newLintCommand,
		newRenderCommand,
		newExplainCommand,
		newPlatformsCommand,
		newFmtCommand,
		newImportCommand,
		newPlanCommand,
		newShowCommand,
		newApplyCommand,
		newRollbackCommand,
		newDriftCommand,
		newCheckCommand,
		newGraphCommand,
		newLabCommand,
		newDemoCommand,
		newPrecommitCommand,
		newLSPCommand,
		newVersionCommand,
	}
}

func newRootCommand(s *streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "fabricgen",
		Short: "Check, render and push lossless RoCEv2 fabric intent",
		Long: `fabricgen reads one vendor-neutral description of a lossless RoCEv2 fabric
(*.fab.hcl), checks it end to end across NIC, leaf, spine and core, renders
each device's configuration, and changes the devices safely over SSH.

Exit codes: 0 success, 1 the command could not do its job, 2 it worked and
found something (lint findings, or plan -detailed-exitcode with changes).

-chdir=DIR, before the command name, switches to DIR before anything else,
as in terraform: fabricgen -chdir=examples/clos-400g lint.`,
		Version:       resolveBuild(releaseVersion, debug.ReadBuildInfo).text(),
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(*cobra.Command, []string) error {
			if s.chdirLate != "" {
				return withCode(exitFailed, fmt.Errorf("-chdir=%s must come before the command name, as in terraform: fabricgen -chdir=%s COMMAND", s.chdirLate, s.chdirLate))
			}
			return nil
		},
	}
	root.SetVersionTemplate("{{.Version}}")
	root.SetIn(s.in)
	root.SetOut(s.out)
	root.SetErr(s.err)
	root.PersistentFlags().BoolVar(&s.noColour, "no-color", false, "never colour the output")
	root.PersistentFlags().StringVar(&s.chdirLate, "chdir", "", "switch to this directory before anything else (give it before the command name)")
	// -v is no version flag: one shorthand means one long flag on every
	// command (TestOneMeaningPerShorthand), and demo's -v is --verbose.
	root.Flags().Bool("version", false, "print the version (as fabricgen version)")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		if strings.Contains(err.Error(), "'v' in -v") {
			return fmt.Errorf("%w: fabricgen --version or fabricgen version prints the version", err)
		}
		return err
	})
	// One meaning for -o: --out everywhere; render's --output is the same flag.
	root.SetGlobalNormalizationFunc(func(_ *pflag.FlagSet, name string) pflag.NormalizedName {
		if name == "output" {
			name = "out"
		}
		return pflag.NormalizedName(name)
	})
	for _, c := range commandConstructors() {
		root.AddCommand(c(s))
	}
	unifyOutputFlags(root)
	registerCompletions(root, s)
	return root
}

// splitChdir takes a leading -chdir=DIR (or -chdir DIR, --chdir…) off args.
func splitChdir(args []string) (rest []string, dir string, err error) {
	if len(args) > 1 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd) {
		// Shell completion passes the whole command line: -chdir applies
		// to what is completed (device names of the fabric there).
		rest, dir, err = splitChdir(args[1:])
		return append([]string{args[0]}, rest...), dir, err
	}
	if len(args) == 0 {
		return args, "", nil
	}
	a := strings.TrimPrefix(args[0], "-")
	if !strings.HasPrefix(args[0], "-") || (a != "chdir" && !strings.HasPrefix(a, "chdir=") && a != "-chdir" && !strings.HasPrefix(a, "-chdir=")) {
		return args, "", nil
	}
	a = strings.TrimPrefix(a, "-")
	if v, ok := strings.CutPrefix(a, "chdir="); ok {
		dir, rest = v, args[1:]
	} else if len(args) > 1 {
		dir, rest = args[1], args[2:]
	}
	if dir == "" {
		return nil, "", errors.New("-chdir needs a directory: fabricgen -chdir=DIR COMMAND")
	}
	return rest, dir, nil
}

// run executes the CLI and returns the process exit code.
func run(ctx context.Context, args []string, s *streams) int {
	args, dir, err := splitChdir(args)
	if err == nil && dir != "" {
		chdir := s.chdir
		if chdir == nil {
			chdir = os.Chdir
		}
		if err = chdir(dir); err != nil {
			err = fmt.Errorf("-chdir: %w", err)
		}
	}
	if err != nil {
		fmt.Fprintf(s.err, "Error: %s\n", termText(err.Error()))
		return exitFailed
	}
	root := newRootCommand(s)
	root.SetArgs(terraformStyleFlags(args))
	err = root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(s.err, "Error: %s\n", termText(ee.err.Error()))
		}
		return ee.code
	}
	fmt.Fprintf(s.err, "Error: %s\n", termText(err.Error()))
	return exitFailed
}

// terraformStyleFlags accepts Terraform's single-dash long flags (-json,
// -out=FILE, -var k=v) by rewriting them to the double-dash form cobra
// parses. Single-letter flags (-o) and everything after "--" are untouched.
func terraformStyleFlags(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && isFlagNameStart(a[1]) && isFlagNameStart(a[2]) {
			a = "-" + a
		}
		out = append(out, a)
	}
	return out
}

func isFlagNameStart(c byte) bool { return c >= 'a' && c <= 'z' }
