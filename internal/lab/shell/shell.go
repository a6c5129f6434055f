package shell

import (
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
)

// Shell is a small POSIX-shell subset for the emulated hosts and the
// Linux-based switches, parsed by mvdan.cc/sh/v3/syntax (Parse) and run by
// walking the syntax tree: lists (`;`, `&`, newline, `&&`, `||`), `!`,
// brace groups and `( ... )` subshells, pipes (`|`, `|&`; each stage a
// subshell), redirections of any statement (`>`, `>>`, `>|`, `&>`,
// `2>&1`, `>&2`, `/dev/null`), quotes, `$'...'` and backslash escapes,
// comments, variables with `$VAR`, `${VAR}`, `${VAR:-word}` (and `-`,
// `:=`, `=`, `:+`, `+`), `$?`, command substitution with `$(...)` and
// backticks, process substitution `<(...)`, assignments, and the builtins
// exit, set (-e, -u), export, true, false, echo, eval, command, test / [
// and the wrappers sudo, env, nohup, timeout, nice, exec, time and xargs.
// Words are neither split nor globbed; an unquoted word that expands to
// nothing is dropped. A line with anything else (if, for, while, case,
// functions, arithmetic, [[ ]], input redirection, here-documents) is
// refused whole with status 2 before any of it runs.
//
// Every simple command the shell runs after expansion is reported to
// record, including those inside substitutions and under wrappers, so a
// test can prove which commands ran (Device.Executed).
type Shell struct {
	vars map[string]string
	// Status is the exit status of the last command ($?).
	Status  int
	errexit bool
	nounset bool
	// Exited is set once the shell ran exit (or set -e ended it).
	Exited bool
	// run executes a non-builtin command.
	run Runner
	// write is a redirect into a file.
	write FileWriter
	// which resolves `command -v`.
	which func(string) (string, bool)
	// record, when set, receives the argv of every simple command run.
	Record func(argv []string)
	// Stat answers the file tests of test / [ (-e, -f, -d, -r, -w): does
	// path exist, and is it a directory. Nil: no file exists.
	Stat func(path string) (exists, dir bool)
	// substituted records that the last expansion ran a $(...).
	substituted bool
	// Elevated is true while a command runs under sudo.
	Elevated bool
	// depth counts nested evaluations (substitutions, eval, sh -c), to
	// bound recursion.
	depth int
	// tested is set when the last statement's status came from a command
	// that && or || tested, or a negated one: set -e lets it fail.
	tested bool
	// parse parses the lines, eval's and sh -c's, one after the other,
	// within the budget of the line Exec runs; a child shares it.
	parse *parsing
}

// maxShellDepth bounds nested substitutions, eval and sh -c.
const maxShellDepth = 64

// Runner runs one simple command: argv with its standard input; it
// returns standard output, standard error and the exit status.
type Runner func(argv []string, stdin string) (string, string, int)

// FileWriter writes a redirect target; it returns bash's error text
// ("Permission denied", "No such file or directory") or "".
type FileWriter func(path, data string, appendTo bool) string

// NewShell returns a shell that hands commands to run, redirections to
// write, and answers `command -v` with which.
func NewShell(run Runner, write FileWriter, which func(string) (string, bool)) *Shell {
	return &Shell{vars: map[string]string{}, run: run, write: write, which: which, parse: newParsing()}
}

// child returns a shell for a substitution or `sh -c`: the same tools and
// recorder, one level deeper.
func (s *Shell) child() *Shell {
	c := &Shell{vars: map[string]string{}, run: s.run, write: s.write, which: s.which, parse: s.parse}
	c.Record = s.Record
	c.Stat = s.Stat
	c.depth = s.depth + 1
	c.Elevated = s.Elevated
	return c
}

// check parses a line and walks it statically (staticFile) before
// anything runs: a construct the lab shell does not run refuses the whole
// line, as a syntax error does, so nothing of it runs and Changes, which
// makes the same walk, never misses a command that would run.
func (s *Shell) check(line string) (*syntax.File, []shellCommand, error) {
	f, err := s.parse.parse(line)
	if err != nil {
		return nil, nil, err
	}
	cmds, err := staticFile(s.parse, f, s.depth)
	if err != nil {
		return nil, nil, err
	}
	return f, cmds, nil
}

// Line is a command line parsed and walked once (Prepare): Changes
// decides from it what Changes(line, …) would, and Run runs it, so a
// caller that needs both parses the line once.
type Line struct {
	f    *syntax.File
	cmds []shellCommand
	err  error
}

// Prepare parses and checks a line for Run, within a new parse budget
// (at the top level, as Exec).
func (s *Shell) Prepare(line string) *Line {
	if s.depth == 0 {
		s.parse.left = parseBudget
	}
	f, cmds, err := s.check(line)
	return &Line{f: f, cmds: cmds, err: err}
}

// Changes is Changes for the prepared line: false for a line the shell
// refuses.
func (l *Line) Changes(isChange func(argv []string) bool, writes func(path string) bool) bool {
	return l.err == nil && commandsChange(l.cmds, isChange, writes)
}

// Run runs a prepared line and returns what the terminal shows.
func (s *Shell) Run(l *Line) string {
	if l.err != nil {
		s.Status = 2
		return "bash: " + message(l.err) + "\n"
	}
	var out strings.Builder
	s.runStmts(l.f.Stmts, "", &out, &out, true)
	return out.String()
}

// Exec runs a command line and returns what the terminal shows.
func (s *Shell) Exec(line string) string { return s.Run(s.Prepare(line)) }

// runStmts runs a statement list; top is the shell's own list, where set
// -e ends the shell.
func (s *Shell) runStmts(stmts []*syntax.Stmt, stdin string, out, errOut *strings.Builder, top bool) {
	for _, st := range stmts {
		if s.Exited {
			return
		}
		s.tested = false
		s.runStmt(st, stdin, out, errOut)
		if st.Background {
			// A background job runs in the foreground here; bash runs it
			// too, which is what matters for what executes.
			s.Status = 0
		}
		// set -e: a failing command ends the shell unless && or ||
		// tested it; the command after the last && or || of a list is
		// not exempt (bash(1), "set -e").
		if s.errexit && s.Status != 0 && !s.tested && top {
			s.Exited = true
			return
		}
	}
}

// runStmt runs one statement with its redirections and negation.
func (s *Shell) runStmt(st *syntax.Stmt, stdin string, out, errOut *strings.Builder) {
	if len(st.Redirs) == 0 {
		s.runCmd(st.Cmd, stdin, out, errOut)
	} else {
		r, err := s.redirects(st.Redirs, errOut)
		if err != nil {
			s.Status = 1
			errOut.WriteString("bash: " + message(err) + "\n")
			return
		}
		var o, e strings.Builder
		s.runCmd(st.Cmd, stdin, &o, &e)
		stdout, stderr := s.apply(r, o.String(), e.String())
		errOut.WriteString(stderr)
		out.WriteString(stdout)
	}
	if st.Negated {
		s.Status = boolStatus(s.Status != 0)
		s.tested = true
	}
}

// boolStatus is 0 for true and 1 for false.
func boolStatus(b bool) int {
	if b {
		return 0
	}
	return 1
}

// runCmd runs one command of a statement.
func (s *Shell) runCmd(cmd syntax.Command, stdin string, out, errOut *strings.Builder) {
	switch c := cmd.(type) {
	case nil:
		// Redirections alone.
		s.Status = 0
	case *syntax.CallExpr:
		s.call(c.Assigns, c.Args, stdin, out, errOut)
	case *syntax.Block:
		s.runStmts(c.Stmts, stdin, out, errOut, false)
	case *syntax.Subshell:
		// A subshell: its exit and variables stay inside.
		sub := s.subshell()
		sub.runStmts(c.Stmts, stdin, out, errOut, false)
		s.Status = sub.Status
	case *syntax.BinaryCmd:
		s.binary(c, stdin, out, errOut)
	case *syntax.DeclClause:
		s.decl(c, stdin, out, errOut)
	case *syntax.TimeClause:
		s.Status = 0
		if c.Stmt != nil {
			s.runStmt(c.Stmt, stdin, out, errOut)
		}
	default:
		// staticFile refused the line before anything ran.
		s.Status = 2
		errOut.WriteString("bash: not supported in the lab shell\n")
	}
}

// subshell returns a child with a copy of the variables and options.
func (s *Shell) subshell() *Shell {
	sub := s.child()
	for k, v := range s.vars {
		sub.vars[k] = v
	}
	sub.errexit, sub.nounset = s.errexit, s.nounset
	sub.Status = s.Status
	return sub
}

// binary runs a && b, a || b and the pipelines a | b, a |& b (each stage
// in a subshell, one after the other, standard output into the next
// stage's input).
func (s *Shell) binary(c *syntax.BinaryCmd, stdin string, out, errOut *strings.Builder) {
	switch c.Op {
	case syntax.AndStmt, syntax.OrStmt:
		s.runStmt(c.X, stdin, out, errOut)
		if (s.Status == 0) != (c.Op == syntax.AndStmt) || s.Exited {
			s.tested = true
			return
		}
		s.tested = false
		s.runStmt(c.Y, stdin, out, errOut)
		return
	}
	var mid strings.Builder
	left := s.subshell()
	if c.Op == syntax.PipeAll {
		left.runStmt(c.X, stdin, &mid, &mid)
	} else {
		left.runStmt(c.X, stdin, &mid, errOut)
	}
	right := s.subshell()
	right.runStmt(c.Y, mid.String(), out, errOut)
	s.Status = right.Status
	s.tested = false
}

// decl runs export, declare, local, readonly and typeset as the simple
// command they are written as.
func (s *Shell) decl(c *syntax.DeclClause, stdin string, out, errOut *strings.Builder) {
	s.substituted = false
	argv := []string{c.Variant.Value}
	for _, a := range c.Args {
		var v string
		if a.Value != nil {
			w, err := s.expandWord(a.Value, errOut)
			if err != nil {
				s.Status = 1
				errOut.WriteString("bash: " + message(err) + "\n")
				return
			}
			v = w
		}
		switch {
		case a.Name == nil:
			argv = append(argv, v)
		case a.Naked:
			argv = append(argv, a.Name.Value)
		default:
			argv = append(argv, a.Name.Value+"="+v)
		}
	}
	s.simple(argv, stdin, out, errOut)
}

// call runs a simple command: assignments alone set variables; before a
// command they are expanded and dropped (the lab's tools have no
// environment).
func (s *Shell) call(assigns []*syntax.Assign, args []*syntax.Word, stdin string, out, errOut *strings.Builder) {
	s.substituted = false
	vals := make([]string, len(assigns))
	for i, a := range assigns {
		if a.Value == nil {
			continue
		}
		v, err := s.expandWord(a.Value, errOut)
		if err != nil {
			s.Status = 1
			errOut.WriteString("bash: " + message(err) + "\n")
			return
		}
		vals[i] = v
	}
	argv, err := s.expandArgs(args, errOut)
	if err != nil {
		s.Status = 1
		errOut.WriteString("bash: " + message(err) + "\n")
		return
	}
	if len(argv) == 0 {
		for i, a := range assigns {
			if a.Append {
				vals[i] = s.vars[a.Name.Value] + vals[i]
			}
			s.vars[a.Name.Value] = vals[i]
		}
		if !s.substituted {
			s.Status = 0
		}
		return
	}
	s.simple(argv, stdin, out, errOut)
}

// simple runs argv: a builtin, a wrapper or a device tool.
func (s *Shell) simple(argv []string, stdin string, out, errOut *strings.Builder) {
	s.note(argv)
	o, e, code := s.builtin(argv, stdin)
	s.Status = code
	errOut.WriteString(e)
	out.WriteString(o)
}

// redirection is what a statement's redirections do with its output.
type redirection struct {
	// path receives standard output ("/dev/null" drops it).
	path     string
	appendTo bool
	// errToOut (2>&1), outToErr (>&2), dropErr (2>/dev/null).
	errToOut, outToErr, dropErr bool
	// touch are the files other descriptors (3> FILE) create.
	touch []string
}

// redirects expands the targets of a statement's redirections.
func (s *Shell) redirects(rs []*syntax.Redirect, errOut *strings.Builder) (redirection, error) {
	var r redirection
	for _, rd := range rs {
		target, err := s.expandWord(rd.Word, errOut)
		if err != nil {
			return r, err
		}
		fd := "1"
		if rd.N != nil {
			fd = rd.N.Value
		}
		switch rd.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob:
			switch fd {
			case "1":
				r.path, r.appendTo = target, rd.Op == syntax.AppOut
			case "2":
				r.dropErr = r.dropErr || target == "/dev/null"
			default:
				r.touch = append(r.touch, target)
			}
		case syntax.DplOut:
			switch {
			case fd == "1" && target == "2":
				r.outToErr = true
			case fd == "2" && target == "1":
				r.errToOut = true
			}
		case syntax.RdrAll, syntax.AppAll:
			if target == "/dev/null" {
				r.path, r.dropErr = target, true
			} else {
				r.path, r.appendTo, r.errToOut = target, rd.Op == syntax.AppAll, true
			}
		}
	}
	return r, nil
}

// apply applies a statement's redirections to its output and writes the
// files; it returns what is left for the terminal (or the pipe).
func (s *Shell) apply(r redirection, o, e string) (string, string) {
	if r.outToErr {
		o, e = "", e+o
	}
	if r.errToOut {
		o, e = o+e, ""
	}
	if r.dropErr {
		e = ""
	}
	for _, p := range r.touch {
		if p != "/dev/null" {
			if msg := s.write(p, "", true); msg != "" {
				e += "bash: " + p + ": " + msg + "\n"
				s.Status = 1
			}
		}
	}
	switch r.path {
	case "":
	case "/dev/null":
		o = ""
	default:
		if msg := s.write(r.path, o, r.appendTo); msg != "" {
			e += "bash: " + r.path + ": " + msg + "\n"
			s.Status = 1
		}
		o = ""
	}
	return o, e
}

// expandArgs expands the words of a command, one argument each (no field
// splitting, no globbing); an unquoted word that expands to nothing is
// dropped, as bash drops it.
func (s *Shell) expandArgs(words []*syntax.Word, errOut *strings.Builder) ([]string, error) {
	argv := make([]string, 0, len(words))
	for _, w := range words {
		v, err := s.expandWord(w, errOut)
		if err != nil {
			return nil, err
		}
		if v == "" && !quotedWord(w) {
			continue
		}
		argv = append(argv, v)
	}
	return argv, nil
}

// quotedWord reports whether a word has a quoted part.
func quotedWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		}
	}
	return false
}

// expandWord expands one word: escapes, quotes, parameters and
// substitutions.
func (s *Shell) expandWord(w *syntax.Word, errOut *strings.Builder) (string, error) {
	if w == nil {
		return "", nil
	}
	var b strings.Builder
	if err := s.expandParts(&b, w.Parts, false, errOut); err != nil {
		return "", err
	}
	return b.String(), nil
}

// expandParts expands word parts into b; dq is true inside double quotes.
func (s *Shell) expandParts(b *strings.Builder, parts []syntax.WordPart, dq bool, errOut *strings.Builder) error {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(p.Value, dq))
		case *syntax.SglQuoted:
			b.WriteString(sglQuoted(p))
		case *syntax.DblQuoted:
			if err := s.expandParts(b, p.Parts, true, errOut); err != nil {
				return err
			}
		case *syntax.ParamExp:
			v, err := s.param(p, errOut)
			if err != nil {
				return err
			}
			b.WriteString(v)
		case *syntax.CmdSubst:
			b.WriteString(strings.TrimRight(s.substitute(p.Stmts, errOut), "\n"))
		case *syntax.ProcSubst:
			// Process substitution: the command runs, its output is a
			// file descriptor path.
			s.substitute(p.Stmts, errOut)
			b.WriteString("/dev/fd/63")
		default:
			// staticFile refused the line before anything ran.
			return errorAt(p.Pos(), "not supported in the lab shell")
		}
	}
	return nil
}

// unescape removes the backslashes of a literal: every one outside double
// quotes, and inside them those before $ ` " \ and newline.
func unescape(lit string, dq bool) string {
	if strings.IndexByte(lit, '\\') < 0 {
		return lit
	}
	var b strings.Builder
	for i := 0; i < len(lit); i++ {
		c := lit[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(lit) {
			if dq {
				b.WriteByte(c)
			}
			break
		}
		n := lit[i+1]
		switch {
		case n == '\n':
		case !dq || strings.IndexByte("$`\"\\", n) >= 0:
			b.WriteByte(n)
		default:
			b.WriteByte('\\')
			b.WriteByte(n)
		}
		i++
	}
	return b.String()
}

// sglQuoted is the text of '...', or of $'...' with its escapes expanded.
func sglQuoted(q *syntax.SglQuoted) string {
	if !q.Dollar {
		return q.Value
	}
	r := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\r`, "\r", `\\`, `\`, `\'`, `'`, `\"`, `"`,
		`\a`, "\a", `\b`, "\b", `\e`, "\x1b", `\f`, "\f", `\v`, "\v")
	return r.Replace(q.Value)
}

// substitute runs a command substitution in a child shell and returns its
// standard output.
func (s *Shell) substitute(stmts []*syntax.Stmt, errOut *strings.Builder) string {
	if s.depth >= maxShellDepth {
		s.Status = 1
		errOut.WriteString("bash: maximum nesting level exceeded\n")
		return ""
	}
	sub := s.child()
	sub.vars = s.vars
	sub.errexit, sub.nounset = false, s.nounset
	var out strings.Builder
	sub.runStmts(stmts, "", &out, errOut, false)
	s.Status = sub.Status
	s.substituted = true
	return out.String()
}

// param expands $NAME, ${NAME}, the special parameters and ${NAME:-word},
// ${NAME-word}, ${NAME:=word}, ${NAME=word}, ${NAME:+word}, ${NAME+word};
// the word is expanded (and any substitution in it runs) only when it is
// used, as in bash.
func (s *Shell) param(p *syntax.ParamExp, errOut *strings.Builder) (string, error) {
	name := p.Param.Value
	if p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 {
		return "", badSubstitution(p)
	}
	if p.Exp == nil {
		return s.lookup(name)
	}
	if !isVarName(name) {
		return "", badSubstitution(p)
	}
	v, set := s.vars[name]
	word := func() (string, error) { return s.expandWord(p.Exp.Word, errOut) }
	switch p.Exp.Op {
	case syntax.DefaultUnsetOrNull, syntax.AssignUnsetOrNull, syntax.DefaultUnset, syntax.AssignUnset:
		colon := p.Exp.Op == syntax.DefaultUnsetOrNull || p.Exp.Op == syntax.AssignUnsetOrNull
		if set && (v != "" || !colon) {
			return v, nil
		}
		w, err := word()
		if err == nil && (p.Exp.Op == syntax.AssignUnsetOrNull || p.Exp.Op == syntax.AssignUnset) {
			s.vars[name] = w
		}
		return w, err
	case syntax.AlternateUnsetOrNull:
		if v == "" {
			return "", nil
		}
		return word()
	case syntax.AlternateUnset:
		if !set {
			return "", nil
		}
		return word()
	}
	return "", badSubstitution(p)
}

// badSubstitution is bash's error for a parameter expansion the lab shell
// does not expand.
func badSubstitution(p *syntax.ParamExp) error {
	var b strings.Builder
	_ = syntax.NewPrinter().Print(&b, &syntax.Word{Parts: []syntax.WordPart{p}})
	return errorAt(p.Pos(), "%s: bad substitution", b.String())
}

// lookup is the value of a variable or special parameter; with set -u an
// unset variable is an error.
func (s *Shell) lookup(name string) (string, error) {
	switch name {
	case "?":
		return strconv.Itoa(s.Status), nil
	case "$":
		return "4242", nil
	case "#":
		return "0", nil
	case "0":
		return "bash", nil
	case "@", "*", "-", "!":
		return "", nil
	}
	v, ok := s.vars[name]
	if !ok && s.nounset {
		return "", fmt.Errorf("%s: unbound variable", name)
	}
	return v, nil
}

// note reports a simple command to the recorder.
func (s *Shell) note(argv []string) {
	if s.Record != nil {
		s.Record(append([]string(nil), argv...))
	}
}

// wrapped runs the command a wrapper (sudo, env, ...) names: it is a
// simple command of its own for the recorder.
func (s *Shell) wrapped(argv []string, stdin string) (string, string, int) {
	s.note(argv)
	return s.builtin(argv, stdin)
}

// builtin runs a builtin or wrapper, or hands argv to the device.
func (s *Shell) builtin(argv []string, stdin string) (string, string, int) {
	switch argv[0] {
	case "exit":
		return s.exit(argv)
	case "set":
		return s.set(argv)
	case "export":
		for _, a := range argv[1:] {
			if k, v, ok := strings.Cut(a, "="); ok && isVarName(k) {
				s.vars[k] = v
			}
		}
		return "", "", 0
	case "true", ":":
		return "", "", 0
	case "false":
		return "", "", 1
	case "echo":
		return echo(argv)
	case "eval":
		return s.eval(argv)
	case "command":
		return s.command(argv, stdin)
	case "sudo":
		return s.sudo(argv, stdin)
	case "env", "nohup", "time", "exec", "nice", "timeout", "xargs":
		return s.wrapper(argv, stdin)
	case "[":
		if argv[len(argv)-1] != "]" {
			return "", "bash: [: missing `]'\n", 2
		}
		return testExpr("[", argv[1:len(argv)-1], s.Stat)
	case "test":
		return testExpr("test", argv[1:], s.Stat)
	case "sh", "bash":
		return s.dashC(argv)
	}
	return s.run(argv, stdin)
}

// exit ends the shell with the given status, or the last one.
func (s *Shell) exit(argv []string) (string, string, int) {
	code := s.Status
	if len(argv) > 1 {
		if n, err := strconv.Atoi(argv[1]); err == nil {
			code = n & 255
		}
	}
	s.Exited = true
	return "", "", code
}

// set takes -e, -u (and ignores -x, -o); +e and +u turn them off.
func (s *Shell) set(argv []string) (string, string, int) {
	for _, a := range argv[1:] {
		on := strings.HasPrefix(a, "-")
		if !on && !strings.HasPrefix(a, "+") {
			continue
		}
		for _, f := range a[1:] {
			switch f {
			case 'e':
				s.errexit = on
			case 'u':
				s.nounset = on
			case 'x', 'o':
			default:
				return "", "bash: set: " + a + ": invalid option\n", 2
			}
		}
	}
	return "", "", 0
}

// echo prints its arguments; -n drops the newline.
func echo(argv []string) (string, string, int) {
	args := argv[1:]
	nl := "\n"
	if len(args) > 0 && args[0] == "-n" {
		args, nl = args[1:], ""
	}
	return strings.Join(args, " ") + nl, "", 0
}

// eval runs its arguments as a command line.
func (s *Shell) eval(argv []string) (string, string, int) {
	if s.depth >= maxShellDepth {
		return "", "bash: eval: maximum nesting level exceeded\n", 1
	}
	s.depth++
	defer func() { s.depth-- }()
	f, _, err := s.check(strings.Join(argv[1:], " "))
	if err != nil {
		return "", "bash: eval: " + message(err) + "\n", 2
	}
	var out, errOut strings.Builder
	s.runStmts(f.Stmts, "", &out, &errOut, false)
	return out.String(), errOut.String(), s.Status
}

// command answers `command -v NAME` and runs `command NAME ARGS`.
func (s *Shell) command(argv []string, stdin string) (string, string, int) {
	if len(argv) == 3 && argv[1] == "-v" {
		switch argv[2] {
		case "command", "exit", "set", "echo", "test", "[", "eval", "export", "true", "false":
			return argv[2] + "\n", "", 0
		}
		if path, ok := s.which(argv[2]); ok {
			return path + "\n", "", 0
		}
		return "", "", 1
	}
	if len(argv) >= 2 && !strings.HasPrefix(argv[1], "-") {
		return s.wrapped(argv[1:], stdin)
	}
	return "", "bash: command: only -v NAME or command NAME ARGS is supported here\n", 2
}

// sudo runs the command it names elevated.
func (s *Shell) sudo(argv []string, stdin string) (string, string, int) {
	rest := argv[1:]
	for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
		if rest[0] == "-u" || rest[0] == "-g" {
			rest = rest[1:]
		}
		if len(rest) > 0 {
			rest = rest[1:]
		}
	}
	if len(rest) == 0 {
		return "", "usage: sudo command\n", 1
	}
	saved := s.Elevated
	s.Elevated = true
	defer func() { s.Elevated = saved }()
	return s.wrapped(rest, stdin)
}

// wrapper runs the command env, nohup, time, exec, nice, timeout or xargs
// names.
func (s *Shell) wrapper(argv []string, stdin string) (string, string, int) {
	switch argv[0] {
	case "env":
		rest := argv[1:]
		for len(rest) > 0 && (strings.HasPrefix(rest[0], "-") || strings.Contains(rest[0], "=")) {
			rest = rest[1:]
		}
		if len(rest) == 0 {
			return "", "", 0
		}
		return s.wrapped(rest, stdin)
	case "nohup", "time", "exec":
		if len(argv) == 1 {
			return "", "", 0
		}
		if argv[0] == "exec" {
			defer func() { s.Exited = true }()
		}
		return s.wrapped(argv[1:], stdin)
	case "xargs":
		rest := argv[1:]
		if len(rest) == 0 {
			rest = []string{"echo"}
		}
		return s.wrapped(append(append([]string(nil), rest...), strings.Fields(stdin)...), "")
	}
	rest := argv[1:]
	for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
		if rest[0] == "-n" || rest[0] == "-s" || rest[0] == "-k" {
			rest = rest[1:]
		}
		if len(rest) > 0 {
			rest = rest[1:]
		}
	}
	if argv[0] == "timeout" && len(rest) > 0 {
		rest = rest[1:] // the duration
	}
	if len(rest) == 0 {
		return "", argv[0] + ": missing operand\n", 125
	}
	return s.wrapped(rest, stdin)
}

// dashC runs `sh -c COMMAND` in a child shell.
func (s *Shell) dashC(argv []string) (string, string, int) {
	if len(argv) >= 3 && argv[1] == "-c" {
		if s.depth >= maxShellDepth {
			return "", argv[0] + ": maximum nesting level exceeded\n", 1
		}
		sub := s.child()
		out := sub.Exec(argv[2])
		return out, "", sub.Status
	}
	return "", argv[0] + ": only -c COMMAND is supported here\n", 2
}

// testExpr evaluates the arguments of test / [ as bash does for up to four
// arguments: strings, -n / -z, string and integer comparisons, and !.
func testExpr(name string, args []string, stat func(string) (bool, bool)) (string, string, int) {
	fail := func(msg string) (string, string, int) { return "", "bash: " + name + ": " + msg + "\n", 2 }
	truth := func(b bool) (string, string, int) {
		if b {
			return "", "", 0
		}
		return "", "", 1
	}
	if len(args) > 0 && args[0] == "!" && len(args) != 3 {
		o, e, st := testExpr(name, args[1:], stat)
		if st > 1 {
			return o, e, st
		}
		return o, e, 1 - st
	}
	switch len(args) {
	case 0:
		return truth(false)
	case 1:
		return truth(args[0] != "")
	case 2:
		switch args[0] {
		case "-n":
			return truth(args[1] != "")
		case "-z":
			return truth(args[1] == "")
		case "-e", "-f", "-d", "-r", "-w":
			exists, dir := false, false
			if stat != nil {
				exists, dir = stat(args[1])
			}
			switch args[0] {
			case "-f":
				return truth(exists && !dir)
			case "-d":
				return truth(exists && dir)
			}
			return truth(exists)
		}
		return fail(args[0] + ": unary operator expected")
	case 3:
		a, op, b := args[0], args[1], args[2]
		switch op {
		case "=", "==":
			return truth(a == b)
		case "!=":
			return truth(a != b)
		case "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
			x, err := strconv.Atoi(strings.TrimSpace(a))
			if err != nil {
				return fail(a + ": integer expression expected")
			}
			y, err := strconv.Atoi(strings.TrimSpace(b))
			if err != nil {
				return fail(b + ": integer expression expected")
			}
			return truth(map[string]bool{"-eq": x == y, "-ne": x != y, "-lt": x < y, "-le": x <= y, "-gt": x > y, "-ge": x >= y}[op])
		}
		if a == "!" {
			o, e, st := testExpr(name, args[1:], stat)
			if st > 1 {
				return o, e, st
			}
			return o, e, 1 - st
		}
		return fail(op + ": binary operator expected")
	}
	return fail("too many arguments")
}

// nameByte reports whether c may appear in a variable name.
func nameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// isVarName reports whether k is a variable name.
func isVarName(k string) bool {
	if k == "" || cli.IsDigit(k[0]) {
		return false
	}
	for i := 0; i < len(k); i++ {
		if !nameByte(k[i]) {
			return false
		}
	}
	return true
}
