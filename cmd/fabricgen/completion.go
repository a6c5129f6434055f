package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/internal/brownfield"
	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// registerCompletions adds shell completion (fabricgen completion bash|zsh|
// fish|powershell) for what the commands take: rule ids, output formats,
// device names (described by their platform), fabric directories and
// files. A command that already has a completion keeps it.
func registerCompletions(root *cobra.Command, s *streams) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		completeFlagsOf(c, s)
		if c.ValidArgsFunction == nil {
			c.ValidArgsFunction = argCompletion(c, s)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// completeFlagsOf registers value completion for c's flags by name.
func completeFlagsOf(c *cobra.Command, s *streams) {
	add := func(name string, fn cobra.CompletionFunc) {
		if c.Flags().Lookup(name) == nil {
			return
		}
		if _, exists := c.GetFlagCompletionFunc(name); exists {
			return
		}
		_ = c.RegisterFlagCompletionFunc(name, fn) // only fails for a missing or registered flag, both checked
	}
	add("device", func(cmd *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
		return withPrefix(deviceNames(cmd, s, completionDir(cmd, args)), prefix), cobra.ShellCompDirectiveNoFileComp
	})
	rules := ruleIDs
	if c.Name() == "check" {
		rules = checkRuleIDs
	}
	add("rule", func(_ *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
		return listCompletion(rules(), prefix), cobra.ShellCompDirectiveNoFileComp
	})
	add("platform", func(_ *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
		return withPrefix(brownfield.Names(), prefix), cobra.ShellCompDirectiveNoFileComp
	})
	add("fail-level", cobra.FixedCompletions([]string{"warning\tany finding but info fails", "error\tonly errors fail"}, cobra.ShellCompDirectiveNoFileComp))
	if names, ok := formatFlagNames()[c.CommandPath()]; ok {
		add("format", cobra.FixedCompletions(names(), cobra.ShellCompDirectiveNoFileComp))
	}
	for _, dirFlag := range []string{"templates", "backup-dir", "running-config", "dir", "fabric"} {
		add(dirFlag, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return nil, cobra.ShellCompDirectiveFilterDirs
		})
	}
}

// argCompletion completes c's positional arguments, nil for a command
// whose arguments are free text.
func argCompletion(c *cobra.Command, s *streams) cobra.CompletionFunc {
	switch c.CommandPath() {
	case "fabricgen explain":
		return func(_ *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return withPrefix(append(ruleIDs(), checkRuleIDs()...), prefix), cobra.ShellCompDirectiveNoFileComp
		}
	case "fabricgen show":
		return func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return []string{"json"}, cobra.ShellCompDirectiveFilterFileExt
		}
	case "fabricgen lint":
		return func(_ *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
			return []string{"fab.hcl", "fab.json"}, cobra.ShellCompDirectiveFilterFileExt
		}
	case "fabricgen validate":
		return func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return []string{"fab.hcl", "fab.json"}, cobra.ShellCompDirectiveFilterFileExt
		}
	case "fabricgen fmt":
		return cobra.FixedCompletions([]string{"fab.hcl"}, cobra.ShellCompDirectiveFilterFileExt)
	case "fabricgen plan", "fabricgen render", "fabricgen drift", "fabricgen demo", "fabricgen lab up":
		return func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return nil, cobra.ShellCompDirectiveFilterDirs
		}
	case "fabricgen rollback":
		return func(cmd *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
			return withPrefix(deviceNames(cmd, s, completionDir(cmd, args)), prefix), cobra.ShellCompDirectiveNoFileComp
		}
	case "fabricgen lab show", "fabricgen lab fault":
		return func(cmd *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return withPrefix(runningLabDevices(cmd), prefix), cobra.ShellCompDirectiveNoFileComp
		}
	}
	return nil
}

// withPrefix keeps the candidates that start with what is typed so far.
func withPrefix(candidates []string, prefix string) []string {
	out := candidates[:0:0]
	for _, c := range candidates {
		if strings.HasPrefix(c, prefix) {
			out = append(out, c)
		}
	}
	return out
}

// listCompletion completes the last item of a comma-separated list
// (--rule QOS001,PF): the candidates that start with what is typed of it,
// each after the items before it.
func listCompletion(candidates []string, prefix string) []string {
	head, typed := "", prefix
	if i := strings.LastIndex(prefix, ","); i >= 0 {
		head, typed = prefix[:i+1], prefix[i+1:]
	}
	out := withPrefix(candidates, typed)
	for i := range out {
		out[i] = head + out[i]
	}
	return out
}

// checkRuleIDs is every check rule id, described by its title.
func checkRuleIDs() []string {
	var out []string
	for _, r := range check.Rules() {
		out = append(out, r.ID+"\t"+r.Title)
	}
	return out
}

// ruleIDs is every lint rule id, described by its title.
func ruleIDs() []string {
	var out []string
	for _, r := range lint.Rules() {
		out = append(out, r.ID+"\t"+r.Title)
	}
	return out
}

// completionDir is the fabric a command's --device refers to: its
// directory argument (or the directory of a file argument), else ".".
func completionDir(cmd *cobra.Command, args []string) string {
	if cmd.Name() == "rollback" {
		if f := cmd.Flags().Lookup("fabric"); f != nil && f.Changed {
			return f.Value.String()
		}
		// rollback [DIR] DEVICE...: a first argument that is a directory
		// is the fabric, else the fabric is the working directory's.
		if len(args) > 0 {
			if st, err := os.Stat(args[0]); err == nil && st.IsDir() {
				return args[0]
			}
		}
		return "."
	}
	return fabricDir(args)
}

// deviceNames loads the fabric in dir (with the command's -var flags when
// it has them) and returns its devices, described by their platform; a
// fabric that does not load completes to nothing.
func deviceNames(cmd *cobra.Command, s *streams, dir string) []string {
	opts := schema.Options{Getenv: s.getenv, Vars: map[string]string{}, Platforms: platforms.Catalog()}
	if v, err := cmd.Flags().GetStringArray("var"); err == nil {
		for _, kv := range v {
			if k, val, ok := strings.Cut(kv, "="); ok {
				opts.Vars[k] = val
			}
		}
	}
	if v, err := cmd.Flags().GetStringArray("var-file"); err == nil {
		opts.VarFiles = v
	}
	f, diags := schema.LoadContext(cmd.Context(), dir, opts)
	if f == nil || diags.HasErrors() {
		return nil
	}
	out := make([]string, 0, len(f.Devices))
	for _, d := range f.Devices {
		out = append(out, d.Name+"\t"+string(d.Platform.V))
	}
	sort.Strings(out)
	return out
}

// runningLabDevices is the device names in the running lab's inventory (lab up
// --dir), for lab show and lab fault.
func runningLabDevices(cmd *cobra.Command) []string {
	dir := defaultLabDir()
	if f := cmd.Flags().Lookup("dir"); f != nil && f.Value.String() != "" {
		dir = f.Value.String()
	}
	path := filepath.Join(dir, "inventory.json")
	b, err := readFileBounded(path, maxInventorySize)
	if err != nil {
		return nil
	}
	inv := map[string]string{}
	if err := unmarshalJSON(b, path, &inv); err != nil {
		return nil
	}
	out := make([]string, 0, len(inv))
	for name := range inv {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
