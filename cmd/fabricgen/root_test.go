package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestEveryCommandDocumented keeps --help useful: every command has a
// one-line summary, a long description and an example.
func TestEveryCommandDocumented(t *testing.T) {
	s := &streams{getenv: func(string) string { return "" }}
	root := newRootCommand(s)
	var walk func(prefix string, cmds []*cobra.Command)
	walk = func(prefix string, cmds []*cobra.Command) {
		for _, c := range cmds {
			if c.Name() == "help" || c.Name() == "completion" || c.Hidden {
				continue
			}
			name := strings.TrimSpace(prefix + " " + c.Name())
			if c.Short == "" || c.Long == "" && c.Name() != "version" || c.Example == "" {
				t.Errorf("%s: Short %q, Long %d bytes, Example %q", name, c.Short, len(c.Long), c.Example)
			}
			walk(name, c.Commands())
		}
	}
	walk("", root.Commands())

	code, out, _ := lintRun(t, "--help")
	for _, c := range []string{"validate", "fmt", "lint", "explain", "render", "plan", "apply", "lab", "demo", "version"} {
		if !strings.Contains(out, "\n  "+c+" ") {
			t.Errorf("--help does not list %s:\n%s", c, out)
		}
	}
	if code != 0 {
		t.Errorf("--help exit %d", code)
	}
	if code, out, _ := lintRun(t, "version"); code != 0 || !strings.HasPrefix(out, "fabricgen ") {
		t.Errorf("version: %d %q", code, out)
	}
}
