package shell

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Which lines change a device is each emulator's decision (its
// cliSession.changes): Fault.Reject refuses only those, so show commands,
// read-backs and navigation always work and `fabricgen plan` runs under any
// fault. For the shells of hosts, Cumulus and SONiC the decision is made on
// the simple commands of the line, found statically (nothing runs): every
// command of every list, pipeline, group, substitution and wrapper counts,
// whatever the control flow would pick.

// Dynamic marks the part of a statically expanded word that only running
// the line would know (a variable or a substitution).
const Dynamic = "\x00"

// shellCommand is one simple command found in a line: its words, with
// dynamic parts marked, and the files it redirects output into.
type shellCommand struct {
	argv   []string
	writes []string
}

// Changes reports whether a line holds a command that changes the
// device (isChange) or writes a file that counts as device state (writes;
// the path may hold the dynamic marker).
// A command whose name is only known at run time counts as a change; a
// line that does not parse changes nothing (the shell refuses it).
func Changes(line string, isChange func(argv []string) bool, writes func(path string) bool) bool {
	cmds, err := staticCommands(newParsing(), line, 0)
	return err == nil && commandsChange(cmds, isChange, writes)
}

// commandsChange is Changes for the commands a line holds.
func commandsChange(cmds []shellCommand, isChange func(argv []string) bool, writes func(path string) bool) bool {
	for _, c := range cmds {
		for _, w := range c.writes {
			if writes(w) {
				return true
			}
		}
		argv := unwrapArgv(c.argv)
		if len(argv) == 0 {
			continue
		}
		if strings.Contains(argv[0], Dynamic) {
			return true
		}
		if isChange(argv) {
			return true
		}
	}
	return false
}

// unwrapArgv strips leading assignments and the wrappers that run another
// command (sudo, env, nohup, time, exec, nice, timeout, command, xargs).
func unwrapArgv(argv []string) []string {
	for len(argv) > 0 {
		if k, _, ok := strings.Cut(argv[0], "="); ok && isVarName(k) {
			argv = argv[1:]
			continue
		}
		switch argv[0] {
		case "sudo", "nice", "timeout", "env":
			w := argv[0]
			argv = argv[1:]
			for len(argv) > 0 && (strings.HasPrefix(argv[0], "-") || (w == "env" && strings.Contains(argv[0], "="))) {
				if argv[0] == "-u" || argv[0] == "-g" || argv[0] == "-n" || argv[0] == "-s" || argv[0] == "-k" {
					argv = argv[1:]
				}
				if len(argv) > 0 {
					argv = argv[1:]
				}
			}
			if w == "timeout" && len(argv) > 0 {
				argv = argv[1:]
			}
		case "nohup", "time", "exec", "xargs":
			argv = argv[1:]
		case "command":
			if len(argv) > 1 && argv[1] == "-v" {
				return nil
			}
			argv = argv[1:]
		default:
			return argv
		}
	}
	return argv
}

// staticCommands lists the simple commands of a line without running it.
func staticCommands(p *parsing, line string, depth int) ([]shellCommand, error) {
	f, err := p.parse(line)
	if err != nil {
		return nil, err
	}
	return staticFile(p, f, depth)
}

// staticFile lists the simple commands of a parsed line without running
// it: every command of every list, pipeline, group, substitution, eval and
// sh -c, whatever the control flow would pick. It refuses (with an
// *Error) what the lab shell does not run: compound commands other than
// groups and subshells, arithmetic, input redirection and here-documents,
// and nesting of substitutions, eval and sh -c deeper than the shell's.
func staticFile(p *parsing, f *syntax.File, depth int) ([]shellCommand, error) {
	if depth > maxShellDepth {
		return nil, &Error{Line: 1, Col: 1, Msg: "maximum nesting level exceeded"}
	}
	w := &staticWalk{parse: p, depth: depth}
	if err := w.stmts(f.Stmts); err != nil {
		return nil, err
	}
	return w.cmds, nil
}

// staticWalk collects the commands of a syntax tree.
type staticWalk struct {
	// parse parses what eval and sh -c run.
	parse *parsing
	depth int
	cmds  []shellCommand
}

func (w *staticWalk) stmts(stmts []*syntax.Stmt) error {
	for _, st := range stmts {
		if err := w.stmt(st); err != nil {
			return err
		}
	}
	return nil
}

// stmt walks a statement: its redirections' targets first (a
// substitution there runs before the command), then its command.
func (w *staticWalk) stmt(st *syntax.Stmt) error {
	var writes []string
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll, syntax.DplOut:
		case syntax.Hdoc, syntax.DashHdoc:
			return errorAt(r.OpPos, "here-documents are not supported in the lab shell")
		default:
			return errorAt(r.OpPos, "input redirection is not supported in the lab shell")
		}
		target, err := w.word(r.Word)
		if err != nil {
			return err
		}
		fd := "1"
		if r.N != nil {
			fd = r.N.Value
		}
		// Standard error into a file and descriptor duplications (2>&1,
		// >&2) write no device state.
		if fd == "2" || r.Op == syntax.DplOut || target == "/dev/null" {
			continue
		}
		writes = append(writes, target)
	}
	return w.command(st.Cmd, writes)
}

// command walks one command; writes are the files its statement writes.
func (w *staticWalk) command(cmd syntax.Command, writes []string) error {
	switch c := cmd.(type) {
	case nil:
		if len(writes) > 0 {
			w.cmds = append(w.cmds, shellCommand{writes: writes})
		}
		return nil
	case *syntax.CallExpr:
		argv := make([]string, 0, len(c.Args))
		for _, a := range c.Assigns {
			if a.Array != nil || a.Index != nil {
				return errorAt(a.Pos(), "arrays are not supported in the lab shell")
			}
			if _, err := w.word(a.Value); err != nil {
				return err
			}
		}
		for _, word := range c.Args {
			v, err := w.word(word)
			if err != nil {
				return err
			}
			argv = append(argv, v)
		}
		return w.simple(argv, writes)
	case *syntax.DeclClause:
		argv := []string{c.Variant.Value}
		for _, a := range c.Args {
			if a.Array != nil || a.Index != nil {
				return errorAt(a.Pos(), "arrays are not supported in the lab shell")
			}
			v, err := w.word(a.Value)
			if err != nil {
				return err
			}
			if a.Name != nil {
				v = a.Name.Value + "=" + v
			}
			argv = append(argv, v)
		}
		return w.simple(argv, writes)
	case *syntax.Block:
		return w.group(c.Stmts, writes)
	case *syntax.Subshell:
		return w.group(c.Stmts, writes)
	case *syntax.BinaryCmd:
		if err := w.stmt(c.X); err != nil {
			return err
		}
		return w.stmt(c.Y)
	case *syntax.TimeClause:
		if c.Stmt == nil {
			return nil
		}
		return w.stmt(c.Stmt)
	}
	return errorAt(cmd.Pos(), "%s: not supported in the lab shell", commandName(cmd))
}

// group walks a { ...; } or ( ... ) whose output its statement redirects.
func (w *staticWalk) group(stmts []*syntax.Stmt, writes []string) error {
	if len(writes) > 0 {
		w.cmds = append(w.cmds, shellCommand{writes: writes})
	}
	return w.stmts(stmts)
}

// commandName names a compound command the lab shell does not run.
func commandName(cmd syntax.Command) string {
	switch c := cmd.(type) {
	case *syntax.IfClause:
		return "if"
	case *syntax.WhileClause:
		if c.Until {
			return "until"
		}
		return "while"
	case *syntax.ForClause:
		if c.Select {
			return "select"
		}
		return "for"
	case *syntax.CaseClause:
		return "case"
	case *syntax.FuncDecl:
		return "function definition"
	case *syntax.ArithmCmd:
		return "(("
	case *syntax.TestClause:
		return "[["
	case *syntax.LetClause:
		return "let"
	case *syntax.CoprocClause:
		return "coproc"
	}
	return fmt.Sprintf("%T", cmd)
}

// simple adds a simple command, after the commands eval, sh -c or bash -c
// run.
func (w *staticWalk) simple(argv, writes []string) error {
	a := unwrapArgv(argv)
	var inner string
	switch {
	case len(a) >= 3 && (a[0] == "sh" || a[0] == "bash") && a[1] == "-c":
		inner = a[2]
	case len(a) >= 2 && a[0] == "eval":
		inner = strings.Join(a[1:], " ")
	default:
		w.cmds = append(w.cmds, shellCommand{argv: argv, writes: writes})
		return nil
	}
	cmds, err := staticCommands(w.parse, inner, w.depth+1)
	if err != nil {
		return err
	}
	w.cmds = append(append(w.cmds, cmds...), shellCommand{argv: argv, writes: writes})
	return nil
}

// word expands a word statically: the parts only running the line would
// know are Dynamic; the commands of its substitutions are walked.
func (w *staticWalk) word(word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	var b strings.Builder
	if err := w.parts(&b, word.Parts, false); err != nil {
		return "", err
	}
	return b.String(), nil
}

func (w *staticWalk) parts(b *strings.Builder, parts []syntax.WordPart, dq bool) error {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(p.Value, dq))
		case *syntax.SglQuoted:
			b.WriteString(sglQuoted(p))
		case *syntax.DblQuoted:
			if err := w.parts(b, p.Parts, true); err != nil {
				return err
			}
		case *syntax.ParamExp:
			// A default word may hold substitutions.
			if p.Exp != nil {
				if _, err := w.word(p.Exp.Word); err != nil {
					return err
				}
			}
			b.WriteString(Dynamic)
		case *syntax.CmdSubst:
			if err := w.nested(p.Stmts); err != nil {
				return err
			}
			b.WriteString(Dynamic)
		case *syntax.ProcSubst:
			if err := w.nested(p.Stmts); err != nil {
				return err
			}
			b.WriteString("/dev/fd/63")
		case *syntax.ArithmExp:
			return errorAt(p.Pos(), arithmetic)
		case *syntax.ExtGlob:
			return errorAt(p.Pos(), "%s(: extended globs are not supported in the lab shell", p.Op)
		default:
			return errorAt(p.Pos(), "%T: not supported in the lab shell", p)
		}
	}
	return nil
}

// nested walks the commands of a substitution, one level deeper.
func (w *staticWalk) nested(stmts []*syntax.Stmt) error {
	if w.depth+1 > maxShellDepth {
		return &Error{Line: 1, Col: 1, Msg: "maximum nesting level exceeded"}
	}
	sub := &staticWalk{parse: w.parse, depth: w.depth + 1}
	if err := sub.stmts(stmts); err != nil {
		return err
	}
	w.cmds = append(w.cmds, sub.cmds...)
	return nil
}

// HasOpt reports whether args hold one of the options.
func HasOpt(args []string, opts ...string) bool {
	for _, a := range args {
		k, _, _ := strings.Cut(a, "=")
		for _, o := range opts {
			if k == o {
				return true
			}
		}
	}
	return false
}

// LinuxReadOnly reports whether a command of the Linux userland the lab
// emulates only reads: file and text tools, identity, tests, and the
// read-back forms of ip, ethtool and dcb. Anything else the emulators do
// not know is not found on the device and changes nothing either.
func LinuxReadOnly(argv []string) bool {
	switch argv[0] {
	case "cat", "ls", "echo", "printf", "test", "[", "true", "false", ":", "hostname", "uname", "which", "find",
		"grep", "head", "tail", "wc", "sort", "date", "id", "whoami", "pwd", "mountpoint", "lsmod", "sleep", "set",
		"export", "exit":
		return true
	case "ip":
		args := argv[1:]
		for len(args) > 0 && strings.HasPrefix(args[0], "-") {
			args = args[1:]
		}
		return len(args) < 2 || args[1] == "show" || args[1] == "list" || args[1] == "ls"
	case "ethtool":
		return len(argv) < 2 || !HasOpt(argv[1:2], "-A", "--pause", "-s", "--change", "-K", "--features", "--offload",
			"--set-tunable", "-G", "--set-ring", "-L", "--set-channels", "-C", "--coalesce", "--set-priv-flags", "-r", "--negotiate")
	case "dcb":
		args := argv[1:]
		for len(args) > 0 && strings.HasPrefix(args[0], "-") {
			args = args[1:]
		}
		return len(args) < 2 || args[1] == "show" || args[1] == "help"
	}
	return false
}

// NoFiles is the writes check of a switch whose shell writes only scratch
// files (/tmp, home): none of them is configuration.
func NoFiles(string) bool { return false }
