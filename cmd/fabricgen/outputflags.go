package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/internal/graph"
	"github.com/fabricgen/fabricgen/lint/format"
)

// One way to ask for machine output: every command that prints JSON takes
// both -json and -format json (and -markdown / -format markdown where it
// prints Markdown), with the same bytes either way. Commands declare
// whichever form suits them; unifyOutputFlags adds the other.

// formatFlagNames lists, per command with a --format flag of its own, the
// names that flag takes: completion offers them, and a command here whose
// list holds json gets -json as well. TestEveryFormatFlagIsListed keeps
// the table whole.
func formatFlagNames() map[string]func() []string {
	lintFormats := format.Names
	return map[string]func() []string{
		"fabricgen lint":           lintFormats,
		"fabricgen precommit lint": lintFormats,
		"fabricgen check":          checkFormatNames,
		"fabricgen import":         func() []string { return []string{"text", "json"} },
		"fabricgen platforms":      platformsFormats,
		"fabricgen graph":          func() []string { return slices.Clone(graph.Formats) },
	}
}

// outputForms is what a command prints: the names its --format takes, and
// whether --json and --format were its own flags or added here.
type outputForms struct {
	names      []string
	ownFormat  bool
	ownJSON    bool
	ownMarkdwn bool
}

// outputFormsOf is c's output forms, false when c prints no machine output.
func outputFormsOf(c *cobra.Command) (outputForms, bool) {
	fl := c.Flags()
	o := outputForms{ownFormat: fl.Lookup("format") != nil, ownJSON: fl.Lookup("json") != nil, ownMarkdwn: fl.Lookup("markdown") != nil}
	switch {
	case o.ownFormat:
		names, ok := formatFlagNames()[c.CommandPath()]
		if !ok {
			return o, false
		}
		o.names = names()
	case o.ownJSON:
		o.names = []string{"text", "json"}
		if o.ownMarkdwn {
			o.names = append(o.names, "markdown")
		}
	default:
		return o, false
	}
	return o, true
}

// unifyOutputFlags gives every command of the tree that prints JSON both
// -json and -format, and -markdown beside -format markdown.
func unifyOutputFlags(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if o, ok := outputFormsOf(c); ok && c.RunE != nil {
			addOutputFlags(c, o)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// addOutputFlags adds the missing forms to c and makes its RunE see one
// answer whichever form was given.
func addOutputFlags(c *cobra.Command, o outputForms) {
	fl := c.Flags()
	hasJSON := slices.Contains(o.names, "json")
	if !o.ownFormat {
		short := "f"
		if fl.ShorthandLookup("f") != nil {
			short = ""
		}
		fl.StringP("format", short, "text", "output format: "+strings.Join(o.names, ", ")+" (-format json is -json"+markdownNote(o)+")")
	}
	if !o.ownJSON && hasJSON {
		fl.Bool("json", false, "print JSON: the same as -format json")
	}
	if !o.ownMarkdwn && slices.Contains(o.names, "markdown") {
		fl.Bool("markdown", false, "print Markdown: the same as -format markdown")
	}
	_ = c.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(o.names, cobra.ShellCompDirectiveNoFileComp)) // fails only when already registered: that completion stays
	run := c.RunE
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if err := reconcileOutputFlags(cmd, o); err != nil {
			return withCode(exitFailed, err)
		}
		return run(cmd, args)
	}
}

func markdownNote(o outputForms) string {
	if slices.Contains(o.names, "markdown") {
		return ", -format markdown is -markdown"
	}
	return ""
}

// reconcileOutputFlags turns -json/-markdown into -format's value, or
// -format's value into -json/-markdown, for whichever the command reads;
// two forms asking for different outputs are refused.
func reconcileOutputFlags(cmd *cobra.Command, o outputForms) error {
	fl := cmd.Flags()
	boolOn := func(name string) bool {
		v, err := fl.GetBool(name)
		return err == nil && v
	}
	asked := map[string]string{} // format -> the flag that asked for it
	if fl.Changed("format") {
		v := fl.Lookup("format").Value.String()
		if !slices.Contains(o.names, v) {
			return fmt.Errorf("-format %q: use one of %s", v, strings.Join(o.names, ", "))
		}
		asked[v] = "-format " + v
	}
	for _, b := range []string{"json", "markdown"} {
		if boolOn(b) {
			asked[b] = "-" + b
		}
	}
	if len(asked) > 1 {
		var flags []string
		for _, f := range asked {
			flags = append(flags, f)
		}
		slices.Sort(flags)
		return fmt.Errorf("%s ask for different outputs: give one", strings.Join(flags, " and "))
	}
	for want := range asked {
		if o.ownFormat {
			return fl.Set("format", want)
		}
		if want == "json" || want == "markdown" {
			return fl.Set(want, "true")
		}
	}
	return nil
}
