package main

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"mvdan.cc/sh/v3/syntax"
)

// shellScript is the shell text of a fenced block, line for line (the
// lines that are not commands blank): all of a ```sh, ```bash or ```shell
// block; the "$ " lines (and their continuation lines) of a ```console or
// untagged block, and an untagged block's lines that start with
// "fabricgen " and are no synopsis. ok is false for other blocks.
func shellScript(b mdFence) (script string, ok bool) {
	switch b.lang {
	case "sh", "bash", "shell":
		return b.text, true
	case "console", "":
	default:
		return "", false
	}
	lines := strings.Split(b.text, "\n")
	cont := false
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "$ "):
			lines[i] = strings.TrimPrefix(l, "$ ")
		case cont:
		case b.lang == "" && strings.HasPrefix(l, "fabricgen ") && !strings.ContainsAny(l, "[(|…") && !strings.Contains(l, "..."):
			// A command written without a prompt; a synopsis
			// (fabricgen plan [DIR] [-out FILE] …) is none.
		default:
			lines[i] = ""
		}
		cont = strings.HasSuffix(strings.TrimRight(lines[i], " "), "\\")
	}
	return strings.Join(lines, "\n"), true
}

// wordText is a shell word as the command receives it; an expansion
// ($VAR, $(…)) stands as X.
func wordText(parts []syntax.WordPart) string {
	var b strings.Builder
	for _, p := range parts {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			b.WriteString(wordText(x.Parts))
		default:
			b.WriteString("X")
		}
	}
	return b.String()
}

// fabricgenCommands returns the fabricgen command lines of a shell script:
// the arguments of each and its line in the script.
func fabricgenCommands(name, script string) (cmds [][]string, lines []int, err error) {
	f, err := syntax.NewParser().Parse(strings.NewReader(script), name)
	if err != nil {
		return nil, nil, err
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		ce, ok := n.(*syntax.CallExpr)
		if !ok || len(ce.Args) == 0 || wordText(ce.Args[0].Parts) != "fabricgen" {
			return true
		}
		var args []string
		for _, w := range ce.Args[1:] {
			args = append(args, wordText(w.Parts))
		}
		cmds = append(cmds, args)
		lines = append(lines, int(ce.Pos().Line()))
		return true
	})
	return cmds, lines, nil
}

// cliArgError parses a fabricgen command line against the command tree:
// a known command, known flags with their values, the arguments the
// command takes. Nothing runs.
func cliArgError(args []string) error {
	args, _, err := splitChdir(args)
	if err != nil {
		return err
	}
	s, _, _ := pushStreams("")
	root := newRootCommand(s)
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	cmd, rest, err := root.Find(terraformStyleFlags(args))
	if err != nil {
		return err
	}
	cmd.InitDefaultHelpFlag()
	if err := cmd.ParseFlags(rest); err != nil {
		return fmt.Errorf("%s: %w", cmd.CommandPath(), err)
	}
	if help, _ := cmd.Flags().GetBool("help"); help {
		return nil
	}
	if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
		return fmt.Errorf("%s: %w", cmd.CommandPath(), err)
	}
	if err := cmd.ValidateRequiredFlags(); err != nil {
		return fmt.Errorf("%s: %w", cmd.CommandPath(), err)
	}
	if err := cmd.ValidateFlagGroups(); err != nil {
		return fmt.Errorf("%s: %w", cmd.CommandPath(), err)
	}
	return nil
}

// checkCommandLines parses every fabricgen command of the shell blocks of
// the given Markdown files and returns one problem per command that the
// command tree refuses, each with its file:line. n counts the commands.
func checkCommandLines(files map[string][]byte) (problems []string, n int) {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		blocks, err := parseFences(name, files[name])
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		for _, b := range blocks {
			script, ok := shellScript(b)
			if !ok {
				continue
			}
			cmds, lines, err := fabricgenCommands(name, script)
			if err != nil {
				if b.lang != "" {
					problems = append(problems, fmt.Sprintf("%s:%d: the shell block does not parse: %v", b.file, b.line, err))
				}
				continue
			}
			for i, args := range cmds {
				n++
				if err := cliArgError(args); err != nil {
					problems = append(problems, fmt.Sprintf("%s:%d: fabricgen %s: %v", b.file, b.line+lines[i], strings.Join(args, " "), err))
				}
			}
		}
	}
	return problems, n
}

// TestDocCommands parses every fabricgen command shown in README.md and
// docs/ (shell blocks, and "$ " lines of console and untagged blocks) and
// in the commands' own examples against the command tree: known commands,
// known flags, the arguments each command takes. TestREADME runs the
// README's; this catches a renamed flag in any page at once.
func TestDocCommands(t *testing.T) {
	problems, n := checkCommandLines(docMarkdown(t, repoRoot(t)))
	if n < 55 {
		t.Errorf("found only %d fabricgen commands in README.md and docs/", n)
	}
	for _, p := range problems {
		t.Error(p)
	}
	s, _, _ := pushStreams("")
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, l := range strings.Split(c.Example, "\n") {
			l = strings.TrimSpace(l)
			if !strings.HasPrefix(l, "fabricgen ") {
				continue
			}
			cmds, _, err := fabricgenCommands(c.CommandPath(), l)
			if err != nil {
				t.Errorf("%s example %q does not parse: %v", c.CommandPath(), l, err)
				continue
			}
			for _, args := range cmds {
				if err := cliArgError(args); err != nil {
					t.Errorf("%s example %q: %v", c.CommandPath(), l, err)
				}
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCommand(s))
}

func TestCheckCommandLines(t *testing.T) {
	cases := []struct {
		md   string
		want []string
	}{
		{"```sh\nfabricgen lint examples/roce-storage\nfabricgen -chdir=x validate\n```\n", nil},
		{"```sh\nfabricgen lint --no-such-flag x\n```\n", []string{"R.md:2: fabricgen lint --no-such-flag x: fabricgen lint: unknown flag: --no-such-flag"}},
		{"text\n```sh\necho a | fabricgen nosuchcommand\n```\n", []string{"R.md:3: fabricgen nosuchcommand: unknown command"}},
		{"```\n$ fabricgen validate -var\nError: x\nfabricgen nonsense\n```\n", []string{"R.md:2: fabricgen validate -var"}},
		{"```console\n$ fabricgen lint \\\n    --format nope-but-parses \\\n    x\n```\n", nil},
		{"```sh\nfabricgen explain --help\nfabricgen render x -o out\n```\n", nil},
		{"```sh\nif then fi (\n```\n", []string{"R.md:1: the shell block does not parse"}},
		{"```\nfabricgen plan [DIR] [-out FILE]\nfabricgen lint --nope\n```\n", []string{"R.md:3: fabricgen lint --nope"}},
		{"```yaml\nfabricgen lint --nope\n```\n", nil},
	}
	for _, c := range cases {
		problems, _ := checkCommandLines(map[string][]byte{"R.md": []byte(c.md)})
		text := strings.Join(problems, "\n")
		if len(c.want) == 0 && len(problems) > 0 || len(c.want) > 0 && len(problems) == 0 {
			t.Errorf("%q: problems %q, want %q", c.md, problems, c.want)
		}
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%q: problems lack %q:\n%s", c.md, w, text)
			}
		}
	}
}
